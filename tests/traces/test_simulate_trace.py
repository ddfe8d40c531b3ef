"""``overprov simulate --trace``: the simulated host writes are the trace's bytes (per format, ×
passes), a fio job run for real and replayed gives back its request count and bytes, a uniform
random trace has the analytic uniform-random WAF, the open loop keeps the trace's arrival times,
a bad line is an error naming file and line."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from overprov import _core, models
from overprov.json_schemas import validate_document

DATA = Path(__file__).resolve().parents[1] / "data" / "traces"
SAMPLES = [
    "fio-randrw.iolog",
    "fio-trimwrite.iolog",
    "blkparse-loop.txt",
    "mqsim-tpcc-small.trace",
    "alibaba-block-head.csv",
    "overprov-trimwrite.csv",
]
SMALL = ("--user-pages", "8192", "--pages-per-block", "64")


def summary(path: Path) -> dict:
    return json.loads(_core.trace_summary(str(path)))


def simulate(overprov_cli, *argv: str) -> dict:
    rc, out, err = overprov_cli("simulate", *argv, "--no-progress", "--jobs", "1", "--json", "-")
    assert rc == 0, err
    doc = json.loads(out[out.index("{") :])
    validate_document(doc, doc["schema"], "simulate --trace")
    return doc


def test_the_format_names_are_the_cores(command_parsers) -> None:
    for command in ("simulate", "plan"):
        option = next(
            a for a in command_parsers[command]._actions if "--trace-format" in a.option_strings
        )
        assert list(option.choices) == list(_core.trace_formats())


@pytest.mark.parametrize("name", SAMPLES)
def test_host_bytes_are_the_bytes_the_trace_writes(overprov_cli, name: str) -> None:
    path = DATA / name
    s = summary(path)
    doc = simulate(overprov_cli, "--trace", str(path), *SMALL, "--trace-repeat", "2")
    (run,) = doc["runs"]
    assert run["measured"]["host_bytes"] == 2 * s["write"]["bytes"]
    t = run["trace"]
    assert (t["format"], t["passes"], t["complete"]) == (s["format"], 2, True)
    for op in ("read", "write", "trim"):
        assert t[op] == {k: 2 * v for k, v in s[op].items()}


@pytest.mark.skipif(shutil.which("fio") is None, reason="fio not installed")
def test_a_real_fio_run_replayed_gives_its_requests_and_bytes(overprov_cli, tmp_path) -> None:
    log, out = tmp_path / "job.iolog", tmp_path / "job.json"
    subprocess.run(
        [
            "fio", "--name=job", f"--filename={tmp_path / 'data'}", "--size=8M",
            "--io_size=4M", "--rw=randrw", "--rwmixread=30", "--bssplit=4k/60:16k/40",
            "--ioengine=psync", "--randseed=5", f"--write_iolog={log}",
            "--output-format=json", f"--output={out}",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    job = json.loads(out.read_text())["jobs"][0]
    doc = simulate(overprov_cli, "--trace", str(log), *SMALL)
    t = doc["runs"][0]["trace"]
    ios = job["read"]["total_ios"] + job["write"]["total_ios"]
    assert t["records"] == ios
    for op in ("read", "write"):
        assert t[op] == {"requests": job[op]["total_ios"], "bytes": job[op]["io_bytes"]}
    assert doc["runs"][0]["measured"]["host_bytes"] == job["write"]["io_bytes"]


def uniform_trace(path: Path, pages: int, n: int, gap_ns: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    lines = ["time_ns,op,offset_bytes,len_bytes,device"]
    lines += [f"{i * gap_ns},W,{rng.randrange(pages) * 4096},4096,0" for i in range(n)]
    path.write_text("\n".join(lines) + "\n")


def test_a_uniform_random_trace_has_the_uniform_random_waf(overprov_cli, tmp_path) -> None:
    pages, b = 1 << 17, 64
    trace = tmp_path / "uniform.csv"
    uniform_trace(trace, pages, 3 * pages, 1000)
    doc = simulate(
        overprov_cli, "--trace", str(trace), "--user-pages", str(pages),
        "--pages-per-block", str(b), "--rho", "0.1,0.28", "--trace-warmup-passes", "2",
    )  # fmt: skip
    for run in doc["runs"]:
        rho = run["geometry"]["rho"]
        waf = run["measured"]["waf"]
        model = models.waf_for_policy("greedy", rho, b)
        assert waf == pytest.approx(model, rel=0.03), (rho, waf, model)
    synthetic = simulate(
        overprov_cli, "--user-pages", str(pages), "--pages-per-block", str(b),
        "--rho", "0.1,0.28", "--warmup", "6", "--drive-writes", "3",
    )  # fmt: skip
    for got, want in zip(doc["runs"], synthetic["runs"], strict=True):
        assert got["measured"]["waf"] == pytest.approx(want["measured"]["waf"], rel=0.02)


def test_the_open_loop_replays_at_the_traces_rate(overprov_cli, tmp_path) -> None:
    trace = tmp_path / "paced.csv"
    uniform_trace(trace, 8192, 4000, 250_000)  # 4,000 IOPS
    rc, out, err = overprov_cli(
        "simulate", "--trace", str(trace), *SMALL, "--timed", "--no-progress",
        "--trace-time-scale", "0.5",
    )  # fmt: skip
    assert rc == 0, err
    assert "open loop at the trace's arrival times × 0.5" in out
    doc = simulate(overprov_cli, "--trace", str(trace), *SMALL, "--timed")
    t = doc["runs"][0]["timed"]
    assert t["ios"] / t["simulated_s"] == pytest.approx(4000, rel=0.01)
    assert doc["runs"][0]["config"]["timing"]["host"]["mode"] == "open"
    closed = simulate(overprov_cli, "--trace", str(trace), *SMALL, "--qd", "4")
    c = closed["runs"][0]["timed"]
    assert c["ios"] == 4000 and c["ios"] / c["simulated_s"] > 10_000


def test_the_table_quotes_the_measured_passes_not_the_warm_up(overprov_cli, tmp_path) -> None:
    """Closed loop after a fill, one warm-up pass then one measured: the table's IOPS and p99
    are the measured pass's (timed.measured), not the whole replay's."""
    trace = tmp_path / "warm.csv"
    uniform_trace(trace, 8192, 8192, 1_000)
    args = ("--trace", str(trace), *SMALL, "--qd", "8", "--trace-warmup-passes", "1")
    doc = simulate(overprov_cli, *args)
    t = doc["runs"][0]["timed"]
    m = t["measured"]
    assert m["ios"] == 8192 and t["ios"] >= 2 * 8192
    rc, out, err = overprov_cli("simulate", *args, "--no-progress")
    assert rc == 0, err
    assert f"{m['iops']:,.0f}" in out and f"{m['latency_us']['p99']:,.0f}" in out
    assert "warm-up passes not included" in out


def test_check_plans_a_trace_by_its_file_and_passes(overprov_cli, tmp_path) -> None:
    """--check for a trace: the fill's pages plus, per pass, the file's pages (what the core's
    progress counts), not the synthetic workload's drive writes; and without running it."""
    trace = tmp_path / "plan.csv"
    uniform_trace(trace, 8192, 20_000, 1_000)
    file_pages = -(-trace.stat().st_size // 4096)
    rc, out, err = overprov_cli(
        "simulate", "--trace", str(trace), *SMALL, "--trace-repeat", "3",
        "--trace-warmup-passes", "1", "--check",
    )  # fmt: skip
    assert rc == 0, err
    planned = 8192 + 4 * file_pages
    assert f"({planned:,} pages of fill and trace file at " in out
    assert "WAF" not in out  # checked, not run


def test_a_bad_line_names_file_and_line(overprov_cli, tmp_path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("time_ns,op,offset_bytes,len_bytes,device\n0,W,0,4096,0\n1,Z,0,4096,0\n")
    rc, _, err = overprov_cli("simulate", "--trace", str(bad), *SMALL, "--no-progress")
    assert rc == 2 and f"{bad}:3: csv trace: op" in err, err
    doc = simulate(overprov_cli, "--trace", str(bad), *SMALL, "--skip-bad-lines")
    assert doc["runs"][0]["trace"]["bad_lines"] == 1
    rc, _, err = overprov_cli("simulate", "--trace", str(bad), "--workload", "zipf")
    assert rc == 2 and "--workload: the trace is the workload" in err
    rc, _, err = overprov_cli("simulate", "--trace-repeat", "2")
    assert rc == 2 and "--trace-repeat: only with --trace" in err
