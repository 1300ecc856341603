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
