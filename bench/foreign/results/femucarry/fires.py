"""Which stored cases the candidate of bench/foreign/results/femucarry/RULE.md can change: for
every case given (default: the 72 scoreboard truths' plan cases with today's defaults,
bench/foreign/results/scoreboard/cases-mix/), the command it ran read with the arm's flags, and
whether ``steep_pair.fires`` or ``reserve_hull.none_links`` (with ``NONE_LINKS``) holds on its
typed figures (the gates through which ``READ_AS_FLOOR`` acts: ``reserve_hull.replaces_plain`` and
``reserve_hull.explains``) and which reserve readings ``reserve_hull.forms`` offers.
``reserve_held_out.SAME_FORM_ONLY``, ``WAF_TERMS_TOO`` and ``reserve_hull.FLOOR_NEEDS_SELECTIVE``
act only on readings ``forms`` offers, ``reserve_plateau.ON`` only on their twins (typed figures
have no onset, so no other reserve twin). Surrogate fits only; nothing simulated.

    PYTHONPATH=python python bench/foreign/results/femucarry/fires.py [case.json ...] > fires.txt
"""

from __future__ import annotations

import sys
from pathlib import Path

from overprov.calibrate import reserve_held_out, reserve_hull, steep_pair

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "bench/foreign/results/steephull"))
from fires import read_cases, said  # noqa: E402  (steephull's: one implementation)

CASES = ROOT / "bench/foreign/results/scoreboard/cases-mix"


def main(paths: list[Path]) -> None:
    steep_pair.READ_AS_FLOOR = True
    reserve_held_out.SAME_FORM_ONLY = True
    reserve_held_out.WAF_TERMS_TOO = True
    reserve_hull.FLOOR_NEEDS_SELECTIVE = True
    reserve_hull.NONE_LINKS = True
    n_fire = 0
    for path, case, fig, cv_sd in read_cases(paths):
        pts = fig.points
        two = reserve_hull.floor_in_waf(pts)
        fire = steep_pair.fires(pts, cv_sd, two) or two and reserve_hull.none_links(pts, cv_sd)
        said(path, case, fig, cv_sd, "fires", fire)
        n_fire += fire
    print(f"\n{n_fire} of {len(paths)} cases where steep_pair.fires or none_links (the flags act)")


if __name__ == "__main__":
    given = [Path(a) for a in sys.argv[1:]]
    main(given or sorted(CASES.glob("*.json")))
