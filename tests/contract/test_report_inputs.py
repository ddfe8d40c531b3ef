"""``report`` validates every input before drawing: its schema, no NaN or infinity, no
negative figure; a refusal is one line naming the file and the field."""

from __future__ import annotations

import json

import pytest

from .commands import SMALL_SIMULATE


@pytest.fixture(scope="module")
def sim_json(tmp_path_factory):
    from overprov import cli

    path = tmp_path_factory.mktemp("sim") / "sim.json"
    assert cli.main([*SMALL_SIMULATE, "--json", str(path)]) == 0
    return json.loads(path.read_text())


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda d: d["runs"][0]["measured"].__setitem__("waf", -2.0), "runs[0].measured.waf"),
        (lambda d: d["runs"][0]["totals"].__setitem__("host_pages", "many"), "host_pages"),
        (lambda d: d["runs"][0]["wear"].__setitem__("erase_histogram", [[None, 1]]),
         "erase_histogram"),
        (lambda d: d.__setitem__("runs", []), "runs"),
    ],
)  # fmt: skip
def test_report_refuses_a_schema_invalid_simulate_file(overprov_cli, tmp_path, sim_json, edit,
                                                       needle):  # fmt: skip
    doc = json.loads(json.dumps(sim_json))
    edit(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    rc, _, err = overprov_cli("report", str(path), "--out", str(tmp_path / "out"))
    assert rc == 2 and needle in err and str(path) in err, err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out" / "report.html").exists()


@pytest.fixture(scope="module")
def timed_json(tmp_path_factory):
    """A timed simulation (latency figures in ``timed.measured.latency_us``)."""
    from overprov import cli

    path = tmp_path_factory.mktemp("timed") / "timed.json"
    argv = ["simulate", "--preset", "consumer-tlc-sata", "--scale", "1GiB", "--extra-op", "0",
            "--precondition", "none", "--warmup", "0", "--drive-writes", "0.2", "--no-progress",
            "--json", str(path)]  # fmt: skip
    assert cli.main(argv) == 0
    return json.loads(path.read_text())


def _set_latency_max(value):
    return lambda d: d["runs"][0]["timed"]["measured"]["latency_us"].__setitem__("max", value)


@pytest.mark.parametrize(
    ("which", "edit", "needle"),
    [
        ("timed", _set_latency_max(-1e28),
         "runs[0].timed.measured.latency_us.max is -1e+28; it cannot be negative"),
        ("timed", _set_latency_max(4e20), "runs[0].timed.measured.latency_us.max is 4e+20; more "
         "than a year"),
        ("sim", lambda d: d["runs"][0]["measured"].__setitem__("waf", 9.2e18),
         "runs[0].measured.waf is 9.2e+18; no drive has a WAF above 1e+06"),
    ],
)  # fmt: skip
def test_report_refuses_physically_impossible_values(overprov_cli, tmp_path, sim_json,
                                                     timed_json, which, edit, needle):  # fmt: skip
    doc = json.loads(json.dumps(timed_json if which == "timed" else sim_json))
    edit(doc)
    path = tmp_path / "impossible.json"
    path.write_text(json.dumps(doc))
    rc, _, err = overprov_cli("report", str(path), "--out", str(tmp_path / "out"))
    assert rc == 2 and needle in err and str(path) in err, err
    assert not (tmp_path / "out" / "report.html").exists()


def test_report_inputs_pass_the_bounds_as_written(tmp_path, sim_json, timed_json):
    """The bounds refuse nothing a real run writes (the check report makes first)."""
    from overprov.report.validate import validate_inputs

    for name, doc in (("sim", sim_json), ("timed", timed_json)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(doc))
        validate_inputs([path])


def test_report_refuses_nan_and_infinity(overprov_cli, tmp_path, sim_json):
    for token in ("NaN", "Infinity", "-Infinity"):
        text = json.dumps(sim_json).replace('"waf": ', f'"waf": {token}, "was": ', 1)
        path = tmp_path / "nan.json"
        path.write_text(text)
        rc, _, err = overprov_cli("report", str(path), "--out", str(tmp_path / "out"))
        assert rc == 2 and f"{token} is not a number" in err, err


def test_smart_refuses_a_negative_counter(overprov_cli, tmp_path):
    from .commands import SMART_FILE

    doc = json.loads(SMART_FILE.read_text())
    doc["nvme_smart_health_information_log"]["data_units_written"] = -5000
    path = tmp_path / "neg.json"
    path.write_text(json.dumps(doc))
    rc, out, err = overprov_cli("smart", str(path))
    assert rc == 2 and out == ""
    assert "data_units_written: a counter cannot be negative, got -5000" in err


def test_report_reads_a_simulate_file_from_before_the_rename(overprov_cli, tmp_path, sim_json):
    """``geometry.op_ratio`` (files written before the core's report said ``geometry.rho``)
    passes the schema and is read as ρ: report loads from it what it loads from the file with
    ``rho`` (its page and phases.csv are drawn from what it loaded alone, report/build.py)."""
    from overprov.report.load import load_inputs
    from overprov.report.validate import validate_inputs

    assert all("rho" in r["geometry"] and "op_ratio" not in r["geometry"] for r in sim_json["runs"])
    old = json.loads(json.dumps(sim_json))
    for run in old["runs"]:
        run["geometry"]["op_ratio"] = run["geometry"].pop("rho")
    path = tmp_path / "sim.json"
    path.write_text(json.dumps(old))
    validate_inputs([path])
    read_old = load_inputs([path])
    path.write_text(json.dumps(sim_json))
    assert load_inputs([path]) == read_old
    rc, _, err = overprov_cli("report", str(path), "--out", str(tmp_path / "new"))
    assert rc == 0, err
    table = (tmp_path / "new" / "report-files" / "phases.csv").read_text()
    assert "rho" in table.splitlines()[0]
    # neither name: refused by the schema, naming the field
    for run in old["runs"]:
        del run["geometry"]["op_ratio"]
    path = tmp_path / "neither.json"
    path.write_text(json.dumps(old))
    rc, _, err = overprov_cli("report", str(path), "--out", str(tmp_path / "neither"))
    assert rc == 2 and "geometry" in err, err
