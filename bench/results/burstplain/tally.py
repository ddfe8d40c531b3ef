"""Read after the verdict (judges nothing): per arm, over the FEMU cases of
bench/results/burstplain/RULE.md, the cases answered, the targets met and the medians of WAF worst
and IOPS median |error| over the cases every compared arm answers.

    PYTHONPATH=python python bench/results/burstplain/tally.py > bench/results/burstplain/tally.txt
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
jd = load_script("burstplain_judge", HERE / "judge.py")


def sets() -> dict[str, list[dict[str, dict | None]]]:
    """Each set's cases as {arm: judged row or None}."""
    out: dict[str, list[dict[str, dict | None]]] = {"fresh": [], "half B": [], "guards": []}
    for n in jd.FRESH:
        truth = json.loads((jd.R / "femu" / f"{n}.json").read_text())
        arms = ("off", "late", "plain", "both")
        out["fresh"].append({a: jd.judged(jd.R / "femu" / f"{n}-{a}", truth) for a in arms})
    for label, _, truth, folders in jd.stored_cases():
        key = "half B" if label == "half B" else "guards"
        out[key].append({a: jd.judged(f, truth) for a, f in folders.items()})
    return out


def main() -> int:
    for label, cases in sets().items():
        arms = list(cases[0])
        common = [c for c in cases if all(c[a] is not None for a in arms)]
        print(f"{label}: {len(cases)} cases, {len(common)} answered by every arm")
        for a in arms:
            got = [c[a] for c in cases if c[a] is not None]
            met = sum(sum(jd.passes(r).values()) for r in got)
            ww = statistics.median(c[a]["waf_worst"] for c in common) if common else float("nan")
            im = statistics.median(c[a]["iops_median"] for c in common) if common else float("nan")
            print(f"  {a}: answered {len(got)}, targets met {met} of {2 * len(cases)}; over the "
                  f"common cases WAF worst median {100 * ww:.1f}%, IOPS median median "
                  f"{100 * im:.1f}%")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
