"""The terminal's worker is published only once started: `wait()` on one thread while keys start
workers on another (the view's comm, the background-job ticker) never joins an unstarted thread."""
from __future__ import annotations

from cpu_load import errors_waiting_while
from ncpu_nb.views import BusyboxTerminal


def test_wait_never_joins_a_worker_that_is_not_started_yet():
    term = BusyboxTerminal(deterministic=True)

    def typist():
        for _ in range(400):
            term.type("", timeout=10)  # no key at all: a worker that finds the shell idle, then waits for it

    errors = errors_waiting_while(typist, lambda: term.wait(10))
    term.wait(10)
    assert errors == [] and term.status == "input"
