"""The WAF card says what the runs showed: a replayed trace that wrote too little for garbage
collection to erase a block got "20% extra OP cuts WAF to 1.00, 1.0× less than at 0% (1.00):
about 1.0× the endurance" and "1.0× less NAND wear" — a gain that was not measured (WAF 1.00 at
every level, 0 erases: OP was never used). Words from the data: no erase says GC never ran;
WAF no lower at more OP says so."""

from __future__ import annotations

from overprov.report import findings
from test_report_plots import _sim_source


def _no_gc_trace():
    src = _sim_source()
    src.workload, src.uniform_workload = "trace", False
    for p in src.phases:
        p.waf = 1.0
        p.erase = {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0}
    return src


def test_no_block_erased_says_gc_never_ran_and_claims_no_gain():
    src = _no_gc_trace()
    headline, _ = findings.waf_conclusion(src)
    assert "cuts" not in headline and "less" not in headline
    assert headline.startswith("No block was erased in any run: garbage collection never ran")
    assert "WAF is 1.00 at every OP level (0% to 20%)" in headline
    big, note = findings.waf_big_figure(src)
    assert (big, note) == ("WAF 1.00", "no block erased: garbage collection never ran")


def test_waf_no_lower_at_more_op_is_said_as_such():
    src = _sim_source()
    lo, hi = src.phases
    hi.waf = lo.waf * 1.002  # GC ran (erases in the fixture) but more OP did not lower WAF
    headline, _ = findings.waf_conclusion(src)
    assert headline.startswith(
        f"20% extra OP (ρ 34.2%) leaves WAF at {hi.waf:.2f} ({lo.waf:.2f} at 0%): more OP "
        "did not lower it here."
    )
    assert findings.waf_big_figure(src) == (f"WAF {hi.waf:.2f}", "at 0% and 20% alike")


def test_a_real_gain_keeps_its_words():
    src = _sim_source()
    headline, _ = findings.waf_conclusion(src)
    assert " cuts WAF to " in headline
    assert findings.waf_big_figure(src)[1] == "less NAND wear at 20% than at 0%"
