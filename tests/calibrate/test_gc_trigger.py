"""The blocking-GC reading with collections on the triggering write's domain (``GC_TRIGGER``,
the core's ``timing.gc.trigger``): the reading records it, its twin carries it, and the
predictions at other queue depths in bench/foreign/evaluate.py rebuild the twin with it
(the core's effect: crates/overprov-sim/tests/gc_trigger.rs)."""

from __future__ import annotations

import sys
from pathlib import Path

from overprov import engine
from overprov.calibrate import gc_blocking

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import evaluate  # noqa: E402


def test_the_twin_carries_the_key_only_for_the_writer_trigger():
    assert "trigger" not in gc_blocking.timing(4, 700.0, 32)["gc"]
    assert gc_blocking.timing(4, 700.0, 32, gc_trigger="writer")["gc"]["trigger"] == "writer"
    r = gc_blocking.BlockingReading(4, 700.0, 1.0, 32, 0.07, gc_trigger="writer")
    assert r.to_dict()["gc_trigger"] == "writer"
    assert r.twin_timing()["gc"]["trigger"] == "writer"
    # a drive file may set the key at its default: the shape check knows it
    assert engine.default_config()["timing"]["gc"]["trigger"] == "victim"


def test_the_reading_predicts_with_its_trigger(monkeypatch):
    """At no extra OP one trigger starts about WAF collections: on the writer's domain they
    run one after another, so the twin is slower than with them spread over its domains."""
    monkeypatch.setattr(gc_blocking, "USER_PAGES", 1 << 15)  # 128 MiB twins: seconds
    r = gc_blocking.BlockingReading(4, 700.0, 1.0, 32, 0.07, dies=4, dies_identified=True)
    spread = gc_blocking.predict(r, [0.0], jobs=1)[0.0]
    r.gc_trigger = "writer"
    on_writer = gc_blocking.predict(r, [0.0], jobs=1)[0.0]
    assert on_writer[1] == spread[1]  # the same FTL: the same WAF
    assert on_writer[0] < 0.8 * spread[0], (on_writer, spread)


def test_evaluate_rebuilds_the_twin_with_the_readings_trigger(monkeypatch):
    # the other queue depths are predicted with the reading's twin rebuilt from its record, as
    # for the page-offset rule (test_foreign_bench.py): the trigger must be kept in it
    monkeypatch.setattr(gc_blocking, "USER_PAGES", 1 << 15)
    mech = {"domains": 4, "program_us": 700.0, "chi2": 1.0, "native_op": 0.07, "weight": 1.0,
            "analytic_chi2": 9.0, "dies": 4, "dies_identified": True,
            "gc_trigger": "writer"}  # fmt: skip
    kept = evaluate._mechanism({"fit": {"gc_mechanism": mech}})
    assert kept["gc_trigger"] == "writer"
    others = [{"extra_op_percent": 0, "queue_depth": 4, "steady_iops": 100.0}]

    def qd4(m: dict) -> float:
        res = {"levels": [{"extra_op_percent": 0, "iops_pred": 1000.0}], "qd": 32,
               "gc_mechanism": m}  # fmt: skip
        return evaluate.other_queue_depths(res, others, jobs=1)[0]["iops_pred"]

    writer, victim = qd4(kept), qd4(kept | {"gc_trigger": "victim"})
    assert writer != victim, (writer, victim)
