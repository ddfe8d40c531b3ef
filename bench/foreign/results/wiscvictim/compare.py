"""WiscSim's GC against the model of it (bench/foreign/wiscsee/gc_reference.py form=wiscsim),
episode by episode, on the drives of RULE.md, by RULE.md's metric and criterion.

    python bench/foreign/results/wiscvictim/compare.py specs DIR   # WiscSim's specs (8 span writes)
    python bench/foreign/results/wiscvictim/compare.py verdict DIR # census-<drive>.log in DIR
    python bench/foreign/results/wiscvictim/compare.py ablation DIR  # a diagnostic
    python bench/foreign/results/wiscvictim/compare.py replay DIR    # WiscSim's own pages

The census logs come from census.py (WiscSim, Python 2) on the specs `specs` writes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE.parents[1] / "wiscsee")]
import gc_reference  # noqa: E402
import wiscsee  # noqa: E402  (bench/foreign/wiscsee.py: the spec of a WiscSim run)

SPAN_WRITES = 8
SKIP_SPAN_WRITES = 2  # episodes counted start after the fill and these
SEEDS = range(1, 6)
WAF_TOLERANCE = 0.03
SHARE_TOLERANCE = 0.015
# name: channels, blocks a channel, pages a block, over_provisioning, GC high, low, GC procs,
# program ns (RULE.md; C, F, G as bench/foreign/results/wiscgc ran them, H new)
DRIVES = {
    "C": (6, 20, 32, 1.6, 0.88, 0.76, 6, 350000),
    "F": (5, 22, 32, 1.55, 0.87, 0.77, 5, 320000),
    "G": (7, 14, 32, 1.4, 0.92, 0.86, 3, 280000),
    "H": (4, 24, 32, 1.5, 0.90, 0.80, 4, 200000),
    # RULE.md's addendum: new drives for form (2)
    "I": (8, 12, 32, 1.45, 0.90, 0.82, 4, 200000),
    "J": (3, 36, 32, 1.7, 0.86, 0.72, 3, 200000),
}
RULE_DRIVES = ("C", "F", "G", "H")  # forms (0) and (1)
ADDENDUM_DRIVES = ("I", "J")  # form (2) counts only if it reproduces these too


def geometry(name: str) -> dict:
    channels, blocks, pages = DRIVES[name][:3]
    return {"channels": channels, "blocks_per_channel": blocks, "pages_per_block": pages}


def spec(name: str, result_dir: Path, extra_op: int = 0) -> dict:
    _, _, _, op, high, low, procs, prog = DRIVES[name]
    g = geometry(name)
    args = SimpleNamespace(gc=(high, low), over_provisioning=op, gc_procs=procs, t_prog_ns=prog,
                           drive_writes=SPAN_WRITES, fix_move_race=True)  # fmt: skip
    return wiscsee.spec_of(g, args, wiscsee.span_pages(extra_op, g, op), 1, result_dir)


def suffix(extra_op: int) -> str:
    """A run's name after its drive: nothing at RULE.md's 0%."""
    return f"-op{extra_op}" if extra_op else ""


def translation_blocks(name: str) -> int:
    """The translation blocks WiscSim holds open: its `total_translation_pages()` (4-byte
    entries for every NAND page, in 4 KiB pages, rounded up), one a channel (stripe 1)."""
    g = geometry(name)
    pages = math.ceil(wiscsee.physical_pages(g) * 4 / wiscsee.PAGE_BYTES)
    return min(pages, g["channels"])


def metric(episodes: list, span: int, pages_per_block: int) -> tuple[float, float]:
    """RULE.md's metric: (GC WAF, victims' mean valid share) over the episodes that start after
    the fill and SKIP_SPAN_WRITES span writes, the last episode excluded. `episodes`: objects
    with host_writes (done when it starts), victims, moved_pages."""
    start = span * (1 + SKIP_SPAN_WRITES)
    counted = [e for e in episodes[:-1] if e.host_writes > start]
    if not counted:
        raise ValueError("no episode to count")
    moved = sum(e.moved_pages for e in counted)
    victims = sum(e.victims for e in counted)
    host = episodes[-1].host_writes - counted[0].host_writes
    return 1 + moved / host, moved / (victims * pages_per_block)


def mean_free_blocks(episodes: list, span: int) -> float:
    """The free blocks at a host write, averaged over RULE.md's window (from the first counted
    episode's start to the last episode's start)."""
    start = span * (1 + SKIP_SPAN_WRITES)
    first = next(e for e in episodes[:-1] if e.host_writes > start)
    last = episodes[-1]
    return (last.free_sum - first.free_sum) / (last.host_writes - first.host_writes)


def wiscsim_episodes(log: Path) -> list:
    rows = [json.loads(x) for x in log.read_text().splitlines() if x.startswith("{")]
    return [SimpleNamespace(**r) for r in rows]


def model(name: str, held_blocks: int, channel_pools: bool, free: bool = False,
          extra_op: int = 0, per_victim: bool = False,
          batch_victims: int | None = None) -> tuple:  # fmt: skip
    """(WAF, valid share), seeds' means; with `free`, also the mean free blocks."""
    channels, blocks, pages, op, high, low = DRIVES[name][:6]
    s = spec(name, Path("/dev/null"), extra_op)
    wafs, shares, frees = [], [], []
    for seed in SEEDS:
        trace: list = []
        gc_reference.run(channels * blocks, pages, s["span_pages"], SPAN_WRITES, 0, "wiscsim",
                         high=high, low=low, channels=channels, seed=seed,
                         held_blocks=held_blocks, channel_pools=channel_pools,
                         per_victim=per_victim, batch_victims=batch_victims,
                         trace=trace)  # fmt: skip
        waf, share = metric(trace, s["span_pages"], pages)
        wafs.append(waf)
        shares.append(share)
        frees.append(mean_free_blocks(trace, s["span_pages"]))
    means = (sum(wafs) / len(wafs), sum(shares) / len(shares), sum(frees) / len(frees))
    return means if free else means[:2]


