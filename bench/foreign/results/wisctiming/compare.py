"""Two arms of scoreboard cases side by side and bench/foreign/results/wisctiming/RULE.md's
clauses on them.

    python bench/foreign/results/wisctiming/compare.py OFF_DIR ON_DIR [--fresh]

Per truth: IOPS median / IOPS worst / WAF worst (|error| in %, run.py's summary), each arm's
targets (I, W) and the largest rise (points), the targets and figures read as
bench/foreign/results/wiscbatch/compare.py reads them. Without --fresh, the 72's clause (no
met target lost; the count meeting both not lower); with it, the fresh clause (no met target
lost; no figure up by more than 1 point).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "bench/foreign"))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

wb = load_script("wiscbatch_compare", ROOT / "bench/foreign/results/wiscbatch/compare.py")


def main(off_dir: str, on_dir: str, fresh: bool) -> int:
    off = {p.name: json.loads(p.read_text()) for p in sorted(Path(off_dir).glob("*.json"))}
    on = {p.name: json.loads(p.read_text()) for p in sorted(Path(on_dir).glob("*.json"))}
    print("| truth | off | on | targets off → on | largest rise (points) | on: readings ≥ 0.1 |")
    print("|---|---|---|---|---|---|")
    lost, up, gained, missing = [], [], [], []
    both = {"off": 0, "on": 0}
    for name, a in off.items():
        if name not in on:
            missing.append(name)
            continue
        sa, sb = a["summary"], on[name]["summary"]
        fa, fb = wb.figs(sa), wb.figs(sb)
        rise = max((y - x) if math.isfinite(y) or math.isfinite(x) else 0.0
                   for x, y in zip(fa, fb, strict=True))  # fmt: skip
        ta, tb = wb.targets(sa), wb.targets(sb)
        lost += [name] if ta - tb else []
        gained += [name] if tb - ta else []
        up += [name] if rise > 1.0 else []
        both["off"] += ta == {"I", "W"}
        both["on"] += tb == {"I", "W"}
        carry = "; ".join(sb.get("carry", [])) if not sb.get("refused") else "refused"
        t = f"{''.join(sorted(ta)) or '-'} → {''.join(sorted(tb)) or '-'}"
        truth = on[name].get("truth", name)
        print(f"| {truth} | {wb.text(fa)} | {wb.text(fb)} | {t} | {rise:+.2f} | {carry} |")
    print()
    n = len(off) - len(missing)
    print(f"truths compared: {n}; not in the on arm: {len(missing)} {missing or ''}")
    for label, names in (("targets lost", lost), ("a figure up by > 1 point", up),
                         ("targets gained", gained)):  # fmt: skip
        print(f"{label}: {len(names)} {names or ''}")
    print(f"both targets met: off {both['off']}, on {both['on']}")
    if fresh:
        ok = not lost and not up and not missing
        print(f"fresh clause: {'met' if ok else 'not met'}")
    else:
        ok = not lost and both["on"] >= both["off"] and not missing
        print(f"72 clause: {'met' if ok else 'not met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], "--fresh" in sys.argv[3:]))
