// The debugger view: controls, registers and flags, listing, memory and trace of one machine.

function render({ model, el }) {
  const root = h("div", { class: "ncpu-debugger ncpu-w", tabindex: 0,
                          title: "keys: s step, n step N, r run, p pause, b back, B back N" });
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
  const toolbar = h("div", { class: "ncpu-toolbar" }, buttons, h("span", { class: "ncpu-spacer" }), radixSlot);
  const summary = h("div", { class: "ncpu-summary" },
    h("span", { class: "ncpu-key" }, "pc"), pc, h("span", { class: "ncpu-key" }, "cycles"), cycles, status, note);

  const registers = h("div", { class: "ncpu-pane" });
  const listing = h("div", { class: "ncpu-pane ncpu-scroll" });
  const memory = memoryPanel(model, chan, (text) => showMessage(text, true));
  const trace = h("div", { class: "ncpu-pane ncpu-scroll" });
  const extras = h("div", { class: "ncpu-extras" });  // the machine's own panels (most machines have none)
  const pane = (title, body, cls = "") => h("section", { class: "ncpu-section " + cls }, h("div", { class: "ncpu-title" }, title), body);
  // Keyboard shortcuts while the debugger has the focus (click it); typing in its inputs is left alone,
  // and JupyterLab's own command keys do not see these.
  const keys = { s: "step", n: "step-n", r: "run", p: "pause", b: "back", B: "back-n" };
  root.addEventListener("keydown", (event) => {
    const action = keys[event.key];
    if (!action || event.target.tagName === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    event.stopPropagation();
    const target = root.querySelector(`.ncpu-toolbar [data-action='${action}']`);
    if (target && !target.disabled) target.click();
  });
  root.append(title, toolbar, summary,
    h("div", { class: "ncpu-panes" }, pane("Registers", registers), pane("Code", listing), extras, pane("Trace", trace, "grow")),
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
    registers.replaceChildren(registerPanel(state.groups, radix, openGroup), flagPanel(state.flags));
    listing.replaceChildren(listingPanel(state.listing, (key) => chan.send("toggle_breakpoint", { key })));
    keepVisible(listing, listing.querySelector("tr.current"));
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

export default { render };
