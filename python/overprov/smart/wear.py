"""Wear and lifetime maths: WAF, percentage used, write rate and days left, for one snapshot
or between two snapshots of one drive."""

from __future__ import annotations

from dataclasses import dataclass, field

from overprov.models import implausible_waf
from overprov.smart.snapshot import SmartDataError, Snapshot, bytes_text
from overprov.units import plural

# ---------------------------------------------------------------------------------------------
# Reports


@dataclass(frozen=True)
class Endurance:
    """Remaining life extrapolated from the wear so far (``percentage_used``)."""

    percentage_used: float | None
    remaining_percent: float | None
    days_left: float | None  # point estimate at the observed wear rate
    days_left_at_least: float | None  # lower bound when the indicator is whole percent
    remaining_host_bytes: float | None  # host writes still possible at the same WAF
    explanation: str


@dataclass(frozen=True)
class LifetimeReport:
    snapshot: Snapshot
    waf: float | None
    waf_formula: str | None
    waf_estimate: float | None  # from average erase count × capacity, when no NAND counter
    host_bytes: int | None
    host_bytes_per_day: float | None
    drive_writes_per_day: float | None
    endurance: Endurance
    notes: tuple[str, ...] = field(default=())
    waf_implausible: str | None = None  # why the counters' WAF is not given (see _plausible)


def _endurance(used: float | None, hours: float | None, host_bytes: float | None) -> Endurance:
    if used is None:
        return Endurance(
            None,
            None,
            None,
            None,
            None,
            "not known (it needs the percentage used, which is not available for this drive)",
        )
    remaining = max(0.0, 100.0 - used)
    if used >= 100.0:
        return Endurance(
            used,
            0.0,
            0.0,
            0.0,
            0.0,
            f"{used:g} % of the rated endurance is used up: the drive is past its rating",
        )
    if not hours:
        return Endurance(
            used, remaining, None, None, None, "no power-on hours: cannot give a wear rate"
        )
    days = hours / 24.0
    if used <= 0.0:
        # The indicator counts whole percent: 0 means less than 1 % is used.
        at_least = days * 99.0
        return Endurance(
            used,
            remaining,
            None,
            at_least,
            None if host_bytes is None else host_bytes * 99.0,
            "wear is still below 1 %, so the rate is a lower bound: more than "
            f"{at_least:,.0f} days ({at_least / 365:.0f} years) at this rate",
        )
    point = days * remaining / used
    at_least = days * max(0.0, remaining - 1.0) / (used + 1.0)
    return Endurance(
        used,
        remaining,
        point,
        at_least,
        None if host_bytes is None else host_bytes * remaining / used,
        f"about {point:,.0f} days ({point / 365:.1f} years) at this rate (at least "
        f"{at_least:,.0f} days if the whole-percent indicator rounds down)",
    )


def waf_estimate_from_erase_count(snap: Snapshot) -> float | None:
    """WAF ≈ average P/E cycles × user capacity / host writes (an estimate: raw NAND is larger
    than user capacity, pushing the true figure up; erases done at the factory push it down)."""
    host = snap.host_writes.bytes if snap.host_writes else None
    if not snap.avg_erase_count or not snap.capacity_bytes or not host:
        return None
    return snap.avg_erase_count * snap.capacity_bytes / host


def _plausible(waf: float | None, what: str) -> tuple[float | None, str | None]:
    """(waf, None), or (None, why) when no drive can have it: a WAF of 4·10¹⁶ from a wrapped
    counter is shown as what it is, never as the answer."""
    why = implausible_waf(waf)
    return (waf, None) if why is None else (None, f"{what} gives {why}; not given as the WAF")


def lifetime_report(snap: Snapshot) -> LifetimeReport:
    """Lifetime WAF, write rate and remaining endurance of one snapshot."""
    host_bytes = snap.host_writes.bytes if snap.host_writes else None
    waf, implausible = _plausible(
        snap.waf_counters.waf if snap.waf_counters else None, "the NAND and host counters"
    )
    notes: list[str] = []
    estimate = None
    if snap.kind != "hdd" and snap.waf_counters is None:
        estimate, implausible = _plausible(
            waf_estimate_from_erase_count(snap), "the average erase count"
        )
        if estimate is not None:
            notes.append(
                f"WAF estimate ≈ {estimate:.2f} from the average erase count "
                f"({snap.avg_erase_count} P/E × {bytes_text(snap.capacity_bytes or 0)} user "
                f"capacity / {bytes_text(host_bytes or 0)} host writes); raw NAND is larger "
                "than the user capacity, so the true WAF is likely higher"
            )
    per_day = None
    dwpd = None
    if host_bytes is not None and snap.power_on_hours:
        per_day = host_bytes / (snap.power_on_hours / 24.0)
        if snap.capacity_bytes:
            dwpd = per_day / snap.capacity_bytes
    endurance = (
        _endurance(None, None, None)
        if snap.kind == "hdd"
        else _endurance(snap.percentage_used, snap.power_on_hours, host_bytes)
    )
    return LifetimeReport(
        snapshot=snap,
        waf=waf,
        waf_formula=snap.waf_counters.formula if snap.waf_counters else None,
        waf_estimate=estimate,
        host_bytes=host_bytes,
        host_bytes_per_day=per_day,
        drive_writes_per_day=dwpd,
        endurance=endurance,
        notes=tuple(notes),
        waf_implausible=implausible,
    )


@dataclass(frozen=True)
class DeltaReport:
    """What changed between two snapshots of one drive (``earlier`` → ``later``)."""

    earlier: Snapshot
    later: Snapshot
    hours: int | None
    host_bytes: int | None
    nand: int | None  # in the WAF counters' unit
    waf: float | None
    waf_estimate: float | None
    host_bytes_per_day: float | None
    percentage_used_change: float | None
    days_left: float | None  # None when the indicator's change is within its quantisation
    notes: tuple[str, ...]
    waf_implausible: str | None = None
    # The later snapshot's own days left (lifetime rate), shown when the interval gives none.
    days_left_lifetime: float | None = None


