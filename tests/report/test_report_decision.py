"""The decision table under the answer card (overprov.report.decision), read against the
results.json of a real profile of a simulated drive: one row per OP level with the capacity
given up, steady IOPS and its window band marked simulated, tail latency, and whether it meets
the target; the headline states the recommended level's margin over the target."""

from __future__ import annotations

import json
import re
from html import unescape

from overprov.report import decision
from overprov.report.findings import recommendation
from overprov.report.load import load_inputs
from report_checks import check_page


def test_the_profile_decision_table_and_margin(sim_profile):
    doc = json.loads((sim_profile / "results.json").read_text())
    target = doc["settings"]["target_iops"]
    (src,) = load_inputs([sim_profile])
    table = decision.phase_table(src, target)
    phases = [p for p in doc["phases"] if p.get("steady_iops") is not None]
    rows = {r[0]: r for r in table.rows}
    for p in phases:
        row = rows[f"{p['extra_op_percent']:g}%"]
        assert row[2].startswith(f"{p['steady_iops']:,.0f}")
        assert row[3].startswith("simulated")  # a sim: target is never called measured
        assert row[7] == ("yes" if p["steady_iops"] >= target else "no")
        # capacity given up: the level's share of the drive, in bytes too
        assert row[1].startswith(f"{p['extra_op_percent']:g}% (")
    rec = recommendation(src, target)
    margin = decision.margin_text(src, rec, target)
    op = rec["extra_op_percent"]
    steady = next(p["steady_iops"] for p in phases if p["extra_op_percent"] == op)
    assert margin.startswith(f"{op:g}%: {steady:,.0f} IOPS, {100 * (steady / target - 1):+.0f}%")
    # the page the profile wrote of itself (write_report of the folder, made once per run and
    # read by the other report tests too): the same page a second write_report would draw
    page = check_page(sim_profile)
    assert 'class="decision"' in page
    words = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", page)))
    assert margin in words
