"""``overprov plan`` with the WAF from the simulator instead of the analytic models:
``--simulation FILE`` (a file ``overprov simulate --json FILE`` wrote, produced for real here)
and ``--simulate`` (a quick simulation per OP level)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from overprov import cli, endurance, models, simulated_waf
from overprov.errors import ConfigError

HIDDEN = 2**30 / 10**9 - 1  # 7.3741824 % native OP: the plan's and the simulator's default
SWEEP_EXTRA_OP = (0, 10, 20, 40)


@pytest.fixture(scope="module")
def sweep(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A real `overprov simulate` sweep: a 1 GB drive (16 GiB·1/16 of NAND, GiB sold as GB),
    64 pages per block, greedy GC, uniform random 4 KiB writes, extra OP 0/10/20/40 %."""
    path = tmp_path_factory.mktemp("sim") / "sweep.json"
    rc = cli.main(
        [
            "simulate", "--advertised", "1G", "--pages-per-block", "64",
            "--extra-op", ",".join(map(str, SWEEP_EXTRA_OP)),
            "--warmup", "2", "--drive-writes", "2", "--no-progress", "--json", str(path),
        ]
    )  # fmt: skip
    assert rc == 0
    return path, json.loads(path.read_text())


def _plan_json(overprov_cli, *args: str) -> dict[str, Any]:
    rc, out, err = overprov_cli("plan", "--capacity", "960GB", "--pe-cycles", "3000", *args)
    assert rc == 0, err
    return json.loads(out)


def test_simulation_file_waf_is_the_measured_waf(overprov_cli, sweep) -> None:
    path, doc = sweep
    p = _plan_json(
        overprov_cli, "--extra-op", "0,10,20,40", "--simulation", str(path), "--json", "-"
    )
    assert p["model"] is None and p["policy"] == "greedy" and p["pages_per_block"] == 64
    assert "measured by the simulator" in p["waf_source"] and str(path) in p["waf_source"]
    budget = 960e9 * (1 + HIDDEN) * 3000
    assert len(p["rows"]) == len(doc["runs"]) == 4
    for i, (row, run) in enumerate(zip(p["rows"], doc["runs"], strict=True), start=1):
        assert row["extra_op_percent"] == pytest.approx(
            run["config"]["geometry"]["extra_op_percent"]
        )
        # the plan's ρ and the simulated ρ agree to within one erase block of OP
        assert abs(row["rho"] - run["geometry"]["rho"]) < 64 / run["geometry"]["user_pages"]
        assert row["waf"] == run["measured"]["waf"]  # taken as is, not re-modelled
        assert row["tbw_bytes"] == pytest.approx(budget / run["measured"]["waf"])
        assert row["waf_source"].startswith(f"simulated: {path} run {i} (extra OP ")


def test_simulation_text_names_the_source_of_each_waf(overprov_cli, sweep) -> None:
    path, doc = sweep
    rc, out, err = overprov_cli(
        "plan", "--capacity", "960GB", "--nand", "tlc", "--extra-op", "10,15,20",
        "--simulation", str(path),
    )  # fmt: skip
    assert rc == 0, err
    text = " ".join(out.split())
    assert f"WAF: measured by the simulator, {path} (4 runs: greedy GC, 64 pages per block" in text
    assert "WAF source" in out
    waf10 = doc["runs"][1]["measured"]["waf"]
    row10 = next(ln for ln in out.splitlines() if ln.lstrip().startswith("10.0%"))
    assert f"{waf10:6.3f}" in row10 and f"simulated: {path} run 2 (extra OP 10 %" in row10
    row15 = next(ln for ln in out.splitlines() if ln.lstrip().startswith("15.0%"))
    assert f"interpolated in 1/ρ: {path} runs 2–3" in row15


def test_simulation_interpolates_linearly_in_one_over_rho(overprov_cli, sweep) -> None:
    path, doc = sweep
    p = _plan_json(overprov_cli, "--extra-op", "5,30", "--simulation", str(path), "--json", "-")
    runs = doc["runs"]
    for row, (a, b) in zip(p["rows"], ((runs[0], runs[1]), (runs[2], runs[3])), strict=True):
        ra, rb = a["geometry"]["rho"], b["geometry"]["rho"]
        wa, wb = a["measured"]["waf"], b["measured"]["waf"]
        rho = (1 + HIDDEN) / (1 - row["extra_op_percent"] / 100) - 1
        t = (1 / rho - 1 / ra) / (1 / rb - 1 / ra)
        assert row["waf"] == pytest.approx(wa + t * (wb - wa), rel=1e-12)
        assert wb < row["waf"] < wa
    assert p["rows"][0]["waf_source"] == f"interpolated in 1/ρ: {path} runs 1–2"
    assert p["rows"][1]["waf_source"] == f"interpolated in 1/ρ: {path} runs 3–4"


