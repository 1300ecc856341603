"""The vendored xterm.js (ncpu_nb/views/vendor/xterm): every file is the one PROVENANCE.md lists, with
its sha256 (the bytes Debian ships), and the view's script built from them holds every module its
`require` calls name."""
from __future__ import annotations

import hashlib
import json
import posixpath
import re

from ncpu_nb.views import xterm

LISTED = re.compile(r"^([0-9a-f]{64})  (\S+)$", re.M)


def test_every_vendored_file_is_listed_in_provenance_with_its_sha256():
    listed = {path: digest for digest, path in LISTED.findall((xterm.VENDOR / "PROVENANCE.md").read_text())}
    present = {p.relative_to(xterm.VENDOR).as_posix() for p in xterm.VENDOR.rglob("*")
               if p.is_file() and p.name != "PROVENANCE.md"}
    assert set(listed) == present
    for path, digest in listed.items():
        assert hashlib.sha256((xterm.VENDOR / path).read_bytes()).hexdigest() == digest, path
    assert "Permission is hereby granted" in (xterm.VENDOR / "copyright").read_text()  # the MIT text


def test_every_require_resolves_to_a_vendored_module():
    names = set(xterm.module_names())
    assert set(xterm.ENTRIES.values()) <= names
    for name in names:
        for wanted in re.findall(r'require\("([^"]+)"\)', (xterm.VENDOR / f"{name}.js").read_text()):
            assert wanted.startswith("."), (name, wanted)  # nothing outside xterm.js itself
            path = posixpath.normpath(posixpath.join(posixpath.dirname(name), wanted))
            assert path in names or f"{path}/index" in names, (name, wanted)


def test_the_prelude_wraps_each_module_once_without_source_map_comments():
    script = xterm.prelude()
    for name in xterm.module_names():
        assert script.count(f"{json.dumps(name)}: function (exports, require, module) {{\n") == 1
    assert "sourceMappingURL" not in script
    assert script.rstrip().endswith("})();") and "Terminal: load(\"lib/xterm\")" in script
