"""The report's checks of its inputs against themselves (overprov.report.sanity): each check
is tested on a source that has the defect and on one that does not, and the page and the
``report --json`` document carry what the checks found for a real simulated profile."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from overprov import smart
from overprov.json_schemas import validate_document
from overprov.prediction_file import PredictedLevel, Prediction
from overprov.report.model import Phase, Source, Span
from overprov.report.sanity import (
    fob_below_steady,
    p99_predicted_vs_measured,
    run_checks,
    smart_of_another_drive,
    steady_window_in_transition,
    waf_not_measured,
    waf_predicted_vs_measured,
)

SMART = (
    Path(__file__).resolve().parents[1] / "data" / "smart" / "SAMSUNG_MZ7WD240HAFV-00003_21.json"
)


def _source(phases: list[Phase], **kw) -> Source:
    return Source(
        kind=kw.pop("kind", "profile"),
        path=Path("x"),
        label="drive",
        title="drive",
        status="complete",
        date="",
        phases=phases,
        **kw,
    )


def _phase(op: float, steady: float | None, **kw) -> Phase:
    return Phase(
        op_percent=op, label=f"op{op:g}", status="steady", steady=True, steady_iops=steady, **kw
    )


def test_fob_below_steady_is_called_out():
    fob_step = Phase(op_percent=-1, label="fob", status="fob", steady=False)
    fob_step.wsat_bytes = [0.0, 2.6 * 4e9]
    bad = _source(
        [_phase(0, 30_000.0), _phase(30, 49_439.0)],
        fob_iops=42_804.0,
        capacity_bytes=4e9,
        wsat_before=[fob_step],
    )
    (check,) = fob_below_steady(bad)
    assert check.id == "fob-below-steady"
    assert "42,804" in check.message and "49,439" in check.message and "2.6 fills" in check.message
    good = _source([_phase(0, 30_000.0), _phase(30, 49_439.0)], fob_iops=90_000.0)
    assert fob_below_steady(good) == []
    # a timed simulation's own FOB interval, per OP level
    timed = _source([_phase(0, 20_000.0, fob_iops=15_000.0)], kind="simulate")
    assert [c.id for c in fob_below_steady(timed)] == ["fob-below-steady"]


def test_a_steady_window_over_a_transition_is_called_out():
    p = _phase(20, 40_000.0)
    p.spans = [Span(0, 30, "fob"), Span(30, 70, "transition"), Span(60, 90, "steady-window")]
    (check,) = steady_window_in_transition(_source([p], kind="simulate"))
    assert check.id == "steady-window-in-transition" and "10 s" in check.message
    q = _phase(20, 40_000.0)
    q.spans = [Span(30, 60, "transition"), Span(60, 90, "steady"), Span(60, 90, "steady-window")]
    assert steady_window_in_transition(_source([q], kind="simulate")) == []


def test_a_quoted_waf_far_from_the_measured_one_is_called_out():
    p = _phase(0, None, waf=1.0, waf_whole_run=1.399, waf_window="steady window: intervals 3–9")
    (check,) = waf_not_measured(_source([p], kind="simulate"))
    assert "1.00" in check.message and "1.40" in check.message and "-29%" in check.message
    close = _phase(0, None, waf=2.0, waf_whole_run=2.05)
    assert waf_not_measured(_source([close], kind="simulate")) == []


def _smart_report():
    return smart.lifetime_report(smart.parse_snapshot(smart.load_json_file(SMART), str(SMART)))


def test_smart_of_another_drive_is_called_out():
    rep = _smart_report()
    snap = rep.snapshot
    other = _source([_phase(0, 1.0)], drive_ids=[("WDC WD20EFRX", "WD-123")])
    (check,) = smart_of_another_drive([other], [rep])
    assert check.id == "smart-other-drive" and snap.model in check.message
    same = _source([_phase(0, 1.0)], drive_ids=[(snap.model, snap.serial)])
    assert smart_of_another_drive([same], [rep]) == []
    simulated = _source([_phase(0, 1.0)], simulated=True, kind="simulate")
    assert [c.id for c in smart_of_another_drive([simulated], [rep])] == ["smart-other-drive"]
    unnamed = _source([_phase(0, 1.0)])
    assert [c.id for c in smart_of_another_drive([unnamed], [rep])] == ["smart-unmatched"]
    assert run_checks([same], [SimpleNamespace(snapshot=snap)]) == []


def test_the_checks_of_a_simulated_profile_are_on_the_page_and_in_json(
    sim_profile, tmp_path, overprov_cli
):
    """A scaled simulated profile: whether its FOB round came out below steady state is read
    from its own results.json, and the page and the JSON say so exactly then."""
    doc = json.loads((sim_profile / "results.json").read_text())
    fob = doc["steps"]["fob"]["round"]["iops"]
    steady = max(p["steady_iops"] for p in doc["phases"] if p.get("steady_iops") is not None)
    out, js = tmp_path / "rep", tmp_path / "r.json"
    rc, _, err = overprov_cli("report", str(sim_profile), "--out", str(out), "--json", str(js))
    assert rc == 0, err
    rdoc = json.loads(js.read_text())
    validate_document(rdoc, rdoc["schema"], "report --json")
    ids = [c["id"] for c in rdoc["checks"]]
    page = (out / "report.html").read_text()
    below = fob < 0.98 * steady
    assert ("fob-below-steady" in ids) == below
    assert ("ran past the write cliff" in page) == below
    for c in rdoc["checks"]:
        assert c["message"].split(":")[0] in page


def _calibration(predicted: dict, measured: dict) -> Source:
    """A calibration predicting ``predicted`` and measuring ``measured`` at 0% and 40%."""
    levels = [PredictedLevel(x, **predicted[x]) for x in (0.0, 20.0, 40.0)]
    src = _source([], kind="calibrate")
    src.prediction = Prediction(
        interval="80%", prediction_source="the twin", workload="uniform random writes",
        workload_flags="", waf_curve=None, levels=levels, recommendation=None, fit={},
        twin=None, measurement=None,
    )  # fmt: skip
    src.measured_levels = [
        {"extra_op_percent": x, "steady_iops": 1000.0, **measured[x]} for x in (0.0, 40.0)
    ]
    return src


def test_a_predicted_p99_far_from_the_measured_one_is_called_out():
    """The figures of a real calibration of sim:consumer-tlc-sata@2GiB: the twin predicted
    49,917 µs at 0% where 96,469 µs was measured."""
    pred = {0.0: {"p99_latency_us": 49_917.0}, 20.0: {"p99_latency_us": 1_802.0},
            40.0: {"p99_latency_us": 1_081.0}}  # fmt: skip
    meas = {0.0: {"p99_latency_us": 96_469.0}, 40.0: {"p99_latency_us": 1_200.0}}
    (check,) = p99_predicted_vs_measured(_calibration(pred, meas))
    assert check.id == "p99-predicted-vs-measured"
    assert "at 0%" in check.message and "0.52×" in check.message and "96,469" in check.message
    meas[0.0]["p99_latency_us"] = 60_000.0  # within 1.5×
    assert p99_predicted_vs_measured(_calibration(pred, meas)) == []
    meas[40.0]["p99_latency_us"] = None  # nothing measured: nothing to compare
    assert p99_predicted_vs_measured(_calibration(pred, meas)) == []


def test_a_predicted_waf_far_from_the_measured_one_is_called_out():
    pred = {0.0: {"waf": 8.21}, 20.0: {"waf": 2.16}, 40.0: {"waf": 1.414}}
    meas = {0.0: {"waf": 8.12}, 40.0: {"waf": 1.30}}
    (check,) = waf_predicted_vs_measured(_calibration(pred, meas))
    assert check.id == "waf-predicted-vs-measured"
    assert "at 40%" in check.message and "1.41" in check.message and "+9%" in check.message
    meas[40.0]["waf"] = 1.385  # +2%
    assert waf_predicted_vs_measured(_calibration(pred, meas)) == []
    # a profile's phases are not a calibration's levels
    assert waf_predicted_vs_measured(_source([_phase(0, 1.0, waf=3.0)])) == []


@pytest.mark.parametrize(
    "check",
    [
        fob_below_steady,
        steady_window_in_transition,
        waf_not_measured,
        p99_predicted_vs_measured,
        waf_predicted_vs_measured,
    ],
)
def test_every_check_is_quiet_on_a_source_without_phases(check):
    assert check(_source([])) == []
