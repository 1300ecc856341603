// Panels shared by every ncpu_nb view (registers, flags, memory, listing, trace) and the message
// channel to the kernel. The view's own file follows this one in the same module (see base.py).
// Values arrive as hex strings and are formatted here with BigInt: registers may be 64 or 128 bits.

const PAGE = 256n;

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) node.append(child);
  }
  return node;
}

function formatValue(hex, bits, radix) {
  if (radix === "dec") {
    let value = BigInt("0x" + hex);
    if (value >> BigInt(bits - 1)) value -= 1n << BigInt(bits);
    return value.toString();
  }
  return "0x" + hex.padStart(bits / 4, "0");
}

// Request/reply over custom messages: {action, id, ...} -> {kind, id, ...} with binary buffers.
// "deferred" means the kernel will handle the request when the running cell ends.
function channel(model, onError, onDeferred = () => {}) {
  let next = 1;
  const waiting = new Map();
  model.on("msg:custom", (message, buffers) => {
    if (message.kind === "deferred") return onDeferred();
    const resolve = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.kind === "error") onError(message.message);
    else if (resolve) resolve({ message, buffers: (buffers || []).map(toBytes) });
  });
  return {
    send(action, fields = {}) {
      const id = next++;
      model.send({ action, id, ...fields });
      return id;
    },
    request(action, fields = {}) {
      const id = next++;
      const reply = new Promise((resolve) => waiting.set(id, resolve));
      model.send({ action, id, ...fields });
      return reply;
    },
  };
}

function toBytes(buffer) {
  if (buffer instanceof Uint8Array) return buffer;
  if (ArrayBuffer.isView(buffer)) return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  return new Uint8Array(buffer);
}

function radixToggle(model) {
  const radix = model.get("radix");
  const option = (value, label) => h("button", {
    class: "ncpu-seg" + (radix === value ? " on" : ""), "data-radix": value, title: `show values in ${label}`,
    onclick: () => { model.set("radix", value); model.save_changes(); },
  }, label);
  return h("span", { class: "ncpu-segs" }, option("hex", "hex"), option("dec", "dec"));
}

// Turns `cell` into a one-line editor holding `text`: Enter calls onDone(new text), Escape or leaving cancels.
function editInPlace(cell, text, onDone, size = 18) {
  const input = h("input", { class: "ncpu-input edit", value: text, size, spellcheck: "false", "data-field": "edit" });
  let done = false;
  const finish = (value) => {
    if (done) return;
    done = true;
    input.replaceWith(...saved);
    if (value !== null && value.trim() !== "" && value !== text) onDone(value.trim());
  };
  const saved = [...cell.childNodes];
  input.addEventListener("keydown", (e) => {
    e.stopPropagation();  // the debugger's single-key shortcuts are for the panel, not for typing
    if (e.key === "Enter") finish(input.value);
    else if (e.key === "Escape") finish(null);
  });
  input.addEventListener("blur", () => finish(null));
  cell.replaceChildren(input);
  input.focus();
  input.select();
}

// Register groups; with `onEdit(name, text)`, a click on a value edits it.
function registerPanel(groups, radix, onOpenGroup, onEdit = null) {
  return h("div", { class: "ncpu-registers" }, groups.map((group) => {
    const title = groups.length === 1 ? null : h("div", { class: "ncpu-subtitle" }, group.name,
      group.on_demand ? h("button", { class: "ncpu-link", onclick: () => onOpenGroup(group.name, !group.open) },
        group.open ? "hide" : "show") : null);
    if (!group.open) return h("div", { class: "ncpu-group" }, title);
    const rows = group.registers;
    const perColumn = rows.length > 12 ? Math.ceil(rows.length / 2) : rows.length;
    const columns = [];
    for (let i = 0; i < rows.length; i += perColumn) columns.push(rows.slice(i, i + perColumn));
    return h("div", { class: "ncpu-group" }, title, h("div", { class: "ncpu-regcols" }, columns.map((column) =>
      h("table", { class: "ncpu-table ncpu-regs" }, column.map(([name, hex, changed]) =>
        h("tr", { class: changed ? "changed" : null },
          h("th", {}, name),
          h("td", { class: "num" + (onEdit ? " editable" : ""), "data-reg": name,
                    title: `${name} = ${formatValue(hex, group.bits, "hex")} = ${formatValue(hex, group.bits, "dec")}` + (onEdit ? " (click to change)" : ""),
                    onclick: onEdit ? (e) => editInPlace(e.currentTarget, formatValue(hex, group.bits, radix), (text) => onEdit(name, text)) : null },
            formatValue(hex, group.bits, radix))))))));
  }));
}

