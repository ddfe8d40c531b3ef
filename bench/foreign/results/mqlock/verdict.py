"""The plan's readings (PLAN.md) from the twin's tables and the temporary counter's lines,
written to verdict.md.

    PYTHONPATH=python python bench/foreign/results/mqlock/verdict.py

``diag-u*.txt`` are the stderr lines (``MQLOCK_DIAG ...``) of the ``twin --plane-pools`` runs,
one per run in ``twin``'s order (variant, queue depth, level), from a build carrying a counter
that was not committed (it only reads the timing's state; verdict.md says what it counts).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parent / "mqerase"))
import mqsim_pairing as m  # noqa: E402
from verdict import reading  # noqa: E402  (mqerase's reading (1): the same bands)

CASE = "two planes, one offset, plane pools"
LEVELS = (0, 1, 4)  # indices of 0, 10 and 40%
DRIVES = ("512x32", "640x16")


def diag(drive: str) -> dict[tuple[str, int, int], dict]:
    """The counter's lines by (variant, queue depth, level)."""
    return m.counter_lines((HERE / f"diag-u{drive}.txt").read_text(), m.POOL_VARIANTS, drive)


def verdict_row(drive: str, stored: dict, counted: dict) -> str:
    blocks, pages = map(int, drive.split("x"))
    doc = json.loads((HERE / f"twin-u{drive}.json").read_text())
    mq = m.stored_case(stored, blocks, pages)
    c = doc["cases"][f"{CASE}, QD32"]
    e, eq = ([100 * x for x in k["line_iops_error"]] for k in (c, mq))
    pt = [(c["page_time_us"][i], mq["page_time_us"][i]) for i in LEVELS]
    implied = m.implied_shares(doc)[f"{CASE}, QD32"][0]
    share0 = counted[(CASE, 32, 0)]["share"]
    lock = share0 >= 0.9 and implied >= 0.9 and abs(pt[0][0] / pt[0][1] - 1) <= 0.15
    mid = all(abs(h / q - 1) <= 0.15 for h, q in pt[1:])
    refuted = share0 < 0.5 or any(x < -2 for x in e)
    return (
        f"| {blocks} × {pages} | {share0:.2f} ; {implied:.2f} / {mq['share_programs'][0]:.2f}; "
        f"{pt[0][0]:.0f} / {pt[0][1]:.0f} µs ({100 * (pt[0][0] / pt[0][1] - 1):+.0f}%): "
        f"{'yes' if lock else 'no'} | " + " / ".join(f"{x:+.1f}" for x in e) + " ; "
        + " / ".join(f"{x:+.1f}" for x in eq) + f": {reading(e, eq)} | "
        + " ; ".join(f"{h:.0f} / {q:.0f} ({100 * (h / q - 1):+.0f}%)" for h, q in pt[1:])
        + f": {'yes' if mid else 'no'} | {'refuted' if refuted else 'not refuted'} |"
    )  # fmt: skip


def diag_rows(drive: str, counted: dict) -> list[str]:
    rows = []
    for v in list(m.POOL_VARIANTS)[1:]:
        for qd in (4, 32, 128):
            r = [counted[(v, qd, x)] for x in m.LEVELS]
            h = r[0]["why"][1]
            both, paired, joining = m.counter_cells(r)
            rows.append(f"| {drive} | {v}, QD{qd} | {both} | {paired} | {joining} | "
                        f"{h[0] / sum(h):.2f} |")  # fmt: skip
    return rows


def main() -> None:
    stored = json.loads((HERE.parents[1] / "results/mqsim-form/stored.json").read_text())
    counted = {d: diag(d) for d in DRIVES}
    out = [
        "# The plan's readings, from the twin's tables and the counter (PLAN.md)",
        "",
        "`verdict.py` on `twin-u512x32.json`, `twin-u640x16.json`, `diag-u512x32.txt`,",
        "`diag-u640x16.txt` and `bench/foreign/results/mqsim-form/stored.json`. Case judged: the",
        "plane-pool twin at QD32. Shares of paired programs: counted (programs booked under the",
        "page-offset rule that end with two planes) ; implied (`implied_shares`) / MQSim's.",
        "",
        "| drive | (1) lockstep at 0%: paired counted ; implied / MQSim; time per page | (2) line "
        "errors at 10 / 20 / 30%: twin ; MQSim | (3) time per page at 10 ; 40%: twin / MQSim "
        "| the plan's refutation |",
        "|---|---|---|---|---|",
        *(verdict_row(d, stored, counted[d]) for d in DRIVES),
        "",
        "## The counter: do the planes collect at the same time, and do their programs pair?",
        "",
        "Both collecting: the share of the measured time in which both planes' GC domains have a",
        "collection booked and not ended (from each domain's first acceptance time after a",
        "collection is booked to the end the timing gives it). Paired: as above, counted. GC",
        "units joining: the share of relocations that joined another plane's program at their",
        "offset (the rest: no program waits at that offset / every one waiting starts before the",
        "relocation is ready / those after it have the plane taken), at 0%. Host units joining:",
        "the same for host units at 0%.",
        "",
        "| drive | case | both collecting at 0 / 10 / 20 / 30 / 40% | paired (counted) | GC "
        "units joining at 0% (none waiting / all started / plane taken) | host units joining "
        "at 0% |",
        "|---|---|---|---|---|---|",
        *(r for d in DRIVES for r in diag_rows(d, counted[d])),
    ]  # fmt: skip
    (HERE / "verdict.md").write_text("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
