"""Task 1 of the midlevel brief (seen truths, a report): each stored MQSim and FEMU truth of the
72 (bench/foreign/results/narrowtwo/cases.py) typed as calibrate's plan gives it with a third
level, IOPS and WAF at 0, 20 and 40% (+ FOB, + QD4 at 40% where the truth has it), beside
today's plan case (0 and 40%: the stored case of bench/foreign/results/status72/cases/, run with
the same defaults). For each: targets met, the unfitted levels in the 80% interval, which of
the answer's warnings the source carries, and whether ``middle_level.reasons`` fires on today's
figures (the test the plan would run after its two levels).

    PYTHONPATH=python python bench/foreign/results/midlevel/typed.py run [FAMILY...]
    PYTHONPATH=python python bench/foreign/results/midlevel/typed.py d2
    PYTHONPATH=python python bench/foreign/results/midlevel/typed.py fresh FOLDER STEM FAMILY
    PYTHONPATH=python python bench/foreign/results/midlevel/typed.py table \
        > bench/foreign/results/midlevel/typed.md

Run from the worktree root, under ``nice -n 10``; each case's CPU seconds (bench/cpu_clock.py)
go to runs.log here. ``run`` skips a case whose file exists (resumable).
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parents[1]
ROOT = FOREIGN.parent.parent
sys.path.insert(0, str(FOREIGN.parent))
sys.path.insert(0, str(FOREIGN))
sys.path.insert(0, str(ROOT / "python"))
import evaluate  # noqa: E402  (bench/foreign/evaluate.py)
from common import load_script  # noqa: E402  (bench/foreign/common.py)
from cpu_clock import cpu_s  # noqa: E402  (bench/cpu_clock.py)

RUN = load_script("scoreboard_run", FOREIGN / "results" / "scoreboard" / "run.py")
CASES72 = load_script("narrowtwo_cases", FOREIGN / "results" / "narrowtwo" / "cases.py")
TODAY = FOREIGN / "results" / "status72" / "cases"
OUT = HERE / "seen-typed"
LOG = HERE / "runs.log"
FAMILIES = ("MQSim", "FEMU")
#: The plan case with the third level: today's plan case with IOPS and WAF at 20% too.
MID_QD4 = ("IOPS+WAF 0+20+40 QD32 + 40 QD4, FOB", (0, 20, 40), (0, 20, 40), True, False,
           ((40, 4),))  # fmt: skip
MID = ("IOPS+WAF 0+20+40, FOB", (0, 20, 40), (0, 20, 40), True, False)
WARNINGS = {"steep_pair": "(steep_pair.py)", "bend_between": "(bend_between.py)"}


def log(line: str) -> None:
    with LOG.open("a") as f:
        f.write(f"{datetime.datetime.now(datetime.UTC):%H:%M:%S} {line}\n")


def truths(families: tuple[str, ...] = FAMILIES) -> list[tuple[str, str, str]]:
    """(folder, stem, family) of the 72's truths of ``families``, in the scoreboard's order."""
    rows = [r for part in CASES72.split().values() for r in part]
    return [r for r in rows if r[2] in families]


def key(folder: str, stem: str, family: str) -> str:
    return RUN.case_path(family, folder, stem).stem


def typed_points(doc: dict, curve: dict, case: tuple) -> tuple[list, float]:
    """The case's figures as calibrate's CLI reads them (``cli.user_points`` and the FOB)."""
    from overprov.calibrate import cli
    from overprov.calibrate import fit as fitmod

    cmd = evaluate.command(doc, curve, case, 1, [r for r in doc["levels"]
                                                 if r["queue_depth"] != 32])  # fmt: skip
    pts = cmd[cmd.index("--points") + 1]
    wafs = cmd[cmd.index("--waf-points") + 1]
    fob = float(cmd[cmd.index("--fob-iops") + 1])
    points = cli.user_points(pts, wafs)
    points.append(fitmod.Point(0.0, fob, cli.USER_POINT_REL_SD, fresh=True))
    return points, fob


def fired(points: list, fob: float) -> list[str]:
    from overprov.calibrate import middle_level

    short = {middle_level.AMBIGUOUS: "steep_pair", middle_level.BENT: "bend_between"}
    return [short[r] for r in middle_level.reasons(points, fob, None)]


def with_source(doc: dict, curve: dict, case: tuple, others: list) -> tuple[dict, list, float]:
    """``evaluate.evaluate_case`` of ``case`` (one job), the warnings its prediction's source
    carries (``evaluate.evaluate_case_kept``: calibrate's whole answer) and its CPU seconds."""
    c0 = cpu_s()
    res, outputs = evaluate.evaluate_case_kept(doc, curve, case, 1, others)
    res["summary"] = RUN.summary(res)
    answer = next((o for o in outputs if o and o.startswith("{")), None)
    source = json.loads(answer).get("prediction_source", "") if answer else ""
    return res, [w for w, tag in WARNINGS.items() if tag in source], cpu_s() - c0


def cases_of(doc: dict) -> tuple[dict, list, tuple, tuple]:
    """The truth's QD32 curve, its other queue depths, today's plan case and the third
    level's (with the QD4 figure at 40% where the truth has it)."""
    curve = evaluate.truth_curve(doc, 32)
    others = [r for r in doc["levels"] if r["queue_depth"] != 32]
    has_qd4 = any(int(r["extra_op_percent"]) == 40 and r["queue_depth"] == 4 for r in others)
    today = RUN.CASES[RUN.PLAN_QD4 if has_qd4 else RUN.PLAN]
    return curve, others, today, MID_QD4 if has_qd4 else MID


def run_one(folder: str, stem: str, family: str) -> None:
    out = OUT / f"{key(folder, stem, family)}.json"
    if out.exists():
        return
    doc = json.loads((ROOT / folder / f"{stem}.json").read_text())
    curve, others, today_case, mid_case = cases_of(doc)
    c0 = cpu_s()
    today_points, fob = typed_points(doc, curve, today_case)
    plan_test = fired(today_points, fob)
    test_s = cpu_s() - c0
    res, warnings, used = with_source(doc, curve, mid_case, others)
    res |= {
        "family": family, "truth": f"{folder}/{stem}.json", "cpu_s": used,
        "warnings": warnings, "plan_test_today": plan_test, "plan_test_cpu_s": test_s,
    }  # fmt: skip
    OUT.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1) + "\n")
    log(f"case {family} {folder}/{stem}: {used:.1f} CPU s (the plan's test {test_s:.1f})")


