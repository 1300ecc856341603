"""A bench run as a document: the host it ran on (CPU, cores, load before and after, versions), its
rows, the text `ncpu-nb bench` prints, the README's tables (`python -m ncpu_nb.bench_report
bench-*.json`), and the change per row against an earlier `--json` file."""
from __future__ import annotations

import datetime
import os
import platform
import sys

SCHEMA = 2  # `ncpu-nb bench --json` documents; bump when a row's fields change meaning


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def versions() -> dict:
    """Python's, numpy's and torch's versions (read from their metadata: importing them would cost
    the run a second or more and change what it measured)."""
    from importlib import metadata

    found = {"python": f"{platform.python_implementation()} {platform.python_version()}"}
    for name in ("numpy", "torch", "unicorn"):
        module = sys.modules.get(name)
        try:
            found[name] = getattr(module, "__version__", None) or metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def extension_build() -> str:
    """"release" for a wheel (`pip install .`); "checked" for an editable install's build, which keeps
    overflow checks and runs the engines 10-20 % slower (metal_ext/Cargo.toml's profiles)."""
    from ncpu_nb import _metal

    return "checked" if _metal.BUILD_CHECKED else "release"


def host() -> dict:
    return {"cpu": cpu_model(), "cores": os.cpu_count(), "machine": platform.machine(),
            "system": f"{platform.system()} {platform.release()}", "extension": extension_build(),
            "load_average_start": load_average()}


def document(target: str, quick: bool, rows: list[dict], started: dict, seconds: float) -> dict:
    """The whole run: what `--json` prints."""
    info = dict(started, load_average_end=load_average(), versions=versions())
    return {"schema": SCHEMA, "target": target, "quick": quick,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "seconds": round(seconds, 2), "host": info, "rows": rows}


def _duration(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:,.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:,.1f} ms"
    if seconds >= 1e-6:
        return f"{seconds * 1e6:,.1f} µs"
    return f"{seconds * 1e9:,.2f} ns"


def _rate(per_second: float, unit: str) -> str:
    for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if per_second >= scale:
            return f"{per_second / scale:,.2f} {prefix} {unit}s/s"
    return f"{per_second:,.1f} {unit}s/s"


def side_text(side: dict, statistic: str) -> str:
    """One side of a row on one line: best, median, spread of wall and CPU time per run, and the rate."""
    if not side.get("measured", True):
        return f"not measured ({side['why']})"
    wall, cpu = side["wall_s"], side["cpu_s"]
    text = (f"wall best {_duration(wall['best'])}, median {_duration(wall['median'])} "
            f"[{_duration(wall['min'])}–{_duration(wall['max'])}]; "
            f"cpu best {_duration(cpu['best'])}, median {_duration(cpu['median'])} "
            f"[{_duration(cpu['min'])}–{_duration(cpu['max'])}]; n={side['runs']}")
    work, unit = side["work_per_run"], side["unit"]
    if work and (unit != "run" or work > 1):
        stat, clock = statistic.split()
        per_run = (cpu if clock == "cpu" else wall)[stat]
        text += (f"; {work:,.0f} {unit}s a timed run: {_duration(per_run / work)} per {unit}, "
                 f"{_rate(work / per_run, unit)} ({statistic})")
    return text


def format_row(row: dict) -> list[str]:
    lines = [f"  {row['label']}", f"      measures   {row['measures']}",
             f"      ours       {side_text(row['ours'], row['statistic'])}"]
    reference = row["reference"]
    if reference is not None:
        lines.append(f"      reference  {reference['name']}: {side_text(reference, row['statistic'])}")
    verdict = {True: "met", False: "NOT MET", None: ""}[row["met"]]
    if row["ratio"] is not None:
        sense = ("our time / the reference's, per unit of work" if row["ratio_sense"] == "time"
                 else "the reference's time / ours (speed-up)")
        lines.append(f"      ratio      {row['ratio']:,.2f}x  ({row['statistic']}; {sense})"
                     + (f"   target {row['target']}: {verdict}" if row["target"] else ""))
    elif row["target"]:
        missing = "not measured" if not row["ours"].get("measured", True) else "reference not measured"
        lines.append(f"      target     {row['target']}: {verdict or f'no ratio ({missing})'}")
    if not row["outputs_match"]:
        lines.append("      OUTPUTS DIFFER from the reference's")
    if row["detail"]:
        lines.append(f"      detail     {row['detail']}")
    return lines


