"""terminal_text.plain_text: a terminal's output as the lines it leaves, escape sequences left out."""
from __future__ import annotations

from ncpu_nb.views.terminal_text import plain_text


def test_line_ends_and_colours_go_and_the_text_stays():
    assert plain_text("$ ls\r\n\x1b[1;34mbin\x1b[0m  etc\r\n$ \x1b[6n") == "$ ls\nbin  etc\n$ "


def test_a_line_redrawn_in_place_shows_its_last_state():
    # ash completing "ec" to "echo ": back to the start, the prompt and the longer line
    assert plain_text("$ ec\r$ echo ") == "$ echo "
    # a shorter redraw erases what was left after it
    assert plain_text("$ echo hello\r$ echo hi\x1b[K") == "$ echo hi"
    assert plain_text("abc\b\bX") == "aXc" and plain_text("abc\x1b[2DY\x1b[1CZ") == "aYcZ"


def test_titles_bells_and_other_controls_show_nothing():
    assert plain_text("\x1b]0;title\x07a\x07b\x1b(Bc\x1b=d\x1b[?1049h") == "abcd"
    assert plain_text("tab\there") == "tab\there"
