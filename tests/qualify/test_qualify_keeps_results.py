"""A finished qualify test is never lost: outputs are checked before the drive is written,
each result is kept as it finishes, and a test that stops with an error fails alone."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import jsonschema
import pytest
from overprov.qualify import bench, consistency, verdict

FAST = ("--round-seconds", "1", "--steady-drive-writes", "1", "--max-rounds", "2",
        "--cliff-drive-writes", "2")  # fmt: skip


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("bad", ["json", "out"])
def test_a_bad_output_is_refused_before_the_drive_is_written(need_fio, overprov_cli, tmp_path, bad):
    """On a real target the tests overwrite the drive; an output that cannot be written must
    be found before that, not after (when the measurement would be lost)."""
    target = tmp_path / "drive.img"
    with open(target, "wb") as f:
        f.truncate(16 * 2**20)  # sparse: holds no data, so no confirmation is asked
    before = _digest(target)
    (tmp_path / "a-file").write_text("")
    outputs = {
        "json": ["--json", str(tmp_path / "missing" / "q.json"), "--out", str(tmp_path / "o")],
        "out": ["--out", str(tmp_path / "a-file")],
    }[bad]
    rc, _, err = overprov_cli("qualify", str(target), "--tests", "cache", *FAST, *outputs)
    assert rc == 2, err
    assert ("no folder" in err) if bad == "json" else ("a file where a folder is wanted" in err)
    assert _digest(target) == before
    assert not (tmp_path / "o").exists()


@pytest.mark.filterwarnings("error::UserWarning")  # its report: no log axis without latencies
def test_each_result_is_kept_and_a_crashed_test_fails_alone(overprov_cli, tmp_path, monkeypatch):
    """The consistency test stops with an error (as its window without latency figures did
    on a drive file at 8 GiB): the cache result, finished before it, is in qualify.json
    before the crash, and stays; the crashed test is reported failed, naming the error."""
    out = tmp_path / "q"
    seen: dict[str, object] = {}

    def crashing(spec, s):
        seen["kept"] = json.loads((out / "qualify.json").read_text())
        raise KeyError("latency_us")

    monkeypatch.setattr(consistency, "measure_sim", crashing)
    rc, _, err = overprov_cli(
        "qualify", "sim:enterprise-tlc-nvme@2GiB", "--tests", "cache,consistency", *FAST,
        "--out", str(out), "--json", str(tmp_path / "q.json"),
    )  # fmt: skip
    assert rc == 1, err
    kept = seen["kept"]
    assert isinstance(kept, dict)
    jsonschema.validate(kept, verdict.json_schema())
    assert [t["test"] for t in kept["tests"]] == ["cache"] and kept["pending"] == ["consistency"]
    for path in (out / "qualify.json", tmp_path / "q.json"):
        doc = json.loads(path.read_text())
        jsonschema.validate(doc, verdict.json_schema())
        tests = {t["test"]: t for t in doc["tests"]}
        assert tests["cache"]["verdict"] == "pass"
        assert tests["consistency"]["verdict"] == "fail"
        assert "KeyError: 'latency_us'" in tests["consistency"]["finding"]
        assert "pending" not in doc
    assert "consistency: stopped with an error" in err
    assert (out / "report.html").is_file()


def test_a_window_with_intervals_without_latency_is_measured(monkeypatch):
    """Intervals in which no write completed carry no latency figures; the consistency test
    reads the others instead of stopping with a KeyError/TypeError."""
    real = bench.sim_run

    def gaps(spec, overrides):
        t = real(spec, overrides)
        for i in t["intervals"][-3:]:
            i["latency_us"] = None
        t["intervals"][-4].pop("latency_us", None)
        return t

    monkeypatch.setattr(bench, "sim_run", gaps)
    s = bench.QualifySettings(cliff_drive_writes=2.0)
    figures, _ = consistency.measure_sim("sim:enterprise-tlc-nvme@2GiB", s)
    assert figures["latency_p99_us"] > 0 and figures["latency_p99_99_us"] > 0
    found = consistency.judge(figures, "m")
    assert [v.test for v in found] == ["write_cliff", "consistency"]


def test_dry_run_writes_nothing_to_a_loop_device(overprov_cli, loop_device, tmp_path):
    dev = loop_device(64 * 2**20, fill=b"\xa5" * 4096)
    before = hashlib.sha256(Path(dev).read_bytes()).hexdigest()
    out = tmp_path / "q"
    rc, text, err = overprov_cli(
        "qualify", dev, "--dry-run", "--out", str(out), "--i-understand-this-destroys-data", dev
    )
    assert rc == 0, err
    assert "dry run of qualify" in text and "drive writes" in text
    assert f"{dev} " in text and "confirmed" in text
    assert hashlib.sha256(Path(dev).read_bytes()).hexdigest() == before
    assert not out.exists()
