"""The plan's three readings (PLAN.md) from the twin's tables, written to verdict.md.

    PYTHONPATH=python python bench/foreign/results/mqerase/verdict.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
import mqsim_pairing as m  # noqa: E402

CASE = "two planes, one offset, writer's plane"
LEVELS = (0, 1, 4)  # indices of 0, 10 and 40%


def reading(held: list[float], mq: list[float]) -> str:
    """(1): the held twin's line errors against MQSim's, in points."""
    if all(h > 0 and h >= q / 2 for h, q in zip(held, mq, strict=True)):
        close = all(abs(h - q) <= 10 for h, q in zip(held, mq, strict=True))
        return "matches" if close else "bends MQSim's way"
    return "the wrong way" if any(h < -2 for h in held) else "no bend"


def row(drive: str, stored: dict) -> str:
    blocks, pages = map(int, drive.split("x"))
    doc = json.loads((HERE / f"twin-u{drive}.json").read_text())
    mq = m.stored_case(stored, blocks, pages)
    held, free = doc["cases"][f"{CASE}, erase hold, QD32"], doc["cases"][f"{CASE}, QD32"]
    eh, em, ef = ([100 * e for e in c["line_iops_error"]] for c in (held, mq, free))
    toward = [abs(f - q) - abs(h - q) for h, f, q in zip(eh, ef, em, strict=True)]
    pt = [(held["page_time_us"][i], mq["page_time_us"][i]) for i in LEVELS]
    share = m.implied_shares(doc)[f"{CASE}, erase hold, QD32"]
    return (
        f"| {blocks} × {pages} | " + " / ".join(f"{x:+.1f}" for x in eh) + " ; "
        + " / ".join(f"{x:+.1f}" for x in em) + f" | {reading(eh, em)} | "
        + " / ".join(f"{x:+.1f}" for x in toward)
        + f" (≥ 5 each: {'yes' if all(t >= 5 for t in toward) else 'no'}) | "
        + " ; ".join(f"{h:.0f} / {q:.0f} ({100 * (h / q - 1):+.0f}%)" for h, q in pt)
        + f" (within 15%: {'yes' if all(abs(h / q - 1) <= 0.15 for h, q in pt) else 'no'}) | "
        + " ; ".join(f"{share[i]:.2f} / {mq['share_programs'][i]:.2f}" for i in LEVELS) + " |"
    )  # fmt: skip


def main() -> None:
    stored = json.loads((HERE.parents[1] / "results/mqsim-form/stored.json").read_text())
    out = [
        "# The plan's three readings, from the twin's tables (PLAN.md)",
        "",
        "`verdict.py` on `twin-u512x32.json`, `twin-u640x16.json` and",
        "`bench/foreign/results/mqsim-form/stored.json`. Case judged: the writer's-plane twin with",
        "the hold at QD32. Line errors in points of IOPS; (2) is how many points nearer MQSim's",
        "each error is with the hold than without (negative: farther); page times in µs; shares",
        "of paired programs (the core's implied by its time per page, `implied_shares`).",
        "",
        "| drive | (1) line errors at 10 / 20 / 30%: held ; MQSim | reading | (2) nearer MQSim's "
        "by | (3) time per page at 0 ; 10 ; 40%: held / MQSim | share paired at 0 ; 10 ; 40%: "
        "held / MQSim |",
        "|---|---|---|---|---|---|",
        *(row(d, stored) for d in ("512x32", "640x16")),
    ]
    (HERE / "verdict.md").write_text("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
