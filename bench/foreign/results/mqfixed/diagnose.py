"""Why calibrate's plan case puts MQSim's WAF at 10% extra OP too low (DIAGNOSIS.md here): on
every seen MQSim truth, the free blocks a plane its collector ran with at each level, read back
through MQSim's own victim rule, and what one spare fitted to the 0% and 40% WAF figures gives
at 10% with that rule, beside calibrate's error there (today's case files). No simulation.

    PYTHONPATH=python python bench/foreign/results/mqfixed/diagnose.py > .../diagnosis.txt

MQSim's rule (RGA, src/ssd/GC_and_WL_Unit_Base.cpp at 7ec40e3b, as
docs/calibrate-validation.md's "MQSim's reserve held and worn" reads it): the best of
d = log2(blocks a plane) random blocks; its mean-field WAF is ``models.waf_d_choices`` (Van
Houdt 2013) with the drive's own pages a block. The spare a level ran with, rho(x), is the one
that curve maps to the measured WAF; with extra OP x the user span is (1 - x) of the user space
(the truths' ``extra_op_definition``), so one spare for every level means one rho0 with
rho(x) = (1 + rho0) / (1 - x) - 1, as calibrate's readings assume (``fit.rho_eff``), and the
blocks a plane left free are B - L(x) (1 + rho(x)) / b with L(x) the span's pages a plane.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
R = HERE.parent
sys.path.insert(0, str(R.parent))
from common import load_script  # noqa: E402  (bench/foreign/common.py)
from overprov import models  # noqa: E402
from overprov.calibrate import bend_between  # noqa: E402
from overprov.calibrate import fit as fitmod  # noqa: E402

FIRES = load_script("mqbend_fires", R / "mqbend" / "fires.py")
LEVELS = (0, 10, 20, 30, 40)
#: (truth, today's plan case): the 11 stored truths of the scoreboard's 72, the nine of the day
#: tally and mqgate's four fresh drives, all seen.
SEEN = [
    *[(f"{t}.json", f"wisctiming/on/MQSim--{c}.json") for t, c in (
        ("fresh-2chips/mqsim", "fresh-2chips--mqsim"), ("patched/mqsim", "patched--mqsim"),
        ("mqsim", "top--mqsim"),
        ("mqsim-reserve/unseen/u1024x32-op12", "mqsim-reserve_unseen--u1024x32-op12"),
        ("mqsim-retry/unseen/u1024x32-op12", "mqsim-retry_unseen--u1024x32-op12"))],
    *[(f"mqsim-retry/unseen/{u}.json",
       f"mqgate/seen-on/MQSim--mqsim-retry_unseen--{u}.json")
      for u in ("u1536x16", "u320x32", "u384x64", "u512x32", "u640x16", "u768x32")],
    *[(f"{f}/fresh/{u}.json", f"daytally/cases/MQSim--{f}_fresh--{u}.json") for f, u in (
        ("jointband", "u1344x16"), ("jointband", "u480x32"), ("mqbend", "u1088x16"),
        ("mqbend", "u256x64"), ("mqbend", "u352x32"), ("mqline", "u1184x16"),
        ("mqline", "u1472x16"), ("mqline", "u288x32"), ("mqline", "u608x32"))],
    *[(f"mqgate/fresh/{u}.json", f"mqgate/fresh-on/MQSim--mqgate_fresh--{u}.json")
      for u in ("u256x32", "u544x32", "u1120x16", "u1312x16")],
]  # fmt: skip


def spare_of(waf: float, b: int, d: int) -> float:
    """The spare rho that MQSim's mean-field curve maps to ``waf`` (bisection in log rho)."""
    lo, hi = 1e-4, 3.0
    for _ in range(60):
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if models.waf_d_choices(mid, b, d) > waf else (lo, mid)
    return math.sqrt(lo * hi)


def rho_at(rho0: float, x: float) -> float:
    return fitmod.rho_eff(rho0, x)


def one_spare(wafs: dict[int, float], b: int, d: int, at: tuple[int, ...] = (0, 40)) -> float:
    """The rho0 whose curve best meets the WAF at the levels ``at`` (least squares in log WAF,
    on a grid 2% apart from 0.001)."""
    grid = [0.001 * 1.02**i for i in range(300)]

    def cost(r0: float) -> float:
        return sum(math.log(models.waf_d_choices(rho_at(r0, x), b, d) / wafs[x]) ** 2
                   for x in at)  # fmt: skip

    return min(grid, key=cost)


def row(truth: str, case: str) -> str:
    doc = json.loads((R / truth).read_text())
    g = doc["config"]["geometry"]
    blocks, b = g["Block_No_Per_Plane"], g["Page_No_Per_Block"]
    planes = math.prod(g[k] for k in ("Flash_Channel_Count", "Chip_No_Per_Channel",
                                      "Die_No_Per_Chip", "Plane_No_Per_Die"))  # fmt: skip
    d = int(math.log2(blocks))
    at_qd32 = [lv for lv in doc["levels"] if lv.get("queue_depth", 32) == 32]
    wafs = {int(lv["extra_op_percent"]): lv["steady_waf"] for lv in at_qd32}
    pages = doc["advertised_bytes"] / g["Page_Capacity"] / planes
    free = []
    for x in LEVELS:  # the QD32 levels 0-40% (a truth's others left)
        rho = spare_of(wafs[x], b, d)
        free.append(blocks - pages * (1 - x / 100) * (1 + rho) / b)
    r0 = one_spare(wafs, b, d)
    err = {x: models.waf_d_choices(rho_at(r0, x), b, d) / wafs[x] - 1 for x in (0, 10, 20, 40)}
    r40 = one_spare(wafs, b, d, (40,))
    err40 = models.waf_d_choices(rho_at(r40, 10), b, d) / wafs[10] - 1
    c = json.loads((R / case).read_text())
    cal = {int(lv["extra_op_percent"]): lv["waf_err"] for lv in c["levels"]}
    carry = max(c["readings"], key=c["readings"].get).removeprefix("effective_spare")
    fired = bend_between.fires(*FIRES.from_command(c["command"]))
    return (
        f"| {truth.removesuffix('.json')} | {blocks}x{b}, d={d} | "
        + " / ".join(f"{f:.0f}" for f in free)
        + f" | {free[0] - (free[1] + free[2]) / 2:+.1f} | "
        + " / ".join(f"{100 * err[x]:+.1f}" for x in (0, 10, 20, 40))
        + f" | {100 * err40:+.1f} | "
        + f"{100 * cal[10]:+.1f} / {100 * cal[20]:+.1f} | {carry or ':greedy'} "
        + f"{max(c['readings'].values()):.2f} | {'yes' if fired else 'no'} |"
    )


def main() -> None:
    print("| truth (bench/foreign/results/) | blocks a plane x pages, MQSim's d | free blocks a "
          "plane at 0/10/20/30/40% (MQSim's rule) | 0% minus mean of 10, 20% | one spare "
          "through 0% and 40%, MQSim's rule: WAF error at 0/10/20/40% | one spare from 40% "
          "alone: WAF error at 10% | calibrate's plan case: "
          "WAF error at 10/20% | heaviest reading | bend warning |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    for truth, case in SEEN:
        print(row(truth, case))


if __name__ == "__main__":
    main()
