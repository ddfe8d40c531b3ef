"""A write series' fit refused, tried once more with three forms (acting only with
``cliff_prediction.PROBES_IN_PREDICTION``: bench/results/cliffseries/RULE.md).

Why (bench/results/cliffseries/DIAGNOSIS.md, on seen drives): ``cliff.fit_cache`` refused
fits whose figures it could have identified, for three reasons of its own making.

- *The SLC program time's bounds are absolute* (20–2000 µs), but calibrate's twin is an
  equivalent drive, not the drive's NAND: on 273 its one die programs TLC in 75 µs (the truth's
  eight, 1,086 µs), so the plateau it needs takes an SLC program of about 13 µs, under the
  bound. The second try widens the bounds to the times whose SLC programs write
  :data:`SLC_RATE_RANGE` times the bytes per die-second of the twin's TLC ones (a third of a
  flash page per SLC page, as the core counts it), where that is wider.
- *The plateau was read past a cache the fast twin had filled*: the bisection's plateau is
  simulated with a cache ten times the size, but the core keeps a dynamic cache under a third
  of the free space, and a twin whose fastest SLC program writes 23 times the plateau fills it
  before the measured cliff's interval (267 at 3%: the median at 20 µs read 16,090 IOPS, its
  TLC level, against a plateau of 531,700), so the bisection's fast end read slow. The second
  try reads each simulated plateau only up to that series' own cliff (``find_cliff`` at the
  fit's ``min_drop``).
- *The fitted drive's own step was looked for at the measured step's threshold*: a drive whose
  levels reproduce the measured ones within 1% can step 9.8% where the measurement stepped
  10.4% (268 at 1%, a 10% threshold), so its own cliff is not found where it is, and the size's
  correction moves the cache away. The second try looks for it at :data:`OWN_STEP_SHARE` of
  the threshold (the check on its time and levels unchanged).

Only a fit refused for its plateau or for the fitted drive's cliff is tried again; a fit made
the first time is kept as it was, so every prediction the first try makes is unchanged.
"""

from __future__ import annotations

from typing import Any

from overprov.calibrate.cliff import SLC_PROGRAM_US_RANGE
from overprov.errors import ConfigError

#: With ``cliff_prediction.PROBES_IN_PREDICTION`` (off by default): a refused fit tried once more
#: with this module's forms (bench/results/cliffseries/RULE.md)
REFIT_REFUSED = True
#: The SLC programs' bytes per die-second, as multiples of the twin's TLC programs': the same
#: hundredfold span as the absolute bounds, centred on the TLC rate
SLC_RATE_RANGE = (0.1, 10.0)
#: The fitted drive's own step looked for at this share of the measured step's threshold
OWN_STEP_SHARE = 0.5

_REFUSALS = ("reproduces the plateau", "does not reproduce the measured cliff")


def refused(exc: ConfigError) -> bool:
    """Whether ``exc`` is ``cliff.fit_cache``'s refusal for its plateau or its cliff."""
    text = str(exc)
    return "fit refused" in text and any(r in text for r in _REFUSALS)


def slc_range(twin: dict[str, Any]) -> tuple[float, float]:
    """The bisection's SLC program time bounds (µs per SLC page) for ``twin``: the absolute
    ones widened to the times at which an SLC page (a third of a flash page) writes
    :data:`SLC_RATE_RANGE` times the bytes per die-second of the twin's TLC program."""
    lo, hi = SLC_PROGRAM_US_RANGE
    tlc = twin.get("config", {}).get("timing", {}).get("nand", {}).get("program_us")
    if not tlc:
        return lo, hi
    per_third = float(tlc) / 3
    return min(lo, per_third / SLC_RATE_RANGE[1]), max(hi, per_third / SLC_RATE_RANGE[0])


def fit_kw(twin: dict[str, Any]) -> dict[str, Any]:
    """``cliff.fit_cache``'s arguments for the second try on ``twin``."""
    return {"slc_range": slc_range(twin), "plateau_before_own_end": True,
            "own_step_share": OWN_STEP_SHARE}  # fmt: skip