def test_simulation_refuses_op_outside_its_runs(overprov_cli, sweep, tmp_path: Path) -> None:
    path, doc = sweep
    rc, out, err = overprov_cli(
        "plan", "--capacity", "960GB", "--extra-op", "10,50", "--simulation", str(path)
    )
    assert rc == 2 and out == ""
    assert "--extra-op 50: extra OP 50 % (ρ = 114.75 %) is not in" in err
    assert str(path) in err and "none outside them extrapolated" in err
    # the default levels reach 60 %: the same refusal, naming the first missing level
    rc, _, err = overprov_cli("plan", "--capacity", "960GB", "--simulation", str(path))
    assert rc == 2 and "--extra-op 50" in err
    # a use case's reference level must be simulated too (30 % lies between runs: interpolated)
    rc, out, err = overprov_cli(
        "plan", "--capacity", "960GB", "--extra-op", "0", "--use-case", "database",
        "--simulation", str(path),
    )  # fmt: skip
    assert rc == 0, err
    ref = next(ln for ln in out.splitlines() if "reference for" in ln)
    assert f"interpolated in 1/ρ: {path} runs 3–4" in ref
    upto20 = tmp_path / "upto20.json"
    upto20.write_text(json.dumps({**doc, "runs": doc["runs"][:3]}))
    rc, _, err = overprov_cli(
        "plan", "--capacity", "960GB", "--extra-op", "0", "--use-case", "database",
        "--simulation", str(upto20),
    )  # fmt: skip
    assert rc == 2 and "--use-case database: extra OP 30 % (ρ = 53.39 %) is not in" in err


def test_simulation_solver_stays_inside_the_simulated_range(
    overprov_cli, sweep, tmp_path: Path
) -> None:
    path, doc = sweep
    # reachable: the solved level lies between runs and meets the target
    p = _plan_json(
        overprov_cli,
        "--extra-op",
        "0,40",
        "--target-dwpd",
        "2",
        "--simulation",
        str(path),
        "--json",
        "-",
    )
    x = p["target_dwpd_extra_op_percent"] / 100
    assert 0 < x < 0.4
    solved = next(r for r in p["rows"] if r["marks"])
    assert solved["dwpd"] >= 2 and solved["waf_source"].startswith("interpolated in 1/ρ")
    # beyond the last run: not claimed unreachable for good, only within the simulated range
    rc, out, _ = overprov_cli(
        "plan", "--capacity", "960GB", "--pe-cycles", "3000", "--extra-op", "0,40",
        "--target-dwpd", "50", "--simulation", str(path),
    )  # fmt: skip
    assert rc == 3  # ran, did not reach the answer
    assert "not reached within the simulated OP range (up to 40.0 % extra OP)" in out
    # without a run at 0 % the lowest simulated level is not called the smallest OP
    partial = tmp_path / "from10.json"
    partial.write_text(json.dumps({**doc, "runs": doc["runs"][1:]}))
    p = _plan_json(
        overprov_cli, "--extra-op", "10,40", "--target-dwpd", "0.1", "--simulation", str(partial),
        "--json", "-",
    )  # fmt: skip
    assert p["target_dwpd_extra_op_percent"] / 100 == pytest.approx(0.10)
    assert p["rows"][0]["marks"] == ["meets 0.1 DWPD at the lowest simulated OP (lower OP not "
                                     "simulated)"]  # fmt: skip
    # --rated-tbw needs the WAF at 0 % extra OP, which that file lacks
    rc, _, err = overprov_cli(
        "plan", "--capacity", "960GB", "--rated-tbw", "1PB", "--extra-op", "10",
        "--simulation", str(partial),
    )  # fmt: skip
    assert rc == 2 and "--rated-tbw needs the WAF at the native OP: extra OP 0 %" in err


def test_simulation_policy_and_block_size_come_from_the_file(overprov_cli, sweep) -> None:
    path, _ = sweep
    rc, _, err = overprov_cli(
        "plan", "--capacity", "960GB", "--extra-op", "10", "--pages-per-block", "256",
        "--simulation", str(path),
    )  # fmt: skip
    assert rc == 2 and "--pages-per-block 256" in err and "simulated with 64" in err
    rc, _, err = overprov_cli(
        "plan",
        "--capacity",
        "960GB",
        "--extra-op",
        "10",
        "--policy",
        "fifo",
        "--simulation",
        str(path),
    )
    assert rc == 2 and "--policy fifo" in err and "simulated with greedy" in err
    # the same values as the file's are fine
    _plan_json(
        overprov_cli, "--extra-op", "10", "--policy", "greedy", "--pages-per-block", "64",
        "--simulation", str(path), "--json", "-",
    )  # fmt: skip


