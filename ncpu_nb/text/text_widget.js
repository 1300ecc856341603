// The text machine: example pairs in an editable table, synthesize, the summary and program, apply,
// the fast/neural switch and "debugger". The kernel does the work (TextMachineWidget); this draws.

function render({ model, el }) {
  const root = h("div", { class: "ncpu-textmachine ncpu-w" });
  el.append(root);
  const status = h("span", { class: "ncpu-status", "data-field": "status" });
  const progress = h("span", { class: "ncpu-message", "data-field": "progress" });
  const note = h("span", { class: "ncpu-message error", "data-field": "message" });
  const chan = channel(model, (text) => { note.textContent = text; });
  const button = (action, label, title, onclick) => h("button", { class: "ncpu-btn", "data-action": action, title, onclick }, label);

  // --- the examples table: rows of two inputs; a blank row is always offered at the end
  const rows = h("tbody");
  const addRow = (x = "", y = "") => {
    const cell = (value, field, placeholder) => h("td", {}, h("input", {
      class: "ncpu-input", type: "text", value, "data-field": field, placeholder, spellcheck: "false",
      onkeydown: (event) => { if (event.key === "Enter") synthesize(); },
    }));
    const row = h("tr", {}, cell(x, "example-input", "input, e.g. hello"), cell(y, "example-output", "output, e.g. khoor"),
      h("td", {}, h("button", { class: "ncpu-link", title: "remove this pair", onclick: () => row.remove() }, "×")));
    rows.append(row);
    return row;
  };
  const pairs = () => [...rows.querySelectorAll("tr")].map((row) =>
    [...row.querySelectorAll("input")].map((input) => input.value)).filter(([x, y]) => x || y);
  const fillTable = () => {
    rows.replaceChildren();
    for (const [x, y] of model.get("examples")) addRow(x, y);
    addRow();
  };
  const synthesize = () => {
    note.textContent = "";
    status.textContent = "searching";
    chan.send("synthesize", { examples: pairs() });
  };

  // --- mode switch, apply, debugger
  const modeSwitch = h("span", { class: "ncpu-segs" });
  const drawMode = () => modeSwitch.replaceChildren(...["fast", "neural"].map((mode) => h("button", {
    class: "ncpu-seg" + (model.get("mode") === mode ? " on" : ""), "data-mode": mode,
    title: mode === "fast" ? "the exact integer ALU" : "every ALU operation through the trained networks (slower)",
    onclick: () => { model.set("mode", mode); model.save_changes(); },
  }, mode)));
  const applyInput = h("input", { class: "ncpu-input", type: "text", "data-field": "apply-input", placeholder: "new text, e.g. world",
                                  spellcheck: "false", onkeydown: (event) => { if (event.key === "Enter") apply(); } });
  const apply = () => { note.textContent = ""; chan.send("apply", { text: applyInput.value }); };
  const applied = h("table", { class: "ncpu-table", "data-field": "applied" });
  const summary = h("div", { class: "ncpu-pane", "data-field": "summary" });

  root.append(
    h("div", { class: "ncpu-toolbar" }, h("span", { class: "ncpu-title" }, "Text machine"), status, progress,
      h("span", { class: "ncpu-spacer" }), modeSwitch),
    h("section", { class: "ncpu-section" }, h("div", { class: "ncpu-title" }, "Examples"),
      h("table", { class: "ncpu-table ncpu-examples" }, h("thead", {}, h("tr", {}, h("th", {}, "input"), h("th", {}, "output"), h("th"))), rows),
      h("div", { class: "ncpu-toolbar" },
        button("add", "+ pair", "add an example pair", () => addRow().querySelector("input").focus()),
        button("synthesize", "synthesize", "find a transform that maps every input to its output", synthesize), note)),
    h("section", { class: "ncpu-section" }, h("div", { class: "ncpu-title" }, "Summary"), summary),
    h("section", { class: "ncpu-section" }, h("div", { class: "ncpu-title" }, "Apply"),
      h("div", { class: "ncpu-toolbar" }, applyInput, button("apply", "apply", "run the program on this text on the nCPU", apply),
        button("debugger", "debugger", "open the program in the debugger with this text in memory",
               () => chan.send("debugger", { text: applyInput.value }))),
      applied));

  const drawSummary = () => {
    const s = model.get("summary");
    if (!s || !s.rows) { summary.replaceChildren(h("div", { class: "ncpu-message" }, "type example pairs, then synthesize")); return; }
    const table = h("table", { class: "ncpu-table" }, s.rows.map(([key, value]) =>
      h("tr", {}, h("td", { class: "ncpu-key" }, key), h("td", { "data-row": key }, value))));
    const listing = s.program ? h("details", { open: true }, h("summary", {}, `program: ${s.size} instructions`),
      h("pre", { class: "ncpu-program", "data-field": "program" }, s.program)) : null;
    summary.replaceChildren(table, listing);
  };
  const drawApplied = () => applied.replaceChildren(...model.get("applied").slice().reverse().map(([text, out, mode]) =>
    h("tr", {}, h("td", { class: "ncpu-mono" }, text), h("td", {}, "→"), h("td", { class: "ncpu-mono", "data-field": "applied-result" }, out),
      h("td", { class: "ncpu-key" }, mode))));
  const drawStatus = () => {
    status.textContent = model.get("status");
    status.dataset.status = model.get("status") === "solved" ? "halted" : model.get("status");
    progress.textContent = model.get("progress");
    if (model.get("message")) note.textContent = model.get("message");
  };

  model.on("change:examples", fillTable);
  model.on("change:summary", drawSummary);
  model.on("change:applied", drawApplied);
  model.on("change:mode", drawMode);
  for (const name of ["status", "progress", "message"]) model.on("change:" + name, drawStatus);
  fillTable(); drawSummary(); drawApplied(); drawMode(); drawStatus();
}

export default { render };
