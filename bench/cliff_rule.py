"""How a run of bench/cliff_bench.py is counted: each case's outcome in short, and the sixth
rule (docs/calibrate-cliff.md, "Declined cases: the sixth rule"), under which a case the fit
declines — with its reason — is apart from the predicted ones.

A case is a drive in a state (purged or filled) under the QD8 70:30 mix; its row (one per drive)
holds the truth's and the prediction's cliff per state and, where no prediction was made, why:
``error`` (no accepted fit from purged), ``filled_error`` (no static region from filled), or
the state's ``refused`` (the prediction refused by a spread check)."""

from __future__ import annotations

#: a refusal's or failure's reason, short, for the table
REASONS = (
    ("no cliff before garbage collection", "no cliff in the QD32 series"),
    ("without a step", "refused: no step, and its level is a ceiling's"),
    ("no SLC program time", "refused: the plateau is not an SLC cache's"),
    ("no TLC program time", "refused: the level after is not TLC-direct writes'"),
    ("does not reproduce", "refused: the fitted drive misses the measured cliff"),
    ("shows a step: fit it", "refused: a step the fitted drive does not reproduce"),
    ("a ceiling hides", "not predicted: depends on the SLC time a ceiling hides"),
    ("cannot see", "not predicted: a cache the writes cannot see moves it"),
)


def reason(error: str) -> str:
    return next((short for key, short in REASONS if key in error), error)


def declined_rule(rows: list[dict]) -> dict:
    """The sixth rule's figures (docs/calibrate-cliff.md, "Declined cases: the sixth rule"):
    counted are the cases (drive × state) where the truth's mix or the prediction has a
    cliff; each is *declined* (no accepted fit, or the prediction refused) or *predicted*
    (a cliff, or none); a predicted case succeeds within 25% in both the time and the IOPS
    lost. Pass: at least 80% of the predicted cases succeed, no prediction of a cliff the truth
    has is off by more than 50% in either figure, and at most a third of the counted cases
    are declined."""
    cases = [(r, st, r[st]) for r in rows for st in ("none", "sequential") if st in r]

    def declined(r: dict, st: str) -> bool:
        return "error" in r or (st == "sequential" and "filled_error" in r) or "refused" in r[st]

    counted = [(r, st, c) for r, st, c in cases if c["true"] or c["predicted"]]
    out = [(r, st, c) for r, st, c in counted if declined(r, st)]
    made = [c for r, st, c in counted if not declined(r, st)]
    ok = [c for c in made if c["time_error"] is not None]
    within = [c for c in ok if abs(c["time_error"]) <= 0.25 and abs(c["lost_error"]) <= 0.25]
    worst = max((max(abs(c["time_error"]), abs(c["lost_error"])) for c in ok), default=0.0)
    share_ok = len(within) / len(made) if made else 0.0
    share_declined = len(out) / len(counted) if counted else 1.0
    by_reason: dict[str, int] = {}
    for r, _st, c in out:
        why = reason(c.get("refused") or r.get("error") or r.get("filled_error", ""))
        by_reason[why] = by_reason.get(why, 0) + 1
    return {
        "counted": len(counted),
        "predicted": len(made),
        "declined": len(out),
        "within": len(within),
        "outside": len(ok) - len(within),
        "without_cliff": sum(1 for c in made if c["true"] and not c["predicted"]),
        "truth_has_none": sum(1 for c in made if c["predicted"] and not c["true"]),
        "worst_error": worst,
        "declined_by_reason": by_reason,
        "passed": share_ok >= 0.8 and worst <= 0.5 and share_declined <= 1 / 3,
    }


def declined_rule_line(d: dict) -> str:
    share_ok = d["within"] / d["predicted"] if d["predicted"] else 0.0
    share_declined = d["declined"] / d["counted"] if d["counted"] else 1.0
    return (
        f"sixth rule: {d['counted']} counted cases, {d['predicted']} predicted, {d['declined']} "
        f"declined ({100 * share_declined:.0f}%); {d['within']} of {d['predicted']} predicted "
        f"within 25% ({100 * share_ok:.0f}%); {d['outside']} outside, {d['without_cliff']} "
        f"without a cliff, {d['truth_has_none']} where the truth has none; worst predicted "
        f"error {100 * d['worst_error']:.0f}%; declined by reason {d['declined_by_reason']}; "
        f"{'PASS' if d['passed'] else 'FAIL'}"
    )