def _mutate(doc: dict[str, Any], how: str) -> Any:
    d = copy.deepcopy(doc)
    runs = d["runs"]
    if how == "schema":
        d["schema"] = "overprov.profile/1"
    elif how == "no-schema":
        del d["schema"]
    elif how == "no-runs":
        d["runs"] = []
    elif how == "not-a-list":
        d["runs"] = {"0": runs[0]}
    elif how == "no-measured":
        del runs[1]["measured"]
    elif how == "null-measured":
        runs[1]["measured"] = None
    elif how == "waf-text":
        runs[0]["measured"]["waf"] = "2.1"
    elif how == "no-rho":
        del runs[2]["geometry"]["rho"]
    elif how == "bad-ppb":
        runs[3]["geometry"]["pages_per_block"] = 0
    elif how == "mixed-policy":
        runs[2]["config"]["ftl"]["policy"] = "fifo"
    elif how == "duplicate":
        runs[3] = copy.deepcopy(runs[1])
    elif how == "array":
        return runs
    return d


@pytest.mark.parametrize(
    "how, field",
    [
        ("schema", "schema: expected 'overprov.simulate/1'"),
        ("no-schema", "schema: expected 'overprov.simulate/1'"),
        ("array", "schema: expected 'overprov.simulate/1'"),
        ("no-runs", "runs: expected a non-empty list"),
        ("not-a-list", "runs: expected a non-empty list"),
        ("no-measured", "runs[1].measured (run 2): missing"),
        ("null-measured", "runs[1].measured (run 2): missing"),
        ("waf-text", "runs[0].measured.waf (run 1): expected a positive number, '2.1'"),
        ("no-rho", "runs[2].geometry.rho (run 3): expected a positive number, missing"),
        ("bad-ppb", "runs[3].geometry.pages_per_block (run 4): expected a positive integer"),
        ("mixed-policy", "runs[2].config.ftl (run 3) differs from run 1's"),
        ("duplicate", "runs[3].geometry.rho (run 4)"),
    ],
)
def test_bad_simulation_file_names_the_file_and_field(
    overprov_cli, sweep, tmp_path: Path, how: str, field: str
) -> None:
    _, doc = sweep
    bad = tmp_path / f"{how}.json"
    bad.write_text(json.dumps(_mutate(doc, how)))
    with pytest.raises(ConfigError) as exc:
        simulated_waf.load_simulation(bad)
    assert str(exc.value).startswith(f"{bad}: ") and field in str(exc.value)
    rc, out, err = overprov_cli("plan", "--capacity", "960GB", "--simulation", str(bad))
    assert rc == 2 and out == ""
    assert f"overprov plan: {bad}: " in err and field in err


def test_simulation_file_not_json_or_missing(overprov_cli, tmp_path: Path) -> None:
    text = tmp_path / "table.txt"
    text.write_text("extra OP  WAF\n0%  7.27\n")
    rc, _, err = overprov_cli("plan", "--capacity", "960GB", "--simulation", str(text))
    assert rc == 2 and "not valid JSON: Expecting value" in err and f"({text}:1)" in err
    missing = tmp_path / "nope.json"
    rc, _, err = overprov_cli("plan", "--capacity", "960GB", "--simulation", str(missing))
    assert rc == 2 and "no such simulate JSON file" in err and f"({missing})" in err


@pytest.mark.parametrize(
    "policy, b", [("greedy", 64), ("greedy", 256), ("fifo", 64), ("random", 64)]
)
def test_quick_simulation_agrees_with_the_models(overprov_cli, policy: str, b: int) -> None:
    p = _plan_json(
        overprov_cli, "--simulate", "--policy", policy, "--pages-per-block", str(b), "--json", "-"
    )
    assert p["model"] is None
    assert p["waf_source"].startswith(
        f"simulated (overprov-sim, {simulated_waf.quick_user_pages(b):,} user pages, "
        f"{b} pages per block, {policy} GC, uniform random 4 KiB writes"
    )
    assert [r["extra_op_percent"] / 100 for r in p["rows"]] == pytest.approx(
        list(endurance.DEFAULT_OP_LEVELS)
    )
    for row in p["rows"]:
        assert row["waf_source"].startswith("simulated (overprov-sim, ")
        model = models.waf_for_policy(policy, row["rho"], b)
        assert row["waf"] == pytest.approx(model, rel=0.03), row
    if policy == "greedy":
        for row in p["rows"]:
            assert row["waf"] == pytest.approx(models.waf_greedy(row["rho"], b), rel=0.03)


