"""prediction.png's legend: a fixed short label for the band, whatever the interval's sentence
(its legend was the whole 259-character sentence where it had no colon early), and no layout
warning."""

from __future__ import annotations

import dataclasses
import warnings
from pathlib import Path

import matplotlib.pyplot as plt
from overprov import prediction_file
from overprov.calibrate.chart import INTERVAL_LABEL, write_chart

#: A stored calibration with IOPS levels (a FEMU drive, bench/foreign/results).
STORED = (
    Path(__file__).resolve().parents[2]
    / "bench/foreign/results/femu-end-to-end/femu-6lun-372blk-thres68-3ms-off"
)


def test_the_band_has_a_short_fixed_label(tmp_path, monkeypatch):
    pred = prediction_file.load(STORED)
    long = dataclasses.replace(pred, interval="80% for the combined readings, " + "x" * 240)
    shown = []
    monkeypatch.setattr(plt, "close", shown.append)  # keep the figure to read its legend
    for i, p in enumerate((pred, long)):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # "Tight layout not applied" among them
            assert write_chart(p, tmp_path / f"{i}.png") == tmp_path / f"{i}.png"
    for fig in shown:
        labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
        assert labels[0] == INTERVAL_LABEL == "predicted, 80% interval"
        assert max(map(len, labels)) <= 30, labels