# Every percentage-used source read here is a whole percent (snapshot._percentage_used), so a
# change of one point may be anything from just over 0 to just under 2 points of true wear.
WHOLE_PERCENT_QUANTUM_POINTS = 1.0

_REDACTED = {"", "redacted", "unknown", "none"}


def compare(a: Snapshot, b: Snapshot) -> DeltaReport:
    """WAF and wear rate between two snapshots of the same drive (in either order).

    Raises ``SmartDataError`` naming both files and the field when they cannot be two
    readings of one drive (different model or serial, or a counter that went down).
    """
    first, second = a, b
    if (
        a.power_on_hours is not None
        and b.power_on_hours is not None
        and b.power_on_hours < a.power_on_hours
    ):
        first, second = b, a
    pair = f"{first.source} and {second.source}"
    if first.model and second.model and first.model != second.model:
        raise SmartDataError(
            f"{pair}: field model_name differs ({first.model!r} vs {second.model!r}): "
            "not two snapshots of the same drive"
        )
    notes: list[str] = []
    s1, s2 = (first.serial or "").strip(), (second.serial or "").strip()
    if s1.lower() in _REDACTED or s2.lower() in _REDACTED:
        notes.append("serial numbers are missing or redacted: cannot confirm it is one drive")
    elif s1 != s2:
        raise SmartDataError(
            f"{pair}: field serial_number differs ({s1!r} vs {s2!r}): "
            "not two snapshots of the same drive"
        )
    if first.kind == "hdd" or second.kind == "hdd":
        notes.append("hard disk, not an SSD: write amplification and NAND wear do not apply")

    def grew(name: str, old: float | None, new: float | None) -> float | None:
        if old is None or new is None:
            return None
        if new < old:
            raise SmartDataError(
                f"{pair}: field {name} went down from {old:,} to {new:,} although power-on "
                "hours did not: not two snapshots of the same drive (or a counter was reset)"
            )
        return new - old

    hours = grew("power_on_time.hours", first.power_on_hours, second.power_on_hours)
    hw1, hw2 = first.host_writes, second.host_writes
    d_host = None
    if hw1 is not None and hw2 is not None:
        if hw1.field == hw2.field and hw1.unit_bytes == hw2.unit_bytes:
            d_count = grew(hw1.field, hw1.count, hw2.count)
            if d_count is not None and hw1.unit_bytes is not None:
                d_host = d_count * hw1.unit_bytes
        else:
            d_host = grew("host writes (bytes)", hw1.bytes, hw2.bytes)
    d_nand = None
    waf = None
    implausible = None
    c1, c2 = first.waf_counters, second.waf_counters
    if c1 is not None and c2 is not None and c1.formula == c2.formula:
        for part, old in c1.parts.items():
            grew(part, old, c2.parts.get(part))
        d_nand = c2.nand - c1.nand
        d_counter_host = c2.host - c1.host
        if d_counter_host > 0:
            waf, implausible = _plausible(d_nand / d_counter_host, "the change in the counters")
        else:
            notes.append("no host writes between the snapshots: WAF not defined")
    elif first.kind != "hdd":
        notes.append("WAF between the snapshots: not available for this drive (no NAND counter)")
    d_erase = grew(
        first.avg_erase_count_source or "average erase count",
        first.avg_erase_count,
        second.avg_erase_count,
    )
    estimate = None
    if waf is None and implausible is None and d_erase and d_host and first.capacity_bytes:
        estimate, implausible = _plausible(
            d_erase * first.capacity_bytes / d_host, "the change in average erase count"
        )
    if estimate is not None:
        notes.append(
            f"WAF estimate ≈ {estimate:.2f} from the change in average erase count "
            f"({d_erase:g} P/E × user capacity / host writes)"
        )
    d_used = grew(
        first.percentage_used_source or "percentage used",
        first.percentage_used,
        second.percentage_used,
    )
    per_day = None
    days_left = None
    if hours:
        if d_host is not None:
            per_day = d_host / (hours / 24.0)
        if d_used and d_used > WHOLE_PERCENT_QUANTUM_POINTS and second.percentage_used is not None:
            days_left = (hours / 24.0) * max(0.0, 100.0 - second.percentage_used) / d_used
        elif d_used:
            notes.append(
                f"percentage used rose by {d_used:g} point of a whole-percent indicator: the "
                f"true wear in the interval is anywhere between 0 and {d_used + 1:g} points, "
                "so no days left is given from this interval (the later snapshot's lifetime "
                "rate is shown instead)"
            )
        if hours < 24:
            notes.append(
                f"only {plural(float(hours), 'power-on hour')} apart: power-on hours count whole "
                "hours, so "
                "the rates are rough"
            )
    elif hours == 0:
        notes.append("power-on hours did not change between the snapshots: no rate")
    if d_used == 0 and hours:
        notes.append(
            "percentage used did not change between the snapshots: too little wear to "
            "extrapolate from this interval"
        )
    return DeltaReport(
        earlier=first,
        later=second,
        hours=None if hours is None else int(hours),
        host_bytes=None if d_host is None else int(d_host),
        nand=d_nand,
        waf=waf,
        waf_estimate=estimate,
        host_bytes_per_day=per_day,
        percentage_used_change=d_used,
        days_left=days_left,
        notes=tuple(notes),
        waf_implausible=implausible,
        days_left_lifetime=_endurance(
            second.percentage_used, second.power_on_hours, None
        ).days_left,
    )
