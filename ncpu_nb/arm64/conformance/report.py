"""What a conformance run found: counts per target, the failures, and which failures are the machine's — those
qemu-user does not have, from a qemu run beside it or from the recorded list."""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ncpu_nb import html
from ncpu_nb.arm64.conformance.runner import SuiteRun


@dataclass
class ConformanceReport:
    runs: dict[str, SuiteRun]    # "machine", and "qemu" when qemu ran too
    reference: str               # where qemu's failures come from
    reference_failures: set[str]

    @property
    def machine_only(self) -> list[str]:
        """Failures of the machine that qemu does not have: the machine's own."""
        return sorted(set(self.runs["machine"].failures) - self.reference_failures)

    @property
    def qemu_only(self) -> list[str]:
        """Tests the machine passes and qemu fails (qemu-user's own limits)."""
        passed = {v.key for v in self.runs["machine"].verdicts if v.outcome == "pass"}
        return sorted(passed & self.reference_failures)

    def _counts(self, run: SuiteRun) -> str:
        stopped = ", interrupted" if run.interrupted else ""
        return (f"{run.count('pass')} PASS / {run.count('fail')} FAIL / {run.count('skip')} SKIP "
                f"({run.seconds:.0f} s{stopped})")

    def __str__(self) -> str:
        lines = []
        for run in self.runs.values():
            lines.append(f"{run.target}: {self._counts(run)}")
            lines += [f"  FAIL {key}" for key in run.failures]
        lines.append(f"failures of the machine that {self.reference} does not have: {len(self.machine_only)}")
        lines += [f"  {key}" for key in self.machine_only]
        if self.qemu_only:
            lines.append(f"passed on the machine, failed under {self.reference}: {len(self.qemu_only)}")
            lines += [f"  {key}" for key in self.qemu_only]
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"runs": {name: {"pass": run.count("pass"), "fail": run.count("fail"), "skip": run.count("skip"),
                                "seconds": round(run.seconds, 1), "interrupted": run.interrupted,
                                "failures": run.failures} for name, run in self.runs.items()},
                "reference": self.reference, "machine_only": self.machine_only, "qemu_only": self.qemu_only}

    def _repr_html_(self) -> str:
        rows = [[escape(run.target), str(run.count("pass")), str(run.count("fail")), str(run.count("skip")),
                 f"{run.seconds:.0f} s"] for run in self.runs.values()]
        own = "".join(f"<div>{escape(key)}</div>" for key in self.machine_only) or "<div class='dim'>none</div>"
        return html.view("BusyBox 1.35.0 upstream testsuite",
                         html.table(["target", "pass", "fail", "skip", "time"], rows, numeric=(1, 2, 3, 4)),
                         f"<div class='title'>failures of the machine ({escape(self.reference)} passes them)</div>",
                         own)
