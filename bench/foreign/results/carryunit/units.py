"""Which unit of rule 3's model-form term ranks the misses the term must carry, and is one
feasible (DIAGNOSIS.md, feasible.txt)? From bootwidth's rows.json (the 72's unfitted figures:
truth error, the typed bootstrap's log half-width on the truth's side) and readings.json (this
folder: each case's readings, their stored weights and own residuals); for freshnow's 13 cases
the same figures are computed here (the bootstrap as bench/foreign/results/bootwidth/diagnose.py
draws it, 100 greedy refits at the typed 5%). No calibrate run, no new truth.

Per figure, what the model-form term must carry: m = sqrt(max(err² − b², 0)) (err the truth's
log error, b the bootstrap's log half-width on its side; 0 where the bootstrap alone holds it).
A good unit u is proportional to m: its needed scale m / (Z80 · u) is then alike across figures.
Units (relative sds; the floor ``uncertainty.AT_FITTED_REL_SD`` 0.02 in quadrature where said):

- greedy:    hypot(0.02, R_greedy) (today);
- weighted:  hypot(0.02, sqrt(Σ w R_r² / Σ w)), R_r each positive-weight reading's own residual
             sd on the fitted figures, w its stored weight (``reading_residual.WEIGHTED``'s R);
- kindfloor: sqrt(Σ w (F_k² + R_r²) / Σ w), F_k the RMS of the own residuals of every
             positive-weight reading of that kind (plain, erase-cost, GC-reserve) over the 72
             (fitted figures only: no truth);
- figkind:   hypot(0.02, the weighted own residual of the figure's kind, IOPS or WAF);
- dof:       1 / sqrt(Σ w (n − p) / Σ w), n − p the figures beyond the reading's parameters;
- constant:  1 (no unit: one relative sd for every figure; a baseline);
- distance:  the log spare distance from the nearest fitted level (``uncertainty.spare_distance``).

Spearman of each unit with m and with |err|, pooled and per family; then, for each unit, the
scale of conformal_scale's rules (families as units; each family's figures judged at the scale
measured without it) and the 72's estimated coverage under C1 (pooled 303..388 of 432) and C2
(each family and family × kind at ≥ 70% today stays ≥ 70%), the clauses of
bench/foreign/results/bootwidth/feasible.py; and freshnow's 13 at the scale measured on all 72.
A figure is inside iff |err| ≤ sqrt(b² + (Z80 · s · u)²) (the one-reading approximation
bootwidth's feasible.txt checked on 431 of 432). ≈ 15 CPU s.

    PYTHONPATH=python python bench/foreign/results/carryunit/units.py > .../feasible.txt
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
sys.path.insert(0, str(RESULTS / "bootwidth"))
sys.path.insert(0, str(RESULTS / "scorecover"))
import diagnose  # noqa: E402  (bench/foreign/results/bootwidth/diagnose.py)
import feasible  # noqa: E402  (bench/foreign/results/bootwidth/feasible.py)
import levels  # noqa: E402  (bench/foreign/results/scorecover/levels.py)
import table  # noqa: E402  (bench/foreign/results/bootwidth/table.py)
from overprov.calibrate import conformal_scale, uncertainty  # noqa: E402

FLOOR = uncertainty.AT_FITTED_REL_SD
UNITS = ("greedy", "weighted", "kindfloor", "figkind", "dof", "constant", "distance")
KINDS = ("plain", "erase", "reserve", "raw")


def ranks(xs: list[float]) -> list[float]:
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float | None:
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((x - mb) ** 2 for x in rb)
    if va == 0 or vb == 0:
        return None
    return sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True)) / math.sqrt(va * vb)


def carrying(case: dict) -> list[dict]:
    """The case's readings of positive stored weight whose own residual is defined."""
    return [r for r in case["readings"] if (r["weight"] or 0) > 0 and r["all"] is not None]


def kind_floors(cases: dict) -> dict[str, float]:
    got: dict[str, list[float]] = defaultdict(list)
    for c in cases.values():
        if c["set"] == "status72":
            for r in carrying(c):
                got[r["kind"]].append(r["all"])
    return {k: math.sqrt(statistics.fmean(x * x for x in v)) for k, v in got.items()}


