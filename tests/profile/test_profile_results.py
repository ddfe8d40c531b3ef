"""Recommendation (target, knee), CSV, and the results schema (no fio needed)."""

from __future__ import annotations

import copy
import json
import math

import pytest
from overprov import results as res
from overprov.errors import ConfigError
from overprov.profile.estimate import estimate
from overprov.profile.phase_precondition import span_for
from overprov.profile.settings import ProfileSettings
from overprov.report.load import load_inputs
from overprov.report.validate import validate_inputs
from overprov.units import parse_size


def phase(op, iops, steady=True, window=None):
    return {
        "extra_op_percent": op,
        "steady": steady,
        "steady_iops": iops if steady else None,
        "window_iops_mean": window if window is not None else iops,
    }


def test_target_recommendation_is_the_smallest_steady_op_meeting_it():
    phases = [phase(0, 9_000), phase(10, 15_000), phase(20, 22_000), phase(30, 30_000)]
    rec = res.recommend(phases, 20_000)
    assert (
        rec["method"] == "target" and rec["extra_op_percent"] == 20 and rec["steady_iops"] == 22_000
    )
    assert res.recommend(phases, 15_000)["extra_op_percent"] == 10
    assert res.recommend(phases, 1)["extra_op_percent"] == 0


def test_target_not_met_says_so_and_points_at_unsteady_phases():
    phases = [phase(0, 9_000), phase(10, 0, steady=False, window=25_000)]
    rec = res.recommend(phases, 20_000)
    assert rec["extra_op_percent"] is None
    assert "no steady phase reached 20,000 IOPS" in rec["reason"]
    assert "best: 9,000 IOPS at OP 0%" in rec["reason"]
    assert "OP 10%" in rec["reason"]


def test_the_recommendation_line_names_the_op_once_with_grouped_iops():
    phases = [phase(0, 9_000), phase(10, 15_000), phase(20, 22_000), phase(30, 30_000)]
    line = res.recommendation_text(res.recommend(phases, 20_000))
    assert line == "OP 20% — the smallest steady phase meeting 20,000 IOPS (22,000 IOPS)"
    curve = [(0, 10_000), (10, 28_000), (20, 38_000), (30, 41_000), (40, 42_000)]
    knee_line = res.recommendation_text(res.recommend([phase(op, v) for op, v in curve], None))
    assert knee_line.startswith("OP 20% — the knee: ") and knee_line.count("OP 20%") == 1
    assert res.recommendation_text(res.recommend(phases, 50_000)).startswith(
        "none — no steady phase reached 50,000 IOPS (best: 30,000 IOPS at OP 30%)"
    )
    assert res.iops_text(0.5) == "0.5" and res.iops_text(1234.6) == "1,235"


def test_knee_of_a_saturating_curve():
    # IOPS ~ 1/WAF: big gains from the first OP percents, then diminishing returns
    curve = [(0, 10_000), (10, 28_000), (20, 38_000), (30, 41_000), (40, 42_000)]
    k = res.knee(curve)
    # normalised: x = 0, .25, .5, .75, 1; y = 0, .5625, .875, .969, 1: y − x largest at OP 20
    assert k["extra_op_percent"] == 20
    assert k["distance"] == pytest.approx(0.375)
    rec = res.recommend([phase(op, v) for op, v in curve], None)
    assert (
        rec["method"] == "knee" and rec["extra_op_percent"] == 20 and rec["steady_iops"] == 38_000
    )


def test_knee_special_cases():
    assert res.knee([(0, 1), (10, 2)])["extra_op_percent"] is None  # too few points
    flat = res.knee([(0, 10_000), (20, 10_500), (40, 10_300)])
    assert flat["extra_op_percent"] == 0 and "buys little" in flat["reason"]
    linear = res.knee([(0, 10_000), (20, 20_000), (40, 30_000)])
    assert linear["extra_op_percent"] is None and "no knee" in linear["reason"]
    convex = res.knee([(0, 10_000), (20, 11_000), (40, 30_000)])
    assert convex["extra_op_percent"] is None


def test_phase_csv_has_a_row_per_round_and_member_columns_for_groups():
    lat = {k: 1.0 for k in res.LATENCY_KEYS}
    rnd = {
        "index": 1,
        "started": "2026-01-01T00:00:00.000Z",
        "finished": "2026-01-01T00:00:01.000Z",
        "duration_seconds": 1.0,
        "iops": 300.0,
        "bytes_written": 1228800,
        "latency_us": lat,
        "fio_steadystate": {"ss": "iops_slope:10%", "attained": True, "criterion_percent": 1.5},
        "members": [{"iops": 100.0}, {"iops": 200.0}],
    }
    text = res.phase_csv_text({"extra_op_percent": 10.0, "rounds": [rnd]}, ["a", "b"])
    header, row = text.splitlines()
    assert header.endswith("fio_ss_attained,fio_ss_criterion_percent,iops_m0,iops_m1")
    assert row.split(",")[:2] == ["10", "1"]
    assert row.endswith(",1,1.5,100,200")


