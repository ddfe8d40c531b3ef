"""A calibrate folder (`overprov calibrate --out DIR`, prediction.json of schema
overprov.calibrate/1) in the report: the measured points, the predicted curve and its band,
drawn from the file the real command wrote."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from conftest import overprov
from overprov.report import plots, write_report
from overprov.report.load import load_inputs
from report_checks import check_page, figure_keys


@pytest.fixture(scope="module")
def waf_calibration(tmp_path_factory):
    """A calibration fitted to two WAF points (no drive written): WAF at 0–40% with its band."""
    out = tmp_path_factory.mktemp("cal") / "cal"
    res = overprov(
        "calibrate", "--waf-points", "0:7.63,40:1.37", "--extra-op", "0,10,20,30,40",
        "--out", str(out),
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    return out


def test_calibration_chart_holds_the_points_the_curve_and_the_band(waf_calibration):
    pred = json.loads((waf_calibration / "prediction.json").read_text())
    (src,) = load_inputs([waf_calibration])
    assert src.kind == "calibrate" and src.prediction == pred
    fig = plots.plot_calibration(src)
    (ax,) = [a for a in fig.axes if a.get_visible()]  # WAF only: no IOPS points were fitted
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    measured = lines["measured (fitted)"]
    assert list(measured.get_xdata()) == [0.0, 40.0]
    assert list(measured.get_ydata()) == [7.63, 1.37]
    levels = pred["levels"]
    assert list(lines["predicted"].get_ydata()) == [r["waf"] for r in levels]
    (band,) = ax.collections
    ys = band.get_paths()[0].vertices[:, 1]
    assert min(ys) == pytest.approx(min(r["waf_low"] for r in levels))
    assert max(ys) == pytest.approx(max(r["waf_high"] for r in levels))


def test_report_of_a_calibration(waf_calibration, tmp_path):
    out = tmp_path / "rep"
    write_report([waf_calibration], out)
    page = check_page(out)
    assert figure_keys(out) == {f"calibration-calibration-{waf_calibration.name}"}
    words = unescape(re.sub(r"<[^>]+>", " ", page))
    assert "calibration (a prediction, not a measurement)" in words
    pred = json.loads((waf_calibration / "prediction.json").read_text())
    for r in pred["levels"]:
        assert f"{r['waf']:.2f}" in words
        assert f"{r['waf_low']:.2f}–{r['waf_high']:.2f}" in words
    assert pred["interval"] in words
