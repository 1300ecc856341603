// TraceView: a finished run's trace, filtered in the kernel and fetched a window of rows at a time.

function render({ model, el }) {
  const root = h("div", { class: "ncpu-traceview ncpu-w" });
  el.append(root);
  const message = h("span", { class: "ncpu-message error" });
  const chan = channel(model, (text) => { message.textContent = text; });
  const set = (name, value) => { model.set(name, value); model.save_changes(); };
  const text = h("input", { class: "ncpu-input", "data-field": "text", placeholder: "instruction contains…", size: 24,
                            value: model.get("text"), spellcheck: "false" });
  text.addEventListener("input", () => set("text", text.value));
  const register = h("select", { class: "ncpu-input", "data-field": "register", onchange: () => set("register", register.value) });
  const stores = h("input", { type: "checkbox", "data-field": "stores", onchange: () => set("stores", stores.checked) });
  const count = h("span", { class: "ncpu-key", "data-field": "count" });
  const radixSlot = h("span");
  const body = h("div", { class: "ncpu-scroll tall" });
  const more = h("button", { class: "ncpu-btn small", "data-action": "more", onclick: () => load(false) }, "more");
  root.append(h("div", { class: "ncpu-toolbar" }, text, register, h("label", {}, stores, " memory writes"), count,
    h("span", { class: "ncpu-spacer" }), radixSlot), body, h("div", { class: "ncpu-bar" }, more, message));

  let rows = [];
  async function load(fresh) {
    const summary = model.get("summary");
    const { message: reply } = await chan.request("rows", { offset: fresh ? 0 : rows.length });
    if (reply.generation !== model.get("summary").generation) return;  // the filter changed meanwhile
    rows = fresh ? reply.rows : rows.concat(reply.rows);
    draw();
    more.disabled = rows.length >= summary.matching;
  }
  function draw() {
    const summary = model.get("summary");
    count.textContent = `${summary.matching.toLocaleString("en-US")} of ${summary.total.toLocaleString("en-US")} steps`;
    radixSlot.replaceChildren(radixToggle(model));
    body.replaceChildren(tracePanel(rows, model.get("radix")));
  }
  function options() {
    const names = model.get("summary").registers;
    register.replaceChildren(h("option", { value: "" }, "any register"),
      ...names.map((n) => h("option", { value: n, selected: n === model.get("register") }, `changes ${n}`)));
    stores.checked = model.get("stores");
  }
  model.on("change:summary", () => { options(); load(true); });
  model.on("change:radix", draw);
  options();
  load(true);
}

export default { render };
