// The discover view: examples table (or a preset), synthesize / stop with live progress, the summary,
// tests on new inputs, the program in the debugger, save as .asm.

function lossPlot(losses) {
  const width = 240, height = 48;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("class", "ncpu-loss");
  if (losses.length > 1) {
    const top = Math.max(...losses), low = Math.min(...losses), span = top - low || 1;
    const points = losses.map((v, i) => `${(i / (losses.length - 1)) * (width - 2) + 1},${height - 2 - ((v - low) / span) * (height - 4)}`);
    const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
    line.setAttribute("points", points.join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", "currentColor");
    svg.append(line);
  }
  return svg;
}

function render({ model, el, host }) {
  const root = h("div", { class: "ncpu-discover ncpu-w" });
  el.append(root);
  const note = h("span", { class: "ncpu-message", "data-field": "message" });
  const showError = (text) => { note.textContent = text; note.classList.add("error"); };
  const chan = channel(model, showError, () => { note.textContent = "waiting for the kernel: a cell is running"; });
  const act = (action, fields = {}) => { note.classList.remove("error"); chan.send(action, fields); };

  // --- examples table: edited here, read by the kernel when synthesize is clicked
  let rows = model.get("rows").map((r) => [...r]);
  const body = h("tbody");
  const table = h("table", { class: "ncpu-table ncpu-examples" },
    h("thead", {}, h("tr", {}, h("th", {}, "inputs (R0, R1, …)"), h("th", {}, "outputs"), h("th", {}, "held out"), h("th"))), body);
  function drawRows() {
    body.replaceChildren(...rows.map((row, i) => h("tr", {},
      h("td", {}, h("input", { class: "ncpu-input", "data-field": "inputs", value: row[0], oninput: (e) => { rows[i][0] = e.target.value; } })),
      h("td", {}, h("input", { class: "ncpu-input", "data-field": "outputs", value: row[1], oninput: (e) => { rows[i][1] = e.target.value; } })),
      h("td", {}, h("input", { type: "checkbox", checked: row[2], onchange: (e) => { rows[i][2] = e.target.checked; } })),
      h("td", {}, h("button", { class: "ncpu-btn small", title: "remove this example", onclick: () => { rows.splice(i, 1); drawRows(); } }, "×")))));
  }
  const presetSelect = h("select", { class: "ncpu-input", "data-field": "preset",
    onchange: (e) => { if (e.target.value) act("preset", { name: e.target.value }); } });
  const button = (action, label, title, onclick) => h("button", { class: "ncpu-btn", "data-action": action, title, onclick }, label);
  const synth = button("synthesize", "synthesize", "search for a program that fits the examples", () => act("synthesize", { rows }));
  const stop = button("stop", "stop", "stop the search (what was found so far is kept)", () => act("stop"));
  const toolbar = h("div", { class: "ncpu-toolbar" }, presetSelect,
    button("add", "+ example", "add a row", () => { rows.push(["", "", false]); drawRows(); }),
    button("clear", "clear", "remove every example", () => { rows = []; drawRows(); }),
    synth, stop, h("span", { class: "ncpu-spacer" }), note);

  // --- progress, summary, tests, debugger
  const progress = h("div", { class: "ncpu-summary", "data-field": "progress" });
  const plot = h("div", { class: "ncpu-plot" });
  const summary = h("div", { class: "ncpu-pane", "data-field": "summary" });
  const testInput = h("input", { class: "ncpu-input", "data-field": "test-inputs", placeholder: "13, 21" });
  const tests = h("div", { "data-field": "tests" });
  const savePath = h("input", { class: "ncpu-input", "data-field": "save-path", placeholder: "program.asm" });
  const after = h("div", { class: "ncpu-toolbar" },
    testInput, button("test", "test", "run the program on these inputs", () => act("test", { inputs: testInput.value })),
    button("debugger", "open in debugger", "step the program in the debugger (inputs: the test box, or the first example)",
      () => act("debugger", { inputs: testInput.value })),
    savePath, button("save", "save as .asm", "write the program to this file (in the kernel's folder)", () => act("save", { path: savePath.value })));
  const debuggerSlot = h("div", { class: "ncpu-debugger-slot" });
  root.append(h("div", { class: "ncpu-title ncpu-header" }, "Programs from examples"), toolbar, table, progress, plot,
    summary, after, tests, debuggerSlot);

  function draw() {
    const status = model.get("status") || {};
    const running = status.phase === "running";
    presetSelect.replaceChildren(h("option", { value: "" }, "preset …"),
      ...model.get("presets").map(([name, description]) => h("option", { value: name, title: description }, name)));
    synth.disabled = running;
    stop.disabled = !running;
    const bits = [h("span", { class: "ncpu-status", "data-status": status.phase || "idle" }, status.phase || "idle")];
    if (status.method) bits.push(h("span", { class: "ncpu-key" }, "solver"), h("span", { class: "ncpu-value", "data-field": "method" }, status.method));
    if (status.restarts) bits.push(h("span", { class: "ncpu-key" }, "restarts"), h("span", { class: "ncpu-value" }, String(status.restarts)));
    const losses = model.get("losses");
    if (losses.length) bits.push(h("span", { class: "ncpu-key" }, "best loss"), h("span", { class: "ncpu-value" }, losses[losses.length - 1].toFixed(4)));
    if (status.seconds) bits.push(h("span", { class: "ncpu-key" }, "time"), h("span", { class: "ncpu-value" }, status.seconds.toFixed(2) + " s"));
    bits.push(h("span", { class: "ncpu-message" }, status.message || ""));
    progress.replaceChildren(...bits);
    plot.replaceChildren(losses.length > 1 ? lossPlot(losses) : "");
    const s = model.get("summary");
    if (s && s.program) {
      const held = s.held_out[1] ? `${s.held_out[0]} / ${s.held_out[1]} held-out examples pass` : "no held-out examples";
      summary.replaceChildren(
        h("pre", { class: "ncpu-listing", "data-field": "program" }, s.program),
        h("table", { class: "ncpu-table" }, h("tbody", {},
          ...[["found by", s.solver], ["size", `${s.size} instruction${s.size === 1 ? "" : "s"} (+ HALT)`],
              ["gradient descent alone", s.gradient_found ? "found it" : "did not find it"], ["held-out check", held],
              ["cycles per example", s.cycles.join(", ")]].map(([k, v]) => h("tr", {}, h("td", { class: "ncpu-key" }, k), h("td", {}, v))))));
    } else summary.replaceChildren();
    for (const b of after.querySelectorAll("button")) b.disabled = !(s && s.program) || running;
    tests.replaceChildren(...model.get("tests").map(([i, o]) => h("div", { class: "ncpu-test" }, `${i} → `, h("b", {}, o))));
  }
  let shownRef = "";
  async function showDebugger() {
    const ref = model.get("debugger_ref");
    if (!ref || ref === shownRef || !host) return;
    shownRef = ref;
    const slot = h("div");
    debuggerSlot.replaceChildren(slot);
    try {
      const child = await host.getWidget(ref);
      await child.render({ el: slot });
    } catch (error) {
      showError("the debugger could not be shown here: " + error);
    }
  }
  model.on("change:rows", () => { rows = model.get("rows").map((r) => [...r]); drawRows(); });
  for (const name of ["status", "losses", "summary", "tests", "presets"]) model.on(`change:${name}`, draw);
  model.on("change:debugger_ref", showDebugger);
  drawRows();
  draw();
  showDebugger();
}

export default { render };