def format_document(doc: dict) -> str:
    h = doc["host"]
    lines = [f"ncpu-nb bench {doc['target']}{' --quick' if doc['quick'] else ''}  ({doc['date']}, "
             f"{doc['seconds']:.1f} s)",
             f"  host: {h['cpu']}, {h['cores']} cores, {h['system']}; "
             + ", ".join(f"{k} {v}" for k, v in h["versions"].items() if v),
             *_checked_build_warning(h),
             f"  load average (1, 5, 15 min): {h['load_average_start']} at start, {h['load_average_end']} at end"]
    for row in doc["rows"]:
        lines += format_row(row)
    return "\n".join(lines)


def _checked_build_warning(host_info: dict) -> list[str]:
    if host_info.get("extension") != "checked":  # documents from before the field was kept are release builds
        return []
    return ["  extension: an editable install's checked build, 10-20 % slower than `pip install .`'s release build"]


def compare(old: dict, new: dict) -> str:
    """Per row (by label): the statistic of ours and the ratio, before and after, and the change."""
    before = {r["label"]: r for r in old.get("rows", [])}
    lines = [f"change from {old.get('date', '?')} (load {old.get('host', {}).get('load_average_start')}) "
             f"to {new['date']} (load {new['host']['load_average_start']})"]
    for row in new["rows"]:
        was = before.get(row["label"])
        if was is None:
            lines.append(f"  {row['label']}: new row")
            continue
        stat, clock = row["statistic"].split()
        if not row["ours"].get("measured", True):
            lines.append(f"  {row['label']}: not measured now ({row['ours']['why']})")
            continue
        now_value = row["ours"][f"{clock}_s"][stat]
        try:
            old_value = was["ours"][f"{clock}_s"][stat]
        except KeyError:
            lines.append(f"  {row['label']}: not comparable (the old row has no {row['statistic']})")
            continue
        change = (now_value / old_value - 1) * 100 if old_value else float("nan")
        text = f"  {row['label']}: {row['statistic']} {_duration(old_value)} -> {_duration(now_value)} ({change:+.1f} %)"
        if row["ratio"] is not None and was.get("ratio") is not None:
            text += f"; ratio {was['ratio']:.2f}x -> {row['ratio']:.2f}x"
        lines.append(text)
    gone = set(before) - {r["label"] for r in new["rows"]}
    lines += [f"  {label}: no longer measured" for label in sorted(gone)]
    return "\n".join(lines)


def _cell(side: dict | None, statistic: str) -> str:
    """One side's statistic per run, with its rate where the work is counted."""
    if side is None:
        return "—"
    if not side.get("measured", True):
        return "not measured"
    stat, clock = statistic.split()
    seconds = side[f"{clock}_s"][stat]
    work, unit = side["work_per_run"], side["unit"]
    counted = work and (unit != "run" or work > 1)
    return _duration(seconds) + (f" ({_rate(work / seconds, unit)})" if counted else "")


def format_markdown(doc: dict) -> str:
    """The document as the README shows it: the host line, then a table row per bench row."""
    h = doc["host"]
    lines = [f"`ncpu-nb bench {doc['target']}{' --quick' if doc['quick'] else ''}` ({doc['date'][:16]}, "
             f"{doc['seconds']:.0f} s; {h['cpu']}, {h['cores']} cores; load {h['load_average_start'][0]:.2f} at "
             f"start, {h['load_average_end'][0]:.2f} at end):", "",
             "| row | ours | reference | ratio | target |", "|---|---|---|---|---|"]
    for row in doc["rows"]:
        ref = row["reference"]
        reference = "—" if ref is None else f"{ref['name']}: {_cell(ref, row['statistic'])}"
        ratio = "" if row["ratio"] is None else f"{row['ratio']:,.2f}×"
        verdict = {True: "met", False: "**not met**", None: ""}[row["met"]]
        target = f"{row['target']} {verdict}".strip() if row["target"] else ""
        cells = [row["label"], _cell(row["ours"], row["statistic"]), reference, ratio, target]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    import json

    print("\n\n".join(format_markdown(json.load(open(path))) for path in sys.argv[1:]))
