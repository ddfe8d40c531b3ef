"""``overprov plan`` as a user runs it (through ``overprov.cli.main`` via the ``overprov_cli``
fixture of tests/conftest.py). The random-victim model has a closed form, which lets the tests
work the figures by hand: WAF = α/(α−1), so TBW = T·P/E/WAF = P/E·(T − U)."""

from __future__ import annotations

import json
import math

import pytest
from overprov import cli, models

HIDDEN = 2**30 / 10**9 - 1  # 7.3741824 % native OP


def test_plan_is_a_registered_command() -> None:
    assert "overprov.plan.cli" in cli.COMMAND_MODULES


def test_plan_json_worked_by_hand(overprov_cli) -> None:
    rc, out, err = overprov_cli(
        "plan",
        "--capacity", "1000GB",
        "--pe-cycles", "3000",
        "--policy", "random",
        "--extra-op", "0,20",
        "--daily-writes", "100GB",
        "--json", "-",
    )  # fmt: skip
    assert rc == 0, err
    plan = json.loads(out)
    t = 1000e9 * (1 + HIDDEN)  # physical NAND: 1,073,741,824,000 bytes
    assert plan["physical_bytes"] == pytest.approx(t)
    assert plan["nand_write_budget_bytes"] == pytest.approx(t * 3000)
    row0, row20 = plan["rows"]
    # X = 0: U = C, rho = 7.3741824 %, WAF = 1.0737.../0.0737... = 14.5609
    assert row0["rho"] == pytest.approx(HIDDEN)
    assert row0["waf"] == pytest.approx((1 + HIDDEN) / HIDDEN)
    # TBW = 3000 × (T − U) = 3000 × 73,741,824,000 = 2.21225472e14 bytes
    assert row0["tbw_bytes"] == pytest.approx(3000 * (t - 1000e9))
    assert row0["dwpd"] == pytest.approx(2.21225472e14 / (1000e9 * 365 * 5))
    assert row0["years"] == pytest.approx(2.21225472e14 / (100e9 * 365))
    # X = 20 %: U = 800 GB, rho = T/U − 1 = 34.2177 %, TBW = 3000 × (T − 800 GB)
    assert row20["user_bytes"] == pytest.approx(800e9)
    assert row20["rho"] == pytest.approx(t / 800e9 - 1)
    assert row20["tbw_bytes"] == pytest.approx(3000 * (t - 800e9))
    assert row20["dwpd"] == pytest.approx(3000 * (t - 800e9) / (800e9 * 365 * 5))


def test_plan_solves_for_a_dwpd_target(overprov_cli) -> None:
    # random victim: DWPD = 3000·(T − U) / (U·365·5) = 0.5 when T/U − 1 = 0.5·1825/3000,
    # i.e. U = T / 1.304166..., X = 1 − U/C = 17.67 %, rounded up to 0.1 %: 17.7 %
    rc, out, err = overprov_cli(
        "plan", "--capacity", "1000GB", "--pe-cycles", "3000", "--policy", "random",
        "--target-dwpd", "0.5", "--json", "-",
    )  # fmt: skip
    assert rc == 0, err
    plan = json.loads(out)
    exact = 1 - (1 + HIDDEN) / (1 + 0.5 * 1825 / 3000)
    assert plan["target_dwpd_extra_op_percent"] / 100 == pytest.approx(
        math.ceil(exact * 1000) / 1000
    )
    solved = [r for r in plan["rows"] if r["marks"]]
    assert len(solved) == 1 and solved[0]["dwpd"] >= 0.5