def test_schema_rejects_a_broken_document(tmp_path):
    doc = {"format": "overprov-profile-results", "schema_version": 1}
    with pytest.raises(ConfigError, match="results.json"):
        res.validate(doc)


def test_each_round_is_checked_once_and_a_bad_new_round_is_refused(sim_profile):
    """The runner's save checks every field and the rounds no earlier save checked: a bad
    round appended after the others were checked is refused naming its place, a bad field
    outside the rounds too, and rounds already checked are not checked again."""
    doc = json.loads((sim_profile / "results.json").read_text())
    checked: set[int] = set()
    res.validate_new_rounds(doc, checked)
    rounds = [r for p in doc["phases"] for r in p["rounds"]]
    assert len(rounds) > 3 and checked == {id(r) for r in rounds}
    bad = copy.deepcopy(rounds[-1])
    bad["iops"] = "fast"
    doc["phases"][-1]["rounds"].append(bad)
    where = f"phases/{len(doc['phases']) - 1}/rounds/{len(doc['phases'][-1]['rounds']) - 1}"
    with pytest.raises(ConfigError, match=f"results.json: {where}/iops"):
        res.validate_new_rounds(doc, checked)  # named where it is in the whole document
    doc["phases"][-1]["rounds"].pop()
    res.validate_new_rounds(doc, checked)
    doc["settings"]["qd"] = "deep"
    with pytest.raises(ConfigError, match="results.json: settings"):
        res.validate_new_rounds(doc, checked)


def test_a_save_checks_again_only_the_fields_and_phases_that_changed(sim_profile):
    """With the texts found valid remembered from save to save (the runner's saves), a field
    or a phase whose JSON text changed is checked again, a bad change refused naming its place
    in the whole document; one whose text is the one found valid is not checked again."""
    doc = json.loads((sim_profile / "results.json").read_text())
    checked: set[int] = set()
    valid: dict[str, str] = {}
    res.validate_new_rounds(doc, checked, valid)
    phases = {f"phases/{i}" for i in range(len(doc["phases"]))}
    assert len(phases) == 3 and set(valid) == (set(doc) - {"phases"}) | phases
    doc["phases"][0]["steady_iops"] = "many"  # a finished phase changed in place
    with pytest.raises(ConfigError, match="results.json: phases/0/steady_iops"):
        res.validate_new_rounds(doc, checked, valid)
    doc["phases"][0]["steady_iops"] = None
    res.validate_new_rounds(doc, checked, valid)  # valid (a phase not steady)
    assert valid["phases/0"] == json.dumps({**doc["phases"][0], "rounds": []})
    doc["updated"] = "yesterday"
    with pytest.raises(ConfigError, match="results.json: updated"):
        res.validate_new_rounds(doc, checked, valid)
    doc["updated"] = "2026-11-27T12:00:00Z"
    del doc["totals"]  # a required field gone: the whole document is checked
    with pytest.raises(ConfigError, match="results.json: \\(top level\\): 'totals'"):
        res.validate_new_rounds(doc, checked, valid)
    doc["totals"] = {"bytes_written": 1, "io_seconds": 1.0}
    res.validate_new_rounds(doc, checked, valid)
    # a text remembered as valid stands for its field: the settings are not checked again
    doc["settings"]["qd"] = "deep"
    valid["settings"] = json.dumps(doc["settings"])
    res.validate_new_rounds(doc, checked, valid)
    with pytest.raises(ConfigError, match="results.json: settings/qd"):
        res.validate_new_rounds(doc, checked, {})  # nothing remembered: checked


def test_settings_validation_names_the_flag():
    with pytest.raises(ConfigError, match="--extra-op"):
        ProfileSettings(extra_op_percents=[20, 10]).validate()
    with pytest.raises(ConfigError, match="--stop-at-target"):
        ProfileSettings(stop_at_target=True).validate()
    with pytest.raises(ConfigError, match="--max-rounds"):
        ProfileSettings(max_rounds=3).validate()
    with pytest.raises(ConfigError, match="--bs"):
        ProfileSettings(bs_bytes=1000).validate()
    ProfileSettings().validate()


def test_sizes_spans_and_estimate():
    assert parse_size("4KiB") == 4096  # the one size rule (overprov.units): IEC is 1024ⁿ,
    assert parse_size("64MiB") == 64 * 2**20
    assert parse_size("64M") == parse_size("64MB") == 64 * 10**6  # SI is 1000ⁿ
    assert parse_size("1GB") == 10**9
    with pytest.raises(ConfigError):
        parse_size("lots")
    assert span_for(10, 1_000_000, 4096) == 219 * 4096  # 900000 rounded down to a block
    # --min-phase-writes 2: each phase writes 2 drive writes of its span before its window
    s = ProfileSettings(
        extra_op_percents=[0, 50],
        round_seconds=60,
        max_rounds=25,
        rated_tbw=100,
        min_phase_drive_writes=2,
    )
    est = estimate(s, 10**12, 1, random_iops=10_000, seq_bytes_per_s=500e6)
    round_bytes = 60 * 10_000 * 4096
    spans = [span_for(op, 10**12, 4096) for op in (0, 50)]  # block-aligned
    assert [p["precondition_bytes"] for p in est["per_phase"]] == [2 * x for x in spans]
    pre_rounds = [math.ceil(2 * span / round_bytes) for span in spans]
    assert est["rounds_min"] == sum(pre_rounds) + 2 * 5  # then a window each
    assert est["rounds_max"] == sum(pre_rounds) + 2 * 25
    assert est["precondition_bytes_per_member"] == 2 * 10**12
    # 2 TB precondition + (60 s FOB + all rounds × 60 s) × 10k IOPS × 4 KiB
    rounds_max = est["rounds_max"]
    assert est["bytes_per_member_max"] == 2 * 10**12 + (60 + rounds_max * 60) * 10_000 * 4096
    assert est["endurance_share_max"] == pytest.approx(est["bytes_per_member_max"] / 1e14)
    assert est["seconds_min"] == pytest.approx(60 + 4000 + est["rounds_min"] * 60)


