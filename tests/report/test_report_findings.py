"""The words of the report come from the data: conclusion, recommendation, comparison,
endurance."""

from __future__ import annotations

from pathlib import Path

import pytest
from overprov import models, smart
from overprov.report import endurance_table, findings
from overprov.report.findings import Options
from test_report_plots import _profile_source, _sim_source


def test_conclusion_names_the_recommended_op_and_its_gain_over_zero():
    src = _profile_source()  # 0%: 12,900 (not steady), 20%: 31,000, 40%: 36,000
    src.target_iops = 30_000
    rec = findings.recommendation(src, None)
    assert rec["method"] == "target" and rec["extra_op_percent"] == 20.0
    headline, more = findings.iops_conclusion(src, rec)
    assert headline == (
        "20% extra OP sustains 31,000 IOPS, 2.4× the 0% figure (12,900 IOPS, not steady)."
    )
    assert any("smallest OP level" in m and "30,000 IOPS" in m for m in more)
    assert any(m.startswith("Not steady") and "0% after 6 rounds" in m for m in more)
    assert any("99% of writes completed within 800 µs and 99.9% within 5,000 µs" in m for m in more)


def test_other_numbers_give_other_words():
    src = _profile_source(iops=(10_000, 28_000, 29_000))
    rec = findings.recommendation(src, 25_000)
    headline, _ = findings.iops_conclusion(src, rec)
    assert headline.startswith("20% extra OP sustains 28,000 IOPS, 2.8× the 0% figure")


def test_no_phase_meets_the_target():
    src = _profile_source()
    rec = findings.recommendation(src, 50_000)
    assert rec["extra_op_percent"] is None
    headline, more = findings.iops_conclusion(src, rec)
    # 20%: 31,000, 40%: 36,000 → 250 IOPS per point: 50,000 is beyond 90%, the cap
    assert headline == (
        "Closest: 40% → 36,000 IOPS, 72% of the 50,000 IOPS target; test 50–90% extra OP."
    )
    assert more[0] == (
        "No OP level tested meets the target: no steady phase reached 50,000 IOPS "
        "(best: 36,000 IOPS at OP 40%)."
    )
    assert more[1] == (
        "Best steady figure: 36,000 IOPS at 40% extra OP, 2.8× the 0% figure "
        "(12,900 IOPS, not steady)."
    )


def test_near_miss_names_the_closest_level_and_where_to_test():
    """The issue's example: 40% gives 28,433 IOPS against a 30,000 target; the line through
    20% and 40% reaches 30,000 at 49%, so the next levels to test are 50–60%."""
    src = _profile_source(iops=(10_000, 25_000, 28_433))
    for p in src.phases:
        p.steady, p.steady_iops = True, p.iops_mean
    rec = findings.recommendation(src, 30_000)
    headline, _ = findings.iops_conclusion(src, rec)
    assert headline == (
        "Closest: 40% → 28,433 IOPS, 95% of the 30,000 IOPS target; test 50–60% extra OP."
    )


def test_knee_in_plain_words():
    src = _profile_source(iops=(10_000, 30_000, 32_000))
    for p in src.phases:
        p.steady, p.steady_iops = True, p.iops_mean
    rec = findings.recommendation(src, None)
    _, more = findings.iops_conclusion(src, rec)
    assert more[0] == (
        "It is the knee of the curve: up to 20% each step of OP buys a lot (0% → 20%: +200%); "
        "beyond it the gain shrinks (20% → 40%: +7%), so more OP costs capacity for less return."
    )


def test_knee_without_a_target():
    src = _profile_source(iops=(10_000, 30_000, 32_000))
    for p in src.phases:
        p.steady, p.steady_iops = True, p.iops_mean
    rec = findings.recommendation(src, None)
    assert rec["method"] == "knee" and rec["extra_op_percent"] == 20.0
    _, more = findings.iops_conclusion(src, rec)
    assert more[0].startswith("It is the knee of the curve")