def fresh_one(folder: str, stem: str, family: str) -> None:
    """A fresh truth under RULE.md: today's plan case into fresh-today/; the plan's test on its
    figures; the third level's case into fresh-mid/ where the test fires, else today's answer
    (the same figures, so the same answer) copied there and marked so."""
    name = f"{key(folder, stem, family)}.json"
    doc = json.loads((ROOT / folder / f"{stem}.json").read_text())
    curve, others, today_case, mid_case = cases_of(doc)
    today_points, fob = typed_points(doc, curve, today_case)
    plan_test = fired(today_points, fob)
    tag = {"family": family, "truth": f"{folder}/{stem}.json", "plan_test_today": plan_test}
    today_out, mid_out = HERE / "fresh-today" / name, HERE / "fresh-mid" / name
    if not today_out.exists():
        res, warnings, used = with_source(doc, curve, today_case, others)
        res |= tag | {"cpu_s": used, "warnings": warnings}
        today_out.parent.mkdir(parents=True, exist_ok=True)
        today_out.write_text(json.dumps(res, indent=1) + "\n")
        log(f"fresh-today {family} {folder}/{stem}: {used:.1f} CPU s")
    if mid_out.exists():
        return
    if plan_test:
        res, warnings, used = with_source(doc, curve, mid_case, others)
        res |= tag | {"cpu_s": used, "warnings": warnings, "third_level": True}
        log(f"fresh-mid {family} {folder}/{stem}: {used:.1f} CPU s")
    else:
        res = json.loads(today_out.read_text()) | {"third_level": False}
    mid_out.parent.mkdir(parents=True, exist_ok=True)
    mid_out.write_text(json.dumps(res, indent=1) + "\n")


def today_warnings(c: dict) -> list[str]:
    """The warnings today's stored case's answer carries: rerunning it to read its source
    would cost its CPU again, so they are read from the tests themselves (``fired`` gives the
    plan's test on the same figures; the answer's warnings are those tests, see table())."""
    return c.get("plan_test_today", [])


def unfitted(c: dict, levels: tuple[int, ...]) -> tuple[int, int]:
    """(inside the 80% interval, of) the IOPS and WAF figures at ``levels`` not fitted."""
    n = inside = 0
    for r in c.get("levels", []):
        if r["extra_op_percent"] not in levels:
            continue
        for k in ("iops", "waf"):
            if r.get(f"fitted_{k}") is False and f"{k}_in_80" in r:
                n += 1
                inside += r[f"{k}_in_80"]
    return inside, n


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def err_at(c: dict, x: int, k: str) -> str:
    r = next((r for r in c.get("levels", []) if r["extra_op_percent"] == x), {})
    return "–" if f"{k}_err" not in r else f"{100 * r[f'{k}_err']:+.1f}%"


