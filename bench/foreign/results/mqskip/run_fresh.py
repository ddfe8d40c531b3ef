"""The fresh MQSim drives of RULE.md, one ``mqsim.py`` run a level at a time under ``nice -n
15`` (as bench/foreign/results/mqmid/RULE.md ran its fresh drives), merged by ``merge.py`` into
``fresh/uBxP.json``; a line a run with its CPU seconds in ``fresh/runs.log``.

    python bench/foreign/results/mqskip/run_fresh.py --binary PATCHED/MQSim --work DIR u704x32 ...

``--out-dir`` writes them (and runs.log) into another rule's folder instead.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parents[1]
sys.path.insert(0, str(FOREIGN.parent))
from cpu_clock import cpu_s  # noqa: E402

#: The patch text mqmid's and mqsched's fresh runs used.
PATCH = FOREIGN / "results" / "mqsim-retry" / "unseen" / "u512x32.json"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--out-dir", type=Path, help="the truths' folder (default: fresh/ here)")
    ap.add_argument("drives", nargs="+", help="uBxP names")
    args = ap.parse_args(argv)
    out_dir = args.out_dir or HERE / "fresh"
    out_dir.mkdir(exist_ok=True)
    patch = json.loads(PATCH.read_text())["patch"]
    log = (out_dir / "runs.log").open("a")
    log.write(f"### fresh MQSim drives of RULE.md ({args.binary}; nice -n 15)\n")
    start = cpu_s()
    for name in args.drives:
        blocks, pages = name[1:].split("x")
        parts = []
        for x in (0, 10, 20, 30, 40):
            d = 16 if x == 0 else 12
            out = args.work / f"{name}-{x}.json"
            cmd = ["nice", "-n", "15", sys.executable, str(FOREIGN / "mqsim.py"),
                   "--binary", args.binary, "--work", str(args.work / name),
                   "--blocks-per-plane", blocks, "--pages-per-block", pages, "--patch", patch,
                   "--extra-op", str(x), "--qd", "32", "--qd-sweep", "",
                   "--drive-writes", str(d), "--first-checkpoint", "4",
                   "--out", str(out)]  # fmt: skip
            c0 = cpu_s()
            log.write(f"== {name} {x}% D={d} {time.strftime('%H:%M:%S', time.gmtime())}\n")
            log.flush()
            r = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
            log.write((r.stdout or "")[-400:] + (r.stderr or "")[-600:]
                      + f"{name} {x}% CPU {cpu_s() - c0:.1f} rc {r.returncode}\n")  # fmt: skip
            log.flush()
            if r.returncode == 0:
                parts.append(str(out))
        if parts:
            merged = [sys.executable, str(FOREIGN / "merge.py"), str(out_dir / f"{name}.json")]
            subprocess.run(merged + parts, check=True)
    log.write(f"== end {time.strftime('%H:%M:%S', time.gmtime())}, CPU {cpu_s() - start:.1f}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
