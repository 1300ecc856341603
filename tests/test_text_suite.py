"""The text suite (programs/synth/text): enough tasks, every family and compositions covered, each
task's outputs consistent with its own training and held-out pairs, and the whole suite run."""
from __future__ import annotations

import json
from collections import Counter

from ncpu_nb.text import suite

CATEGORIES = {"caesar", "atbash", "case", "remove", "replace", "reverse", "double", "rle", "vigenere", "bytes",
              "composition"}


def tasks() -> list[dict]:
    return [json.loads(p.read_text()) for p in suite.task_files()]


def test_the_suite_covers_every_family():
    all_tasks = tasks()
    assert len(all_tasks) >= 40
    counts = Counter(t["category"] for t in all_tasks)
    assert set(counts) == CATEGORIES and counts["composition"] >= 8
    for t in all_tasks:
        assert 1 <= len(t["examples"]) <= 3 and len(t["held_out"]) >= 6
        held_inputs = {x for x, _ in t["held_out"]}
        assert not held_inputs & {x for x, _ in t["examples"]}, t["name"]  # held out means unseen


def test_the_whole_suite():
    outcomes = suite.run_suite()
    totals = suite.totals(outcomes)
    assert totals["portfolio_percent"] >= 90 and totals["median_seconds"] <= 3
    assert all(o.seconds < 30 for o in outcomes)
    for o in outcomes:
        assert o.solved == (o.method is not None and o.held_out[0] == o.held_out[1])
    # the known trap: Atbash of "wizard" is its reversal; one example cannot tell them apart
    unsolved = {o.name for o in outcomes if not o.solved}
    assert unsolved <= {"atbash", "atbash_upper"}
    report = suite.format_report(outcomes)
    assert "solved by gradient descent: 0" in report and f"tasks: {len(outcomes)}" in report


def test_report_shape_matches_synth_bench():
    outcomes = suite.run_suite(names=["caesar_3", "atbash"])
    keys = {"tasks", "solved_by_gradient", "solved_by_portfolio", "gradient_percent", "portfolio_percent",
            "median_seconds", "restarts", "restart_successes", "per_restart_success_rate",
            "fit_examples_but_failed_held_out", "by_method", "gradient_solved_but_shorter_reported"}
    totals = suite.totals(outcomes)
    assert keys <= set(totals)
    assert totals["solved_by_portfolio"] == 1 and totals["fit_examples_but_failed_held_out"] == 1
    assert json.loads(suite.as_json(outcomes))["totals"]["tasks"] == 2