def wiscsim_pages(s: dict) -> list[int]:
    """The random writes' pages of harness.py's `events` for spec `s`, as Python 2 draws them:
    its randrange(n) is int(random() * n) below 2**53, and Python 3 seeds the same Mersenne
    Twister from an int."""
    rng = random.Random(s["seed"])
    return [int(rng.random() * s["span_pages"]) for _ in range(s["random_writes"])]


def replay(folder: Path, shown: int = 8) -> None:
    """The model on WiscSim's own page sequence, episode by episode against WiscSim's census:
    (host writes, victims, pages moved, free at start, at end); then RULE.md's metric of the
    one run. A diagnostic (no rule): block numbers, and so ties between victims, still differ."""
    for name in DRIVES:
        channels, blocks, pages, op, high, low = DRIVES[name][:6]
        s = spec(name, Path("/dev/null"))
        w = wiscsim_episodes(folder / f"census-{name}.log")
        held = translation_blocks(name)
        runs = {"WiscSim": w}
        for label, h, pools in (("form (1)", held, False), ("form (2)", held, True)):
            runs[label] = []
            gc_reference.run(channels * blocks, pages, s["span_pages"], SPAN_WRITES, 0,
                             "wiscsim", high=high, low=low, channels=channels, held_blocks=h,
                             channel_pools=pools, trace=runs[label],
                             random_pages=wiscsim_pages(s))  # fmt: skip
        print(f"{name}: first {shown} episodes (host writes, victims, moved, free, free after)")
        for label, eps in runs.items():
            print(f"  {label:8} " + " ".join(
                f"({e.host_writes},{e.victims},{e.moved_pages},{e.free},{e.free_after})"
                for e in eps[:shown]))  # fmt: skip
        for label, eps in runs.items():
            same = next((i for i, (a, b) in enumerate(zip(eps, w, strict=False))
                         if (a.host_writes, a.victims, a.moved_pages)
                         != (b.host_writes, b.victims, b.moved_pages)), len(w))  # fmt: skip
            waf, share = metric(eps, s["span_pages"], pages)
            print(f"  {label:8} episodes {len(eps)}, the first {same} as WiscSim's; "
                  f"WAF {waf:.3f}, valid share {share:.3f}")  # fmt: skip