def units_of(case: dict, figure: str, distance: float | None, floors: dict) -> dict:
    rs = carrying(case)
    w = sum(r["weight"] for r in rs)
    greedy = math.hypot(FLOOR, case["greedy_R"])
    if not rs:
        return dict.fromkeys(UNITS[:-2], greedy) | {"constant": 1.0, "distance": distance}
    mean = lambda f: sum(r["weight"] * f(r) for r in rs) / w  # noqa: E731
    fig = [r for r in rs if r[figure] is not None]
    fw = sum(r["weight"] for r in fig)
    figres = math.sqrt(sum(r["weight"] * r[figure] ** 2 for r in fig) / fw) if fw else None
    return {
        "greedy": greedy,
        "weighted": math.hypot(FLOOR, math.sqrt(mean(lambda r: r["all"] ** 2))),
        "kindfloor": math.sqrt(mean(lambda r: floors[r["kind"]] ** 2 + r["all"] ** 2)),
        "figkind": math.hypot(FLOOR, figres if figres is not None else case["greedy_R"]),
        "dof": 1 / math.sqrt(mean(lambda r: r["n"] - r["p"])),
        "constant": 1.0,
        "distance": distance,
    }


def fresh_rows() -> list[dict]:
    """freshnow's unfitted figures as rows.json's: the truth's log error and the typed
    bootstrap's log half-width on its side."""
    out = []
    for path in sorted((RESULTS / "freshnow" / "cases").glob("*.json")):
        doc = json.loads(path.read_text())
        if "levels" not in doc:
            continue
        doc["_stem"] = path.stem
        points = levels.case_points(doc["command"])
        xs = [float(lv["extra_op_percent"]) for lv in doc["levels"]]
        boot = diagnose.boot_of(points, xs, "typed")
        for r in levels.case_rows(doc):
            if not r.fitted:
                out.append({"family": r.family, "case": r.case, "level": r.level,
                            "figure": r.figure, "inside": r.inside, "log_error": r.log_error,
                            "boot_typed": diagnose.side_half(boot, r),
                            "rel_width": r.rel_width})  # fmt: skip
    return out


def distances(stems: set[str]) -> dict[tuple, float | None]:
    out = {}
    for name in ("status72", "freshnow"):
        for path in sorted((RESULTS / name / "cases").glob("*.json")):
            if path.stem not in stems:
                continue
            doc = json.loads(path.read_text())
            doc["_stem"] = path.stem
            for r in levels.case_rows(doc):
                out[(r.case, float(r.level), r.figure)] = r.distance
    return out


def attach(rows: list[dict], cases: dict, floors: dict, dist: dict) -> None:
    for r in rows:
        d = dist[(r["case"], float(r["level"]), r["figure"])]
        r["units"] = units_of(cases[r["case"]], r["figure"], d, floors)
        e, b = abs(r["log_error"]), r["boot_typed"]
        r["m"] = math.sqrt(max(e * e - b * b, 0.0))


def carry_table(rows: list[dict], cases: dict) -> None:
    """Per family (the 72): the carrying readings' kinds by weight, their own residuals and
    dof against the greedy R, and what the term must carry (medians over figures, ×100)."""
    med = statistics.median
    print("| family | figures | weight by kind (plain/erase/reserve) | greedy R | weighted own R "
          "| own R IOPS; WAF | n − p | m IOPS | m WAF | abs err IOPS | abs err WAF |")  # fmt: skip
    print("|---" * 11 + "|")
    for fam in sorted({r["family"] for r in rows}):
        rs = [r for r in rows if r["family"] == fam]
        cs = [cases[c] for c in sorted({r["case"] for r in rs})]
        by_kind: dict[str, float] = defaultdict(float)
        for c in cs:
            for r in carrying(c):
                by_kind[r["kind"]] += r["weight"] / len(cs)
        kinds = "/".join(f"{by_kind.get(k, 0):.2f}" for k in KINDS[:3])

        def own(c: dict, key: str) -> float | None:
            got = [r for r in carrying(c) if r[key] is not None]
            w = sum(r["weight"] for r in got)
            return math.sqrt(sum(r["weight"] * r[key] ** 2 for r in got) / w) if w else None

        def m(key: str, fig: str, rs: list[dict] = rs) -> str:
            vals = [r[key] if key != "err" else abs(r["log_error"]) for r in rs
                    if r["figure"] == fig]  # fmt: skip
            return f"{100 * med(vals):.2f}"

        ownv = [v for c in cs if (v := own(c, "all")) is not None]
        oi = [v for c in cs if (v := own(c, "iops")) is not None]
        ow = [v for c in cs if (v := own(c, "waf")) is not None]
        dofs = sorted({r["n"] - r["p"] for c in cs for r in carrying(c)})
        print(f"| {fam} | {len(rs)} | {kinds} | {100 * med(c['greedy_R'] for c in cs):.2f} | "
              f"{100 * med(ownv):.2f} | {100 * med(oi):.2f}; {100 * med(ow):.2f} | "
              f"{','.join(map(str, dofs))} | {m('m', 'iops')} | {m('m', 'waf')} | "
              f"{m('err', 'iops')} | {m('err', 'waf')} |")  # fmt: skip


