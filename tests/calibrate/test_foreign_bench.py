"""The foreign-FTL drivers' own arithmetic (bench/foreign): the settling rule and the parsing of
a simulator's cumulative counters into per-interval IOPS and WAF. The simulators themselves are
built and run outside the repository; these tests need none of them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))

import common  # noqa: E402
import mqsim  # noqa: E402
import mqsim_gc_probe  # noqa: E402
import mqsim_onset  # noqa: E402
import simplessd  # noqa: E402


def test_settle_flat_series_is_settled():
    series = [{"iops": 100.0 + (i % 2), "waf": 3.0} for i in range(12)]
    w = common.settle(series)
    assert w["settled"] is True
    assert w["first_index"] == 4
    assert w["iops_mean"] == pytest.approx(100.5)
    assert w["waf_mean"] == pytest.approx(3.0)


def test_settle_rising_waf_is_not_settled():
    # WAF still climbing 1% a round: each value is within 3% of its neighbours, the window's
    # range and trend are not
    series = [{"iops": 100.0, "waf": 3.0 * 1.01**i} for i in range(12)]
    w = common.settle(series)
    assert w["settled"] is False
    assert w["waf_trend"] > common.WINDOW_TOLERANCE


def test_settle_needs_a_full_window():
    with pytest.raises(ValueError, match="needs 8"):
        common.settle([{"iops": 1.0, "waf": 1.0}] * 7)


def test_steady_window_record_spans_the_last_rounds():
    # the record a level keeps: the window from the end of the round before it to the last
    series = [{"span_writes": float(k), "iops": 100.0, "waf": 2.0} for k in range(1, 13)]
    w = common.settle(series)
    rec = common.steady_window(series, w)
    assert rec["span_writes"] == [4.0, 12.0]
    assert rec["settled"] is True and rec["rule"] is w


def printout(tick_ps: int, writes: int, copies: int, gcs: int) -> str:
    return (
        f"Periodic log printout @ tick {tick_ps}\n"
        f"hil.write.request_count                 \t{writes}\tdesc\n"
        f"ftl.page_mapping.gc.count               \t{gcs}\tdesc\n"
        f"ftl.page_mapping.gc.page_copies         \t{copies}\tdesc\n"
        f"End of log @ tick {tick_ps}\n"
    )


def test_simplessd_rounds_from_cumulative_counters():
    # 1000 writes per ms of simulated time; no GC in the first half, then 2 copies per write
    text = "".join(
        printout(k * 10**9, 1000 * k, max(0, 2000 * (k - 4)), max(0, k - 4)) for k in range(1, 9)
    )
    rows = simplessd.parse_log(text)
    assert len(rows) == 8 and rows[-1]["hil.write.request_count"] == 8000
    rounds = simplessd.rounds_of(rows, span=4000, n_rounds=4)
    assert [r["span_writes"] for r in rounds] == [0.5, 1.0, 1.5, 2.0]
    assert [r["iops"] for r in rounds] == pytest.approx([1e6] * 4)  # 2000 writes per 2 ms
    assert [r["waf"] for r in rounds] == pytest.approx([1.0, 1.0, 3.0, 3.0])
    assert rounds[0]["gc_runs"] == 0 and rounds[2]["gc_runs"] == 2


FOREIGN_RESULTS = Path(__file__).resolve().parents[2] / "bench" / "foreign" / "results"
# the curves: results/*.json, results/patched/*.json (curves of patched builds),
# results/gc-threshold/*.json (MQSim with another GC threshold) and results/fresh-2chips/*.json
# (patched MQSim on two chips), the last three kept apart, and results/femu-midlevel/*.json
# (FEMU drives held out for a pre-registered rule)
RESULTS = sorted(
    p
    for folder in ("", "patched/", "gc-threshold/", "fresh-2chips/", "femu-midlevel/")
    for p in FOREIGN_RESULTS.glob(f"{folder}*.json")
    if p.stem != "evaluation"
)
LEVEL_FIELDS = ("extra_op_percent", "queue_depth", "span_pages", "steady_iops", "steady_waf",
                "fob_iops", "fob", "steady_window", "series")  # fmt: skip


def test_mqsim_chips_set_the_geometry_and_count_a_multiplane_program_per_die(tmp_path, monkeypatch):
    # --chips N: N chips of one die of two planes (the drive's NAND N times as large); a
    # multi-plane program writes one page per plane of its die, not per plane of the drive
    monkeypatch.setitem(mqsim.GEOMETRY, "Chip_No_Per_Channel", 2)
    assert "<Chip_No_Per_Channel>2</Chip_No_Per_Channel>" in mqsim.ssd_config()
    assert "<Chip_IDs>0,1</Chip_IDs>" in mqsim.workload(0, 32, 100)
    assert mqsim.physical_pages() == 2 * 2 * 1024 * 32
    out = tmp_path / "r_scenario_1.xml"
    calls = []

    def fake_mqsim(cmd, **kw):
        out.write_text(
            '<x Request_Count="10" IOPS="5" Total_GC_Executions="0" '
            'Average_Page_Movement_For_GC="0" Issued_Flash_Erase_CMD="0" '
            'Issued_Flash_Multiplane_Erase_CMD="0" Issued_Flash_Program_CMD="4" '
            'Issued_Flash_Multiplane_Program_CMD="3" Issued_Flash_Copyback_Program_CMD="0"/>'
        )
        calls.append(cmd)
        # the first run dies of a signal (MQSim's occasional SIGSEGV): it is run again
        return mqsim.subprocess.CompletedProcess(cmd, -11 if len(calls) == 1 else 0)

    monkeypatch.setattr(mqsim.subprocess, "run", fake_mqsim)
    got = mqsim.run(Path("MQSim"), tmp_path, "r", 0, 32, 10)
    assert got["nand_pages"] == 4 + 2 * 3 and got["retries"] == 1 and len(calls) == 2
    # the files by name in the run's folder; the retry on another heap layout ("./" prefixed)
    assert calls[0][-4:] == ["-i", "r-ssd.xml", "-w", "r.xml"]
    assert calls[1][-4:] == ["-i", "./r-ssd.xml", "-w", "./r.xml"]


def test_mqsim_config_carries_the_gc_threshold():
    # MQSim's shipped GC threshold by default; another one (--gc-threshold) is written as given
    assert "<GC_Exec_Threshold>0.05000</GC_Exec_Threshold>" in mqsim.ssd_config()
    assert "<GC_Exec_Threshold>0.01000</GC_Exec_Threshold>" in mqsim.ssd_config(0.01)


def test_mqsim_onset_bisects_to_the_first_write_that_starts_gc(tmp_path, monkeypatch):
    # mqsim_onset.py on a results file's geometry: the host writes at which MQSim first reports a
    # collection started, bisected to within the user capacity / --resolution, as a spare factor
    monkeypatch.setattr(mqsim, "GEOMETRY", dict(mqsim.GEOMETRY))
    monkeypatch.setattr(mqsim, "NATIVE_OP_RATIO", mqsim.NATIVE_OP_RATIO)
    geometry = dict(mqsim.GEOMETRY, Block_No_Per_Plane=512)
    user = int(2 * 512 * 32 * (1 - 0.12))
    doc = {
        "config": {"geometry": geometry, "Overprovisioning_Ratio": 0.12,
                   "gc": "RGA (d-choices), GC_Exec_Threshold 0.05 free "
                   "blocks per plane, GC_Hard_Threshold 0.005"},
        "advertised_bytes": user * 4096,
    }  # fmt: skip
    first = 31_000  # the write whose block allocation starts the first collection
    calls = []

    def fake_run(binary, folder, tag, extra_op, qd, requests, gc_threshold):
        calls.append((extra_op, qd, requests, gc_threshold))
        return {"gc_runs": float(requests >= first), "nand_pages": float(requests)}

    monkeypatch.setattr(mqsim, "run", fake_run)
    got = mqsim_onset.onset(Path("MQSim"), tmp_path, doc, resolution=512)
    lo, hi = got["host_writes_bracket"]
    assert lo < first <= hi and hi - lo <= user // 512
    assert got["onset_spare_factor"] == pytest.approx(first / user, abs=1 / 512)
    assert got["user_pages"] == user and got["physical_pages"] == 2 * 512 * 32
    assert {c[:2] for c in calls} == {(0, 32)} and {c[3] for c in calls} == {0.05}
    doc["advertised_bytes"] += 4096  # a file whose geometry does not give its capacity
    with pytest.raises(ValueError, match="advertised_bytes"):
        mqsim_onset.onset(Path("MQSim"), tmp_path, doc)


def probe_line(calls, pool_mean, busy, hist):
    started = sum(hist)
    valid_mean = sum(i * n for i, n in enumerate(hist)) / started if started else 0.0
    counts = f"calls {calls} pool_mean {pool_mean:.3f} below {calls} busy {busy} started {started}"
    rest = f" valid_mean {valid_mean:.3f} noinv 0 ongoing_mean 1.000 hist "
    return counts + rest + " ".join(str(n) for n in hist)


def test_mqsim_gc_probe_window_of_cumulative_counts():
    # 100 checks at 1,000 free blocks (from empty), then 300 more at 40 free blocks, 20 of them
    # skipped; 280 victims of 24 valid pages out of 32 each
    a = [0] * 33
    b = [0] * 33
    b[24] = 280
    first = mqsim_gc_probe.parse_line(probe_line(100, 1000.0, 0, a))
    second = mqsim_gc_probe.parse_line(probe_line(400, (100 * 1000 + 300 * 40) / 400, 20, b))
    w = mqsim_gc_probe.window(first, second)
    assert w["checks"] == 300 and w["checks_skipped"] == 20 and w["collections"] == 280
    assert w["free_blocks_at_checks"] == pytest.approx(40.0)
    assert w["victims_valid_pages"] == pytest.approx(24.0)
    assert w["waf_from_victims"] == pytest.approx(4.0)  # 32 / (32 - 24)
    with pytest.raises(ValueError, match="not a probe line"):
        mqsim_gc_probe.parse_line("Requesting a free block from an empty pool!")


def test_at_least_two_independent_simulators_have_results():
    # at least two independent FTLs: a results file per simulator, each its own
    assert len({json.loads(p.read_text())["simulator"] for p in RESULTS}) >= 2


@pytest.mark.parametrize("path", RESULTS, ids=[p.stem for p in RESULTS])
def test_results_file_format_and_settling(path):
    doc = json.loads(path.read_text())
    for field in ("simulator", "repository", "commit", "date", "hardware", "config", "workload",
                  "extra_op_definition"):  # fmt: skip
        assert doc.get(field), f"{path.name}: {field} missing"
    assert 0 < doc["advertised_bytes"] < doc["physical_bytes"]
    assert doc.get("command") or doc.get("runs"), f"{path.name}: no command"
    assert doc["levels"], f"{path.name}: no levels"
    waf_only = doc.get("measures") == ["waf"]
    for lv in doc["levels"]:
        case = f"{path.name} OP {lv['extra_op_percent']}% QD{lv['queue_depth']}"
        for field in LEVEL_FIELDS:
            assert field in lv, f"{case}: {field} missing"
        assert 0 <= lv["extra_op_percent"] < 100 and lv["queue_depth"] >= 1
        drive_writes = lv.get("drive_writes") or doc["drive_writes"]
        # FOB: from empty, before any GC ran, and faster than the steady state; a simulator
        # that counts page writes only (no time: `measures` ["waf"]) has no IOPS, and its FOB
        # evidence is WAF 1 with no GC
        assert lv["fob"]["gc_runs"] == 0, case
        if waf_only:
            assert lv["steady_iops"] is None and lv["fob_iops"] is None, case
            assert lv["fob"]["waf"] == 1.0 and lv["fob"]["span_writes"] > 0, case
        else:
            assert lv["fob_iops"] > lv["steady_iops"] > 0, case
        assert lv["steady_waf"] >= 1.0, case
        # the window lies in the run, and its figures are those of the series inside it
        win = lv["steady_window"]
        first, last = win["span_writes"]
        assert 0 < first < last <= drive_writes * 1.001, case
        inside = [r for r in lv["series"] if first < r["span_writes"] <= last + 1e-9]
        assert inside, case
        for key in ("waf",) if waf_only else ("iops", "waf"):
            vals = [r[key] for r in inside]
            steady = lv[f"steady_{key}"]
            assert min(vals) * 0.999 <= steady <= max(vals) * 1.001, f"{case}: steady {key}"
        # settled is what the rule's recorded figures say: range and trend within tolerance
        rule = win["rule"]
        tolerance = rule.get("tolerance", common.WINDOW_TOLERANCE)
        figures = [v for k, v in rule.items() if k.endswith(("_half_range", "_trend"))]
        assert len(figures) >= (2 if waf_only else 4), case
        assert win["settled"] == all(v <= tolerance for v in figures), case


def test_mqsim_iops_are_its_command_time_and_qd_changes_the_multiplane_share():
    # bench/foreign/mqsim_commands.py's figures from the runs behind results/mqsim.json: the
    # one-die drive is busy all the time (IOPS within 5% under the chip's command time), and
    # what changes with queue depth at one WAF is the share of multi-plane programs, which
    # follows the requests actually in the device
    doc = json.loads((FOREIGN_RESULTS / "commands" / "mqsim.json").read_text())
    cases = {(c["extra_op_percent"], c["queue_depth"]): c["steady"] for c in doc["cases"]}
    assert all(c["matches_results"] for c in doc["cases"])
    for key, s in cases.items():
        assert 0.95 < s["iops"] / s["command_time_iops"] <= 1.0, key
    share = {k: s["multiplane_program_share"] for k, s in cases.items()}
    assert all(share[(op, qd)] < 0.02 for op, qd in [(0, 4), (0, 32), (0, 128), (20, 32)])
    assert share[(20, 128)] > 0.8 and share[(40, 128)] > 0.9 and share[(40, 4)] < 0.02
    # the host keeps QD requests outstanding, but MQSim drops writes that meet a GC barrier
    # (docs/calibrate-validation.md): at 0-20% every depth is down to one request in the device
    for key in [(0, 4), (0, 32), (0, 128), (10, 32), (20, 4), (20, 32)]:
        assert cases[key]["requests_in_device"] < 1.5, key
    assert 30 < cases[(20, 128)]["requests_in_device"] < 128
    # QD32 -> QD128 at 20%: the IOPS gain is the command-time gain, at one WAF
    lo, hi = cases[(20, 32)], cases[(20, 128)]
    gain = hi["iops"] / lo["iops"]
    assert gain > 1.7
    assert gain == pytest.approx(hi["command_time_iops"] / lo["command_time_iops"], rel=0.03)


def test_patched_mqsim_keeps_its_queue_depth():
    # MQSim with its GC-barrier leak patched (results/patched/mqsim.json and its command
    # counts): every request completes, so the device holds the queue depth the host keeps
    doc = json.loads((FOREIGN_RESULTS / "commands" / "mqsim-patched.json").read_text())
    assert doc["cases"] and all(c["matches_results"] for c in doc["cases"])
    for c in doc["cases"]:
        in_device = c["steady"]["requests_in_device"]
        assert in_device == pytest.approx(c["queue_depth"], rel=0.05), c["queue_depth"]
    assert json.loads((FOREIGN_RESULTS / "patched" / "mqsim.json").read_text())["patch"]


def test_sssl_ftlsim_rows_from_quarter_span_steps():
    # sssl_ftlsim_run.py prints pages written per quarter span write and segments cleaned so
    # far; a row is one span write: its WAF and the segments cleaned in it
    import sssl_ftlsim

    steps = [{"host_pages": 25, "nand_pages": 25, "segments_cleaned": 0}] * 4
    steps += [{"host_pages": 25, "nand_pages": 75, "segments_cleaned": 3 * k} for k in (1, 2, 3, 4)]
    steps += [{"host_pages": 25, "nand_pages": 50, "segments_cleaned": 12}]  # a partial span
    rows = sssl_ftlsim.rows_of(steps, span=100)
    assert [r["span_writes"] for r in rows] == [1.0, 2.0]
    assert [r["waf"] for r in rows] == [1.0, 3.0]
    assert [r["gc_runs"] for r in rows] == [0, 12]


def test_sssl_ftlsim_nand_as_its_example_scripts_size_it():
    # greedy-high.py: T = int(U / (1 - S_f)) + minfree segments
    import sssl_ftlsim

    assert sssl_ftlsim.physical_blocks(512, 0.07, 3) == 553
    assert sssl_ftlsim.physical_blocks(512, 0.25, 3) == 685
    assert sssl_ftlsim.span_pages(65536, 10) == 58982


def test_waf_only_results_say_so_and_have_no_iops():
    # the WAF-only curves (sssl-ftlsim) are evaluated on WAF alone: evaluate.py's WAF cases
    waf_only = [p for p in RESULTS if json.loads(p.read_text()).get("measures") == ["waf"]]
    assert waf_only, "no WAF-only results"
    for p in waf_only:
        doc = json.loads(p.read_text())
        assert "no IOPS" in doc["config"]["timing"]
        assert {lv["extra_op_percent"] for lv in doc["levels"]} == {0, 10, 20, 30, 40}
        assert all(lv["steady_window"]["settled"] for lv in doc["levels"]), p.name


def test_evaluate_gives_a_waf_only_drive_its_waf_figures_and_sizes():
    # evaluate.py's WAF cases on a WAF-only curve: --waf-points at 0 and 40%, the raw NAND
    # scaled above 1 GB by one factor, no IOPS or FOB figure (the simulator has none)
    import evaluate

    doc = json.loads((FOREIGN_RESULTS / "sssl-ftlsim-greedy-spare007.json").read_text())
    assert evaluate.label(doc) == "sssl-ftlsim, greedy, spare factor 0.07"
    curve = evaluate.truth_curve(doc, 1)
    case = next(c for c in evaluate.WAF_CASES if c[0] == "WAF 0+40, raw NAND")
    cmd = evaluate.command(doc, curve, case, jobs=1)
    waf = cmd[cmd.index("--waf-points") + 1]
    assert waf == f"0:{curve[0]['steady_waf']:.3f},40:{curve[40]['steady_waf']:.3f}"
    assert "--points" not in cmd and "--fob-iops" not in cmd
    adv = int(cmd[cmd.index("--advertised") + 1].rstrip("B"))
    phys = int(cmd[cmd.index("--physical") + 1].rstrip("B"))
    assert adv >= 10**9 and phys / adv == pytest.approx(553 / 512)


def test_waf_only_evaluation_is_of_the_recorded_truth():
    # results/evaluation.json's cases on each WAF-only curve were computed against that
    # curve as recorded (each level's truth is its steady WAF), over the rule's cases
    # (docs/calibrate-validation.md, "A third FTL, WAF only"), with intervals and no IOPS
    import evaluate

    evals = {e["results"]: e for e in json.loads((FOREIGN_RESULTS / "evaluation.json").read_text())}
    for p in RESULTS:
        doc = json.loads(p.read_text())
        if doc.get("measures") != ["waf"]:
            continue
        ev = evals[p.name]
        assert [c["case"] for c in ev["cases"]] == [c[0] for c in evaluate.WAF_CASES]
        truth = {lv["extra_op_percent"]: lv["steady_waf"] for lv in doc["levels"]}
        for c in ev["cases"]:
            assert [r["extra_op_percent"] for r in c["levels"]] == [0, 10, 20, 30, 40]
            for r in c["levels"]:
                assert r["waf_true"] == truth[r["extra_op_percent"]], (p.name, c["case"])
                assert r["waf_err"] == pytest.approx(r["waf_pred"] / r["waf_true"] - 1)
                assert r["waf_low"] <= r["waf_pred"] <= r["waf_high"] and "iops_err" not in r


def test_evaluate_predicts_other_queue_depths_with_the_readings_page_offset_rule(monkeypatch):
    # the other queue depths are predicted with the reading's twin rebuilt from its record:
    # without `multiplane_offsets` a twin fitted at one page offset was rerun pairing on any
    # free plane, so its QD4 figure came out as its QD32 one
    import evaluate
    from overprov.calibrate import gc_blocking

    monkeypatch.setattr(gc_blocking, "USER_PAGES", 1 << 15)  # 128 MiB twins: seconds
    mech = {"domains": 2, "program_us": 750.0, "chi2": 1.0, "native_op": 0.07, "weight": 1.0,
            "analytic_chi2": 9.0, "dies": 1, "dies_identified": True, "planes_per_die": 2,
            "gc_multiplane": True, "multiplane_offsets": 32}  # fmt: skip
    kept = evaluate._mechanism({"fit": {"gc_mechanism": mech}})
    assert kept["multiplane_offsets"] == 32
    others = [{"extra_op_percent": 40, "queue_depth": 4, "steady_iops": 800.0}]

    def qd4(m: dict) -> float:
        res = {"levels": [{"extra_op_percent": 40, "iops_pred": 1000.0}], "qd": 32,
               "gc_mechanism": m}  # fmt: skip
        return evaluate.other_queue_depths(res, others, jobs=1)[0]["iops_pred"]

    at_one_offset, any_plane = qd4(kept), qd4(kept | {"multiplane_offsets": 0})
    assert any_plane > 0.97 * 1000.0, any_plane  # any free plane: QD4 pairs as QD32 does
    assert at_one_offset < 0.9 * any_plane, (at_one_offset, any_plane)


FEMU_SMALL = Path(__file__).resolve().parents[1] / "data" / "foreign" / "femu-harness-small.out"


def test_femu_harness_output_parsed_into_rounds_and_fob():
    # a real output of bench/foreign/femu_harness (FEMU's bbssd FTL, femu-v9.0.1) on a tiny
    # geometry: `femu-bbssd-harness --span-pages 768 --host-pages 7680 --qd 4
    # --report-every 192 --seed 1 --nchs 2 --luns-per-ch 2 --blks-per-pl 16 --pgs-per-blk 16`
    import femu

    geometry, rows = femu.parse_output(FEMU_SMALL.read_text())
    assert geometry["tt_luns"] == 4 and geometry["pgs_per_line"] == 64
    assert geometry["tt_lines"] == 16 and geometry["gc_thres_lines"] == 4
    assert rows[0] == {"host_pages": 0, "t_ns": 0, "nand_pages": 0, "erases": 0,
                       "free_lines": 15}  # fmt: skip
    assert len(rows) == 41
    # FEMU's GC erases whole lines (one block of each LUN), and every host page is programmed
    assert all(r["erases"] % 4 == 0 for r in rows)
    assert all(r["nand_pages"] >= r["host_pages"] for r in rows)
    # FOB: the first quarter span from empty, no GC; 4 writes at a time on 4 idle LUNs, 200 us
    # each: the 192nd write is submitted 47 program times after the first
    fob = femu.fob_of(rows, span=768, blocks_per_line=4)
    assert fob["gc_runs"] == 0 and fob["span_writes"] == 0.25
    assert fob["iops"] == pytest.approx(192 / (47 * 200e-6))
    series = femu.rounds_of(rows, span=768, reports_per_round=4, blocks_per_line=4)
    assert [r["span_writes"] for r in series] == [float(k) for k in range(1, 11)]
    assert series[0]["waf"] == pytest.approx(822 / 768) and series[0]["gc_runs"] == 2
    last = series[-1]
    assert last["waf"] == pytest.approx((51823 - 45567) / 768)
    assert last["iops"] == pytest.approx(768 / ((4634720000 - 4075040000) / 1e9))
    assert last["gc_runs"] == (3188 - 2796) // 4 and last["free_lines"] == 3


def test_femu_rejects_a_truncated_report_and_names_the_line():
    import femu

    with pytest.raises(ValueError, match="line 2: expected 6 fields"):
        femu.parse_output("G tt_luns 4\nR 192 9400000 192\n")
    with pytest.raises(ValueError, match="no G line"):
        femu.parse_output("R 0 0 0 0 15\n")


def test_femu_drive_is_run_blackbox_sh_and_its_command_carries_it():
    # run-blackbox.sh: 8 x 8 LUNs x 256 blocks x 256 pages of 4 KiB, a 12288 MB namespace
    import femu

    assert femu.physical_pages() * 4096 == 16 * 2**30
    assert femu.logical_pages() * 4096 == 12 * 2**30
    assert femu.span_pages(40) == int(3145728 * 0.6)
    cmd = femu.command(Path("h"), span=100, qd=32, host_pages=400, report_every=25)
    assert cmd[:9] == ["h", "--span-pages", "100", "--host-pages", "400", "--qd", "32",
                       "--report-every", "25"]  # fmt: skip
    flags = dict(zip(cmd[1::2], cmd[2::2], strict=True))
    assert flags["--blks-per-pl"] == "256" and flags["--gc-thres-pcent-high"] == "95"
    assert flags["--pg-wr-lat"] == "200000" and flags["--nchs"] == "8"