def ablation(folder: Path) -> None:
    """Each mechanism alone and together: WAF and the mean free blocks (a diagnostic, no rule)."""
    print("drive | WiscSim WAF, mean free | model WAF, mean free: as read | channel pools only"
          " | held blocks only | both | both, per victim (the core's stop)"
          " | both, the fixed list, the stop checked per victim")  # fmt: skip
    for name in DRIVES:
        s = spec(name, Path("/dev/null"))
        w = wiscsim_episodes(folder / f"census-{name}.log")
        waf = metric(w, s["span_pages"], s["pages_per_block"])[0]
        line = [f"{name} | {waf:.3f}, {mean_free_blocks(w, s['span_pages']):.1f}"]
        held = translation_blocks(name)
        for h, pools, each, batch in ((0, False, 0, None), (0, True, 0, None),
                                      (held, False, 0, None), (held, True, 0, None),
                                      (held, True, 1, None), (held, True, 0, 1)):  # fmt: skip
            m = model(name, h, pools, free=True, per_victim=bool(each), batch_victims=batch)
            line.append(f"{m[0]:.3f} ({100 * (m[0] / waf - 1):+.1f}%), {m[2]:.1f}")
        print(" | ".join(line))


def verdict(folder: Path, extra_op: int = 0) -> None:
    if extra_op:
        print(f"a diagnostic at {extra_op}% extra OP (RULE.md: 0%)")
    print("drive | WiscSim WAF, valid share | form (0) | form (1) [held blocks] | form (2)"
          " | met: (0) (1) (2)")  # fmt: skip
    met: dict[int, dict[str, bool]] = {0: {}, 1: {}, 2: {}}
    for name in DRIVES:
        path = folder / f"census-{name}{suffix(extra_op)}.log"
        if not path.exists():
            print(f"{name} | no census")
            continue
        s = spec(name, Path("/dev/null"), extra_op)
        w = metric(wiscsim_episodes(path), s["span_pages"], s["pages_per_block"])
        held = translation_blocks(name)
        forms = {k: model(name, h, pools, extra_op=extra_op)
                 for k, h, pools in ((0, 0, False), (1, held, False), (2, held, True))}  # fmt: skip
        line = [f"{name} | {w[0]:.3f}, {w[1]:.3f}"]
        for k, (waf, share) in forms.items():
            met[k][name] = (abs(waf / w[0] - 1) <= WAF_TOLERANCE
                            and abs(share - w[1]) <= SHARE_TOLERANCE)  # fmt: skip
            line.append(f"{waf:.3f} ({100 * (waf / w[0] - 1):+.1f}%), {share:.3f}"
                        + (f" [{held}]" if k == 1 else ""))  # fmt: skip
        print(" | ".join(line) + " | " + " ".join(str(met[k][name]) for k in forms))

    if extra_op:
        return  # RULE.md's verdicts are at 0% only

    def every(k: int, names: tuple) -> bool:
        return all(met[k].get(n, False) for n in names)

    print(f"RULE.md: form (0) reproduces C, F, G, H: {every(0, RULE_DRIVES)}; "
          f"form (1): {every(1, RULE_DRIVES)}")  # fmt: skip
    held = every(1, RULE_DRIVES) and not every(0, RULE_DRIVES)
    print("diagnosis (held translation blocks):", "stands" if held else "does not stand")
    print(f"addendum: form (2) reproduces I, J (new): {every(2, ADDENDUM_DRIVES)}; "
          f"C, F, G, H (seen): {every(2, RULE_DRIVES)}")  # fmt: skip
    both = every(2, RULE_DRIVES + ADDENDUM_DRIVES)
    print(
        "diagnosis (held translation blocks and channel pools):",
        "stands" if both else "does not stand",
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("specs", "verdict", "ablation", "replay"))
    ap.add_argument("folder", type=Path)
    ap.add_argument("--extra-op", type=int, default=0, help="specs, verdict: a diagnostic")
    ap.add_argument("--drives", default=",".join(DRIVES), help="specs: which")
    a = ap.parse_args()
    if a.what == "specs":
        for name in a.drives.split(","):
            tail = suffix(a.extra_op)
            s = spec(name, Path(f"/tmp/wiscvictim-{name}{tail}"), a.extra_op)
            (a.folder / f"census-{name}{tail}.spec.json").write_text(json.dumps(s) + "\n")
    elif a.what == "verdict":
        verdict(a.folder, a.extra_op)
    elif a.what == "ablation":
        ablation(a.folder)
    else:
        replay(a.folder)


if __name__ == "__main__":
    main()
