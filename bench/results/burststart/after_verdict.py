"""Read after the verdict (judges nothing): condition 4(b)'s figures over the 11 stored half-B
cases both arms predicted (the 37 × 74 case refused with the flag on left out), and the refused
case's 0% and 40% figures as the points read them.

    PYTHONPATH=python python bench/results/burststart/after_verdict.py
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from overprov.calibrate import burst_cycle

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
judge = load_script("judge", HERE / "judge.py")


def main() -> int:
    pairs = []
    for line in (HERE / "stored_half.txt").read_text().splitlines():
        case, truth_path, name = line.split()
        truth = json.loads(Path(truth_path).read_text())
        a = judge.judged(HERE / "stored" / f"{name}-on", truth)
        b = judge.judged(HERE / "stored" / f"{name}-off", truth)
        if a is None or b is None:
            m = judge.measurement_file.load(Path(case) / judge.measurement_file.NAME)
            curve = judge.e2e.truth_curve(truth)
            off, on = judge.forty(Path(case), truth, False), judge.forty(Path(case), truth, True)
            stored0 = m.levels[0].waf
            burst_cycle.read_first_level(m)  # the 0% figure as the points read it
            print(f"{name}: refused with the flag {'on' if a is None else 'off'}; 40% WAF / truth"
                  f" - 1 off {100 * off[0]:+.1f}% on {100 * on[0]:+.1f}%; the 0% level's WAF "
                  f"{stored0:.3f} stored, {m.levels[0].waf:.3f} through the burst cycle, the "
                  f"truth's {curve[0.0]['steady_waf']:.3f}")  # fmt: skip
            continue
        pairs.append((a, b))
    print(f"{len(pairs)} cases with both arms predicted:")
    for k in ("waf_worst", "iops_median", "iops_worst"):
        off = statistics.median(b[k] for _, b in pairs)
        on = statistics.median(a[k] for a, _ in pairs)
        rise = max(a[k] - b[k] for a, b in pairs)
        print(f"  {k}: median off {100 * off:.1f}% on {100 * on:.1f}%, largest rise "
              f"{100 * rise:+.1f} pts")  # fmt: skip
    t_off = sum(judge.targets(b) for _, b in pairs)
    t_on = sum(judge.targets(a) for a, _ in pairs)
    print(f"  targets met off {t_off} on {t_on} of {2 * len(pairs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
