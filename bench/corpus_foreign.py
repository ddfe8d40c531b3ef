"""The independent FTL simulators' measured curves (bench/foreign/results/*.json, written by
bench/foreign/) as drives of the leave-one-out bench (bench/corpus_bench.py).

The results folder's curves and those of its subfolders that hold further drives of one family
(:data:`SUBFOLDERS`: FEMU's) are read alike. A curve with IOPS is read at one queue depth
(QD32): steady IOPS and WAF at each extra-OP level and the 0% level's fresh-out-of-box IOPS. A
curve that says ``measures: ["waf"]`` (a simulator that counts page writes only, sssl-ftlsim)
is read at the one queue depth it holds, its steady WAF figures alone: held out level by level
like the others, each predicted from the other levels' WAF as a user would give them
(``--waf-points``; docs/calibrate-validation.md, "All held-out cases together, WAF-only truths
included"). Also here: a figure as calibrate's fit takes it (:func:`point`) and the surrogate
alone on a foreign curve (:func:`surrogate_forms`).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from overprov.calibrate import fit as fitmod

ROOT = Path(__file__).resolve().parent.parent
#: The relative sd of a foreign simulator's settled figure (every foreign figure alike).
FOREIGN_REL_SD = 0.02
#: Folders under the results folder whose curves are drives too: further drives of one family,
#: each run to test one mechanism (FEMU's LUN counts and program time, femu-units/; its GC
#: reserve and namespace, gc-reserve/). Their other files (rules, plans) are not curves.
SUBFOLDERS = ("femu-units", "gc-reserve")
#: The steady figures read from a level, by whether the file is WAF-only.
KEYS = {False: (("iops", "steady_iops"), ("waf", "steady_waf")), True: (("waf", "steady_waf"),)}


def _figure(kind: str, x: float, value: float, steady_state: bool = True) -> dict[str, Any]:
    """A simulator's figure: a settled window's (bench/foreign/), so steady unless it is FOB."""
    return {"kind": kind, "extra_op_percent": x, "value": value, "rel_sd": FOREIGN_REL_SD,
            "read_from": "table", "steady_state": steady_state}  # fmt: skip


def is_waf_only(doc: dict[str, Any]) -> bool:
    """A results file of a simulator that counts page writes only: WAF, no IOPS."""
    return doc.get("measures") == ["waf"]


def foreign_drives(folder: Path, qd: int = 32) -> list[dict[str, Any]]:
    """Each results file of ``folder`` (and of its :data:`SUBFOLDERS`) that holds a curve (two
    levels or more) as a drive: figures at ``qd``, or a WAF-only file's WAF figures at its own
    queue depth."""
    drives = []
    paths = sorted(folder.glob("*.json"))
    paths += [p for sub in SUBFOLDERS for p in sorted((folder / sub).glob("*.json"))]
    for path in paths:
        doc = json.loads(path.read_text())
        if not isinstance(doc, dict):  # evaluation.json: calibrate's predictions, not a curve
            continue
        waf_only = is_waf_only(doc)
        levels = doc.get("levels", [])
        own_qd = {r.get("queue_depth") for r in levels}
        at = own_qd.pop() if waf_only and len(own_qd) == 1 else qd
        rows = [r for r in levels if r.get("queue_depth") == at]
        # one level (a longer run of one case) is not a curve: nothing to hold it out from
        if len({r["extra_op_percent"] for r in rows}) < 2 or "advertised_bytes" not in doc:
            continue
        figs: list[dict[str, Any]] = []
        for r in rows:
            x = r["extra_op_percent"]
            for kind, key in KEYS[waf_only]:
                if r.get(key):
                    figs.append(_figure(kind, x, r[key]))
            if not waf_only and x == 0 and r.get("fob_iops"):
                figs.append(_figure("fob_iops", 0, r["fob_iops"], steady_state=False))
        name = doc.get("simulator", path.stem)
        drives.append({
            "id": path.stem,
            "name": f"{name}, {doc['drive']} (foreign FTL)" if waf_only and doc.get("drive")
            else f"{name} (foreign FTL)",
            "advertised_bytes": doc["advertised_bytes"],
            "raw_nand_bytes": doc.get("physical_bytes"),
            "workload": "uniform", "qd": at, "figure": figs, "foreign": True,
            "waf_only": waf_only, "family": name,
            "file": str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path),
        })  # fmt: skip
    return drives


def point(f: dict[str, Any]) -> fitmod.Point:
    x, v, sd = float(f["extra_op_percent"]), float(f["value"]), float(f["rel_sd"])
    if f["kind"] == "fob_iops":
        return fitmod.Point(x, v, sd, fresh=True)
    if f["kind"] == "iops":
        return fitmod.Point(x, v, sd)
    return fitmod.Point(x, None, sd, v, sd)


def surrogate_forms(drive: dict[str, Any], fitted: tuple[float, ...] = (0.0, 40.0)) -> str:
    """The surrogate alone (no twin) on a foreign FTL's curve, fitted on IOPS and WAF at
    ``fitted`` and FOB, raw NAND given or not, with t_cmd bounded at −0.5·t_page (calibrate's
    form: GC's reads) and at −0.9·t_page (host programs spread over parallel GC domains while
    each domain's GC blocks: 1/IOPS = (t_host/P − t_gc) + W·(t_gc + t_erase/b), an intercept
    down to −(1 − 1/P)·slope). A comparison of forms, not calibrate's prediction."""
    by = {(f["kind"], float(f["extra_op_percent"])): f for f in drive["figure"]}
    levels = sorted({x for kind, x in by if kind == "iops"})
    raw = drive.get("raw_nand_bytes")
    raw_op = raw / drive["advertised_bytes"] - 1 if raw else None
    pts = [point(by[(k, x)]) for x in fitted for k in ("iops", "waf") if (k, x) in by]
    pts += [point(f) for f in drive["figure"] if f["kind"] == "fob_iops"]
    lines = [
        "| t_cmd bound | raw NAND | fitted ρ₀ | k | t_cmd µs | t_page µs | "
        + " | ".join(f"{x:g}%: IOPS / WAF" for x in levels) + " |",
        "|---|---|---|---|---|---|" + "---|" * len(levels),
    ]  # fmt: skip
    saved = fitmod.MAX_READ_SHARE
    try:
        for share in (0.5, 0.9):
            fitmod.MAX_READ_SHARE = share
            for given in (False, True) if raw_op is not None else (False,):
                s = fitmod.fit(pts, native_op=raw_op if given else None, fit_efficiency=given)
                cells = []
                for x in levels:
                    e_i = s.iops(x) / by[("iops", x)]["value"] - 1
                    e_w = s.waf(x) / by[("waf", x)]["value"] - 1 if ("waf", x) in by else math.nan
                    cells.append(f"{100 * e_i:+.0f}% / {100 * e_w:+.0f}%")
                lines.append(
                    f"| −{share:g}·t_page | {'given' if given else 'fitted'} | "
                    f"{100 * s.native_op:.1f}% | {s.spare_efficiency:.2f} | {s.t_cmd_us:.0f} | "
                    f"{s.t_page_us:.0f} | " + " | ".join(cells) + " |"
                )
    finally:
        fitmod.MAX_READ_SHARE = saved
    return "\n".join(lines)
