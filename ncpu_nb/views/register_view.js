// RegisterView: registers and flags of one machine.

function render({ model, el }) {
  const root = h("div", { class: "ncpu-registerview ncpu-w" });
  el.append(root);
  const openGroup = (name, open) => {
    const groups = new Set(model.get("open_groups"));
    open ? groups.add(name) : groups.delete(name);
    model.set("open_groups", [...groups]);
    model.save_changes();
  };
  function draw() {
    const state = model.get("machine_state");
    root.replaceChildren(
      h("div", { class: "ncpu-toolbar" }, h("span", { class: "ncpu-key" }, "pc"),
        h("span", { class: "ncpu-value", "data-field": "pc" }, state.pc), h("span", { class: "ncpu-spacer" }),
        radixToggle(model)),
      registerPanel(state.groups, model.get("radix"), openGroup), flagPanel(state.flags));
  }
  model.on("change:machine_state", draw);
  model.on("change:radix", draw);
  draw();
}

export default { render };