def test_plan_text_for_a_use_case_and_years_target(overprov_cli) -> None:
    rc, out, err = overprov_cli(
        "plan", "--capacity", "960GB", "--nand", "tlc", "--daily-writes", "500GB",
        "--use-case", "database", "--target-years", "5",
    )  # fmt: skip
    assert rc == 0, err
    text = " ".join(out.split())
    assert "total OP ρ = (T − U)/U" in text
    assert "TLC, assumed 1,000 P/E cycles" in text
    assert "greedy GC, mean-field model (Bux & Iliadis 2010), 256 pages per block" in text
    assert "30 % extra OP (docs/concepts.md" in text
    assert "reference for business-critical database" in text
    # the greedy WAF at 0 % extra OP is the model's at rho = 7.37 %, b = 256
    waf0 = models.waf_greedy(HIDDEN, 256)
    assert f"7.37% {waf0:6.3f}".replace("  ", " ") in text
    # the solved OP meets 5 years and 0.1 % less would not (years grow with OP)
    line = next(ln for ln in out.splitlines() if "smallest OP for 5 years" in ln)
    x = float(line.split("%")[0]) / 100
    budget = 960e9 * (1 + HIDDEN) * 1000

    def years(extra: float) -> float:
        rho = (1 + HIDDEN) / (1 - extra) - 1
        return budget / models.waf_greedy(rho, 256) / (500e9 * 365)

    assert years(x) >= 5 > years(x - 0.001)
    assert f"Target 5 years: {x * 100:.1f} % extra OP or more" in text


def test_plan_rated_tbw_is_kept_at_the_native_op(overprov_cli) -> None:
    rc, out, _ = overprov_cli(
        "plan", "--capacity", "960GB", "--rated-tbw", "1752TB", "--extra-op", "0,28", "--json", "-",
    )  # fmt: skip
    assert rc == 0
    rows = json.loads(out)["rows"]
    assert rows[0]["tbw_bytes"] == pytest.approx(1752e12)
    assert rows[1]["tbw_bytes"] == pytest.approx(1752e12 * rows[0]["waf"] / rows[1]["waf"])


def test_plan_unreachable_target_exits_3(overprov_cli) -> None:
    rc, out, _ = overprov_cli(
        "plan", "--capacity", "960GB", "--nand", "qlc", "--daily-writes", "10TB",
        "--target-years", "5",
    )  # fmt: skip
    assert rc == 3  # the plan is printed; no OP level reaches the target
    assert "not reachable with up to 90 % extra OP" in out


@pytest.mark.parametrize(
    "args, named",
    [
        (["--capacity", "960GB", "--daily-writes", "5XB"], "--daily-writes"),
        (["--capacity", "960GB", "--target-years", "5"], "--target-years needs --daily-writes"),
        (["--capacity", "lots"], "capacity"),
        (["--capacity", "960GB", "--extra-op", "0,95"], "--extra-op"),
        (["--capacity", "960GB", "--rated-tbw", "-3TB"], "--rated-tbw"),
        (["--capacity", "960GB", "--native-op", "0"], "--native-op"),
    ],
)
def test_plan_bad_input_names_the_option(overprov_cli, args: list[str], named: str) -> None:
    rc, out, err = overprov_cli("plan", *args)
    assert rc == 2 and out == ""
    assert "overprov plan: " in err and named in err


def test_plan_help_defines_its_terms(overprov_cli) -> None:
    rc, out, _ = overprov_cli("plan", "--help")
    assert rc == 0
    text = " ".join(out.split())
    assert "ρ = (T−U)/U" in text
    assert "DWPD = TBW / (U × 365 × years)" in text
    assert "GB/TB are decimal" in text
    assert "file-server 10 %" in text


def test_plan_target_iops_without_a_trace_says_which_commands_answer_it(overprov_cli):
    """ "How much OP does my 1 TB drive need for 20k IOPS?" asked of plan: the refusal says
    where that is answered (it said only that --target-iops needs --trace)."""
    rc, _, err = overprov_cli("plan", "--capacity", "1TB", "--target-iops", "20000")
    assert rc == 2
    assert err.startswith("overprov plan: --target-iops: only with --trace FILE"), err
    for command in ("overprov profile DEVICE --target-iops N", "overprov calibrate DEVICE"):
        assert command in err
    assert len(err.strip().splitlines()) == 1


def test_plan_daily_writes_without_a_unit_is_refused_as_a_forgotten_unit(overprov_cli):
    """`--daily-writes 500` was 500 bytes a day, planned as such (0.00 drive writes a day)."""
    rc, out, err = overprov_cli("plan", "--capacity", "960GB", "--daily-writes", "500")
    assert (rc, out) == (2, "")
    assert "--daily-writes: '500' is 500 bytes, less than 1 MB: give it with its unit" in err
    rc, _, err = overprov_cli("plan", "--capacity", "960GB", "--daily-writes", "500GB")
    assert rc == 0, err
