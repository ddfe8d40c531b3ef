"""The what-if of PLAN.md: WiscSim drives C, F, G simulated by the core configured as WiscSim is
(bench/foreign/wiscsee/twin.py), "plain" (one free pool, the stop before each victim) and
"twin" (a free pool per channel, the stop between batches of 2 x channels victims), against the
stored WiscSim truths, WAF error per case and level.

    PYTHONPATH=python python bench/foreign/results/wisctwin/whatif.py > whatif.log  (repo root)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from overprov import engine

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
sys.path[:0] = [str(HERE.parents[2]), str(HERE.parents[1] / "wiscsee"), str(RESULTS / "wiscvictim")]
import twin  # noqa: E402
from compare import DRIVES, translation_blocks  # noqa: E402  (wiscvictim's drives)
from cpu_clock import cpu_s  # noqa: E402  (bench/)

SEEDS = range(1, 6)
PAGES_PER_BLOCK = 32
TRUTHS = {"C": RESULTS / "wiscsee3" / "wiscsee-c.json", "F": RESULTS / "wiscgc" / "wiscsee-f.json",
          "G": RESULTS / "wiscgc" / "wiscsee-g.json"}  # fmt: skip
# QD1 truths: WiscSim's GC WAF by bench/foreign/results/wiscvictim/RULE.md's metric (census
# logs), the first column of these tables: (log, extra OP %)
QD1_LOGS = (("ablation.log", 0), ("verdict-op20.log", 20))
QD1_TOLERANCE, QUEUED_TOLERANCE = 0.03, 0.05


def core_waf(name: str, user_pages: int, allocator: bool, warm: float, measured: float) -> float:
    """The mean measured WAF over SEEDS of the core twin of drive ``name``."""
    channels, per, pages, _, high, low = DRIVES[name][:6]
    cfg = twin.core_config(channels, per, pages, high, low, user_pages,
                           translation_blocks(name), allocator)  # fmt: skip
    total = 0.0
    for seed in SEEDS:
        cfg["run"] = {"drive_writes": measured, "warmup_drive_writes": warm, "seed": seed}
        total += engine.run(engine.merge(engine.default_config(), cfg))["measured"]["waf"]
    return total / len(SEEDS)


def qd1_truths() -> list[tuple[str, int, float]]:
    """(drive, extra OP %, WiscSim WAF) for C, F, G from the wiscvictim logs."""
    out = []
    for log, op in QD1_LOGS:
        for line in (RESULTS / "wiscvictim" / log).read_text().splitlines():
            cells = [c.strip() for c in line.split("|")]
            if len(cells) > 1 and cells[0] in TRUTHS:
                out.append((cells[0], op, float(cells[1].split(",")[0])))
    return out


def cases() -> list[tuple[str, int, int, int, float]]:
    """(drive, extra OP %, queue depth, span pages, WiscSim WAF), every case of PLAN.md."""
    spans, out = {}, []
    for name, path in TRUTHS.items():
        for level in json.loads(path.read_text())["levels"]:
            op, qd = level["extra_op_percent"], level["queue_depth"]
            spans[name, op] = level["span_pages"]
            if level["steady_window"]["span_writes"] != [16.0, 24.0]:
                raise ValueError(f"{path.name}: window {level['steady_window']}")
            out.append((name, op, qd, level["span_pages"], level["steady_waf"]))
    out += [(name, op, 1, spans[name, op], waf) for name, op, waf in qd1_truths()]
    return out


def main() -> None:
    t0 = cpu_s()
    print("drive | OP % | QD | WiscSim WAF | plain WAF (error) | twin WAF (error)")
    errs = {"plain": [], "twin": []}
    met_qd1 = met_queued = True
    for name, op, qd, span, truth in cases():
        warm, measured = (2.0, 6.0) if qd == 1 else (16.0, 8.0)
        row = [f"{name} | {op} | {qd} | {truth:.3f}"]
        for form in ("plain", "twin"):
            waf = core_waf(name, span, form == "twin", warm, measured)
            e = waf / truth - 1
            errs[form].append(abs(e))
            row.append(f"{waf:.3f} ({100 * e:+.1f}%)")
            if form == "twin":
                if qd == 1:
                    met_qd1 &= abs(e) <= QD1_TOLERANCE
                else:
                    met_queued &= abs(e) <= QUEUED_TOLERANCE
        print(" | ".join(row), flush=True)
    for form, e in errs.items():
        print(f"{form}: worst |error| {100 * max(e):.1f}%, mean {100 * sum(e) / len(e):.1f}% "
              f"({len(e)} cases)")  # fmt: skip
    better = max(errs["twin"]) < max(errs["plain"])
    print(f"criteria: (1) QD1 within 3%: {met_qd1}; (2) QD32/QD4 within 5%: {met_queued}; "
          f"(3) worst below plain's: {better}")  # fmt: skip
    print(f"verdict: the twin {'meets' if met_qd1 and met_queued and better else 'does not meet'}"
          " WiscSim")  # fmt: skip
    print(f"CPU {cpu_s() - t0:.1f} s")


if __name__ == "__main__":
    main()
