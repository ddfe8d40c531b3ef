"""Each stored run's held-out figures (``tally.evaluate_rows``): predicted, interval, truth,
inside, and the readings' weights, one line a figure."""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import tally  # noqa: E402  (bench/intervals/)


def main(paths: list[str]) -> None:
    for p in paths:
        doc = json.loads(Path(p).read_text())
        res = doc["result"]
        if "levels" not in res:
            print(Path(p).name, "refused:", res.get("error"))
            continue
        rows = list(tally.evaluate_rows(res, doc["truth"], p, None))
        inside = sum(r["inside"] for r in rows)
        w = {k: round(v, 3) for k, v in (res.get("readings") or {}).items() if v > 1e-3}
        print(f"{Path(p).name}: {inside}/{len(rows)} inside; weights {w}; {doc['cpu_s']:.1f} CPU s")
        for r in rows:
            print(f"   {r['level']:>4g}% {r['kind']:4s} pred {r['predicted']:9.4g} "
                  f"[{r['low']:9.4g}, {r['high']:9.4g}] true {r['true']:9.4g} "
                  f"{'in ' if r['inside'] else 'OUT'} width {r['width']:.0%}")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
