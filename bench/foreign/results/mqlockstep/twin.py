"""mqmid's MQSim twin at QD32 (two planes, one page offset of ``pages``, per-plane pools,
``relocations_at_trigger``, ``collections_first``) with ``timing.gc.collections_in_flight`` = N
(at most N collections in flight a plane, the others held until one ends, host writes not
refused; N = 0: off, mqmid's "on") and ``timing.gc.paired_reads``, on one
drive at 0–40% extra OP: IOPS, WAF, time per NAND page, the line errors, and what the lockstep
figures of ``bench/foreign/results/mqstatic/DIAGNOSIS.md`` are in the twin — programs by what
they hold, both planes collecting, collections in flight a plane, collections a trigger, the
share of time a plane refuses host writes.

    PYTHONPATH=python python bench/foreign/results/mqlockstep/twin.py --drive 512x32 \\
        --cases 0,10 --out bench/foreign/results/mqlockstep/twin-u512x32.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
import mqsim_pairing as m  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402

MIX = ("gc alone", "host alone", "gc+gc", "gc+host", "host+host")


def case_name(spec: str) -> str:
    """``N`` or ``Nr`` (with paired reads): the case's name in the JSON."""
    n = int(spec.rstrip("r"))
    name = f"in flight {n}" if n else "base"
    return name + (", paired reads" if spec.endswith("r") else "")


def config(blocks: int, pages: int, x: float, spec: str) -> dict:
    """mqmid's "on" twin config at ``x``% extra OP with the case ``spec``'s options."""
    from overprov import engine

    cfg = m.twin_config(blocks, pages, x, 32, 2, -1, "victim", False, True, True, True)
    gc: dict = {"lockstep_figures": True}
    if int(spec.rstrip("r")):
        gc["collections_in_flight"] = int(spec.rstrip("r"))
    if spec.endswith("r"):
        gc["paired_reads"] = True
    return engine.merge(cfg, {"timing": {"gc": gc}})


def figures(r: dict) -> dict:
    """One run's IOPS, WAF, time per NAND page and lockstep figures (its gc_blocked report)."""
    iops, waf = r["timed"]["measured"]["iops"], r["measured"]["waf"]
    g = r["timed"]["gc_blocked"]
    span = g["span_s"]
    mix = g["program_mix"]
    programs = sum(mix)
    return {
        "iops": iops,
        "waf": waf,
        "page_time_us": 1e6 / (iops * waf),
        "program_shares": dict(zip(MIX, (v / programs for v in mix), strict=True)),
        "programs_paired": sum(mix[2:]) / programs,
        "both_collecting": g["seconds_with_k_blocked"][2] / span,
        "in_flight_a_plane": [s / span for s in g["in_flight_s"]],
        "collections_a_trigger": [
            j / max(1, k) for j, k in zip(g["jobs"], g["triggers"], strict=True)
        ],  # fmt: skip
        "refusing_share": [b / span for b in g["blocked_s"]],
        "host_units_waited": g["waited_units"] / max(1, g["host_units"]),
        # the relocations booked on the die over those the FTL made (held ones not booked)
        "relocations_booked": g["relocations"] / max(1, g["host_units"] * (waf - 1)),
        "held_at_end": g.get("held_at_end", []),
    }


def curve(blocks: int, pages: int, spec: str) -> dict:
    """The case's figures at each level and its line errors."""
    from overprov import engine

    pts = [figures(engine.run(config(blocks, pages, x, spec))) for x in m.LEVELS]
    out = {k: [p[k] for p in pts] for k in pts[0]}
    out["line_iops_error"] = m.line_errors([(p["iops"], p["waf"]) for p in pts])
    return out


def table(doc: dict) -> str:
    """A markdown table of one drive's cases."""
    lines = ["| case | time per NAND page at 0 / 10 / 20 / 30 / 40%, µs | programs paired "
             "| gc+gc / gc+host / gc alone / host alone at 0% | both planes collecting "
             "| collections in flight a plane | collections a trigger | a plane refusing "
             "host writes |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    f2 = lambda v: " / ".join(f"{x:.2f}" for x in v)  # noqa: E731
    for name, c in doc["cases"].items():
        s0 = c["program_shares"][0]
        lines.append(
            f"| {name} | " + " / ".join(f"{t:.0f}" for t in c["page_time_us"])
            + f" | {f2(c['programs_paired'])} | {s0['gc+gc']:.2f} / {s0['gc+host']:.2f} / "
            f"{s0['gc alone']:.2f} / {s0['host alone']:.2f} | {f2(c['both_collecting'])} | "
            + f2(sum(v) / len(v) for v in c["in_flight_a_plane"]) + " | "
            + " / ".join(f"{sum(v) / len(v):.1f}" for v in c["collections_a_trigger"]) + " | "
            + f2(sum(v) / len(v) for v in c["refusing_share"]) + " |"
        )  # fmt: skip
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--drive", required=True, help="BLOCKSxPAGES")
    ap.add_argument("--cases", default="0", help="comma-separated N or Nr (paired reads); 0: off")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    blocks, pages = (int(v) for v in args.drive.split("x"))
    cpu0 = cpu_s()
    specs = args.cases.split(",")
    cases = {case_name(s): curve(blocks, pages, s) for s in specs}
    command = (f"python bench/foreign/results/mqlockstep/twin.py --drive {args.drive} "
               f"--cases {args.cases}")  # fmt: skip
    doc = {"blocks_per_plane": blocks, "pages_per_block": pages, "levels": list(m.LEVELS),
           "cases": cases, "cpu_s": round(cpu_s() - cpu0, 1), "command": command}  # fmt: skip
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(table(doc), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