def need(r: dict, u: str) -> float:
    return r["m"] / (uncertainty.Z80 * r["units"][u])


def rank_table(rows: list[dict]) -> None:
    fams = sorted({r["family"] for r in rows})
    print("| unit | all: ρ(u, m) | all: ρ(u, abs err) | "
          + " | ".join(f"{f} ρ(u, m)" for f in fams) + " |")  # fmt: skip
    print("|---" * (3 + len(fams)) + "|")
    for u in UNITS:
        cells = []
        for sel in [rows, *([r for r in rows if r["family"] == f] for f in fams)]:
            rho = spearman([r["units"][u] for r in sel], [r["m"] for r in sel])
            cells.append("–" if rho is None else f"{rho:+.2f}")
        rho_e = spearman([r["units"][u] for r in rows], [abs(r["log_error"]) for r in rows])
        cells.insert(1, "–" if rho_e is None else f"{rho_e:+.2f}")
        print(f"| {u} | " + " | ".join(cells) + " |")


def scales(rows: list[dict], u: str, cl: feasible.Clauses) -> dict:
    needed: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        needed[r["family"]].append(need(r, u))
    floored = []
    for g in cl.floors:
        fam, _, kind = g.partition(" ")
        group = [r for r in rows if r["family"] == fam and (not kind or r["figure"] == kind)]
        floored.append((fam, [need(r, u) for r in group]))
    return {
        "family_scale": lambda out: conformal_scale.family_scale(needed, leave_out=out),
        "family_mean_scale": lambda out: conformal_scale.family_mean_scale(needed, leave_out=out),
        "floored_mean_scale": lambda out: conformal_scale.floored_mean_scale(
            needed, floored, leave_out=out
        ),
    }


def fresh_under(fresh: list[dict], u: str, s: float) -> str:
    """freshnow's families and family × kind under 70% at scale ``s`` (all at 100% today)."""
    got: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in fresh:
        for g in (r["family"], f"{r['family']} {r['figure']}"):
            got[g][0] += need(r, u) <= s
            got[g][1] += 1
    return ", ".join(f"{g} {a}/{n}" for g, (a, n) in sorted(got.items()) if a < 0.7 * n - 1e-9)


def width(r: dict, u: str, s: float) -> float:
    """The estimated relative width (high − low)/prediction of one reading's symmetric band."""
    half = math.hypot(r["boot_typed"], uncertainty.Z80 * s * r["units"][u])
    return math.exp(half) - math.exp(-half)


def one_scale(rows72: list[dict], fresh: list[dict], u: str, cl: feasible.Clauses) -> str:
    """One scale for every figure scanned 0.01..3.00, chosen on the 72 (not left out): the
    scales meeting C1 and C2, and those of them holding freshnow's pooled figures in 70–90%
    (with freshnow's groups under 70% there)."""
    ok_s, both = [], []
    lo, hi = math.ceil(0.7 * len(fresh)), math.floor(0.9 * len(fresh))
    for k in range(1, 301):
        s = k / 100
        pooled, below = cl.judge([(r, need(r, u) <= s) for r in rows72])
        if not cl.meets(pooled, below):
            continue
        ok_s.append(f"{s}:{pooled}")
        f_in = sum(need(r, u) <= s for r in fresh)
        if lo <= f_in <= hi:
            under = fresh_under(fresh, u, s)
            both.append(f"{s}:{pooled}+{f_in}" + (f" (freshnow {under})" if under else ""))
    return (f"  {u}, one scale scanned 0.01..3.00 (chosen on the 72, not left out): scales "
            f"meeting C1 and C2: {ok_s or 'none'}; of those, with freshnow's {len(fresh)} "
            f"also in {lo}..{hi}: {both or 'none'}")  # fmt: skip


