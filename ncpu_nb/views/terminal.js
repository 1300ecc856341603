// The BusyBox terminal: xterm.js (XTERM, joined in front of this file by views/xterm.py) in the cell.
// Every key goes to the kernel as it is ({action: "keys", data}); the guest's output comes back as
// {kind: "output" | "history"} with its bytes in one buffer. The terminal fills its box, whose size in
// rows and columns is sent as {action: "resize", rows, cols} at the start and on every change.

const SCROLLBACK = 5000;  // lines kept above the screen
const LIGHT = {  // ANSI colours that read on a light background (xterm.js's defaults suit a dark one)
  black: "#000000", red: "#c91b00", green: "#00a600", yellow: "#a68b00", blue: "#0225c7", magenta: "#c930c7",
  cyan: "#00a5b3", white: "#8a8a8a", brightBlack: "#686868", brightRed: "#e0393e", brightGreen: "#2fb41d",
  brightYellow: "#8f7a00", brightBlue: "#1a5dd6", brightMagenta: "#d140d1", brightCyan: "#0a96a3",
  brightWhite: "#5e5e5e",
};

function render({ model, el }) {
  const root = h("div", { class: "ncpu-terminal ncpu-w", "data-lm-suppress-shortcuts": "true" });
  el.append(root);
  const status = h("span", { class: "ncpu-status", "data-field": "status" });
  const note = h("span", { class: "ncpu-message", "data-field": "message" });
  const size = h("span", { class: "ncpu-message", "data-field": "size" });
  const button = (action, label, title) => h("button", { class: "ncpu-btn", "data-action": action, title,
    onclick: () => { chan.send(action); term.focus(); } }, label);
  const interrupt = button("interrupt", "^C interrupt", "Ctrl-C: interrupt the running command");
  const eof = button("eof", "^D end input", "Ctrl-D: end of input (at the start of a line the shell exits)");
  const box = h("div", { class: "ncpu-term-screen", "data-field": "screen" });
  root.append(
    h("div", { class: "ncpu-toolbar" }, h("span", { class: "ncpu-title" }, "BusyBox sh"), status, note,
      h("span", { class: "ncpu-spacer" }), size, interrupt, eof),
    box);

  const chan = channel(model, (text) => { note.textContent = text; note.classList.add("error"); });
  const term = new XTERM.Terminal({
    rendererType: "dom", scrollback: SCROLLBACK, cursorBlink: true, theme: colours(),
    fontFamily: css("--jp-code-font-family") || "monospace",
    fontSize: parseFloat(css("--jp-code-font-size")) || 13,
  });
  term.open(box);
  term.on("data", (data) => chan.send("keys", { data }));
  let sent = "";
  const tellSize = () => {
    size.textContent = `${term.cols}×${term.rows}`;
    if (sent !== size.textContent) chan.send("resize", { rows: term.rows, cols: term.cols });
    sent = size.textContent;
  };
  term.on("resize", tellSize);
  const fit = () => {  // once the box is laid out (a cell's output may not be in the page yet)
    if (!box.clientWidth || !box.clientHeight) return;
    // A cell measured before it was in the page has 0×0 characters: measure again (as the fit addon
    // of this xterm.js version reaches into the terminal's core, so does this).
    term._core.charMeasure.measure(term._core.options);
    XTERM.fit.fit(term);
    tellSize();
  };
  const watcher = new ResizeObserver(fit);
  watcher.observe(box);
  fit();
  // Keys belong to the terminal: JupyterLab's shortcuts (Escape, arrows, Shift-Enter) stay out of it.
  root.addEventListener("keydown", (event) => event.stopPropagation());

  const decoder = new TextDecoder("utf-8");
  const write = (buffers) => { for (const b of buffers) term.write(decoder.decode(toBytes(b), { stream: true })); };
  let haveHistory = false;
  model.on("msg:custom", (message, buffers) => {  // output sent before the history is in it
    if (message.kind === "output" && haveHistory) write(buffers || []);
  });
  chan.request("history").then(({ buffers }) => {
    haveHistory = true;
    term.reset();
    // Questions to the terminal in old output (ash asks where the cursor is, ESC [ 6 n, at each prompt)
    // were answered when they were new: answered again, the replies would reach the guest as keys.
    const text = buffers.map((b) => decoder.decode(toBytes(b), { stream: true })).join("");
    term.write(text.replace(/\x1b\[[>?]?[0-9;]*[cn]/g, ""));
  });

  function css(name) {
    return getComputedStyle(root).getPropertyValue(name).trim();
  }
  function colours() {
    const light = document.body.dataset.jpThemeLight !== "false";
    const background = css("--jp-layout-color0") || (light ? "#ffffff" : "#111111");
    const foreground = css("--jp-content-font-color0") || (light ? "#000000" : "#ffffff");
    return { ...(light ? LIGHT : {}), background, foreground, cursor: foreground, cursorAccent: background,
             selection: light ? "rgba(25, 118, 210, 0.25)" : "rgba(144, 202, 249, 0.3)" };
  }
  const retheme = () => requestAnimationFrame(() => {
    term.setOption("theme", colours());
    box.style.background = term.getOption("theme").background;
  });
  const themes = new MutationObserver(retheme);
  themes.observe(document.body, { attributes: true, attributeFilter: ["data-jp-theme-light", "data-jp-theme-name"] });
  retheme();

  const STATUS = { starting: "starting", running: "running", input: "ready", exited: "exited", failed: "stopped" };
  function draw() {
    const state = model.get("status");
    const code = model.get("exit_status");
    status.textContent = STATUS[state] + (state === "exited" && code !== null ? ` (status ${code})` : "");
    status.dataset.status = state === "exited" ? (code === 0 ? "halted" : "fault") : state;
    const text = model.get("message");
    if (text || !note.classList.contains("error")) {
      note.textContent = text;
      note.classList.toggle("error", state === "failed");
    }
    const over = state === "exited" || state === "failed";
    term.setOption("disableStdin", over);
    term.setOption("cursorBlink", !over);
    interrupt.disabled = over;
    eof.disabled = over;
    root.classList.toggle("running", state === "running");
    root.classList.toggle("over", over);
  }
  model.on("change:status", draw);
  model.on("change:message", draw);
  model.on("change:exit_status", draw);
  draw();
  return () => { watcher.disconnect(); themes.disconnect(); term.dispose(); };
}

export default { render };
