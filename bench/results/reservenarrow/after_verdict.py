"""Read after the verdict (judges nothing): on each FEMU case of
bench/results/reservenarrow/RULE.md, whether the narrowing let the near-onset form act (read late,
no design's onset-pinned reserve reading offered: ``spare_near_onset.near_allowed`` with the
three flags on) and, where the late start alone was run (burstplain's, reservespare's and
burststart's stored late arms, this rule's late arm), whether narrow predicts the same as late
alone (``same_prediction``, 1e-9).

    PYTHONPATH=python python bench/results/reservenarrow/after_verdict.py > after_verdict.txt
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from cpu_clock import cpu_s  # noqa: E402
from overprov import measurement_file
from overprov.calibrate import burst_start, gc_reserve, spare_near_onset, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.reserve_twin_check import onset_from_empty

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

jd = load_script("reservenarrow_judge", "bench/results/reservenarrow/judge.py")
R, rs, bp = jd.R, jd.rs, jd.bp


def cases() -> list[tuple[str, Path, Path, Path | None]]:
    """(label, off folder, narrow folder, late folder or None) of every FEMU case."""
    out = []
    for n in (*bp.FRESH, *rs.NEW, *jd.NEW):
        src = R / "femu" if n in jd.NEW else rs.R / "femu" if n in rs.NEW else bp.R / "femu"
        late = (R if n in jd.NEW else src.parent) / "femu" / f"{n}-late"
        out.append((n, src / f"{n}-off", R / "femu" / f"{n}-narrow", late))
    for label, name, _, arms in bp.stored_cases():
        sub = "stored" if label == "half B" else "guard"
        out.append((f"{label} {name}", arms["off"], R / sub / f"{name}-narrow", arms.get("late")))
    return out


def near_acts(folder: Path) -> str:
    """Whether no design's pinned reading is offered, the figures read late."""
    m = measurement_file.load(folder / measurement_file.NAME)
    points, _ = fitmod.split_queue_depths(predmod.points_from(m), fitmod.WORKLOAD_QD)
    onset = onset_from_empty(m)
    if onset is None:
        return "no onset"
    cv = uncertainty.weighing_rel_sd(uncertainty.model_form_for(points, False))
    forms = gc_reserve.design_forms(onset, cv)
    return "no pinned reading offered" if spare_near_onset.near_allowed(forms, points) else "pinned"


def main() -> int:
    t0 = cpu_s()
    burst_start.LATE_START = spare_near_onset.SPARE_NEAR_ONSET = True
    spare_near_onset.ONLY_WHERE_NONE_PINNED = True
    for label, off, narrow, late in cases():
        same = "no late arm"
        if late is not None:
            same = "=" if bp.same_prediction(narrow, late) else "differs from"
            same = f"narrow {same} late"
        print(f"{label}: {near_acts(off)}; {same}")
    print(f"CPU s (user + system, bench/cpu_clock.py): {cpu_s() - t0:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
