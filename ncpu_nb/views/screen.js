// The framebuffer view: the latest frame (a PNG in the synced `png` trait) drawn pixel-sharp at
// `scale`, with the program's name and a caption (frame number, checksum).

function render({ model, el }) {
  const image = h("img", { class: "ncpu-screen-image", "data-field": "screen", alt: "framebuffer" });
  const caption = h("span", { class: "ncpu-message", "data-field": "caption" });
  const root = h("div", { class: "ncpu-screen ncpu-w" },
    h("div", { class: "ncpu-toolbar" }, h("span", { class: "ncpu-title" }, model.get("title")), caption),
    image);
  el.append(root);
  let url = null;
  const draw = () => {
    const png = toBytes(model.get("png"));
    caption.textContent = model.get("caption");
    if (!png.length) return;
    if (url) URL.revokeObjectURL(url);
    url = URL.createObjectURL(new Blob([png], { type: "image/png" }));
    image.onload = () => {
      image.width = image.naturalWidth * model.get("scale");
      image.height = image.naturalHeight * model.get("scale");
    };
    image.src = url;
  };
  model.on("change:png", draw);
  model.on("change:caption", () => { caption.textContent = model.get("caption"); });
  draw();
  return () => { if (url) URL.revokeObjectURL(url); };
}

export default { render };
