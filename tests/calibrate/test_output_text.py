"""What ``overprov calibrate`` prints, read as a user reads it: the fitted times said as terms
of the model's form, no TRIM of nothing, progress on stderr while the twins are simulated, one
reading not called a mean, a fill counted in drive writes."""

from __future__ import annotations

import json
import re

import pytest
from overprov.calibrate import fit as fitmod
from overprov.calibrate.plan import design, parse_budget
from overprov.calibrate.summary import summary_text
from overprov.cli import main
from overprov.prediction_file import Prediction

#: Steady figures of sim:consumer-tlc-sata@4GiB as its default calibration measured them
#: (docs/calibrate.md, the README's example): their fit has a negative t_cmd.
MEASURED = [
    fitmod.Point(0.0, 9949.0, 0.01, 7.73, 0.02),
    fitmod.Point(40.0, 59657.0, 0.01, 1.38, 0.02),
]


def _prediction(fit: dict) -> Prediction:
    return Prediction(
        interval="80%", prediction_source="", workload="uniform", workload_flags="",
        waf_curve=None, levels=[], recommendation=None, fit=fit, twin=None, measurement=None,
    )  # fmt: skip


def test_a_negative_controller_time_is_said_to_be_a_model_term():
    """A fitted t_cmd below 0 was printed as "controller time per command -1.35 µs", read as
    a bug: it is printed as a term of 1/IOPS = t_cmd + WAF × t_page, with what below 0 means
    and the time of a write with no garbage collection (t_cmd + t_page), the figures unchanged."""
    s = fitmod.fit(MEASURED, fob_iops=90896.0)
    assert s.t_cmd_us < 0 < s.t_page_us + s.t_cmd_us
    fit = {"native_op": s.native_op, "t_page_us": s.t_page_us, "t_cmd_us": s.t_cmd_us,
           "surrogate": {"fixed": list(s.fixed)}, "twin_check": []}  # fmt: skip
    text = summary_text(_prediction(fit))
    line = next(x for x in text.splitlines() if x.startswith("fit:"))
    assert f"t_cmd {s.t_cmd_us:.2f} µs per command" in line
    assert f"t_page {s.t_page_us:.2f} µs per 4 KiB written to NAND" in line
    assert "controller time per command -" not in text
    after = text.splitlines()[text.splitlines().index(line) + 1 :]
    assert after[0].startswith("  (") and all(len(x) <= 100 for x in after[:4])
    note = " ".join(" ".join(after).split())  # the note, wrapped at 100 columns
    assert "1/IOPS = t_cmd + WAF × t_page" in note and "not times measured" in note
    assert "t_cmd below 0" in note
    assert f"t_cmd + t_page = {s.t_cmd_us + s.t_page_us:.2f} µs" in note


def test_a_controller_time_held_at_0_is_said_so():
    """Two steady IOPS figures and no WAF: t_cmd is held at 0, and the line says so rather than
    print a fitted 0."""
    s = fitmod.fit([fitmod.Point(0.0, 11000.0, 0.05), fitmod.Point(20.0, 25000.0, 0.05)])
    assert any(f.startswith("t_cmd_us") for f in s.fixed)
    fit = {"native_op": s.native_op, "t_page_us": s.t_page_us, "t_cmd_us": s.t_cmd_us,
           "surrogate": {"fixed": list(s.fixed)}, "twin_check": []}  # fmt: skip
    text = summary_text(_prediction(fit))
    assert "t_cmd held at 0 µs per command (too few figures to fit it)" in text
    assert "t_cmd below 0" not in text


def test_a_level_at_0_percent_trims_nothing_and_says_so():
    """At 0% extra OP nothing is left unused: a simulated drive said "simulated TRIM of pages
    N..N (0 pages)" where a file or a device says "nothing to discard"; the fill before it is
    counted in drive writes, as every other line counts writes; the QD4 probe's discard is
    labelled as its result is, not as a second 40% level, and so is its result."""
    from overprov.calibrate.measure import measure
    from overprov.profile.sim_target import SimTarget

    said: list[str] = []
    with SimTarget("sim:older-mlc-sata@1GiB") as t:
        assert t.discard_tail(t.capacity_bytes) == "nothing to discard"
        m = measure(t, design([0, 40], parse_budget("2dw")), said.append)
    assert [lv.queue_depth for lv in m.levels] == [None, None, 4]
    assert "0% extra OP: nothing to discard" in said, said
    trims = [s for s in said if s.startswith("40% extra OP") and "TRIM" in s]
    assert len(trims) == 2 and trims[1].startswith("40% extra OP at QD4: simulated TRIM"), trims
    # its result too (it read "40% extra OPqd4-: N IOPS": the round label's tag)
    assert any(re.match(r"40% extra OP at QD4: [\d,]+ IOPS", s) for s in said), said
    assert not any("(0 pages)" in s for s in said), said
    # the plain fill, or the graded one of a plan that dates the onset from empty in it
    # (plan.ONSET_FROM_EMPTY)
    fill = r"sequential fill: \d\.\d\d drive writes|graded fill: \d+ steps, \d\.\d+ drive writes.*"
    assert any(re.fullmatch(fill, s) for s in said), said