function flagPanel(flags) {
  return h("div", { class: "ncpu-flags" }, flags.map(([name, on, changed]) =>
    h("span", { class: "ncpu-flag" + (on ? " on" : "") + (changed ? " changed" : ""), "data-flag": name,
                title: `${name} = ${on ? 1 : 0}` }, name)));
}

// The listing; with `onRunTo(key)`, each row has a "run to here" button. A row that begins a new
// source line (a C program built with -g) comes under that line.
function listingPanel(rows, onToggle, onRunTo = null) {
  return h("table", { class: "ncpu-table ncpu-listing" }, rows.flatMap((row) => {
    const line = h("tr", { class: (row.current ? "current" : "") + (row.bp ? " bp" : ""), "data-loc": row.loc },
      h("td", { class: "gutter", title: "toggle breakpoint", "data-bp": row.key, onclick: () => onToggle(row.key) },
        row.bp ? "●" : ""),
      h("td", { class: "num loc", onclick: () => onToggle(row.key), title: "toggle breakpoint" }, row.loc),
      h("td", { class: "arrow" }, row.current ? "▶" : ""),
      h("td", { class: "text" }, row.text),
      row.weight === null || row.weight === undefined ? null
        : h("td", { class: "weight", "data-weight": row.weight, title: `probability that the PC is here: ${row.weight}` },
          probabilityBar(row.weight, row.weight.toFixed(3))),
      onRunTo ? h("td", { class: "runto" }, row.current ? "" : h("button", { class: "ncpu-link", "data-run-to": row.key,
        title: "run to here (breakpoints on the way still stop)", onclick: () => onRunTo(row.key) }, "⇥")) : null);
    const out = row.label ? [h("tr", { class: "label" }, h("td"), h("td"), h("td"), h("td", {}, row.label + ":"))] : [];
    if (row.source) out.push(h("tr", { class: "source", "data-source": row.source[0] }, h("td"), h("td"), h("td"),
      h("td", { class: "text", title: row.source[0] }, h("span", { class: "where" }, row.source[0]), "  ", row.source[1])));
    return [...out, line];
  }));
}

// A probability (0..1) as a filled bar with its text beside it.
function probabilityBar(fraction, text) {
  return h("span", { class: "ncpu-prob" },
    h("span", { class: "ncpu-prob-bar" }, h("span", { class: "fill", style: `width: ${(100 * fraction).toFixed(1)}%` })),
    h("span", { class: "ncpu-prob-text" }, text));
}

// One of a machine's own tables: a cell is text, or {bar, text} drawn as a probability bar.
function extraPanel(panel) {
  const cell = (c) => (typeof c === "string" ? h("td", {}, c) : h("td", { class: "bar" }, probabilityBar(c.bar, c.text)));
  return h("table", { class: "ncpu-table ncpu-extra", "data-panel": panel.title },
    h("thead", {}, h("tr", {}, panel.columns.map((name) => h("th", {}, name)))),
    h("tbody", {}, panel.rows.map((row) => h("tr", { "data-row": typeof row[0] === "string" ? row[0] : null }, row.map(cell)))));
}

// Scrolls `box` (not the notebook around it, as scrollIntoView would) so that `row` shows.
function keepVisible(box, row) {
  if (!row) return;
  const outer = box.getBoundingClientRect(), inner = row.getBoundingClientRect(), margin = 2 * inner.height;
  if (inner.top - margin < outer.top) box.scrollTop -= outer.top - inner.top + margin;
  else if (inner.bottom + margin > outer.bottom) box.scrollTop += inner.bottom - outer.bottom + margin;
}

function changeText(row, radix) {
  const parts = row.changes.map(([name, oldHex, newHex, bits]) =>
    `${name} ${formatValue(oldHex, bits, radix)} → ${formatValue(newHex, bits, radix)}`);
  if (row.flags) parts.push(`flags ${row.flags[0] || "-"} → ${row.flags[1] || "-"}`);
  if (row.store) parts.push(`mem[0x${row.store[0]}] ← ${row.store[1]} bytes`);
  return parts.join(", ");
}

function tracePanel(rows, radix) {
  return h("table", { class: "ncpu-table ncpu-trace" },
    h("thead", {}, h("tr", {}, h("th", { class: "num" }, "cycle"), h("th", { class: "num" }, "pc"),
      h("th", {}, "instruction"), h("th", {}, "changes"))),
    h("tbody", {}, rows.map((row) => h("tr", { "data-cycle": row.cycle },
      h("td", { class: "num" }, String(row.cycle)), h("td", { class: "num" }, row.loc),
      h("td", { class: "text" }, row.text), h("td", { class: "changes" }, changeText(row, radix))))));
}

