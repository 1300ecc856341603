"""The static type check: mypy confirms that each engine satisfies the protocols it claims (tests/engine_claims.py)
with compatible signatures, not only names. The engines' own modules are read for their types (errors in them
are not this check's); torch, numpy and the other libraries are taken as untyped, which keeps it to seconds."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_each_engine_satisfies_the_protocols_it_claims(tmp_path):
    result = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                             "--cache-dir", str(tmp_path), str(ROOT / "tests" / "engine_claims.py")],
                            capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
