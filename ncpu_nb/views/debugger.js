// The debugger view: controls, a history scrubber, registers and flags (editable), listing (with source
// lines and run to cursor), call stack, watchpoints, memory (editable) and trace of one machine; a lane
// picker for batched machines and an editor for machines that reassemble their program.

function render({ model, el }) {
  const root = h("div", { class: "ncpu-debugger ncpu-w", tabindex: 0,
                          title: "keys: s step, o step over, u step out, n step N, r run, p pause, b back, B back N" });
  el.append(root);
  const note = h("span", { class: "ncpu-message", "data-field": "message" });
  let busyTimer = null;
  const showMessage = (text, error = false) => {
    note.textContent = text;
    note.classList.toggle("error", error);
  };
  const heard = () => {  // an answer from the kernel: it is no longer busy with a cell
    clearTimeout(busyTimer);
    busyTimer = null;
    if (root.classList.contains("waiting")) showMessage(model.get("machine_state").message || "");
    root.classList.remove("waiting");
  };
  const waiting = () => {
    root.classList.add("waiting");
    showMessage("waiting for the kernel: a cell is running; this is handled when it ends");
  };
  const chan = channel(model, (text) => { heard(); showMessage(text, true); }, waiting);
  model.on("msg:custom", (message) => { if (message.kind !== "deferred" && message.kind !== "error") heard(); });
  const act = (action, fields = {}) => {
    chan.send(action, fields);
    clearTimeout(busyTimer);
    busyTimer = setTimeout(waiting, 600);  // no answer: the kernel is busy (and has no subshell for us)
  };

  const count = h("input", { class: "ncpu-input count", type: "number", min: 1, value: 10, "data-field": "step-count",
                             title: "instructions for step N and back N" });
  const n = () => Math.max(1, parseInt(count.value, 10) || 1);
  const button = (action, label, title, onclick) => h("button", { class: "ncpu-btn", "data-action": action, title, onclick }, label);
  const buttons = [
    button("step", "step", "execute one instruction", () => act("step", { n: 1 })),
    button("step-over", "over", "step over: one instruction, a call running until it returns", () => act("step_over")),
    button("step-out", "out", "step out: run until this function returns to its caller", () => act("step_out")),
    button("step-n", "step N", "execute N instructions (breakpoints ignored)", () => act("step", { n: n() })),
    count,
    button("run", "run", "run until a breakpoint, halt or pause", () => act("run")),
    button("pause", "pause", "stop a run", () => act("pause")),
    button("back", "back", "undo one instruction", () => act("back", { n: 1 })),
    button("back-n", "back N", "undo N instructions", () => act("back", { n: n() })),
    button("reset", "reset", "back to the start of the program", () => act("reset")),
  ];
  const pc = h("span", { class: "ncpu-value", "data-field": "pc" });
  const cycles = h("span", { class: "ncpu-value", "data-field": "cycles" });
  const status = h("span", { class: "ncpu-status", "data-field": "status" });
  const radixSlot = h("span");
  const title = h("div", { class: "ncpu-title ncpu-header", "data-field": "title" });
  const toolbar = h("div", { class: "ncpu-toolbar" }, buttons, h("span", { class: "ncpu-spacer" }));
  const summary = h("div", { class: "ncpu-summary" },
    h("span", { class: "ncpu-key" }, "pc"), pc, h("span", { class: "ncpu-key" }, "cycles"), cycles, status, note);

  // The scrubber: drag to any cycle the history holds (back, or forward again up to the furthest reached).
  const scrubber = h("input", { type: "range", class: "ncpu-scrubber", "data-field": "scrubber", min: 0, max: 0, value: 0,
                                title: "drag to any recorded cycle: replay makes it exact" });
  const scrubText = h("span", { class: "ncpu-value", "data-field": "scrub-cycle" });
  scrubber.addEventListener("input", () => { scrubText.textContent = Number(scrubber.value).toLocaleString("en-US"); });
  scrubber.addEventListener("change", () => act("goto", { cycle: Number(scrubber.value) }));
  const history = h("div", { class: "ncpu-bar ncpu-history" }, h("span", { class: "ncpu-key" }, "history"), scrubber, scrubText);

  const laneInput = h("input", { class: "ncpu-input count", type: "number", min: 0, value: 0, "data-field": "lane",
                                 title: "the lane shown" });
  let laneShown = 0;
  const pickLane = () => {
    const lane = Math.max(0, parseInt(laneInput.value, 10) || 0);
    if (lane !== laneShown) act("lane", { lane });
  };
  laneInput.addEventListener("change", pickLane);
  laneInput.addEventListener("keydown", (e) => { if (e.key === "Enter") pickLane(); });
  const laneOf = h("span", { class: "ncpu-key" });
  const laneStates = h("span", { class: "ncpu-key", "data-field": "lane-states" });
  const lanePicker = h("span", { class: "ncpu-lanes" }, h("span", { class: "ncpu-key" }, "lane"), laneInput, laneOf, laneStates);
  toolbar.append(lanePicker, radixSlot);  // appended once: redrawing must not take the focus from the lane box

  const registers = h("div", { class: "ncpu-pane" });
  const listing = h("div", { class: "ncpu-pane ncpu-scroll" });
  const frames = h("div", { class: "ncpu-pane ncpu-scroll short" });
  const watches = h("div", { class: "ncpu-pane" });
  const memory = memoryPanel(model, chan, (text) => showMessage(text, true), (address, text) => act("write_memory", { address, bytes: text }));

  // Watchpoints: a list with remove buttons, and a line to add one.
  const watchWhere = h("input", { class: "ncpu-input", size: 14, placeholder: "address or label", "data-field": "watch-where", spellcheck: "false" });
  const watchSize = h("input", { class: "ncpu-input count", type: "number", min: 1, placeholder: "size", "data-field": "watch-size",
                                 title: "bytes watched (empty: one machine word)" });
  const watchAccess = h("select", { class: "ncpu-input", "data-field": "watch-access" },
    h("option", { value: "w" }, "write"), h("option", { value: "r" }, "read"), h("option", { value: "rw" }, "read/write"));
  const addWatch = () => { if (watchWhere.value.trim()) act("watch", { where: watchWhere.value.trim(), size: watchSize.value, access: watchAccess.value }); };
  watchWhere.addEventListener("keydown", (e) => { if (e.key === "Enter") addWatch(); });
  const watchAdd = h("div", { class: "ncpu-bar" }, watchWhere, watchSize, watchAccess,
    h("button", { class: "ncpu-btn small", "data-action": "watch", onclick: addWatch }, "watch"));

  // The editor (machines that reassemble their program, e.g. the nCPU): the source, and assemble.
  const source = h("textarea", { class: "ncpu-input ncpu-editor", "data-field": "editor", rows: 14, cols: 48, spellcheck: "false" });
  let edited = false;
  source.addEventListener("input", () => { edited = true; });
  source.addEventListener("keydown", (e) => {
    e.stopPropagation();
    if (e.key === "Enter" && (e.shiftKey || e.ctrlKey)) { e.preventDefault(); assemble(); }
  });
  const sourceError = h("div", { class: "ncpu-message error", "data-field": "editor-error" });
  const assemble = () => { act("assemble", { source: source.value }); edited = false; };
  const editor = h("section", { class: "ncpu-section ncpu-editor-pane" },
    h("div", { class: "ncpu-bar" }, h("div", { class: "ncpu-title" }, "Program"),
      h("button", { class: "ncpu-btn small", "data-action": "assemble", title: "assemble and load (Shift+Enter); breakpoints move with their lines", onclick: assemble }, "assemble")),
    source, sourceError);
  const trace = h("div", { class: "ncpu-pane ncpu-scroll" });
  const extras = h("div", { class: "ncpu-extras" });  // the machine's own panels (most machines have none)
  const pane = (title, body, cls = "") => h("section", { class: "ncpu-section " + cls }, h("div", { class: "ncpu-title" }, title), body);
  // Keyboard shortcuts while the debugger has the focus (click it); typing in its inputs is left alone,
  // and JupyterLab's own command keys do not see these.
  const keys = { s: "step", o: "step-over", u: "step-out", n: "step-n", r: "run", p: "pause", b: "back", B: "back-n" };
  root.addEventListener("keydown", (event) => {
    const action = keys[event.key];
    if (!action || ["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName) || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    event.stopPropagation();
    const target = root.querySelector(`.ncpu-toolbar [data-action='${action}']`);
    if (target && !target.disabled) target.click();
  });
  root.append(title, toolbar, history, summary, editor,
    h("div", { class: "ncpu-panes" }, pane("Registers", registers), pane("Code", listing), extras,
      h("div", { class: "ncpu-column" }, pane("Call stack", frames), pane("Watchpoints", h("div", {}, watches, watchAdd))),
      pane("Trace", trace, "grow")),
    pane("Memory", memory.node));

  const openGroup = (name, open) => {
    const groups = new Set(model.get("open_groups"));
    open ? groups.add(name) : groups.delete(name);
    model.set("open_groups", [...groups]);
    model.save_changes();
  };

  let generation = -1;
  function draw() {
    const state = model.get("machine_state");
    const radix = model.get("radix");
    const running = model.get("running");
    if (!state || !state.groups) return;
    pc.textContent = state.pc;
    cycles.textContent = state.cycles.toLocaleString("en-US");
    title.textContent = state.title;
    // The machine says "running" whenever it can go on; idle here, that reads "ready" at the start
    // and "paused" after (never "running" beside a message that says paused).
    status.textContent = running ? "running" : state.status !== "running" ? state.status
      : state.cycles === 0 ? "ready" : "paused";
    status.dataset.status = running ? "running" : state.status;
    if (!note.classList.contains("error") || state.generation !== generation) showMessage(state.message);
    radixSlot.replaceChildren(radixToggle(model));
    lanePicker.style.display = state.lanes > 1 ? "" : "none";
    if (state.lanes > 1) {
      laneInput.max = state.lanes - 1;
      laneShown = state.lane;
      if (document.activeElement !== laneInput) laneInput.value = state.lane;
      laneOf.textContent = `of ${state.lanes}`;
      laneStates.textContent = state.lane_states;
    }
    scrubber.min = state.oldest;
    scrubber.max = state.furthest;
    scrubber.value = state.cycles;
    scrubber.disabled = running || state.furthest <= state.oldest;
    scrubText.textContent = `${state.cycles.toLocaleString("en-US")} (${state.oldest.toLocaleString("en-US")}–${state.furthest.toLocaleString("en-US")})`;
    const edit = running ? null : (name, text) => act("set_register", { name, value: text });
    registers.replaceChildren(registerPanel(state.groups, radix, openGroup, edit), flagPanel(state.flags));
    listing.replaceChildren(listingPanel(state.listing, (key) => chan.send("toggle_breakpoint", { key }),
                                         running ? null : (key) => act("run_to", { key })));
    keepVisible(listing, listing.querySelector("tr.current"));
    frames.replaceChildren(framePanel(state.frames));
    watches.replaceChildren(watchPanel(state.watchpoints, (address, size) => chan.send("unwatch", { address, size })));
    editor.style.display = state.editor ? "" : "none";
    if (state.editor) {
      if (!edited && document.activeElement !== source) source.value = state.editor.source;
      const error = state.editor.error;
      sourceError.textContent = error ? error.message : "";
      if (error && state.generation !== generation) {  // put the caret where the problem is
        const lines = source.value.split("\n");
        const at = lines.slice(0, error.line - 1).reduce((n, line) => n + line.length + 1, 0) + Math.max(0, error.column - 1);
        source.setSelectionRange(at, at);
      }
    }
    extras.replaceChildren(...(state.panels || []).map((panel) => pane(panel.title, h("div", { class: "ncpu-pane" }, extraPanel(panel)))));
    trace.replaceChildren(tracePanel(state.trace, radix));
    trace.scrollTop = trace.scrollHeight;
    const stopped = !["running", "breakpoint", "watchpoint"].includes(state.status);
    for (const b of root.querySelectorAll(".ncpu-toolbar [data-action]")) {
      const action = b.dataset.action;
      b.disabled = action === "pause" ? !running
        : running || (stopped && (action.startsWith("step") || action === "run"))
          || (action.startsWith("back") && state.cycles <= state.oldest);
    }
    root.classList.toggle("running", running);
    if (state.generation !== generation) {
      generation = state.generation;
      memory.update(state);
    }
  }
  model.on("change:machine_state", () => { heard(); draw(); });
  model.on("change:running", () => { heard(); draw(); });
  model.on("change:radix", draw);
  draw();
  return () => clearTimeout(busyTimer);
}

// The call stack, innermost first: frame number, function, location and source line.
function framePanel(frames) {
  if (!frames || !frames.length) return h("div", { class: "ncpu-key" }, "no frames");
  return h("table", { class: "ncpu-table ncpu-frames" }, frames.map((frame, i) =>
    h("tr", { "data-frame": i }, h("td", { class: "num" }, `#${i}`), h("td", { class: "function" }, frame.function || "?"),
      h("td", { class: "num loc" }, frame.loc), h("td", { class: "where" }, frame.source))));
}

function watchPanel(rows, onRemove) {
  if (!rows.length) return h("div", { class: "ncpu-key" }, "none");
  return h("table", { class: "ncpu-table ncpu-watches" }, rows.map(([hex, size, access]) =>
    h("tr", { "data-watch": hex }, h("td", { class: "num" }, "0x" + hex), h("td", {}, `${size} byte${size === 1 ? "" : "s"}`),
      h("td", {}, access), h("td", {}, h("button", { class: "ncpu-link", "data-unwatch": hex, title: "remove", onclick: () => onRemove(hex, size) }, "×")))));
}

export default { render };