def est_width(rows: list[dict]) -> float:
    """The median estimated width of ``rows`` at today's unit and scale."""
    return statistics.median(width(r, "greedy", feasible.RECORDED) for r in rows)


def main() -> int:
    c0 = diagnose.cpu_s()
    cases = json.loads((HERE / "readings.json").read_text())["cases"]
    floors = kind_floors(cases)
    rows72 = table.load_rows()
    fresh = fresh_rows()
    dist = distances({r["case"] for r in rows72 + fresh})
    attach(rows72, cases, floors, dist)
    attach(fresh, cases, floors, dist)
    print("kind floors F_k (RMS own residual of positive-weight readings over the 72): "
          + ", ".join(f"{k} {v:.4f}" for k, v in sorted(floors.items())))  # fmt: skip
    print("\n## The readings that carry the 72's predictions (medians; ×100)\n")
    carry_table(rows72, cases)
    print(f"\n## Spearman ρ of each unit with m (the part of |err| the term must carry) — the 72 "
          f"({len(rows72)} figures)\n")  # fmt: skip
    rank_table(rows72)
    print(f"\n## The same on freshnow's 13 ({len(fresh)} figures)\n")
    rank_table(fresh)
    cl = feasible.Clauses(rows72)
    print(f"\n## Conformal scales and estimated coverage (C1 band {cl.band[0]}..{cl.band[1]} of "
          f"{cl.n['all']}; C2 floors on {len(cl.floors)} groups)\n")  # fmt: skip
    today72 = statistics.median(r["rel_width"] for r in rows72)
    todayf = statistics.median(r["rel_width"] for r in fresh)
    print(f"today (stored): the 72 {cl.today['all']}/{cl.n['all']} inside, median width "
          f"{100 * today72:.1f}%; freshnow {sum(r['inside'] for r in fresh)}/{len(fresh)}, "
          f"{100 * todayf:.1f}%; the same estimated as below (greedy unit, scale "
          f"{feasible.RECORDED:.2f}): the 72 {100 * est_width(rows72):.1f}%, freshnow "
          f"{100 * est_width(fresh):.1f}%\n")  # fmt: skip
    agree = sum((need(r, "greedy") <= feasible.RECORDED) == r["inside"] for r in fresh)
    print(f"approximation check on freshnow (greedy unit, scale {feasible.RECORDED:.2f}): agrees "
          f"with the stored inside/outside on {agree} of {len(fresh)} figures\n")  # fmt: skip
    for u in UNITS:
        if u == "distance":
            continue  # not a unit of rule 3's form (zero at a fitted level): ranked only
        for name, rule in scales(rows72, u, cl).items():
            flags = [(r, need(r, u) <= rule(r["family"])) for r in rows72]
            pooled, below = cl.judge(flags)
            s_all = rule(None)
            f_in = sum(need(r, u) <= s_all for r in fresh)
            w72 = statistics.median(width(r, u, rule(r["family"])) for r in rows72)
            wf = statistics.median(width(r, u, s_all) for r in fresh)
            lost = fresh_under(fresh, u, s_all)
            ok = cl.meets(pooled, below)
            p_in, b_in = cl.judge([(r, need(r, u) <= s_all) for r in rows72])
            three = [r for r in fresh if r["family"] in ("NVMeVirt", "MQSim", "FEMU")]
            t_in = sum(need(r, u) <= s_all for r in three)
            fams = sorted({r["family"] for r in rows72})
            print(f"- {u}, {name}: scale {s_all:.3f} on all 72 (left out: "
                  + ", ".join(f"{f[:4]} {rule(f):.3f}" for f in fams)
                  + f"); the 72 {pooled}/{cl.n['all']} (est. width {100 * w72:.1f}%), below: "
                  f"{', '.join(below) or 'none'}{' — MEETS C1 and C2' if ok else ''}; freshnow "
                  f"{f_in}/{len(fresh)} (est. width {100 * wf:.1f}%), groups under 70%: "
                  f"{lost or 'none'}; at the all-72 scale the 72 {p_in}/"
                  f"{cl.n['all']} (below: {', '.join(b_in) or 'none'}), freshnow's NVMeVirt, "
                  f"MQSim and FEMU {t_in}/{len(three)}")  # fmt: skip
        print(one_scale(rows72, fresh, u, cl))
    print(f"\nCPU {diagnose.cpu_s() - c0:.1f} s (bench/cpu_clock.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
