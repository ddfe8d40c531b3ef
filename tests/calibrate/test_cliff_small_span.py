"""The twin's mixed series from purged as long as its own mix writes the fitted cache 2.25
times (``cliff_span``; with ``cliff_prediction.PROBES_IN_PREDICTION`` only:
bench/results/cliffsmall/RULE.md)."""

from __future__ import annotations

from typing import Any

from overprov.calibrate import cliff, cliff_span, read_probes, validation


def _drive() -> tuple[dict, float]:
    drive = validation.drive(201)
    return drive, float(validation.scale_for(drive, 2**28))


def test_the_form_is_off_by_default():
    assert cliff_span.SPAN_FROM_MIX is False


def test_a_slower_mix_runs_a_longer_series():
    drive, scale = _drive()
    kw = {"qd": 8, "read_percent": 70}
    fast = cliff_span.mix_seconds(drive, scale, 1e9, {**kw, "read_slot_us": 50.0})
    slow = cliff_span.mix_seconds(drive, scale, 1e9, {**kw, "read_slot_us": 2000.0})
    assert 0 < fast < slow
    # the series' bytes: the cache's 2.25 times, at the probe's rate
    assert cliff_span.mix_seconds(drive, scale, 2e9, {**kw, "read_slot_us": 50.0}) == (2 * fast)


#: cliff_past's loop arguments (reads of written pages past the cache held and in order)
LOOP_KW = {"read_slot_after_ns": 400_000, "reads_in_order": True}


def _predict_with(monkeypatch, span: bool, in_proportion: bool = False) -> dict[str, Any]:
    """read_probes.predict's call of cliff.predict (its keyword arguments), the selection
    and the span's probe stubbed: what the form hands the prediction."""
    drive, _ = _drive()
    fit = cliff.CacheFit(cache_bytes=3e9, slc_program_us=30.0, measured=None)
    chosen = read_probes.Selection("unit", drive, fit, 300.0)
    seen: dict[str, Any] = {}
    monkeypatch.setattr(read_probes, "select_program", lambda *a, **k: chosen)
    monkeypatch.setattr(cliff, "fitted_drive", lambda d, f, *a: d)
    monkeypatch.setattr(cliff_span, "mix_seconds", lambda d, sc, c, kw: seen.update(kw) or 90.0)
    monkeypatch.setattr(cliff, "predict", lambda *a, **k: seen.update(predict=k))
    monkeypatch.setattr(cliff_span, "SPAN_FROM_MIX", span)
    monkeypatch.setattr(cliff_span, "INTERVALS_IN_PROPORTION", in_proportion)
    probe = read_probes.Probe(8, 70, 100, 0, 300.0)
    read_probes.predict(
        drive, None, probe, probe, fit_qd=32, qd=8, read_percent=70, seconds=30.0,
        interval_s=0.5, scale=0.01, unwritten_read_us=60.0, command_ceiling_iops=1e5,
        loop_kw=LOOP_KW,
    )  # fmt: skip
    return seen


def test_off_the_series_keeps_its_length(monkeypatch):
    seen = _predict_with(monkeypatch, span=False)
    assert (seen["predict"]["seconds"], seen["predict"]["interval_s"]) == (30.0, 0.5)
    assert "read_slot_us" not in seen  # no probe run


def test_on_the_series_runs_as_long_as_its_own_mix_says(monkeypatch):
    seen = _predict_with(monkeypatch, span=True)
    assert (seen["predict"]["seconds"], seen["predict"]["interval_s"]) == (90.0, 0.5)
    # the probe ran the prediction's own mix: its slots and ceiling, the cache's bytes
    assert seen["read_slot_us"] == 300.0 and seen["unwritten_read_us"] == 60.0
    assert seen["command_ceiling_iops"] == 1e5 and seen["read_slot_until_bytes"] == 3e9
    # and the form past the cliff the prediction runs (bench/results/cliffloss/RULE.md judges
    # the span with cliff_past's reads in order): the probe's rate is its mix's
    assert seen["loop_kw"] == LOOP_KW == seen["predict"]["loop_kw"]
    longer = _predict_with(monkeypatch, span=True, in_proportion=True)
    assert longer["predict"]["interval_s"] == 1.5  # as many intervals as before