def test_waf_conclusion_and_model_agreement():
    src = _sim_source()
    headline, more = findings.waf_conclusion(src)
    lo, hi = src.phases
    ratio = lo.waf / hi.waf
    assert headline.startswith(
        f"20% extra OP (ρ 34.2%) cuts WAF to {hi.waf:.2f}, {ratio:.1f}× less"
    )
    assert more == [
        f"The greedy model agrees within 1.0% (largest gap at 0%: simulated {lo.waf:.3f}, "
        f"model {models.waf_greedy(0.0737, 64):.3f})."
    ]
    assert findings.waf_big_figure(src) == (f"{ratio:.1f}×", "less NAND wear at 20% than at 0%")


def test_comparison_of_two_drives_at_shared_op():
    a, b = _profile_source("A"), _profile_source("B", (10_000, 15_500, 18_000))
    lines = findings.comparison([a, b])
    assert lines[-1] == "At 40% OP: A 36,000 IOPS, B 18,000 IOPS — A is 2.0× B."
    # the 0% level is compared too
    assert lines[0].startswith("At 0% OP: A 12,900 IOPS (not steady), B 10,000 IOPS")


def test_comparison_refuses_a_ratio_between_unlike_inputs():
    a, b = _profile_source("A"), _profile_source("B", (10_000, 15_500, 18_000))
    a.comparison_keys = {"drive": "x", "scale": "1/32", "round length": "5 s"}
    b.comparison_keys = {"drive": "x", "scale": "1/1,024", "round length": "5 s"}
    lines = findings.comparison([a, b])
    assert lines[0] == (
        "The inputs differ in scale (A: 1/32, B: 1/1,024): no ratio is computed between them, "
        "as it would mix the drives with the tests."
    )
    assert lines[-1] == (
        "At 40% OP: A 36,000 IOPS, B 18,000 IOPS — no ratio (unlike inputs, above)."
    )
    assert not any("×" in line for line in lines)


def test_sim_endurance_from_pe_cycles():
    src = _sim_source()
    (table,) = endurance_table.endurance_tables([src], Options(nand="tlc", years=5))
    assert "TBW" in table.columns and "DWPD" in table.columns
    p = src.phases[1]
    tbw = 1.0737e9 * 1000 / p.waf
    assert table.raw[1]["tbw_bytes"] == pytest.approx(tbw)
    assert table.raw[1]["dwpd"] == pytest.approx(tbw / (p.user_bytes * 365 * 5))
    assert table.raw[1]["endurance_vs_lowest_op"] == pytest.approx(src.phases[0].waf / p.waf)


def test_sim_endurance_without_rating_is_relative_only():
    (table,) = endurance_table.endurance_tables([_sim_source()], Options())
    assert "TBW" not in table.columns and "endurance vs lowest OP" in table.columns
    assert any("--pe-cycles" in n for n in table.notes)


def test_profile_endurance_needs_a_rating_and_uses_the_plan_models():
    src = _profile_source()
    assert endurance_table.endurance_tables([src], Options()) == []
    (table,) = endurance_table.endurance_tables([src], Options(rated_tbw=600))
    assert [r["extra_op_percent"] for r in table.raw] == [0.0, 20.0, 40.0]
    waf0 = models.waf_greedy(0.073741824, 256)
    assert table.raw[0]["tbw_bytes"] == pytest.approx(600e12)  # rated at the native OP
    assert table.raw[2]["tbw_bytes"] == pytest.approx(600e12 * waf0 / table.raw[2]["waf"])
    assert table.rows[1][-1] == "31,000"


def test_profile_endurance_from_a_smart_snapshot():
    path = (
        Path(__file__).resolve().parents[1]
        / "data"
        / "smart"
        / "SAMSUNG_MZ7WD240HAFV-00003_21.json"
    )
    rep = smart.lifetime_report(smart.parse_snapshot(smart.load_json_file(path), str(path)))
    used, host = rep.endurance.percentage_used, rep.host_bytes
    assert used == 9 and host
    (table,) = endurance_table.endurance_tables([_profile_source()], Options(smart=[rep]))
    # host writes so far × 100 / percentage used, taken as the rating at the native OP
    assert table.raw[0]["tbw_bytes"] == pytest.approx(host * 100 / used)
    assert "SMART of SAMSUNG MZ7WD240HAFV-00003" in table.basis
    facts = dict(endurance_table.smart_facts(Options(smart=[rep])))
    assert any("WAF ≈ 3.60" in v for v in facts.values())
    assert any("; days left: about " in v for v in facts.values())  # labelled, as in smart
