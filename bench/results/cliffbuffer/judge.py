"""bench/results/cliffbuffer/RULE.md's conditions counted from the runs' JSON files (A:
buffer_on.json, B: buffer_off.json, C: noharm_on.json against
bench/results/cliffseries/runs.json), printed as JSON.

    python bench/results/cliffbuffer/judge.py > bench/results/cliffbuffer/judged.json
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
WITHIN, SHARE, WORSE_MAX = 0.25, 2 / 3, 0.01


def rows(path: Path) -> dict[str, dict]:
    if not path.exists():
        return {}
    return {r["drive"]: r for r in json.loads(path.read_text())["rows"]}


def err(r: dict, key: str = "purged") -> float | None:
    e = r[key]
    if e["time_error"] is None:
        return None
    return max(abs(e["time_error"]), abs(e["lost_error"]))


def case(r: dict, key: str = "purged") -> dict:
    fit = (r["cliff"] or {}).get("fit") or {}
    measured = fit.get("measured") or {}
    return {
        "truth_cliff": r[key]["true"] is not None,
        "time_error": r[key]["time_error"], "lost_error": r[key]["lost_error"],
        "fitted_cache_bytes": fit.get("cache_bytes"),
        "step_host_bytes": measured.get("host_write_bytes_before"),
        "drive_writes": (r["cliff"] or {}).get("measured_drive_writes"),
        "declined": (r["cliff"] or {}).get("declined")
        or ((r["cliff"] or {}).get(key) or {}).get("declined"),
    }  # fmt: skip


def counts(rs: dict[str, dict], key: str = "purged") -> dict:
    cases = [r for r in rs.values() if r[key]["true"] is not None]
    predicted = [r for r in cases if err(r, key) is not None]
    within = [r for r in predicted if err(r, key) <= WITHIN]
    return {"cases": len(cases), "predicted": len(predicted), "within_25": len(within)}


def main() -> int:
    on, off = rows(HERE / "buffer_on.json"), rows(HERE / "buffer_off.json")
    noharm, seen = rows(HERE / "noharm_on.json"), rows(HERE.parent / "cliffseries/runs.json")
    drives = json.loads((HERE / "drives.json").read_text())["chosen"]
    fills = {f"generated {d['seed']}, cache 3%": d["fill_bytes_full_size"] for d in drives}
    out: dict = {"buffer_on": counts(on), "buffer_off": counts(off)}
    c = out["buffer_on"]
    out["B1"] = (
        bool(on)
        and c["cases"] >= 3
        and c["predicted"] >= SHARE * c["cases"]
        and (c["within_25"] >= SHARE * c["predicted"])
    )
    lost = [d for d in on if d in off and err(off[d]) is not None and err(off[d]) <= WITHIN
            and (err(on[d]) is None or err(on[d]) > WITHIN)]  # fmt: skip
    out["B2_lost"] = lost
    out["B2"] = (
        bool(on and off)
        and out["buffer_on"]["within_25"] > out["buffer_off"]["within_25"]
        and not lost
    )
    worse = []
    for d, r in seen.items():
        if err(r) is None or d not in noharm:
            continue
        now = err(noharm[d])
        if now is None or now > err(r) + WORSE_MAX:
            worse.append({"drive": d, "was": err(r), "now": now})
    out["N_worse"] = worse
    out["N"] = bool(noharm) and len(noharm) == len(seen) and not worse
    out["filled"] = {
        "buffer_on": counts(on, "filled"), "buffer_off": counts(off, "filled"),
        "noharm_on": counts(noharm, "filled"), "seen": counts(seen, "filled"),
    }  # fmt: skip
    out["noharm_on"], out["seen"] = counts(noharm), counts(seen)
    out["cases"] = {
        d: {
            "on": case(on[d]),
            "off": case(off[d]) if d in off else None,
            "fill_bytes_full_size": fills.get(d),
            "off_stopped_at_buffer": d in off
            and case(off[d])["step_host_bytes"] is not None
            and abs(case(off[d])["step_host_bytes"] / fills[d] - 1) <= 0.25,
        }  # fmt: skip
        for d in on
    }
    out["noharm_cases"] = {d: {"on": case(noharm[d]), "seen": case(seen[d])} for d in noharm}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
