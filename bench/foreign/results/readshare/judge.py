"""bench/foreign/results/readshare/RULE.md's verdict from the case files its runs.sh wrote (no
calibrate run): clause F (the arm on the fresh VSSIM drives E, F, G, today's defaults beside),
clause S (the arm on four of the 72 against status72's records), the seen VSSIM drives beside,
and the CPU s of every run (the runs.log files, bench/cpu_clock.py through tally.py).

    PYTHONPATH=python python bench/foreign/results/readshare/judge.py \
        > bench/foreign/results/readshare/verdict.md

Clauses I and T are tests (tests/calibrate/test_fit_fob_floor.py; RULE.md's pytest run),
recorded in verdict.md by hand with the command and its output's count.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parents[1]
sys.path.insert(0, str(FOREIGN / "results" / "scoreboard"))
from table import row  # noqa: E402  (the scoreboard's per-truth row)

STATUS72 = FOREIGN / "results" / "status72" / "cases"
FRESH = ("vssim-e", "vssim-f", "vssim-g")
STORED = ("SSDsim--tcmd-bound--ssdsim-c", "SSDsim--tcmd-bound2--ssdsim-f",
          "SSDsim--tcmd-bound2--ssdsim-g", "FlashSim--flashsim--flashsim-b")  # fmt: skip
LOGS = ("runs.log", "defaults/runs.log", "arm/runs.log", "arm-72/runs.log",
        "defaults-72/runs.log", "seen-arm/runs.log")  # fmt: skip


def cpu_logged() -> dict[str, float]:
    """label → CPU s, over every runs.log here (the later line wins)."""
    got = {}
    for name in LOGS:
        log = HERE / name
        for line in log.read_text().splitlines() if log.exists() else []:
            m = re.match(r"(\S+) (.+): rc -?\d+, ([\d.]+) CPU s", line)
            if m:
                got[f"{name.rsplit('/', 1)[0] if '/' in name else '.'} {m.group(2)}"] = float(
                    m.group(3)
                )
    return got


def load(path: Path) -> dict | None:
    return json.loads(path.read_text()) if path.exists() else None


def met(c: dict | None) -> bool:
    return bool(c and c["summary"].get("met"))


def line_of(c: dict) -> str:
    fit = c.get("fit")
    if not fit:
        return "–"
    fob = float(re.search(r"--fob-iops (\S+)", c["command"]).group(1))
    t_cmd, t_page = fit["t_cmd_us"], fit["t_page_us"]
    return f"{t_cmd / t_page:+.3f} / {(t_cmd + t_page) * fob / 1e6:.2f}"


def without_wall(c: dict) -> dict:
    return {k: v for k, v in c.items() if k != "wall_s"}


def table(rows: list[tuple[str, dict | None]]) -> list[str]:
    out = ["| arm | truth | case | IOPS median / worst (worst level) | WAF worst (level) | "
           "targets met | readings carrying ≥ 0.1 | erase twin | CPU s | t_cmd/t_page / "
           "line at W=1 ÷ t_fob |", "|---|" * 1 + "---|" * 9]  # fmt: skip
    for arm, c in rows:
        if c is None:
            out.append(f"| {arm} | (not run) |")
            continue
        out.append(f"| {arm} {row(c, None)} {line_of(c)} |")
    return out


def main() -> None:
    title = "the FOB floor beside the share bound (bench/foreign/results/readshare/RULE.md)"
    lines = [f"# Verdict: {title}", "", "Made by `PYTHONPATH=python python "
             "bench/foreign/results/readshare/judge.py` from the case files (CPU s per run: "
             "the runs.log files, below).", ""]  # fmt: skip
    name = "VSSIM--readshare--{}.json".format
    fresh = {s: (load(HERE / "defaults" / "cases" / name(s)),
                 load(HERE / "arm" / "cases" / name(s))) for s in FRESH}  # fmt: skip
    n_arm = sum(met(a) for _, a in fresh.values())
    n_def = sum(met(d) for d, _ in fresh.values())
    f_holds = n_arm >= 2
    lines += ["## Clause F: the fresh VSSIM drives E, F, G", ""]
    arms = ("defaults", "arm")
    lines += table([(k, c) for s in FRESH for k, c in zip(arms, fresh[s], strict=True)])
    lines += ["", f"Both targets with the arm: {n_arm} of 3 (today's defaults: {n_def} of 3). "
              f"**F {'holds' if f_holds else 'fails'}** (≥ 2 of 3).", ""]  # fmt: skip
    lines += ["## Clause S: the arm on four of the 72 against status72's records", ""]
    s_holds, notes, rows = True, [], []
    for key in STORED:
        today = load(STATUS72 / f"{key}.json")
        arm = load(HERE / "arm-72" / "cases" / f"{key}.json")
        now = load(HERE / "defaults-72" / "cases" / f"{key}.json")
        rows += [("status72", today), ("arm", arm)] + ([("defaults now", now)] if now else [])
        if arm is None:
            s_holds = False
            notes.append(f"- {key}: not run")
            continue
        same = without_wall(arm) == without_wall(today)
        base = now if (now is not None and not same) else today
        lost = met(base) and not met(arm)
        s_holds &= not lost
        how = "the same as its record on every figure but wall_s" if same else "differs"
        notes.append(f"- {key}: {how}; target {'lost' if lost else 'not lost'}")
    lines += table(rows) + [""] + notes
    lines += ["", f"**S {'holds' if s_holds else 'fails'}**.", ""]
    seen = [("arm (seen)", load(HERE / "seen-arm" / "cases" / f"VSSIM--newftl--vssim-{x}.json"))
            for x in "abcd"]  # fmt: skip
    lines += ["## Beside the rule, judging nothing: the arm on the seen VSSIM drives A–D", ""]
    lines += table(seen) + [""]
    cpu = cpu_logged()
    lines += ["## CPU s (runs.log files)", ""]
    lines += [f"- {k}: {v:.1f}" for k, v in cpu.items()]
    lines += [f"- in all: {sum(cpu.values()):.1f} CPU s", ""]
    verdict = f"F {'holds' if f_holds else 'fails'}; S {'holds' if s_holds else 'fails'}"
    lines += ["## Verdict", "", f"{verdict}; I and T: see below.", ""]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
