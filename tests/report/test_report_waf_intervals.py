"""The WAF-per-interval chart of a simulate file: a phase ends mid-interval, so its last
interval can hold a few dozen pages whose WAF is 1 (or a GC burst) by chance; the report drew
those stubs as drops to 1 at every phase end. They are left out of the chart and its CSV."""

from __future__ import annotations

import json

from overprov import cli
from overprov.report.load_simulate import load_simulate


def test_partial_intervals_at_phase_ends_are_not_drawn(tmp_path):
    path = tmp_path / "sim.json"
    argv = ["simulate", "--advertised", "1G", "--warmup", "1", "--drive-writes", "2",
            "--extra-op", "0", "--no-progress", "--json", str(path)]  # fmt: skip
    assert cli.main(argv) == 0
    run = json.loads(path.read_text())["runs"][0]
    kept = [iv for iv in run["intervals"] if iv["phase"] != "precondition"]
    full = max(iv["delta"]["host_pages"] for iv in kept)
    stubs = [iv for iv in kept if iv["delta"]["host_pages"] < 0.25 * full]
    assert stubs, "this run ends its warm-up and its measurement mid-interval"
    (source,) = load_simulate(path)
    (phase,) = source.phases
    drawn = set(phase.waf_drive_writes)
    assert all(iv["drive_writes_total"] not in drawn for iv in stubs)
    assert len(phase.waf_series) == len(kept) - len(stubs)
    # past the fill's first GC the series stays near the quoted WAF: no drop to 1 at 2 or 4 DW
    settled = [
        w for dw, w in zip(phase.waf_drive_writes, phase.waf_series, strict=True) if dw >= 1.5
    ]
    assert min(settled) > 0.8 * phase.waf
