"""bench/results/qdwaf/tally.py: a WAF at two queue depths read from a level's rounds and from a
truth's series, the noise beside it, and the held-out targets a case misses."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("qdwaf_tally", ROOT / "bench/results/qdwaf/tally.py")
tally = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tally)


def test_misses_by_the_held_out_targets():
    assert not tally.misses(0.05, 0.10, 0.20)
    assert tally.misses(0.051, None, None)
    assert tally.misses(None, 0.11, 0.15)
    assert tally.misses(0.01, 0.05, 0.21)
    assert not tally.misses(None, None, None)


def test_weighted_se_of_equal_weights_is_the_mean_standard_error():
    mean, se = tally.weighted_se([(1.0, 1.0), (2.0, 1.0), (3.0, 1.0)])
    assert mean == 2.0
    assert math.isclose(se, 1.0 / math.sqrt(3))
    assert tally.weighted_se([(1.0, 1.0)]) is None


def _round(label: str, host: int, nand: int) -> dict:
    return {"label": label, "host_bytes": host, "nand_bytes": nand}


def test_probe_rounds_are_read_apart_from_the_level():
    # level at 40%: two rounds of WAF 2; probe at QD4: two rounds of WAF 3 then 1
    rounds = [_round("fill-001", 100, 100), _round("op40-r001", 200, 300),
              _round("op40-r002", 300, 500), _round("op40-qd4-r001", 400, 800),
              _round("op40-qd4-r002", 500, 900)]  # fmt: skip
    m = {"rounds": rounds}
    main = {"extra_op_percent": 40.0, "queue_depth": None, "window_rounds": 2}
    probe = {"extra_op_percent": 40.0, "queue_depth": 4, "window_rounds": 2}
    assert tally.level_round_wafs(m, main) == [(2.0, 100.0), (2.0, 100.0)]
    assert tally.level_round_wafs(m, probe) == [(3.0, 100.0), (1.0, 100.0)]


def _level(x: float, qd: int, waf: float, series: list[float]) -> dict:
    points = [{"span_writes": float(i + 1), "waf": w} for i, w in enumerate(series)]
    window = {"span_writes": [1.0, float(len(series))]}
    return {"extra_op_percent": x, "queue_depth": qd, "steady_waf": waf,
            "steady_window": window, "series": points}  # fmt: skip


def test_truth_rows_flag_a_waf_that_moves_with_queue_depth_beyond_its_noise():
    doc = {"levels": [_level(0, 32, 4.0, [4.0, 4.02, 3.98, 4.0]),
                      _level(0, 4, 3.4, [3.4, 3.41, 3.39, 3.4]),
                      _level(40, 32, 1.3, [1.3, 1.31, 1.29, 1.3]),
                      _level(40, 4, 1.3, [1.3, 1.31, 1.29, 1.3])]}  # fmt: skip
    rows = tally.truth_rows("X", "case", Path("t.json"), doc, 32, (0.2, None, None))
    by = {r["level"]: r for r in rows}
    assert math.isclose(by[0.0]["d"], -0.15)
    assert by[0.0]["miss"]
    assert tally.flagged(by[0.0], 0.03, 3.0)
    assert not tally.flagged(by[40.0], 0.03, 3.0)
    assert not tally.flagged(by[0.0], 0.03, 3.0, levels=(40.0,))
