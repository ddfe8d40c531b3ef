"""The host layer through the CLI: --numjobs and --raid set timing.host, the table and the
JSON (schema-checked) carry per-job and per-member figures, bad arrays are refused naming the
field, and the NAS cache case (RAID-1 of two consumer drives as a sync-write cache,
numjobs=64 iodepth=1) runs at one drive's flush rate (docs/drives/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

from overprov.json_schemas import validate_document

DRIVES = Path(__file__).resolve().parents[2] / "docs" / "drives"
SMALL = ("--user-bytes", "256MiB", "--rho", "0.28", "--warmup", "1", "--drive-writes", "1",
         "--interval-s", "0.2", "--no-progress")  # fmt: skip


def _runs(overprov_cli, tmp_path, *args):
    out = tmp_path / "runs.json"
    rc, text, err = overprov_cli("simulate", *args, "--json", str(out))
    assert rc == 0, err
    doc = json.loads(out.read_text())
    validate_document(doc, "overprov.simulate", str(out))
    return doc["runs"], text


def test_numjobs_and_a_mirror_report_jobs_and_members(overprov_cli, tmp_path):
    runs, text = _runs(overprov_cli, tmp_path, *SMALL, "--qd", "1", "--numjobs", "4", "--raid", "1")
    run = runs[0]
    h, t = run["host"], run["timed"]
    assert run["config"]["timing"]["host"]["numjobs"] == 4
    assert (h["numjobs"], h["iodepth"], h["outstanding"], h["raid"], h["members"]) == (
        4, 1, 4, "1", 2,
    )  # fmt: skip
    assert sum(j["ios"] for j in h["jobs"]) == t["ios"]
    assert len({j["seed"] for j in h["jobs"]}) == 4
    w0, w1 = (m["measured"]["waf"] for m in h["member_figures"])
    assert w0 == w1 == run["measured"]["waf"]
    assert abs(h["array_waf"] - 2 * w0) < 1e-6 * w0
    assert "4 jobs × QD1 closed loop" in text
    assert "RAID-1 of 2 drives" in text and "array WAF" in text


def test_raid0_chunk_and_capacity(overprov_cli, tmp_path):
    runs, _ = _runs(overprov_cli, tmp_path, *SMALL, "--raid", "0", "--chunk-bytes", "64k")
    h = runs[0]["host"]
    assert h["chunk_bytes"] == 65536
    assert h["array_user_bytes"] == 2 * runs[0]["geometry"]["user_bytes"]
    assert h["numjobs"] == 1


def test_bad_arrays_are_refused_naming_the_field(overprov_cli):
    rc, _, err = overprov_cli("simulate", *SMALL, "--raid", "10", "--members", "3")
    assert rc == 2 and "timing.host.array.members" in err, err
    rc, _, err = overprov_cli("simulate", *SMALL, "--members", "3")
    assert rc == 2 and "--raid" in err, err
    rc, _, err = overprov_cli("simulate", *SMALL, "--numjobs", "0")
    assert rc == 2 and "argument --numjobs: must be ≥ 1" in err, err


def test_nas_mirror_of_consumer_drives_runs_at_one_drives_flush_rate(overprov_cli, tmp_path):
    """The NAS cache: RAID-1 of two consumer SATA drives without power-loss protection,
    fio numjobs=64 iodepth=1, 4 KiB random 70% reads, sync writes. Every write is a flush on
    both members, and flushes serialise on each: the mirror runs at one drive's collapse."""
    common = ("--preset", str(DRIVES / "consumer-1tb-sata.toml"), "--scale", "4GiB",
              "--extra-op", "0", "--read-pct", "70", "--warmup", "0", "--drive-writes", "50",
              "--duration", "10s", "--no-progress")  # fmt: skip

    def iops(*args):
        runs, _ = _runs(overprov_cli, tmp_path, *common, *args)
        t = runs[0]["timed"]
        return t["ios"] / t["simulated_s"], runs[0]

    one, _ = iops("--write-through", "--qd", "8")
    nas, run = iops("--write-through", "--qd", "1", "--numjobs", "64", "--raid", "1")
    back, _ = iops("--qd", "1", "--numjobs", "64", "--raid", "1")
    assert 150 < one < 300 and abs(nas - one) / one < 0.10, (one, nas)
    assert back > 50 * nas, (back, nas)
    # 64 outstanding at ~200 IOPS: Little's law puts the median near 0.3 s
    assert run["timed"]["latency_us"]["p50"] > 100_000
