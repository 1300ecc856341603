"""xterm.js for the terminal view, from the files vendored in `vendor/xterm/` (see its PROVENANCE.md).

Debian packages xterm.js 3.8.1 as CommonJS modules (`node-xterm`, one file per module) and its
addons (`libjs-xterm`), but no single browser build. The view's ES module cannot `require`, so
`prelude()` joins the vendored files unchanged into one script: each module's text becomes the body
of a function `(exports, require, module)`, and a small `require` resolves the modules' relative
names among them, as Node would. The script defines `XTERM = {Terminal, fit}` for `terminal.js`.
"""
from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

VENDOR = Path(__file__).parent / "vendor" / "xterm"
ENTRIES = {"Terminal": "lib/xterm", "fit": "addons/fit/fit"}  # what the view uses, by module name
SOURCE_MAP = re.compile(r"^//# sourceMappingURL=.*$", re.M)  # the .map files are not vendored

LOADER = """
const XTERM = (() => {
  const cache = {};
  const resolve = (from, name) => {
    const parts = from.split("/").slice(0, -1);
    for (const part of name.split("/")) {
      if (part === "..") parts.pop();
      else if (part !== ".") parts.push(part);
    }
    const path = parts.join("/");
    if (path in XTERM_MODULES) return path;
    if (path + "/index" in XTERM_MODULES) return path + "/index";
    throw new Error(`xterm.js: no module ${name} (from ${from})`);
  };
  const load = (name) => {
    if (!(name in cache)) {
      const module = { exports: {} };
      cache[name] = module;
      XTERM_MODULES[name].call(module.exports, module.exports, (other) => load(resolve(name, other)), module);
    }
    return cache[name].exports;
  };
  return { %s };
})();
"""


def module_names() -> list[str]:
    """The vendored modules: every .js file under vendor/xterm, named by its path without .js."""
    return sorted(p.relative_to(VENDOR).with_suffix("").as_posix() for p in VENDOR.rglob("*.js"))


@cache
def prelude() -> str:
    """The script that defines XTERM for the view's ES module."""
    parts = ["// xterm.js 3.8.1, Debian's node-xterm and libjs-xterm (ncpu_nb/views/vendor/xterm)",
             "const XTERM_MODULES = {"]
    for name in module_names():
        text = SOURCE_MAP.sub("", (VENDOR / f"{name}.js").read_text(encoding="utf-8"))
        parts.append(f"{json.dumps(name)}: function (exports, require, module) {{\n{text}\n}},")
    parts.append("};")
    entries = ", ".join(f"{key}: load({json.dumps(name)})" for key, name in ENTRIES.items())
    return "\n".join(parts) + LOADER % entries


@cache
def stylesheet() -> str:
    return (VENDOR / "xterm.css").read_text(encoding="utf-8")
