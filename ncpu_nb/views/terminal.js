// The BusyBox terminal: the guest's output as it streams in, and one line of input.
// Output arrives as {kind: "output" | "history", streams: [...]} with one byte buffer per stream piece.

const KEEP_CHARS = 400_000;  // characters kept in the page; older output scrolls away for good

function render({ model, el }) {
  const root = h("div", { class: "ncpu-terminal ncpu-w" });
  el.append(root);
  const status = h("span", { class: "ncpu-status", "data-field": "status" });
  const note = h("span", { class: "ncpu-message", "data-field": "message" });
  const button = (action, label, title, onclick) => h("button", { class: "ncpu-btn", "data-action": action, title, onclick }, label);
  const interrupt = button("interrupt", "^C interrupt", "send SIGINT to the running command (Ctrl-C)", () => chan.send("interrupt"));
  const eof = button("eof", "^D end input", "close standard input (Ctrl-D)", () => chan.send("eof"));
  const output = h("pre", { class: "ncpu-term-output", "data-field": "output", tabindex: 0 });
  const input = h("input", { class: "ncpu-input ncpu-term-input", "data-field": "stdin", type: "text",
                             spellcheck: "false", autocomplete: "off", placeholder: "type a command, Enter to send" });
  root.append(
    h("div", { class: "ncpu-toolbar" }, h("span", { class: "ncpu-title" }, "BusyBox sh"), status, note,
      h("span", { class: "ncpu-spacer" }), interrupt, eof),
    output,
    h("div", { class: "ncpu-term-entry" }, h("span", { class: "ncpu-term-caret" }, "›"), input));

  const chan = channel(model, (text) => { note.textContent = text; note.classList.add("error"); });
  const decoders = {};
  const decode = (stream, bytes) => {
    decoders[stream] ??= new TextDecoder("utf-8");
    return decoders[stream].decode(bytes, { stream: true });
  };
  const write = (streams, buffers) => {
    const atBottom = output.scrollHeight - output.scrollTop - output.clientHeight < 24;
    streams.forEach((stream, i) => {
      const text = decode(stream, toBytes(buffers[i]));
      const last = output.lastChild;
      if (last && last.dataset.stream === stream) last.textContent += text;
      else output.append(h("span", { class: "ncpu-term-" + stream, "data-stream": stream }, text));
    });
    let extra = output.textContent.length - KEEP_CHARS;
    while (extra > 0 && output.firstChild) {
      const first = output.firstChild;
      if (first.textContent.length <= extra) { extra -= first.textContent.length; first.remove(); }
      else { first.textContent = first.textContent.slice(extra); extra = 0; }
    }
    if (atBottom) output.scrollTop = output.scrollHeight;
  };
  let haveHistory = false;
  model.on("msg:custom", (message, buffers) => {  // output sent before the history is in it
    if (message.kind === "output" && haveHistory) write(message.streams, buffers);
  });
  chan.request("history").then(({ message, buffers }) => {
    haveHistory = true;
    output.replaceChildren();
    write(message.streams, buffers);
  });

  const typed = [];
  let recall = 0;
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      const text = input.value;
      if (text.trim()) typed.push(text);
      recall = typed.length;
      input.value = "";
      chan.send("stdin", { text });
      output.scrollTop = output.scrollHeight;
    } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      recall = Math.max(0, Math.min(typed.length, recall + (event.key === "ArrowUp" ? -1 : 1)));
      input.value = typed[recall] ?? "";
    } else if (event.ctrlKey && event.key === "c" && input.selectionStart === input.selectionEnd) {
      chan.send("interrupt");
    } else if (event.ctrlKey && event.key === "d" && input.value === "") {
      chan.send("eof");
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();  // keep JupyterLab's shortcuts (e.g. arrows moving between cells) out of it
  });
  output.addEventListener("click", () => { if (!window.getSelection().toString()) input.focus(); });

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
    input.disabled = over;
    input.placeholder = over ? "the shell has ended" : "type a command, Enter to send";
    interrupt.disabled = over;
    eof.disabled = over;
    root.classList.toggle("running", state === "running");
  }
  model.on("change:status", draw);
  model.on("change:message", draw);
  model.on("change:exit_status", draw);
  draw();
}

export default { render };
