"""The greedy GC-reserve reading without an onset (``reserve_hull.py``) on the seen generated
reserve drives' plan figures (IOPS and WAF at 0% and 40%, FOB): its surrogate's log WAF error at
10, 20 and 30% against the truth, the log distance D of the uncapped curve from the floor there
(``reserve_transition.FloorEdge``) and the model-form sd its interval is widened by, with
``reserve_hull.UNDATED_EDGE`` off and on (milliseconds; output in ``edge_diag.txt``).

    PYTHONPATH=python python bench/intervals/hullres2/edge_diag.py \
        > bench/intervals/hullres2/edge_diag.txt
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from overprov.calibrate import evidence, own_residual, reserve_hull, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate import reserve_transition as rt

ROOT = Path(__file__).resolve().parents[3]
SEEN = sorted(
    [*ROOT.glob("bench/foreign/results/iops-only2/generated/gen-R*.json"),
     *ROOT.glob("bench/intervals/iops-only/generated/gen-R*.json"),
     *ROOT.glob("bench/intervals/hullres/generated/gen-R*.json")],
    key=lambda p: int(p.stem.split("-")[1][1:]),
)  # fmt: skip
SD = 0.02


def plan_points(doc: dict) -> list[fitmod.Point]:
    q = {(r["extra_op_percent"], r["queue_depth"]): r for r in doc["levels"]}
    return [
        *(fitmod.Point(x, q[(x, 32)]["steady_iops"], SD, q[(x, 32)]["steady_waf"], SD)
          for x in (0.0, 40.0)),
        fitmod.Point(0.0, q[(0.0, 32)]["fob_iops"], SD, fresh=True),
    ]  # fmt: skip


def main() -> None:
    reserve_hull.OFFERED = True
    print("drive | level: D, log WAF error, sd (UNDATED_EDGE off -> on), inside at 80% on")
    for path in SEEN:
        doc = json.loads(path.read_text())
        truth = {r["extra_op_percent"]: r["steady_waf"] for r in doc["levels"]
                 if r["queue_depth"] == 32}  # fmt: skip
        pts = plan_points(doc)
        mf = uncertainty.model_form_for(pts, False)
        cv_sd = evidence.model_form_rel_sd(mf)
        form = reserve_hull.form_of("greedy", cv_sd)
        if not form.called_for(pts):
            print(f"{path.stem}: not called for")
            continue
        sds = {}
        for on in (False, True):
            reserve_hull.UNDATED_EDGE = on
            s = form.fit(pts)
            f2 = own_residual.reserve_reading_form(mf, s, pts, form)
            sds[on] = {x: f2.at(None, x) for x in (10.0, 20.0, 30.0)}
        edge = rt.floor_edge(s)
        cells = []
        for x in (10.0, 20.0, 30.0):
            err = math.log(s.waf(x) / truth[x])
            ok = abs(err) <= uncertainty.Z80 * sds[True][x]
            cells.append(
                f"{x:g}%: D {edge.log_waf_from_floor(x):+.3f}, err {err:+.3f}, "
                f"sd {sds[False][x]:.3f} -> {sds[True][x]:.3f} {'in' if ok else 'OUT'}"
            )
        print(f"{path.stem} (floor {s.waf_floor:.2f}) | " + " | ".join(cells))


if __name__ == "__main__":
    main()
