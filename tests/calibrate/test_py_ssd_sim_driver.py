"""bench/foreign/py_ssd_sim_cliff.py's own arithmetic and configuration, and the twin of
bench/foreign/py_ssd_sim_twin.py: completions binned into an IOPS series, the simulator's
configuration rewritten for a run, the twin's figures from its configuration files. The
simulator itself is run outside the repository; these need none of it."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import py_ssd_sim_cliff  # noqa: E402
import py_ssd_sim_cliff_eval  # noqa: E402
import py_ssd_sim_twin  # noqa: E402

# the shape of the simulator's config/ssd_config.xml (its block groups and workload entry),
# with other numbers, so that each rewrite is seen to land
SSD_CONFIG = """<ssd><main_configuration>
<depth_of_host_queue>512</depth_of_host_queue>
<channel>8</channel>
<blk_grp>
<blk_manager><name>meta</name><number_of_way>ALL</number_of_way>
<start_block_no>1</start_block_no><end_block_no>9</end_block_no>
<threshold_low>1</threshold_low><threshold_high>3</threshold_high></blk_manager>
<blk_manager><name>slc_cache</name><number_of_way>ALL</number_of_way>
<start_block_no>10</start_block_no><end_block_no>39</end_block_no>
<threshold_low>1</threshold_low><threshold_high>3</threshold_high></blk_manager>
<blk_manager><name>user</name><number_of_way>ALL</number_of_way>
<start_block_no>40</start_block_no><end_block_no>100</end_block_no>
<threshold_low>1</threshold_low><threshold_high>3</threshold_high></blk_manager>
</blk_grp>
<workload><file>workload.xml</file><name>normal</name></workload>
</main_configuration></ssd>"""


NEEDS_CLONE = pytest.mark.skipif(
    not (os.environ.get("PY_SSD_SIM_CHECKOUT") and os.environ.get("PY_SSD_SIM_PYTHON")),
    reason="needs a clone of py_ssd_sim (PY_SSD_SIM_CHECKOUT) and its interpreter "
    "(PY_SSD_SIM_PYTHON)",
)


def run_clone(tmp_path, capsys, *args: str) -> dict:
    """The driver run on the clone the environment names, its JSON result."""
    py_ssd_sim_cliff.main([
        "--checkout", os.environ["PY_SSD_SIM_CHECKOUT"],
        "--python", os.environ["PY_SSD_SIM_PYTHON"], "--work", str(tmp_path), *args,
    ])  # fmt: skip
    return json.loads(capsys.readouterr().out)


def test_completions_binned_per_interval_the_partial_last_left_out():
    # 20 ms intervals: 3 completions (2 writes) in the first, 1 read in the second, 1 write
    # in a third that the last event ends early (left out)
    events = [[1_000_000, 1], [5_000_000, 0], [19_999_999, 1], [25_000_000, 0], [41_000_000, 1]]
    s = py_ssd_sim_cliff.series(events, 20.0)
    assert s["times_s"] == [0.02, 0.04]
    assert s["iops"] == [150.0, 50.0]
    assert s["write_iops"] == [100.0, 0.0]


def test_configuration_sets_queue_depth_cache_groups_and_workload(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config/ssd_config.xml").write_text(SSD_CONFIG)
    (tmp_path / "config/workload.xml").write_text("<workload_types/>")
    args = argparse.Namespace(qd=8, channels=4, slc_superblocks=2, span_mib=1024, amount_mib=640)
    py_ssd_sim_cliff.configure(tmp_path, args)
    ssd = (tmp_path / "config/ssd_config.xml").read_text()
    assert "<depth_of_host_queue>8<" in ssd
    assert "<channel>4<" in ssd
    slc = ssd.split("<name>slc_cache</name>")[1].split("</blk_manager>")[0]
    assert "<start_block_no>10<" in slc and "<end_block_no>11<" in slc
    assert "<threshold_low>1<" in slc and "<threshold_high>2<" in slc
    user = ssd.split("<name>user</name>")[1].split("</blk_manager>")[0]
    assert "<start_block_no>12<" in user and "<end_block_no>100<" in user
    meta = ssd.split("<name>meta</name>")[1].split("</blk_manager>")[0]
    assert "<end_block_no>9<" in meta  # untouched
    assert "<name>cliff</name>" in ssd
    workload = (tmp_path / "config/workload.xml").read_text()
    assert "<range>1024MiB</range>" in workload and "<amount>640MiB</amount>" in workload
    assert "WL_RAND_WRITE" in workload and "<min_size>4KiB</min_size>" in workload


def test_twin_figures_from_the_configuration_files():
    d = py_ssd_sim_twin.twin()
    nand = d["config"]["timing"]["nand"]
    assert nand["channels"] * nand["dies_per_channel"] == 8
    assert nand["die_block_bytes"] == 1152 * 4 * 8192  # 36 MiB
    assert d["physical_bytes"] == 91 * 8 * 36 * 2**20
    assert d["advertised_bytes"] == 2**30
    # the simulator's super blocks: 288 MiB in TLC, a third of it in SLC mode
    assert 8 * nand["die_block_bytes"] == 288 * 2**20
    assert "max_bytes" not in d["config"]["timing"]["slc"]  # the fit sets the size


def test_twin_one_shot_programs_three_pages_whole_at_the_same_tlc_rate():
    average = py_ssd_sim_twin.twin()["config"]["timing"]["nand"]
    nand = py_ssd_sim_twin.twin(one_shot=True)["config"]["timing"]["nand"]
    assert nand["flash_page_bytes"] == 3 * average["flash_page_bytes"] == 96 * 1024
    assert nand["program_us"] == 2100.0 and nand["program_granularity"] == "page"
    per_us = nand["flash_page_bytes"] / nand["program_us"]
    assert per_us == pytest.approx(average["flash_page_bytes"] / average["program_us"])
    assert "program_granularity" not in average  # the core's default, per unit


def test_twin_with_four_dies_scales_its_nand():
    d = py_ssd_sim_twin.twin(4)
    assert d["config"]["timing"]["nand"]["channels"] == 4
    assert d["physical_bytes"] == 91 * 4 * 36 * 2**20
    assert d["advertised_bytes"] == 2**30


def test_gate_names_what_a_rerun_changed(tmp_path):
    run = {"times_s": [0.02], "iops": [50.0], "write_iops": [50.0], "completed": 1, "writes": 1}
    (tmp_path / "a.json").write_text(json.dumps(run))
    (tmp_path / "b.json").write_text(json.dumps({**run, "extra": 1}))
    (tmp_path / "c.json").write_text(json.dumps({**run, "iops": [100.0], "completed": 2}))
    assert py_ssd_sim_cliff_eval.gate(tmp_path / "a.json", tmp_path / "b.json")["reproduced"]
    changed = py_ssd_sim_cliff_eval.gate(tmp_path / "a.json", tmp_path / "c.json")
    assert not changed["reproduced"] and changed["differ"] == ["iops", "completed"]


def test_a_run_left_pending_or_returning_wrong_data_gives_no_truth():
    assert py_ssd_sim_cliff_eval.truth_refused({"pending_commands": 0, "verify_errors": 0}) is None
    assert py_ssd_sim_cliff_eval.truth_refused({}) is None  # a run before the counts existed
    assert "7 commands pending" in py_ssd_sim_cliff_eval.truth_refused({"pending_commands": 7})
    assert "1 reads" in py_ssd_sim_cliff_eval.truth_refused({"verify_errors": 1})


def test_the_runner_the_simulator_executes_compiles():
    compile(py_ssd_sim_cliff.RUNNER, "cliff_runner.py", "exec")


@pytest.mark.skipif(
    not (os.environ.get("PY_SSD_SIM_CHECKOUT") and os.environ.get("PY_SSD_SIM_PYTHON")),
    reason="needs a clone of py_ssd_sim (PY_SSD_SIM_CHECKOUT, unlicensed: not in the repository) "
    "and an interpreter with its imports (PY_SSD_SIM_PYTHON)",
)
@pytest.mark.parametrize("unmapped", ["host", "simulator"])
def test_a_short_mixed_run_ends_with_nothing_pending(tmp_path, capsys, unmapped):
    py_ssd_sim_cliff.main([
        "--checkout", os.environ["PY_SSD_SIM_CHECKOUT"],
        "--python", os.environ["PY_SSD_SIM_PYTHON"], "--work", str(tmp_path),
        "--qd", "8", "--read-percent", "30", "--amount-mib", "4", "--seed", "99",
        "--interval-ms", "2", "--unmapped-reads", unmapped,
    ])  # fmt: skip
    run = json.loads(capsys.readouterr().out)
    assert run["pending_commands"] == 0 and run["verify_errors"] == 0
    assert 0 < run["writes"] < run["completed"]  # reads and writes both completed
    # reads of unwritten pages: served by the simulator only when asked
    assert (run["unmapped_reads_served"] > 0) == (unmapped == "simulator")


@NEEDS_CLONE
def test_pages_rewritten_hundreds_of_times_read_back_right(tmp_path, capsys):
    # a 1 MiB span: 4,096 writes and reads over 256 pages; unfixed the simulator returned 72
    # stale reads here (its write buffer never looked up, old data cached after a rewrite)
    run = run_clone(tmp_path, capsys, "--qd", "8", "--read-percent", "50", "--amount-mib", "16",
                    "--span-mib", "1", "--seed", "97", "--interval-ms", "2")  # fmt: skip
    assert run["pending_commands"] == 0 and run["verify_wrong"] == 0
    assert run["write_buffer_hits"] > 0 and run["stale_cache_fills"] > 0
    assert run["cache_hits_in_transfer"] > 0


@NEEDS_CLONE
def test_a_probe_reads_only_after_its_writes(tmp_path, capsys):
    # --reads-after-mib: writes only for 2 MiB, then 30% reads of written pages; the late
    # queue time starts at the first read (read_probes.probe_reading takes it)
    run = run_clone(tmp_path, capsys, "--qd", "8", "--read-percent", "30", "--read-pages",
                    "written", "--amount-mib", "3", "--reads-after-mib", "2", "--seed", "99",
                    "--interval-ms", "2")  # fmt: skip
    assert run["pending_commands"] == 0 and run["verify_wrong"] == 0
    assert run["reads_after_mib"] == 2 and run["completed"] == 3 * 256
    assert 512 + 0.2 * 256 < run["writes"] < 512 + 0.8 * 256
    late = run["queue_time_late"]
    assert late["from_s"] > 0 and late["read_latency_us_mean"] > 0
    assert late["read_latency_us_mean"] == run["queue_time"]["read_latency_us_mean"]