def test_max_rounds_must_let_a_phase_settle():
    """The plateau check compares the window (5 rounds) with the 5 rounds before it: fewer than
    10 rounds can never be steady, so --max-rounds 5 to 9 is refused, saying why."""
    for n in (5, 9):
        with pytest.raises(ConfigError, match=r"--max-rounds: .*10 rounds, got") as err:
            ProfileSettings(max_rounds=n).validate()
        assert "the 5 rounds before it that the plateau check compares it with" in str(err.value)
        assert "never reach steady state" in str(err.value)
    ProfileSettings(max_rounds=10).validate()
    # without the plateau check the window alone is the minimum
    ProfileSettings(max_rounds=5, steady_max_decline_fraction=None).validate()
    with pytest.raises(ConfigError, match=r"window \(5 rounds\): 5 rounds, got 4"):
        ProfileSettings(max_rounds=4, steady_max_decline_fraction=None).validate()


def test_the_estimate_never_has_a_minimum_above_its_maximum():
    """--max-rounds 6 with a window of 5 and its baseline (10 rounds): a phase gives up at 6
    rounds, so no phase can need 10 (the estimate printed 10 to 6 before). validate() now
    refuses 6 (test_max_rounds_must_let_a_phase_settle); the estimate still copes."""
    s = ProfileSettings(extra_op_percents=[0, 20], round_seconds=10, max_rounds=6)
    est = estimate(s, 10**9, 1, random_iops=10_000, seq_bytes_per_s=500e6)
    for p in est["per_phase"]:
        assert p["rounds_min"] <= p["rounds_max"]
    assert est["rounds_min"] <= est["rounds_max"]
    assert est["seconds_min"] <= est["seconds_max"]
    assert est["bytes_per_member_min"] <= est["bytes_per_member_max"]
    assert est["assumptions"] == []
    copy.deepcopy(est)


@pytest.mark.slow  # calibrate --from fits and simulates a twin
@pytest.mark.timeout(900)  # minutes on a loaded machine
def test_a_version_1_results_file_is_read_in_version_2_words(overprov_cli, sim_profile, tmp_path):
    """Version 1 named extra OP ``op_percent`` and times ``duration_s``; report, resume and
    calibrate --from read such a file as if it had been written today. The version 2 file is
    the profile of a simulated drive made once per run (tests/conftest.py), copied."""
    out = sim_profile
    v2 = json.loads((out / "results.json").read_text())
    assert v2["schema"] == "overprov.profile/2" and v2["schema_version"] == 2
    assert "extra_op_percents" in v2["settings"] and "extra_op_percent" in v2["phases"][0]
    assert "duration_seconds" in v2["phases"][0]["rounds"][0]
    back = {new: old for old, new in res.RENAMED_IN_VERSION_2.items()}

    def to_v1(item):
        if isinstance(item, dict):
            return {back.get(k, k): to_v1(v) for k, v in item.items()}
        if isinstance(item, list):
            return [to_v1(v) for v in item]
        return item

    v1 = to_v1(v2)
    v1["schema"], v1["schema_version"] = "overprov.profile/1", 1
    assert "op_percent" in v1["phases"][0] and "duration_s" in v1["phases"][0]["rounds"][0]
    assert res.upgrade(v1) == v2
    res.validate(res.upgrade(v1))
    old = tmp_path / "old"
    old.mkdir()
    for f in out.iterdir():
        if f.is_file():
            (old / f.name).write_bytes(f.read_bytes())
    (old / "results.json").write_text(json.dumps(v1))
    # report: its input check passes and it loads what it loads from the version 2 file in the
    # same folder; its page is drawn from what it loaded alone (report/build.py), and the
    # version 2 folder's page is the profile's own report.html
    validate_inputs([old])
    read_as_v1 = load_inputs([old])
    (old / "results.json").write_text(json.dumps(v2))
    assert load_inputs([old]) == read_as_v1
    assert (out / "report.html").stat().st_size > 10_000
    (old / "results.json").write_text(json.dumps(v1))
    assert res.load_results(old / "results.json") == v2
    # two levels and nothing written: what is tested is that the version 1 file is read
    rc, text, err = overprov_cli("calibrate", "--from", str(old), "--extra-op", "0,40")
    assert rc == 0, err
    assert "nothing written" in err
