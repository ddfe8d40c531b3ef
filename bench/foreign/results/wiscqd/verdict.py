"""RULE.md's figures and verdicts: WiscSim's collections by queue depth (probe.py's logs and
reports), the queued model (bench/foreign/wiscsee/ncq_gc.py) against them and against the
stored truths, and WiscSim with --recheck-high.

    PYTHONPATH=python python bench/foreign/results/wiscqd/verdict.py > verdict.log  (repo root)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
sys.path[:0] = [str(HERE.parents[2]), str(HERE.parents[1]), str(HERE.parents[1] / "wiscsee"),
                str(RESULTS / "wiscvictim")]  # fmt: skip
import ncq_gc  # noqa: E402
import wiscsee  # noqa: E402  (bench/foreign/wiscsee.py)
from compare import DRIVES, translation_blocks  # noqa: E402  (wiscvictim's drives)
from cpu_clock import cpu_s  # noqa: E402  (bench/)

NAMES = ("C", "F", "G")
RULE_NAMES = ("C", "G")  # criterion 1 (F seen before RULE.md)
QDS = (1, 4, 32)
SEEDS = range(1, 6)
WINDOW = (3, 9)  # span writes 2-8 of the random writes (the fill the first)
STORED_WINDOW = (17, 25)  # the stored truths' span writes 16-24
TOLERANCE = 0.03
STORED = {"C": RESULTS / "wiscsee3" / "wiscsee-c.json", "F": RESULTS / "wiscgc" / "wiscsee-f.json",
          "G": RESULTS / "wiscgc" / "wiscsee-g.json"}  # fmt: skip


def spec(name: str, qd: int) -> dict:
    return json.loads((HERE / f"{name}-qd{qd}.spec.json").read_text())


def drive(name: str) -> ncq_gc.Drive:
    channels, per, pages, _, high, low, procs, prog = DRIVES[name]
    return ncq_gc.Drive(channels, per, pages, spec(name, 1)["span_pages"], high, low, procs, prog,
                        translation_blocks(name))  # fmt: skip


def wiscsim_waf(report: Path, span: int, window: tuple = WINDOW) -> float:
    """Page programs per request completed between the window's two points (R lines)."""
    _, rows = wiscsee.parse_output(report.read_text())
    programs = {r["requests"]: r["programs"] for r in rows}
    a, b = (w * span for w in window)
    return (programs[b] - programs[a]) / (b - a)


def collections(log: Path) -> tuple[list[dict], dict]:
    lines = log.read_text().splitlines()
    rows = [json.loads(x) for x in lines if x.startswith("{")]
    host = json.loads(next(x for x in lines if x.startswith("host "))[5:])
    return rows, host


def mean(xs: list) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def census(name: str, qd: int, suffix: str = "") -> dict:
    """probe.py's collections in the window: how many, how many by a worker that queued while
    another held the slot, their victims' valid shares, the free blocks at asks and grants."""
    span = spec(name, qd)["span_pages"]
    rows, host = collections(HERE / f"{name}-qd{qd}{suffix}.log")
    a, b = (w * span for w in WINDOW)
    win = [r for r in rows if a < r["grant_host"] <= b]
    queued = [r for r in win if r["ask_running"] > 0]
    first = [r for r in win if r["ask_running"] == 0]

    def share(rs: list, key: str) -> float:
        v = sum(r["victims"] for r in rs)
        return sum(r[key] * r["victims"] for r in rs) / v if v else float("nan")

    free_mean = (win[-1]["free_sum"] - win[0]["free_sum"]) / (
        win[-1]["grant_host"] - win[0]["grant_host"])  # fmt: skip
    gc_share = (win[-1]["gc_writes"] - win[0]["gc_writes"]) / (
        win[-1]["grant_host"] - win[0]["grant_host"])  # fmt: skip
    return {
        "waf": wiscsim_waf(HERE / f"{name}-qd{qd}{suffix}.report", span),
        "n": len(win), "queued": len(queued),
        "victims": sum(r["victims"] for r in win),
        "queued_victims": sum(r["victims"] for r in queued),
        "listed_first": share(first, "listed_share"),
        "listed_queued": share(queued, "listed_share"),
        "cleaned_first": share(first, "cleaned_share"),
        "cleaned_queued": share(queued, "cleaned_share"),
        "ask_free": mean([r["ask_free"] for r in first]),
        "grant_free_queued": mean([r["grant_free"] for r in queued]),
        "end_free": mean([r["end_free"] for r in win]),
        "in_clean_max": max(r["ask_waiting"] + r["ask_running"] for r in rows) + 1,
        "noops": sum(r["noops_before"] for r in win),
        "noops_max": max(r["noops_before"] for r in rows),
        "cleaning_at_grant": max(r["grant_cleaning"] for r in rows),
        "open_per_channel_max": max(max(r["grant_open_data"]) for r in rows),
        "free_mean": free_mean, "gc_share": gc_share, "dropped": host["dropped_moves"],
    }  # fmt: skip


