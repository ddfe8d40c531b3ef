"""bench/foreign/eagletree_harness/'s patch to EagleTree (a guard, applied by build_patched.sh)
and bench/foreign/results/eaglefix/compare.py's level-by-level comparison (no EagleTree run)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "bench" / "foreign" / "eagletree_harness"


def load_compare():
    path = ROOT / "bench" / "foreign" / "results" / "eaglefix" / "compare.py"
    spec = importlib.util.spec_from_file_location("eaglefix_compare", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_patch_only_adds_a_guard_to_trigger_next_migration():
    patches = sorted(HARNESS.glob("*.patch"))
    assert [p.name[:3] for p in patches] == ["01-"]
    lines = patches[0].read_text().splitlines()
    assert [x for x in lines if x.startswith("+++ ")] == ["+++ b/Scheduler/scheduler.cpp"]
    body = [x for x in lines if x[:1] in "+-" and not x.startswith(("+++", "---"))]
    assert body and all(x.startswith("+") for x in body)  # nothing of EagleTree's removed
    code = [x[1:].strip() for x in body if not x[1:].strip().startswith("//")]
    assert code == ["if (event->get_address().valid != PAGE) {", "return;", "}"]
    assert "void IOScheduler::trigger_next_migration(Event* event) {" in patches[0].read_text()
    assert "build.sh" in (HARNESS / "build_patched.sh").read_text()


def test_compare_names_each_differing_level_and_field():
    compare = load_compare()

    def level(op, qd, iops, series):
        return {
            "extra_op_percent": op,
            "queue_depth": qd,
            "span_pages": 100,
            "steady_iops": iops,
            "steady_waf": 1.5,
            "fob_iops": 9.0,
            "series": series,
        }

    stored = {
        "levels": [level(0, 32, 10.0, [1, 2]), level(40, 32, 20.0, [3]), level(40, 4, 5.0, [])]
    }
    same = {"levels": [dict(r) for r in stored["levels"]]}
    assert compare.differing(stored, same) == {}
    rerun = {"levels": [level(0, 32, 10.0, [1, 2.5]), level(40, 32, 21.0, [3])]}
    assert compare.differing(stored, rerun) == {
        "0% QD32": ["series"],
        "40% QD32": ["steady_iops"],
        "40% QD4": ["missing"],
    }