def test_quick_simulation_text_and_solver(overprov_cli) -> None:
    rc, out, err = overprov_cli(
        "plan", "--capacity", "960GB", "--nand", "tlc", "--daily-writes", "500GB",
        "--extra-op", "0,20,40,60", "--use-case", "file-server", "--target-years", "4",
        "--simulate",
    )  # fmt: skip
    assert rc == 0, err
    text = " ".join(out.split())
    assert (
        "WAF: simulated (overprov-sim, 524,288 user pages, 256 pages per block, greedy GC" in text
    )
    lines = out.splitlines()
    # the use case's reference level is simulated too; the solved level interpolated
    ref = next(ln for ln in lines if "reference for file server" in ln)
    assert ref.lstrip().startswith("10.0%") and "simulated (overprov-sim, 524,288 user pages" in ref
    solved = next(ln for ln in lines if "smallest OP for 4 years" in ln)
    assert "interpolated in 1/ρ: the quick simulation runs" in solved
    assert "Target 4 years:" in text and "extra OP or more" in text


def test_quick_simulation_configs_validate() -> None:
    from overprov import engine

    for b in (16, 64, 256, 1024):
        cfg = simulated_waf.quick_config(HIDDEN, "greedy", b)
        resolved = engine.validate(cfg)
        assert resolved["geometry"]["user_pages"] == simulated_waf.quick_user_pages(b)
        assert resolved["geometry"]["user_pages"] // b >= 1024
        assert abs(resolved["op_ratio"] - HIDDEN) <= b / simulated_waf.quick_user_pages(b)


def test_simulate_and_simulation_exclude_each_other(overprov_cli, sweep) -> None:
    path, _ = sweep
    rc, _, err = overprov_cli(
        "plan", "--capacity", "960GB", "--simulate", "--simulation", str(path)
    )
    assert rc == 2 and "not allowed with argument" in err
    rc, _, err = overprov_cli(
        "plan", "--capacity", "960GB", "--simulate", "--pages-per-block", "1048576"
    )
    assert rc == 2 and "--simulate at ρ = 7.37 %:" in err


def test_simulation_of_a_small_drive_whose_native_rho_rounds_down(overprov_cli, tmp_path) -> None:
    """Regression: on a 64 MB drive the simulator's whole blocks leave the 0 % run a ρ just
    below the native OP (7.315 % < 7.374 %); plan read that as extra OP −0.1 % and stopped
    with "extra_op: must be a fraction in [0, 1), got -0.001"."""
    path = tmp_path / "small.json"
    rc = cli.main(
        [
            "simulate", "--advertised", "64M", "--pages-per-block", "64", "--extra-op", "0,20",
            "--warmup", "1", "--drive-writes", "0.5", "--no-progress", "--json", str(path),
        ]
    )  # fmt: skip
    assert rc == 0
    runs = json.loads(path.read_text())["runs"]
    assert runs[0]["geometry"]["rho"] < HIDDEN  # the case this test is about
    p = _plan_json(
        overprov_cli, "--extra-op", "0,10,20", "--target-dwpd", "0.05", "--simulation",
        str(path), "--json", "-",
    )  # fmt: skip
    assert p["solve_min_extra_op_percent"] == 0.0
    assert p["rows"][0]["waf"] == runs[0]["measured"]["waf"]
    assert p["rows"][0]["waf_source"].startswith(f"simulated: {path} run 1 (extra OP 0 %")
    assert 0.0 <= p["target_dwpd_extra_op_percent"] <= 20.0
    # --rated-tbw reads the WAF at 0 % extra OP: the 0 % run, within one block of OP
    rc, out, err = overprov_cli(
        "plan", "--capacity", "960GB", "--rated-tbw", "600TB", "--simulation", str(path),
        "--extra-op", "0,20",
    )  # fmt: skip
    assert rc == 0, err
    assert f"at the native OP (simulated: {path} run 1" in " ".join(out.split())


def test_a_file_from_before_the_rename_still_reads(overprov_cli, sweep, tmp_path) -> None:
    """Files written before the core's report said ``geometry.rho`` say ``geometry.op_ratio``:
    plan reads them to the same plan."""
    path, doc = sweep
    old = copy.deepcopy(doc)
    for run in old["runs"]:
        run["geometry"]["op_ratio"] = run["geometry"].pop("rho")
    old_path = tmp_path / "old.json"
    old_path.write_text(json.dumps(old))
    args = ("--extra-op", "0,15,40", "--json", "-")
    new_plan = _plan_json(overprov_cli, *args, "--simulation", str(path))
    old_plan = _plan_json(overprov_cli, *args, "--simulation", str(old_path))
    for a, b in zip(new_plan["rows"], old_plan["rows"], strict=True):
        assert a["waf"] == b["waf"] and a["rho"] == b["rho"]
