"""`ncpu-nb text`: the REPL as a scripted transcript, the JSON form, errors with a clear message."""
from __future__ import annotations

import io
import json

from ncpu_nb.cli import main
from ncpu_nb.text.text_repl import TextRepl


def transcript(*commands: str) -> list[str]:
    out = io.StringIO()
    repl = TextRepl(stdin=io.StringIO("\n".join(commands) + "\n"), stdout=out)
    repl.cmdloop()
    return [line for line in out.getvalue().replace(repl.prompt, "\n").splitlines() if line.strip()]


def test_cipher_summary_apply():
    lines = transcript("cipher hello khoor", "summary", "apply world", "quit")
    found = next(line for line in lines if line.startswith("found:"))
    assert "caesar(3)" in found and "by inference" in found
    assert any(line.startswith("DSL") and "caesar(3)" in line for line in lines)
    assert any("16/16 held-out strings" in line for line in lines)
    assert any(line.strip() == "LDRB R3, [R1]" for line in lines)  # the listing
    assert lines[-1] == "zruog"


def test_examples_clear_neural_and_save(tmp_path):
    path = tmp_path / "rot.asm"
    lines = transcript('cipher "Hello, World" "Uryyb, Jbeyq"', "examples", "neural on", "apply xyz",
                       f"save {path}", "clear", "examples", "neural off", "quit")
    assert "'Hello, World' → 'Uryyb, Jbeyq'" in "\n".join(lines)
    assert "mode: neural" in lines and "klm" in lines and "mode: fast" in lines
    assert path.read_text().startswith("; caesar(13)")
    assert "cleared" in lines and "  no examples yet" in lines


def test_mistakes_keep_the_session_going():
    lines = transcript("cipher hello", "neural maybe", "apply world", "frobnicate", "apply", "cipher a b", "apply z",
                       "quit")
    text = "\n".join(lines)
    assert "error: expected 2 arguments, got 1; usage: cipher INPUT OUTPUT" in text
    assert "error: usage: neural on|off (got 'maybe')" in text
    assert "error: nothing synthesized yet" in text or "error: no examples yet" in text
    assert "error: unknown command 'frobnicate'" in text
    assert "error: usage: apply TEXT" in text
    assert lines[-1] == "a"  # cipher a b: a shift of 1, so z wraps to a


def test_help_lists_the_commands():
    text = "\n".join(transcript("help", "quit"))
    for command in ("cipher", "summary", "apply", "examples", "clear", "neural", "save", "quit"):
        assert command in text
    assert "EOF" not in text


def test_json_form(capsys):
    status = main(["text", "--example", "hello=khoor", "--apply", "world", "--apply", "Zebra!", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0
    assert out["solver"] == "inference" and out["applied"] == ["zruog", "Cheud!"]
    assert "LDRB" in out["program"] and out["transform"] == "caesar(3)"


def test_json_form_in_neural_mode_and_two_examples(capsys):
    status = main(["text", "--example", "hello world=dlrow olleh", "--example", "ab=ba", "--apply", "stop", "--neural",
                   "--json"])
    assert status == 0 and json.loads(capsys.readouterr().out)["applied"] == ["pots"]


def test_unsolved_json_exits_1(capsys):
    assert main(["text", "--example", "abc=cab", "--example", "hello=ohell", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["program"] is None


def test_errors_name_the_argument(capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["text", "--example", "hello"])
    assert "--example: expected INPUT=OUTPUT (e.g. hello=khoor), got 'hello'" in capsys.readouterr().err
    assert main(["text"]) == 1
    assert "give examples with --example" in capsys.readouterr().err
    assert main(["text", "--example", "snow☃=x"]) == 1
    assert "example input 'snow☃'" in capsys.readouterr().err


def test_text_bench_json(capsys):
    assert main(["text-bench", "--task", "caesar_3", "--task", "rle", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["totals"]["tasks"] == 2 and report["totals"]["solved_by_portfolio"] == 2
