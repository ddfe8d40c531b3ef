"""Where today's stored answers miss a typed WAF figure they were fitted to by more than the
figure's stated error (5%, a typed figure's ``waf_rel_sd``): a scan of stored case results, no
simulation.

    python bench/foreign/results/dharafloor/fitted_scan.py CASE.json...

Each CASE.json is an evaluate.py case result (bench/foreign/results/status72/cases/*.json) or a
case.py record with the result under ``result`` (fifogc's, metafactor's). The typed figures are
read from the case's ``command`` (``--waf-points X:W,...``), the answer's from its ``levels``'
``waf_pred``. Prints one line per fitted level beyond the error, then the count.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

STATED_REL_SD = 0.05  # fit.Point's default waf_rel_sd for a typed figure


def typed_waf(command: str | list[str]) -> dict[float, float]:
    words = command.split() if isinstance(command, str) else list(command)
    if "--waf-points" not in words:
        return {}
    spec = words[words.index("--waf-points") + 1]
    return {float(x): float(w) for x, w in (item.split(":") for item in spec.split(","))}


def misses(doc: dict) -> list[tuple[float, float, float]]:
    res = doc.get("result", doc)
    typed = typed_waf(res.get("command", ""))
    out = []
    for lv in res.get("levels", []):
        x = float(lv["extra_op_percent"])
        if x in typed and lv.get("waf_pred"):
            err = lv["waf_pred"] / typed[x] - 1.0
            out.append((x, typed[x], err))
    return out


def main(paths: list[str]) -> None:
    n_cases = n_beyond = 0
    for p in paths:
        got = misses(json.loads(Path(p).read_text()))
        if not got:
            continue
        n_cases += 1
        beyond = [(x, w, e) for x, w, e in got if abs(e) > STATED_REL_SD]
        n_beyond += bool(beyond)
        for x, w, e in beyond:
            print(f"{p}: {x:g}% typed {w:g}, answer {w * (1 + e):.4g} ({100 * e:+.1f}%)")
    print(
        f"{n_beyond} of {n_cases} answered cases miss a typed WAF figure by over "
        f"{100 * STATED_REL_SD:g}%"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
