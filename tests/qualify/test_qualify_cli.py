"""``overprov qualify`` end to end: a simulated drive, a real file with fio, and the safety
rules it shares with profile."""

from __future__ import annotations

import json

import jsonschema
import pytest
from overprov import __version__
from overprov.qualify import verdict


def _valid(doc: dict) -> dict:
    jsonschema.validate(doc, verdict.json_schema())
    assert doc["schema"] == "overprov.qualify/1" and doc["overprov_version"] == __version__
    return doc


def test_qualify_a_simulated_consumer_drive_json_to_stdout(qualify_sim):
    # `overprov qualify sim:consumer-tlc-sata@2GiB --round-seconds 10 --out Q --json -`, run
    # once (tests/conftest.py: the report tests read its folder): its status, stdout, stderr
    rc = int((qualify_sim.parent / "exit").read_text())
    out = (qualify_sim.parent / "stdout.json").read_text()
    err = (qualify_sim.parent / "stderr.txt").read_text()
    doc = _valid(json.loads(out))
    tests = {t["test"]: t for t in doc["tests"]}
    assert list(tests) == ["cache", "trim_recovery", "idle_recovery", "write_cliff",
                           "consistency"]  # fmt: skip
    assert tests["cache"]["verdict"] == "fail"
    assert "cache" in doc["summary"]["failed"] and rc == 1
    assert "flushes wait for NAND" in err  # the table goes to stderr when JSON is on stdout
    assert doc["target"]["kind"] == "sim"


def test_enterprise_preset_passes_the_cache_test_through_the_cli(overprov_cli, tmp_path):
    out_json = tmp_path / "q.json"
    rc, out, _ = overprov_cli(
        "qualify", "sim:enterprise-tlc-nvme@2GiB", "--tests", "cache", "--json", str(out_json)
    )
    doc = _valid(json.loads(out_json.read_text()))
    assert rc == 0 and doc["summary"]["counts"]["pass"] == 1
    assert "flushes complete from a protected buffer" in out


@pytest.mark.fio
@pytest.mark.slow
def test_qualify_a_file_with_real_fio(qualify_fio):
    """The qualification of a 16 MiB file with real fio made once per run (tests/conftest.py;
    the report tests read it too): 1 s rounds, one steady drive write, at most 2 rounds, idle
    waits of 1 and 2 s."""
    rc = int((qualify_fio.parent / "exit").read_text())
    out = (qualify_fio.parent / "stdout.txt").read_text()
    assert rc in (0, 1), (qualify_fio.parent / "stderr.txt").read_text()
    doc = _valid(json.loads((qualify_fio / "qualify.json").read_text()))
    assert doc["target"]["kind"] == "file" and doc["target"]["capacity_bytes"] == 16 << 20
    tests = {t["test"]: t for t in doc["tests"]}
    cache = tests["cache"]["figures"]
    for side in ("write_back", "write_through"):
        # fio ran the mix it was asked for: reads are about 70% of the I/O
        assert cache[side]["read_iops"] / cache[side]["iops"] == pytest.approx(0.7, abs=0.05)
    wt_job = (qualify_fio / "fio" / "cache-wt.fio").read_text().splitlines()
    assert {"sync=1", "rw=randrw", "rwmixread=70"} <= set(wt_job)
    assert tests["cache"]["verdict"] in ("pass", "fail")
    assert "punched a hole over 4194304 bytes" in tests["trim_recovery"]["figures"]["discard"]
    assert "THIS OVERWRITES" in out
    idle = tests["idle_recovery"]["figures"]
    assert [w["wait_s"] for w in idle["waits"]] == [1.0, 2.0] and idle["burst_seconds"] == 1


@pytest.mark.parametrize("bad", ["0", "5,-1", "soon", ","])
def test_bad_idle_waits_are_bad_usage(overprov_cli, bad):
    rc, _, err = overprov_cli("qualify", "sim:consumer-tlc-sata@2GiB", "--idle-waits", bad)
    assert rc == 2 and "--idle-waits" in err


def test_a_file_holding_data_is_refused_without_confirmation(overprov_cli, tmp_path):
    target = tmp_path / "data.img"
    target.write_bytes(b"precious" * 4096)
    rc, _, err = overprov_cli("qualify", str(target), "--tests", "cache")
    assert rc == 1 and "refusing to write" in err and "--i-understand-this-destroys-data" in err
    assert target.read_bytes() == b"precious" * 4096


def test_a_block_device_needs_its_own_name_confirmed(overprov_cli, loop_device, tmp_path):
    dev = loop_device(16 << 20)
    rc, _, err = overprov_cli(
        "qualify", dev, "--tests", "cache", "--i-understand-this-destroys-data", "/dev/null"
    )
    assert rc == 1 and "refusing" in err


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (("--tests", "cache,foo"), "argument --tests: unknown foo; choose from cache,"),
        (("--idle-waits", ","), "argument --idle-waits: no idle time given"),
    ],
)
def test_a_bad_list_names_its_option_once(overprov_cli, argv, line):
    """`argument --tests: --tests: unknown foo` said the option twice."""
    rc, _, err = overprov_cli("qualify", "sim:consumer-tlc-sata@2GiB", *argv)
    assert rc == 2
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"overprov qualify: error: {line}"), last
    assert last.count(argv[0]) == 1