def model(name: str, qd: int, window: tuple = WINDOW, recheck: bool = False) -> list[float]:
    d = drive(name)
    return [ncq_gc.window_waf(d, qd, s, window, recheck_high=recheck) for s in SEEDS]


def err(a: float, b: float) -> str:
    return f"{100 * (a / b - 1):+.1f}%"


def main() -> None:
    t0 = cpu_s()
    print("## WiscSim's collections by queue depth (span writes 2-8; probe.py)")
    print("drive QD | WAF | collections (queued behind another) | victims (queued's) | listed "
          "share first/queued | cleaned share first/queued | free at trigger | free at queued "
          "grant | free at end | mean free at a host write | host writes while collecting | "
          "collections in clean() at a collecting one's ask, itself included (max) | no-op "
          "grants (max between two collecting ones) | victims being cleaned at a grant (max) | "
          "open data blocks a channel (max) | moves dropped")  # fmt: skip
    seen: dict = {}
    for name in NAMES:
        for qd in QDS:
            c = seen[name, qd] = census(name, qd)
            cells = [
                f"{name} {qd}", f"{c['waf']:.3f}", f"{c['n']} ({c['queued']})",
                f"{c['victims']} ({c['queued_victims']})",
                f"{c['listed_first']:.3f}/{c['listed_queued']:.3f}",
                f"{c['cleaned_first']:.3f}/{c['cleaned_queued']:.3f}", f"{c['ask_free']:.1f}",
                f"{c['grant_free_queued']:.1f}", f"{c['end_free']:.1f}", f"{c['free_mean']:.1f}",
                f"{100 * c['gc_share']:.0f}%", str(c["in_clean_max"]),
                f"{c['noops']} ({c['noops_max']})", str(c["cleaning_at_grant"]),
                str(c["open_per_channel_max"]), str(c["dropped"]),
            ]  # fmt: skip
            print(" | ".join(cells))

    print("\n## Criterion 1: ncq_gc (seeds 1-5) against WiscSim, span writes 2-8")
    print("drive QD | WiscSim | model mean (min-max) | error | counted")
    met1 = True
    for name in NAMES:
        for qd in QDS:
            w, m = seen[name, qd]["waf"], model(name, qd)
            ok = abs(mean(m) / w - 1) <= TOLERANCE
            counted = name in RULE_NAMES
            met1 &= ok or not counted
            print(f"{name} {qd} | {w:.3f} | {mean(m):.3f} ({min(m):.3f}-{max(m):.3f}) | "
                  f"{err(mean(m), w)} | {'yes' if counted else 'no (seen)'}: "
                  f"{'met' if ok else 'NOT met'}")  # fmt: skip
    print(f"verdict 1: ncq_gc {'reproduces' if met1 else 'does not reproduce'} WiscSim's queue "
          "depth dependence (C, G)")  # fmt: skip

    print("\n## Criterion 2: ncq_gc (seeds 1-5, span writes 16-24) against the stored truths")
    for name in NAMES:
        levels = json.loads(STORED[name].read_text())["levels"]
        for lv in levels:
            if lv["extra_op_percent"] != 0:
                continue
            qd, truth = lv["queue_depth"], lv["steady_waf"]
            m = mean(model(name, qd, STORED_WINDOW))
            ok = abs(m / truth - 1) <= TOLERANCE
            print(f"{name} QD{qd} | stored {truth:.3f} | model {m:.3f} | {err(m, truth)} | "
                  f"{'met' if ok else 'NOT met'}")  # fmt: skip

    print("\n## Criterion 3: WiscSim at QD32 with --recheck-high (one run each)")
    met3 = True
    for name in NAMES:
        q1, q32 = seen[name, 1]["waf"], seen[name, 32]["waf"]
        c = census(name, 32, "-recheck")
        excess, removed = q32 - q1, q32 - c["waf"]
        judged = name == "F" or excess / q1 > TOLERANCE
        ok = removed >= 2 / 3 * excess
        met3 &= ok or not judged
        mr = mean(model(name, 32, recheck=True))
        print(f"{name} | QD1 {q1:.3f} | QD32 {q32:.3f} ({err(q32, q1)}) | QD32 recheck "
              f"{c['waf']:.3f} ({err(c['waf'], q1)} on QD1; queued collections {c['queued']} of "
              f"{c['n']}) | removed {removed:+.3f} of {excess:+.3f} | "
              f"{('met' if ok else 'NOT met') if judged else 'not judged (excess <= 3%)'} | "
              f"model recheck {mr:.3f}")  # fmt: skip
    print(f"verdict 3: collections by workers queued behind another "
          f"{'cause' if met3 else 'do not explain'} WiscSim's QD32 excess")  # fmt: skip
    print(f"CPU {cpu_s() - t0:.1f} s (this script; WiscSim's runs in runs.log)")


if __name__ == "__main__":
    main()
