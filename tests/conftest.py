import os

import pytest
from hypothesis import HealthCheck, settings

# CI runs more examples than a developer's quick loop.
settings.register_profile("ci", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


# Tiers by where a test lives (a test marked by hand as well keeps both): the quick loop is
# `pytest -m "not slow and not browser"`.
ORACLE_FILES = {"test_arm64_core.py", "test_arm64_simd_fp.py", "test_arm64_disasm.py", "test_linux_machine.py",
                "test_arm64_programs.py", "test_fast_vs_reference.py"}


def pytest_collection_modifyitems(items):
    for item in items:
        path = item.path
        if "browser" in path.parts:
            item.add_marker(pytest.mark.browser)
        if path.suffix == ".ipynb":
            item.add_marker(pytest.mark.notebook)
        if path.name in ORACLE_FILES:
            item.add_marker(pytest.mark.oracle)
