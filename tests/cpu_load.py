"""A loaded machine for race tests: a process and a thread burning CPU, and the interpreter switching
threads as often as it can, so a window between two statements of one thread is often hit."""
from __future__ import annotations

import contextlib
import subprocess
import sys
import threading


@contextlib.contextmanager
def loaded_cpu():
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    done = threading.Event()
    spinner = threading.Thread(target=lambda: [None for _ in iter(done.is_set, True)], daemon=True)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    spinner.start()
    try:
        yield
    finally:
        done.set()
        spinner.join()
        sys.setswitchinterval(interval)
        burner.kill()
        burner.wait()


def errors_waiting_while(work, wait) -> list[RuntimeError]:
    """Runs `work` on a thread of its own under load while this thread keeps calling `wait`; the
    RuntimeErrors `wait` raised."""
    errors = []
    with loaded_cpu():
        worker = threading.Thread(target=work)
        worker.start()
        while worker.is_alive():
            try:
                wait()
            except RuntimeError as exc:
                errors.append(exc)
        worker.join()
    return errors