def table() -> None:
    print("| truth | today: met / IOPS med, worst / WAF worst / WAF at 10% / in 80% at 10,30"
          " | plan's test on today's figures | 20% typed: met / IOPS med, worst / WAF worst / "
          "WAF at 10% / in 80% at 10,30 | 20% answer's warnings | CPU s |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    tot = {"today": [0, 0, 0], "mid": [0, 0, 0], "fires": [0, 0, 0, 0]}
    for folder, stem, family in truths():
        k = key(folder, stem, family)
        p = OUT / f"{k}.json"
        if not p.exists():
            continue
        mid = json.loads(p.read_text())
        today = json.loads((TODAY / f"{k}.json").read_text())

        def cell(c: dict) -> str:
            s = c["summary"]
            if s.get("refused"):
                return "refused: " + (c.get("error") or ["?"])[-1][:90]
            i, n = unfitted(c, (10, 30))
            return (f"{'**yes**' if s['met'] else 'no'} / {pct(s['iops_median'])}, "
                    f"{pct(s['iops_worst'])} / {pct(s['waf_worst'])} / {err_at(c, 10, 'waf')}"
                    f" / {i}/{n}")  # fmt: skip

        test = ", ".join(mid["plan_test_today"]) or "–"
        print(
            f"| {family} {k.split('--', 1)[1]} | {cell(today)} | {test} | {cell(mid)} | "
            f"{', '.join(mid['warnings']) or '–'} | {mid['cpu_s']:.0f} |"
        )
        fires = bool(mid["plan_test_today"])
        for arm, c in (("today", today), ("mid", mid)):
            tot[arm][0] += c["summary"]["met"]
            i, n = unfitted(c, (10, 30))
            tot[arm][1] += i
            tot[arm][2] += n
        f = tot["fires"]
        f[0] += fires
        f[1] += fires and mid["summary"]["met"]
        f[2] += fires and today["summary"]["met"]
        f[3] += 1
    print()
    for arm in ("today", "mid"):
        met, i, n = tot[arm]
        print(f"- {arm}: {met} of {tot['fires'][3]} meet both targets; unfitted IOPS and WAF at "
              f"10% and 30% in the 80% interval: {i}/{n}")  # fmt: skip
    f = tot["fires"]
    print(f"- the plan's test fires on today's figures of {f[0]} of {f[3]}; of those, both "
          f"targets met today {f[2]}, with 20% typed {f[1]}")  # fmt: skip


def d2() -> None:
    """The d-choices-2 drive of tests/calibrate/test_gc_designs.py: WAF typed at 0 and 40%
    (today) and at 0, 20 and 40% (the third level), each with its 2% spread; WAF at 0-40%
    against the core's truth (the drive simulated at each level)."""
    import tempfile

    gd = load_script("test_gc_designs", ROOT / "tests" / "calibrate" / "test_gc_designs.py")
    c0 = cpu_s()
    truth = {x: gd.truth(gd.D_CHOICES_2, float(x)) for x in (0, 10, 20, 30, 40)}
    truth_s = cpu_s() - c0
    from overprov.calibrate import fit as fitmod

    rows = {"truth": truth, "truth_cpu_s": truth_s}
    for arm, typed in (("today", (0, 40)), ("mid", (0, 20, 40))):
        pts = [fitmod.Point(float(x), None, 0.02, truth[x], 0.02) for x in typed]
        reasons = fired(pts, None)  # the plan's test on these figures, short names
        waf = ",".join(f"{x}:{truth[x]:.4f}" for x in typed)
        c0 = cpu_s()
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [sys.executable, "-m", "overprov", "calibrate", "--json", "-", "--jobs", "1",
                   "--extra-op", "0,10,20,30,40", "--waf-points", waf, "--out", tmp]  # fmt: skip
            env = {"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"}
            res = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
        used = cpu_s() - c0
        if res.returncode != 0:
            rows[arm] = {"error": res.stderr.strip().splitlines()[-1:], "cpu_s": used}
            continue
        pred = json.loads(res.stdout)
        by = {int(lv["extra_op_percent"]): lv for lv in pred["levels"]}
        rows[arm] = {
            "typed": typed, "plan_test": reasons, "cpu_s": used,
            "readings": {k: r.get("weight") for k, r in pred["readings"].items()},
            "warnings": [w for w, tag in WARNINGS.items() if tag in pred["prediction_source"]],
            "waf_err": {x: by[x]["waf"] / truth[x] - 1 for x in truth},
            "waf_in_80": {x: by[x]["waf_low"] <= truth[x] <= by[x]["waf_high"] for x in truth},
        }  # fmt: skip
        log(f"d2 {arm}: {used:.1f} CPU s")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "d2.json").write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "run":
        for folder, stem, family in truths(tuple(sys.argv[2:]) or FAMILIES):
            run_one(folder, stem, family)
    elif sys.argv[1] == "fresh":
        fresh_one(*sys.argv[2:5])
    elif sys.argv[1] == "d2":
        d2()
    elif sys.argv[1] == "table":
        table()