def test_a_figures_only_calibration_says_what_it_simulates(calibrated_once):
    """A figures-only calibration simulated for about a minute saying nothing (the help's
    example: 57 CPU s); each reading's twin is now announced on stderr, n of N, with its
    levels, and stdout keeps only the answer (here the JSON document: ``--json -``; the same
    calibration as the other tests of these figures read, made once)."""
    out, printed = calibrated_once("--waf-points", "0:2.85", "--extra-op", "0,6.25")
    err = (out.parent / "stderr.txt").read_text(encoding="utf-8")
    lines = [x for x in err.splitlines() if x.startswith("calibrate: reading ")]
    assert len(lines) == 4, err  # the four GC designs of uniform figures
    for i, line in enumerate(lines):
        assert line.startswith(f"calibrate: reading {i + 1} of 4 (effective spare, "), line
        assert line.endswith("its twin simulated at 2 levels"), line  # WAF only: no refining
    assert "calibrate: " not in printed and json.loads(printed)["levels"]
    assert "steady IOPS" in err  # the text, on stderr when the document is on stdout


def test_no_progress_silences_it(capsys):
    """Without ``--json -`` the text is the answer on stdout, and ``--no-progress`` leaves
    stderr without the readings' lines."""
    rc = main(["calibrate", "--waf-points", "0:2.85", "--extra-op", "0,6.25", "--no-progress"])
    assert rc == 0
    out, err = capsys.readouterr()
    assert "calibrate: reading" not in err, err
    assert "calibrate: " not in out and "steady IOPS" in out


@pytest.mark.slow  # a twin refined and simulated at one level (about 4 CPU s)
def test_one_reading_is_not_called_a_mean(one_figure_no_out):
    """One steady figure and FOB leave one reading (the others set aside by weight): its
    source said "the weighted geometric mean of 1 readings (...), each a twin simulated at
    every level: ; readings holds ...". Which readings are left is decided from the figures
    before any twin is simulated, so one level to predict shows it as four did (17 CPU s);
    the run is the one test_calibrate_flags.py reads for writing nothing (conftest.py)."""
    rc, printed, _, _ = one_figure_no_out
    assert rc == 0
    doc = json.loads(printed)
    source = doc["prediction_source"]
    assert "mean of 1 readings" not in source and ": ;" not in source, source
    assert source.startswith("the one reading the figures leave, its twin simulated"), source
    assert len(doc["readings"]) == 1, doc["readings"]


def test_typed_figures_are_named_in_the_twin_as_a_reader_reads_them(calibrated_once):
    """twin.toml's source named the figures "0%:/2.85" ("20%:25000.0/" with IOPS): each is
    now its level, its IOPS with thousands separators and its WAF."""
    out, _ = calibrated_once("--waf-points", "0:2.85", "--extra-op", "0,6.25")
    source = next(
        line for line in (out / "twin.toml").read_text(encoding="utf-8").splitlines()
        if line.startswith("source = ")
    )  # fmt: skip
    assert source == 'source = "fitted to user points 0%: WAF 2.85"', source


def test_points_text_names_iops_queue_depth_waf_and_fob():
    from overprov.calibrate.cli import points_text, user_points

    points = user_points("0:11000,20:25000,40:762@qd4", "0:2.85")
    points.append(fitmod.Point(0.0, 90000.0, 0.05, fresh=True))
    assert points_text(points) == (
        "0%: 11,000 IOPS, WAF 2.85; 20%: 25,000 IOPS; 40%: 762 IOPS at QD4; FOB: 90,000 IOPS"
    )


def test_equal_weights_do_not_name_a_largest(calibrated_once):
    """One WAF figure leaves the four GC designs' readings equal weights; twin.toml was said to
    be the twin "of effective_spare (the largest weight)"."""
    out, _ = calibrated_once("--waf-points", "0:2.85", "--extra-op", "0,6.25")
    doc = json.loads((out / "prediction.json").read_text(encoding="utf-8"))
    assert len({round(r["weight"], 9) for r in doc["readings"].values()}) == 1
    source = doc["prediction_source"]
    assert "(the largest weight)" not in source, source
    assert "twin.toml is the twin of effective_spare (the first of equal weights)" in source
