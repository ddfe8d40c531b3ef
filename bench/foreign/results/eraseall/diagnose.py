"""DIAGNOSIS.md's table: what the plan case's figures (QD32 IOPS and WAF at 0 and 40%, FOB, each
at the CLI's 5% spread) show on the seen truths where the erase twin carried weight in
bench/foreign/results/scoreboard/cases-final.md (14 NVMeVirt, WiscSim F and G, four MQSim
retried drives) and on the other MQSim retried drives. Surrogate fits only, no simulator.

    PYTHONPATH=python python bench/foreign/results/eraseall/diagnose.py

Per truth: FOB ÷ the steady line's WAF-1 IOPS (``line_ratio`` of
bench/foreign/results/erasecost/ratios.py), the WAF figure at 0%, the smallest spread of the
implied native spare over the uniform designs (``erase_reading.shape_spread``) and that spread
÷ the mean implied spare (the smallest over the designs), and per GC
design's erase twin (``erase_reading.EraseForm``): its implied erase ÷ program time a page
(t_erase ÷ (t_page − t_erase)), its fitted native spare, and its χ² beside the best plain
reading's; the weight the erase twins take (``spare_readings.weigh``, ``class_weights``).
"""

from __future__ import annotations

import json
import resource
import sys
from pathlib import Path

from overprov.calibrate import erase_reading, gc_designs, spare_readings
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

RESULTS = Path(__file__).resolve().parent.parent
ratios = load_script("ratios", RESULTS / "erasecost" / "ratios.py")

SD = 0.05  # the CLI's spread of a typed figure (calibrate/cli.py, USER_POINT_REL_SD)
LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]
#: name -> (truth, group)
CASES = {
    **{
        f"NVMeVirt {x.upper()}": (RESULTS / p / f"nvmevirt-{x}.json", "NVMeVirt erase")
        for p, xs in (
            ("nvmevirt", "b"),
            ("erasecost", "cd"),
            ("erasecost/rule2", "fg"),
            ("erasereading", "jk"),
            ("erasegate", "mn"),
            ("erasegreedy", "opqst"),
        )
        for x in xs
    },
    "WiscSim F": (RESULTS / "wiscgc/wiscsee-f.json", "WiscSim"),
    "WiscSim G": (RESULTS / "wiscgc/wiscsee-g.json", "WiscSim"),
    **{
        f"MQSim {u}": (RESULTS / "mqsim-retry/unseen" / f"{u}.json", "MQSim retried, twin")
        for u in ("u512x32", "u640x16", "u768x32", "u1536x16")
    },
    **{
        f"MQSim {u}": (RESULTS / "mqsim-retry/unseen" / f"{u}.json", "MQSim retried, none")
        for u in ("u320x32", "u384x64", "u1024x32-op12")
    },
    **{  # the same patched MQSim, other rules' fresh drives (stored, seen)
        f"MQSim {u}": (RESULTS / rule / "fresh" / f"{u}.json", f"MQSim retried ({rule})")
        for rule, us in (
            ("mqsched", ("u448x32", "u896x16")),
            ("mqmid", ("u576x32", "u1152x16")),
            ("mqskip", ("u704x32", "u1280x16")),
            ("mqlockstep", ("u832x32", "u1408x16")),
        )
        for u in us
    },
    "NVMeVirt U": (RESULTS / "erasefloor/nvmevirt-u.json", "NVMeVirt erase (erasefloor)"),
    "NVMeVirt V": (RESULTS / "erasefloor/nvmevirt-v.json", "NVMeVirt erase (erasefloor)"),
}


def plan_points(doc: dict) -> list[fitmod.Point]:
    """The plan case's QD32 figures as the CLI types them: IOPS and WAF at 0 and 40%, FOB."""
    lv = {int(r["extra_op_percent"]): r for r in doc["levels"] if r["queue_depth"] == 32}
    pts = [
        fitmod.Point(x, lv[x]["steady_iops"], SD, waf=lv[x]["steady_waf"], waf_rel_sd=SD)
        for x in (0, 40)
    ]
    return [*pts, fitmod.Point(0.0, lv[0]["fob_iops"], SD, fresh=True)]


def relative_spread(pts: list[fitmod.Point]) -> float:
    """The smallest over the uniform designs of the implied native spare's spread ÷ its mean
    (infinite where the mean is not positive)."""
    wafs = {p.extra_op_percent: p.waf for p in pts if p.waf is not None and not p.fresh}
    out = []
    for d in gc_designs.UNIFORM_DESIGNS:
        curve = gc_designs.curve(d) or fitmod.waf_at
        rho0 = [(1 + fitmod.rho_for_waf(w, curve)) * (1 - x / 100) - 1 for x, w in wafs.items()]
        mean = sum(rho0) / len(rho0)
        out.append((max(rho0) - min(rho0)) / mean if mean > 0 else float("inf"))
    return min(out)


def row(name: str, path: Path, group: str) -> str:
    doc = json.loads(path.read_text())
    pts = plan_points(doc)
    _, _, line = ratios.line_ratio(doc)
    spread = erase_reading.shape_spread(pts)
    relative = relative_spread(pts)
    fig = predmod.PredictionInput(points=pts, levels=LEVELS, typed=True)
    evs, curves = spare_readings.weigh(fig)
    weights = spare_readings.class_weights(evs)
    w_erase = sum(v for r, v in weights.items() if r.erase)
    plain = min(e["chi2"] for r, e in evs.items() if not r.erase)
    per = []
    for design in ("greedy", "d-choices-8"):
        form = erase_reading.EraseForm(curves.get(design) or fitmod.waf_at, None, False)
        try:
            s = form.fit(pts)
        except Exception as exc:  # noqa: BLE001 (a diagnosis: say why, go on)
            per.append(f"{design}: {type(exc).__name__}")
            continue
        e = s.erase_us_per_page
        ratio = e / (s.t_page_us - e) if s.t_page_us > e else float("nan")
        per.append(f"{design}: {ratio:.2f}, ρ₀ {100 * s.native_op:.1f}%")
    twin = min((e["chi2"] for r, e in evs.items() if r.erase), default=float("nan"))
    lv0 = next(r for r in doc["levels"] if r["queue_depth"] == 32 and r["extra_op_percent"] == 0)
    return (
        f"| {name} | {group} | {line:.2f} | {lv0['steady_waf']:.2f} | {100 * spread:.2f} | "
        f"{relative:.3f} | "
        f"{'; '.join(per)} | {plain:.2f} / {twin:.2f} | {w_erase:.2f} |"
    )


def main() -> None:
    print(
        "| truth | group | FOB ÷ line | WAF at 0% | shape spread (pts) | ÷ the mean spare | "
        "erase twin's "
        "erase ÷ program a page, its ρ₀ | χ² best plain / best twin | erase twins' weight |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, (path, group) in CASES.items():
        print(row(name, path, group), flush=True)
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(f"\nCPU s: {ru.ru_utime + ru.ru_stime:.2f}")


if __name__ == "__main__":
    main()
