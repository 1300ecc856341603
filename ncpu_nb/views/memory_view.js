// MemoryView: one machine's memory, a page at a time.

function render({ model, el }) {
  const root = h("div", { class: "ncpu-memoryview ncpu-w" });
  const message = h("span", { class: "ncpu-message error", "data-field": "message" });
  const chan = channel(model, (text) => { message.textContent = text; });
  const memory = memoryPanel(model, chan, (text) => { message.textContent = text; });
  root.append(memory.node, message);
  el.append(root);
  const draw = () => { message.textContent = ""; memory.update(model.get("machine_state")); };
  model.on("change:machine_state", draw);
  draw();
}

export default { render };
