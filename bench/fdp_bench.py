"""Data placement against published results: the flash-cache case (CacheLib on an FDP SSD,
EuroSys '25) and the noisy reclaim-unit-handle case (WARP, FAST '26), as
``overprov.fdp_validation`` defines them (docs/fdp.md says which figures each workload was built
from and which it predicts). Prints a table and, with --json, writes the figures.

Usage: PYTHONPATH=python python bench/fdp_bench.py [--user-pages 65536] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import time

from overprov import fdp_validation as v


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--user-pages", type=int, default=1 << 16)
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args()
    started = time.perf_counter()
    cache = v.run_flash_cache(args.user_pages)
    noisy = v.run_adversarial(args.user_pages)
    print(f"flash cache (user pages {args.user_pages}, ρ = {v.FLASH_CACHE_RHO})")
    print(f"{'utilisation':>11} {'FDP':>4} {'WAF':>7} {'published':>9}")
    for r in cache:
        fdp = "yes" if r["fdp"] else "no"
        print(
            f"{r['utilisation_percent']:>10}% {fdp:>4} {r['waf']:>7.3f} {r['published_waf']:>9.2f}"
        )
    print(f"\nnoisy reclaim-unit handle (ρ = {v.ADVERSARIAL_RHO})")
    print(f"{'isolation':>22} {'WAF':>7}  per handle")
    for r in noisy:
        per = " ".join(f"{w:.2f}" for w in r["handle_waf"] or [])
        print(f"{r['isolation']:>22} {r['waf']:>7.3f}  {per}")
    print(f"\n{time.perf_counter() - started:.1f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"flash_cache": cache, "adversarial": noisy}, f, indent=1)


if __name__ == "__main__":
    main()