// Parses "0x1f0", "496" or a register name into a BigInt address (null if it is none of those).
function parseAddress(text, groups) {
  const t = text.trim();
  if (/^(0x[0-9a-f]+|\d+)$/i.test(t)) return BigInt(t);
  for (const group of groups) {
    for (const [name, hex] of group.registers) {
      if (name.toLowerCase() === t.toLowerCase()) return BigInt("0x" + hex);
    }
  }
  return null;
}

// The memory panel: a page of 16 x 16 bytes fetched from the kernel whenever `show` is called.
// With `onWrite(hexAddress, text)`, a click on a byte edits it (type one or more hex bytes).
function memoryPanel(model, chan, onMessage, onWrite = null) {
  const grid = h("div", { class: "ncpu-memgrid" });
  const input = h("input", { class: "ncpu-input", "data-field": "memory-address", size: 20, spellcheck: "false",
                             placeholder: "address or register", title: "an address (0x… or decimal) or a register" });
  let target = BigInt("0x" + (model.get("memory_address") || "0"));
  let groups = [];
  let digits = 8;
  const go = (address) => {
    if (address === null || address < 0n) { onMessage(`not an address: ${input.value}`); return; }
    target = address;
    model.set("memory_address", address.toString(16));
    model.save_changes();
    show();
  };
  const move = (delta) => go((target - target % PAGE) + delta < 0n ? 0n : (target - target % PAGE) + delta);
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") go(parseAddress(input.value, groups)); });
  const bar = h("div", { class: "ncpu-bar" },
    h("button", { class: "ncpu-btn small", "data-action": "memory-prev", title: "previous 256 bytes", onclick: () => move(-PAGE) }, "◀"),
    input,
    h("button", { class: "ncpu-btn small", "data-action": "memory-go", onclick: () => go(parseAddress(input.value, groups)) }, "go"),
    h("button", { class: "ncpu-btn small", "data-action": "memory-next", title: "next 256 bytes", onclick: () => move(PAGE) }, "▶"));
  const node = h("div", { class: "ncpu-memory" }, bar, grid);

  // Rows that arrive while a byte is being typed wait until its editor closes: drawing them would
  // drop what the user is typing.
  let waiting = null, polling = false;
  async function show() {
    waiting = await chan.request("memory", { address: target.toString(16) });
    drawWhenNotEditing();
  }
  function drawWhenNotEditing() {
    if (waiting === null || polling) return;
    if (grid.querySelector("[data-field=edit]")) {
      polling = true;
      setTimeout(() => { polling = false; drawWhenNotEditing(); }, 100);
      return;
    }
    const { message, buffers } = waiting;
    waiting = null;
    draw(message, buffers);
  }
  function draw(message, buffers) {
    const bytes = buffers[0];
    const base = BigInt("0x" + message.address);
    const mapped = new Uint8Array(Number(PAGE));
    for (const [start, end] of message.mapped) mapped.fill(1, start, end);
    const changed = new Set(message.changed);
    const at = Number(target - base);
    const rows = [];
    for (let r = 0; r < 256; r += 16) {
      const cells = [], chars = [];
      for (let i = r; i < r + 16; i++) {
        const cls = (changed.has(i) ? "changed " : "") + (i === at ? "target" : "");
        if (!mapped[i]) {
          cells.push(h("span", { class: "byte unmapped " + cls }, "--"));
          chars.push(h("span", { class: "char unmapped" }, " "));
        } else {
          const b = bytes[i];
          const address = (base + BigInt(i)).toString(16);
          cells.push(h("span", { class: "byte " + cls + (onWrite ? " editable" : ""), "data-offset": i,
                                 title: onWrite ? `0x${address}: click to change (hex bytes, e.g. 2a or de ad be ef)` : null,
                                 onclick: onWrite ? (e) => editInPlace(e.currentTarget, b.toString(16).padStart(2, "0"),
                                                                         (text) => onWrite(address, text), 12) : null },
            b.toString(16).padStart(2, "0")));
          chars.push(h("span", { class: "char " + (changed.has(i) ? "changed" : "") }, b >= 32 && b < 127 ? String.fromCharCode(b) : "."));
        }
      }
      // Real spaces between the bytes, so a copied dump reads as one.
      const spaced = cells.flatMap((cell, i) => (i === 15 ? [cell] : [cell, i === 7 ? "  " : " "]));
      rows.push(h("div", { class: "ncpu-memrow" },
        h("span", { class: "addr" }, (base + BigInt(r)).toString(16).padStart(digits, "0")), "  ",
        h("span", { class: "bytes" }, spaced), "  ", h("span", { class: "chars" }, chars)));
    }
    grid.replaceChildren(...rows);
    keepVisible(grid, rows[Math.floor(at / 16)]);  // the debugger shows a few rows of the page at a time
    node.dataset.address = message.address;
  }
  return {
    node,
    update(state) { groups = state.groups; digits = state.address_digits; show(); },
  };
}
