"""The text machine widget's kernel side, driven by the comm messages the browser sends: pairs in,
synthesize, the summary, apply in both modes, the debugger, bad input, and the static fallback."""
from __future__ import annotations

import pytest

pytest.importorskip("anywidget")

import ncpu_nb  # noqa: E402
from ncpu_nb.text.text_machine import TextMachine  # noqa: E402
from ncpu_nb.text.text_widget import TextMachineWidget  # noqa: E402

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


class Browser:
    """Sends what the browser sends and keeps what the kernel answers."""

    def __init__(self, view):
        self.view, self.replies, self.ids = view, [], iter(range(1, 1_000_000))
        view.send = lambda content, buffers=None: self.replies.append(content)

    def message(self, action, **fields) -> dict:
        self.view._handle_msg({"content": {"data": {"method": "custom", "content": {
            "action": action, "id": next(self.ids), **fields}}}, "buffers": []})
        return self.replies[-1]

    def sync(self, **state):  # a trait changed in the browser
        self.view._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}},
                               "buffers": []})


def test_pairs_synthesize_summary_apply():
    view = TextMachineWidget(TextMachine())
    browser = Browser(view)
    assert browser.message("synthesize", examples=[["hello", "khoor"], ["", ""]]) == {"kind": "synthesized", "id": 1}
    assert view.status == "solved" and view.examples == [["hello", "khoor"]]
    assert view.summary["transform"] == "caesar(3)" and view.summary["solver"] == "inference"
    rows = dict(view.summary["rows"])
    assert "Caesar" in rows["transform"] and "cycles per character" in rows["program"]
    assert "16/16 held-out strings" in rows["verified"] and "add(3)" not in rows["transform"]
    assert "LDRB R3, [R1]" in view.summary["program"]
    assert browser.message("apply", text="world")["result"] == "zruog"
    assert view.applied == [["world", "zruog", "fast"]]


def test_the_mode_switch_runs_the_networks():
    view = TextMachineWidget(TextMachine())
    browser = Browser(view)
    browser.message("synthesize", examples=[["stressed", "desserts"]])
    browser.sync(mode="neural")
    assert view.machine.mode == "neural"
    assert browser.message("apply", text="drawer")["result"] == "reward"
    assert view.applied[-1] == ["drawer", "reward", "neural"]


def test_progress_is_reported_while_searching():
    view = TextMachineWidget(TextMachine())
    seen = []
    view.observe(lambda change: seen.append(change["new"]), "progress")
    Browser(view).message("synthesize", examples=[["hello world", "DLROW OLLEH"]])
    assert any(p.startswith("compositions:") for p in seen) and any(p.startswith("checking") for p in seen)
    assert view.summary["solver"] == "composition"


def test_bad_input_is_shown_not_raised():
    view = TextMachineWidget(TextMachine())
    browser = Browser(view)
    browser.message("synthesize", examples=[["snow☃", "x"]])
    assert "example input 'snow☃'" in view.message and view.status == "ready"
    browser.message("apply", text="x")
    assert "no examples yet" in view.message
    browser.message("synthesize", examples=[["abc", "cab"], ["hello", "ohell"]])
    assert view.status == "not solved" and "no transform" in view.progress
    assert browser.message("nonsense")["kind"] == "error"


def test_debugger_holds_the_string():
    view = ncpu_nb.text_machine([("hello", "khoor")])
    assert view.status == "solved" and view.summary["transform"] == "caesar(3)"  # synthesized on creation
    dbg = view.open_debugger("world")
    assert dbg.machine.read_memory(0x1000, 6) == b"world\0"
    assert Browser(view).message("debugger", text="abc") == {"kind": "debugger", "id": 1}


def test_static_fallback_and_display_bundle():
    view = ncpu_nb.text_machine([("hello", "khoor")])
    Browser(view).message("apply", text="world")
    data, _ = view._repr_mimebundle_()
    assert WIDGET_VIEW in data
    page = data["text/html"]
    assert "khoor" in page and "zruog" in page and "LDRB" in page and "<script" not in page
