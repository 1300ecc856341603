"""`discover`: the Discovery class, the REPL (driven with scripted input), the CLI's one-shot and
JSON forms, and the widget's messages (sent as the browser sends them)."""
from __future__ import annotations

import io
import json

import pytest

import ncpu_nb
from ncpu_nb.cli import main
from ncpu_nb.discovery import PRESETS, Discovery, DiscoveryError, ExampleError, parse_example
from ncpu_nb.discovery.shell import DiscoverShell
from ncpu_nb.ncpu.exact_check import passing

FIB_EXAMPLES = ["1,1=2", "2,3=5", "3,5=8", "5,8=13", "8,13=21"]


def repl(*lines: str) -> str:
    out = io.StringIO()
    shell = DiscoverShell(stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    shell.cmdloop()
    return out.getvalue()


def test_parse_example_and_errors_name_the_column():
    assert parse_example("1, 1 = 2") == ([1, 1], [2])
    assert parse_example("0x10,-3=0b11,4") == ([16, -3], [3, 4])
    with pytest.raises(ExampleError, match=r"column 3: 'x' is not an integer"):
        parse_example("1,x=2")
    with pytest.raises(ExampleError, match=r"column 5: 'y' is not an integer"):
        parse_example("1,1=y")
    with pytest.raises(ExampleError, match="column 3: expected an integer, found nothing"):
        parse_example("1,,2=3")
    with pytest.raises(ExampleError, match="expected INPUTS=OUTPUTS"):
        parse_example("1,1")
    with pytest.raises(ExampleError, match="does not fit in 32 bits"):
        parse_example(f"{1 << 33}=1")


def test_discovery_keeps_every_example_the_same_shape_and_asks_for_examples_first():
    d = Discovery()
    with pytest.raises(DiscoveryError, match="no examples yet"):
        d.spec()
    d.add_text("1,1=2")
    with pytest.raises(ExampleError, match="has 1 inputs and 1 outputs; the others have 2 and 1"):
        d.add_text("3=4")
    with pytest.raises(DiscoveryError, match="synthesize first"):
        d.test([1, 2])
    with pytest.raises(DiscoveryError, match="no preset 'fibonacci'"):
        d.preset("fibonacci")


def test_every_preset_is_consistent_and_fib_answers_34():
    for preset in PRESETS.values():
        d = Discovery().preset(preset.name)
        assert d.examples and d.held_out, preset.name
    d = Discovery().preset("fib")
    assert (d.input_registers, d.output_registers) == (["R0", "R1"], ["R2"])
    d.synthesize()
    assert d.test([13, 21]) == [34]
    summary = d.summary()
    assert summary.solved and summary.held_out == (3, 3) and summary.cycles == [2] * len(d.examples)
    assert summary.gradient_found == any(m == "gradient" for m, _ in d.result.fits)


def test_repl_reproduces_the_transcript():
    out = repl("preset fib", "synthesize", "summary", "test 13, 21", "quit")
    answers = out.split("ncpu> ")[1:]  # what each command printed
    assert answers[0].startswith("fib: the next Fibonacci number") and answers[3] == "34\n" and answers[4] == ""
    assert "found by" in out and "held-out check: 3/3 held-out examples pass" in out
    assert "gradient descent alone:" in out and "cycles per example:" in out


def test_repl_examples_add_clear_save_help_and_errors(tmp_path):
    target = tmp_path / "sum.asm"
    out = repl("help", "add 1,2=3", "add 2,x=5", "add 5,7=12", "add 10,-4=6", "add 0,0=0", "examples",
               "synthesize", f"save {target}", "test 40, 2", "test 1", "clear", "examples", "frobnicate", "summary")
    for command in ("preset", "synthesize", "summary", "test", "examples", "add", "clear", "save", "quit"):
        assert command in out.split("ncpu>")[1], command
    assert "error: column 3: 'x' is not an integer" in out
    assert "1, 2 = 3" in out and "4 examples" in out
    assert "ncpu> 42" in out
    assert "error: the program takes 2 inputs (R0, R1); got 1" in out
    assert "no examples yet" in out and "unknown command 'frobnicate'" in out
    assert "error: no program yet: synthesize first" in out
    saved = target.read_text()
    assert saved.startswith("; discovery: R0, R1 -> R2") and len(ncpu_nb.assemble(saved)) == 2


def test_cli_json_form(capsys):
    args = ["discover", *[a for e in FIB_EXAMPLES for a in ("--example", e)], "--test", "13,21", "--test", "1, 2",
            "--json"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"program", "solver", "tests"} and report["tests"] == [[34], [3]]
    program = ncpu_nb.assemble(report["program"])
    assert passing(program, [({"R0": 21, "R1": 34}, {"R2": 55})]).all()


def test_cli_preset_summary_and_errors(capsys, tmp_path):
    assert main(["discover", "--preset", "squares", "--test", "12", "--save", str(tmp_path / "sq.asm")]) == 0
    out = capsys.readouterr().out
    assert "test 12 -> 144" in out and "found by:" in out and (tmp_path / "sq.asm").exists()
    assert main(["discover", "--example", "1,1=2", "--example", "2,y=5"]) == 1
    assert "--example 2 ('2,y=5'): column 3: 'y' is not an integer" in capsys.readouterr().err
    assert main(["discover", "--example", "1,1=2", "--test", "1,z"]) == 1
    assert "--test 1 ('1,z'): column 3: 'z' is not an integer" in capsys.readouterr().err
    assert main(["discover", "--test", "1,2"]) == 1
    assert "give examples" in capsys.readouterr().err


class Browser:
    def __init__(self, view):
        self.view, self.replies = view, []
        view.send = lambda content, buffers=None: self.replies.append(content)

    def message(self, action, **fields):
        self.view._handle_msg({"content": {"data": {"method": "custom", "content": {"action": action, "id": 7, **fields}}},
                               "buffers": []})
        return self.replies[-1] if self.replies else None


def test_widget_preset_synthesize_test_debugger_and_save(tmp_path):
    view = ncpu_nb.discover()
    browser = Browser(view)
    assert ["fib", PRESETS["fib"].description] in view.presets
    browser.message("preset", name="fib")
    assert view.rows[0] == ["1, 1", "2", False] and view.rows[-1][2] is True
    assert browser.message("synthesize", rows=view.rows)["kind"] == "ok"
    view.wait(30)
    assert view.status["phase"] == "done" and view.summary["held_out"] == [3, 3]
    assert view.summary["program"].startswith("ADD") or "R2" in view.summary["program"]
    browser.message("test", inputs="13, 21")
    assert view.tests == [["13, 21", "34"]]
    browser.message("debugger", inputs="13, 21")
    assert view.debugger_ref == f"anywidget:{view._debugger.model_id}"
    assert view._debugger.machine.registers["R0"] == 13
    browser.message("save", path=str(tmp_path / "fib.asm"))
    assert (tmp_path / "fib.asm").read_text().startswith("; fib: R0, R1 -> R2")
    page = view.static_html()
    assert "1, 1" in page and "found by" in page and "13, 21" in page


def test_widget_reads_the_edited_table_and_reports_bad_cells():
    view = ncpu_nb.discover()
    browser = Browser(view)
    reply = browser.message("synthesize", rows=[["1, 2", "3", False], ["4, q", "9", False]])
    assert reply["kind"] == "error" and "row 2, inputs: column 4: 'q' is not an integer" in reply["message"]
    assert view.status["phase"] == "idle"
    reply = browser.message("synthesize", rows=[["", "", False]])
    assert reply["kind"] == "error" and "no examples yet" in reply["message"]
    rows = [["3", "9", False], ["5", "25", False], ["0", "0", False], ["-4", "16", False], ["7", "49", False],
            ["12", "144", True]]
    browser.message("synthesize", rows=rows)
    view.wait(30)
    assert view.status["phase"] == "done" and view.discovery.test([11]) == [121]
    assert view.rows == [[r[0], r[1], r[2]] for r in rows]


def test_widget_stop_ends_a_running_search():
    view = ncpu_nb.discover(examples=[([n], [(n * 7919) % 1013 ^ n]) for n in range(8)])
    browser = Browser(view)
    browser.message("synthesize")
    view.wait(1.0)
    assert view.status["phase"] == "running"
    view._cell_running = True  # stop is heard even while a cell runs
    browser.message("stop")
    view._cell_running = False
    view.wait(10)
    assert view.status["phase"] in ("stopped", "failed") and view._worker is None
