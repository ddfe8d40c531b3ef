"""A small PNG of a calibration: measured points, the predicted curve and its 80% band."""

from __future__ import annotations

from pathlib import Path

from overprov.prediction_file import Prediction

#: The band's legend entry (calibrate's interval is always 80%: ``uncertainty.INTERVAL``).
INTERVAL_LABEL = "predicted, 80% interval"


def write_chart(prediction: Prediction, path: Path) -> Path | None:
    """Steady IOPS against extra OP; None when nothing predicts IOPS (WAF-only points)."""
    rows = [r for r in prediction.levels if r.steady_iops]
    if not rows:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [r.extra_op_percent for r in rows]
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100, layout="constrained")
    ax.fill_between(
        x,
        [r.steady_iops_low for r in rows],
        [r.steady_iops_high for r in rows],
        alpha=0.25,
        label=INTERVAL_LABEL,  # a fixed label: prediction.interval is a sentence
    )
    ax.plot(x, [r.steady_iops for r in rows], marker=".", label="predicted (fitted model)")
    if all(r.twin_iops for r in rows):
        ax.plot(x, [r.twin_iops for r in rows], linestyle="--", linewidth=1,
                label="twin, simulated")  # fmt: skip
    pts = [p for p in prediction.fit["points"] if p.get("iops")]
    ax.plot(
        [p["extra_op_percent"] for p in pts],
        [p["iops"] for p in pts],
        "o",
        color="black",
        label="measured (fitted)",
    )
    target = prediction.recommendation.target_iops if prediction.recommendation else None
    if target:
        ax.axhline(target, color="grey", linestyle="--", linewidth=1, label="target IOPS")
    ax.set_xlabel("extra over-provisioning (% of capacity left unused)")
    ax.set_ylabel("steady random-write IOPS (4 KiB, QD32)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.savefig(path)
    plt.close(fig)
    return path
