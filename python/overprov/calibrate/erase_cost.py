"""An erase cost that the steady state pays and a fresh-out-of-box run does not.

The IOPS form (``fit.py``) reads a fresh-out-of-box figure (FOB) as the same drive at WAF 1:
1/FOB = t_cmd + t_page. But a fresh drive erases nothing, while in steady state every page
written is also erased (a block's erase, shared over its pages): with an erase time per page
t_erase the steady time per host write is t_cmd + WAF·(t_prog + t_erase) = t_cmd + WAF·t_page
and FOB's is t_cmd + t_prog = t_cmd + t_page − t_erase. On NVMeVirt's drive B (600 µs program,
3 ms erase for 48 pages: 62.5 µs of LUN time a page erased, more than the program's 54.9 µs)
FOB is 2.23 times the steady line's WAF-1 value, and no reading of the IOPS form reproduces the
figures (docs/calibrate-validation.md, "NVMeVirt's conventional FTL";
bench/foreign/results/erasecost/DIAGNOSIS.md).

With :data:`ENABLED`, the fit (``fit._Objective``) reads FOB as t_cmd + t_page − t_erase with
t_erase ≥ 0 a parameter of its own: the least squares in (t_cmd, t_page, t_erase) at each ρ₀.
Since t_erase enters the FOB figures alone, the optimum is (:func:`split`) the line fitted to
the steady figures alone with t_erase the FOB figures' gap below it when that gap is positive
(the FOB figures then fitted exactly: they set t_erase and nothing else), and the plain fit
(t_erase = 0, FOB a point of the line) when it is not. The twin (``twin.drive_dict``) carries
t_erase as its NAND's erase time where the NAND alone sets its timing, so its steady writes pay
WAF·t_page and its fresh ones t_page − t_erase, as the form.

Off: weighed under two pre-registered rules and not adopted
(bench/foreign/results/erasecost/verdict.md; docs/calibrate-validation.md, "An erase cost that
steady state pays and FOB does not"): on six fresh NVMeVirt drives the plan case with WAF met
every target with it (four with costly erases missing without it), but it harmed held-out
figures elsewhere (MQSim's IOPS at 10% 11.3 → 20.4%; IOPS-only cases both ways), with
:data:`ONLY_WITH_WAF` too. Offered as a reading beside the plain ones instead
(``erase_reading.py``: not adopted under two rules, on by
bench/foreign/results/erasegreedy/RULE-2.md, off by bench/foreign/results/erasecheck/RULE.md,
on again with its floor condition by bench/foreign/results/erasefloor/RULE.md)."""

from __future__ import annotations

from collections.abc import Callable

#: Read FOB as the drive without its erases (a fitted t_erase ≥ 0). Off: FOB is the steady
#: line at WAF 1 (t_erase = 0), as before.
ENABLED = False
#: With :data:`ENABLED`, read FOB so only where a WAF figure is among the fitted ones (it pins
#: the spare, so the steady figures alone fit t_cmd too); from IOPS alone FOB stays a point of
#: the line. Weighed under a second rule (bench/foreign/results/erasecost/RULE-2.md) after the
#: form everywhere harmed IOPS-only cases on fresh drives (the verdict of
#: bench/foreign/results/erasecost/RULE.md).
ONLY_WITH_WAF = False


def applies(has_waf: bool) -> bool:
    """Whether the fit reads FOB by the form: :data:`ENABLED`, and a WAF figure among the fitted
    ones (``has_waf``) unless :data:`ONLY_WITH_WAF` is off."""
    return ENABLED and (has_waf or not ONLY_WITH_WAF)


#: (t_cmd, t_page) fitted to some rows of y = t_cmd + W·t_page: ``fit._linear_fit``'s result.
LineFit = Callable[[], tuple[float, float]]


def gap_us(
    t_cmd_us: float, t_page_us: float, fresh_ys: list[float], fresh_ws: list[float]
) -> float:
    """The FOB figures' weighted mean time per write below the line's WAF-1 value (µs; the
    least-squares t_erase with the line held): negative when FOB is slower than the line."""
    s = sum(fresh_ws)
    if not fresh_ys or s <= 0:
        return 0.0
    line_1 = t_cmd_us + t_page_us
    return sum(w * (line_1 - y) for y, w in zip(fresh_ys, fresh_ws, strict=True)) / s


def split(
    steady_fit: LineFit | None,
    plain_fit: LineFit,
    fresh_ys: list[float],
    fresh_ws: list[float],
) -> tuple[float, float, float]:
    """(t_cmd, t_page, t_erase): the steady rows' line (``steady_fit``) and the FOB rows' gap
    below it when that gap is positive; otherwise the line through every row (``plain_fit``)
    and t_erase 0. ``steady_fit`` None: no steady IOPS figure to fit a line to without FOB."""
    if steady_fit is not None and fresh_ys:
        t_cmd, t_page = steady_fit()
        if t_page > 0:
            e = gap_us(t_cmd, t_page, fresh_ys, fresh_ws)
            if e > 0:
                return t_cmd, t_page, e
    t_cmd, t_page = plain_fit()
    return t_cmd, t_page, 0.0


def fresh_time_us(t_cmd_us: float, t_page_us: float, t_erase_us: float, waf: float) -> float:
    """The time per write of a fresh drive at ``waf`` (1: nothing to collect): nothing erased
    yet, so the erase time's share of t_page is not paid."""
    return t_cmd_us + waf * t_page_us - t_erase_us
