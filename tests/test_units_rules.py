"""One rule per kind of value in every command (``overprov.units``; docs/cli.md): the same
text means the same value wherever it is typed, and a value that cannot mean anything (NaN,
infinity, a negative rate, ``28%`` for a fraction) is refused naming its option."""

from __future__ import annotations

import argparse

import pytest
from overprov import cli, units


def parse(*argv: str) -> argparse.Namespace:
    return cli.build_parser().parse_args(list(argv))


def refused(
    capsys: pytest.CaptureFixture[str], *argv: str, parser: argparse.ArgumentParser | None = None
) -> str:
    """The argparse error of ``overprov ARGV`` (exit 2); the message it printed. ``parser``:
    ``cli.build_parser()``'s parser, built once by a test that parses many command lines
    (25 ms a build; argparse keeps no state between two parses of one parser)."""
    with pytest.raises(SystemExit) as exc:
        (parser or cli.build_parser()).parse_args(list(argv))
    assert exc.value.code == 2
    return capsys.readouterr().err


#: A positional each command needs to reach its options (nothing is run: parsing only).
POSITIONAL = {
    "capacity": [],
    "profile": ["/nonexistent/x"],
    "calibrate": [],
    "qualify": ["sim:consumer-tlc-sata"],
    "report": ["/nonexistent/x"],
    "apply": ["/nonexistent/x", "--extra-op", "10"],
    "status": ["/nonexistent/x"],
}


def numeric_options(parsers: dict[str, argparse.ArgumentParser]) -> list[tuple[str, str]]:
    """(command, option) of every option read by one of the units rules."""
    out = []
    for name, sp in parsers.items():
        for action in sp._actions:
            if action.option_strings and isinstance(action.type, units.Arg):
                out.append((name, action.option_strings[0]))
    return out


def test_no_option_reads_a_number_its_own_way(command_parsers):
    """Every number goes through a units rule: argparse's float() takes 'nan' and 'inf', its
    int() takes '-5' for a queue depth."""
    own = [
        f"{name} {action.option_strings[0]}"
        for name, sp in command_parsers.items()
        for action in sp._actions
        if action.option_strings and action.type in (float, int) and not action.choices
    ]
    assert own == []
    assert len(numeric_options(command_parsers)) > 60


@pytest.mark.parametrize("bad", ["nan", "inf", "-inf", "NaN%"])
def test_nan_and_infinity_refused_by_every_numeric_option(capsys, command_parsers, bad):
    parser = cli.build_parser()
    for name, option in numeric_options(command_parsers):
        err = refused(capsys, name, *POSITIONAL.get(name, []), option, bad, parser=parser)
        assert f"argument {option}: " in err, (name, option, err)


@pytest.mark.parametrize(
    ("argv", "dest", "want"),
    [
        (["simulate", "--span", "20%"], "span", 20.0),
        (["simulate", "--read-pct", "30%"], "read_pct", 30.0),
        (["simulate", "--trim-pct", "5%"], "trim_pct", 5.0),
        (["simulate", "--interval-pct", "10%"], "interval_pct", 10.0),
        (["plan", "--native-op", "7.37%"], "native_op", 7.37),
        (["qualify", "sim:x", "--read-percent", "30%"], "read_percent", 30),
        (["qualify", "sim:x", "--discard-percent", "50%"], "discard_percent", 50.0),
    ],
)
def test_percentages_with_or_without_the_sign(argv, dest, want):
    assert getattr(parse(*argv), dest) == want
    bare = [a.removesuffix("%") for a in argv]
    assert getattr(parse(*bare), dest) == want


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate"],
        ["plan"],
        ["profile", "/tmp/x.img"],
        ["calibrate"],
    ],
)
def test_extra_op_is_one_list_of_percents_everywhere(argv):
    assert parse(*argv, "--extra-op", "0,10%,20").extra_op == [0.0, 10.0, 20.0]


def test_extra_op_refused_alike(capsys):
    for argv in (["simulate"], ["plan"], ["profile", "/tmp/x.img"], ["calibrate"]):
        assert "argument --extra-op: must be" in refused(capsys, *argv, "--extra-op", "0,-10")
        assert "argument --extra-op: expected a percentage" in refused(
            capsys, *argv, "--extra-op", "0,ten"
        )


def test_rho_is_a_fraction_and_refuses_percent(capsys):
    assert parse("simulate", "--rho", "0.07,0.28").rho == [0.07, 0.28]
    err = refused(capsys, "simulate", "--rho", "28%")
    assert "argument --rho: a fraction, not a percentage: 0.28 means 28 %" in err
    assert "argument --rho: must be > 0" in refused(capsys, "simulate", "--rho", "0")


def test_sizes_with_units_or_bare_bytes_in_calibrate():
    args = parse("calibrate", "--advertised", "912678912", "--physical", "1TiB")
    assert args.advertised == 912_678_912  # bytes, as every size (it read GB)
    assert args.physical == 2**40
    assert parse("calibrate", "--advertised", "512GB").advertised == 512 * 10**9


@pytest.mark.parametrize(
    ("argv", "dest", "want"),
    [
        (["profile", "/tmp/x.img", "--round-seconds", "1min"], "round_seconds", 60),
        (["profile", "/tmp/x.img", "--fob-seconds", "2min"], "fob_seconds", 120),
        (["profile", "/tmp/x.img", "--fob-seconds", "0"], "fob_seconds", 0),
        (["qualify", "sim:x", "--round-seconds", "1min"], "round_seconds", 60),
        (["qualify", "sim:x", "--idle-burst-seconds", "90s"], "idle_burst_seconds", 90),
        (["simulate", "--duration", "2h"], "duration", 7200.0),
        (["profile", "/tmp/x.img", "--min-phase-writes", "0"], "min_phase_writes", 0.0),
    ],
)
def test_durations_with_units(argv, dest, want):
    assert getattr(parse(*argv), dest) == want


def test_tbw_one_rule_bare_number_is_tb():
    plan = [parse("plan", "--rated-tbw", t).rated_tbw for t in ("600", "600TB", "0.6PB")]
    assert plan == [600e12] * 3  # bytes (a bare 600 was 600 bytes: DWPD 0.00)
    for argv in (["report", "/tmp/x"], ["profile", "/tmp/x.img"]):
        tb = [parse(*argv, "--rated-tbw", t).rated_tbw for t in ("600", "600TB", "0.6PB")]
        assert tb == pytest.approx([600.0] * 3)  # TB (600TB was refused)


def test_tbw_help_states_the_rule(command_parsers):
    for name in ("plan", "report", "profile"):
        text = command_parsers[name].format_help()
        assert "bare number is TB" in " ".join(text.split()), name


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["calibrate", "--points", "0:11000", "--target-iops", "-5"], "--target-iops"),
        (["profile", "/tmp/x.img", "--target-iops", "0"], "--target-iops"),
        (["plan", "--years", "nan"], "--years"),
        (["plan", "--years", "0"], "--years"),
        (["plan", "--trace", "t.txt", "--target-iops", "1000", "--qd", "0"], "--qd"),
        (["simulate", "--qd", "0"], "--qd"),
        (["simulate", "--drive-writes", "-1"], "--drive-writes"),
        (["qualify", "sim:x", "--tail-ratio", "0.5"], "--tail-ratio"),
        (["calibrate", "--fob-iops", "nan"], "--fob-iops"),
        (["calibrate", "--extra-op", "100"], "--extra-op"),  # an internal error (exit 70)
        (["profile", "/tmp/x.img", "--extra-op", "0,100"], "--extra-op"),
    ],
)
def test_meaningless_numbers_refused(capsys, argv, option):
    assert f"argument {option}: " in refused(capsys, *argv)


def test_points_refuse_nan_naming_the_option(overprov_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a fit that ran would write its folder here
    rc, _, err = overprov_cli("calibrate", "--points", "0:nan,20:200")
    assert rc == 2 and "--points: expected a finite number, got 'nan'" in err


def test_every_rule_has_a_library_error_naming_the_option():
    from overprov.errors import ConfigError

    for parse_fn, text in (
        (units.parse_number, "nan"),
        (units.parse_percent, "x%"),
        (units.parse_percent_list, "1,,x"),
        (units.parse_fraction_list, "28%"),
        (units.parse_tbw_bytes, "600 furlongs"),
        (units.parse_duration_seconds, "1 fortnight"),
    ):
        with pytest.raises(ConfigError, match="^--opt: "):
            parse_fn(text, "--opt")


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["calibrate", "--points", "0:1e308,20:200"], "--points"),  # a ZeroDivisionError (70)
        (["calibrate", "--waf-points", "0:1e300"], "--waf-points"),
        (["calibrate", "--points", "0:1000", "--fob-iops", "1e300"], "--fob-iops"),
    ],
)
def test_figures_past_any_drive_refused(overprov_cli, tmp_path, monkeypatch, argv, option):
    monkeypatch.chdir(tmp_path)  # a fit that ran would write its folder here
    rc, _, err = overprov_cli(*argv)
    # WAF is at least 1 (a drive writes at least what the host writes): "[1, "
    assert rc == 2 and option in err.splitlines()[-1] and "must be in " in err, err
    assert ("must be in [1, " if option == "--waf-points" else "must be in (0, ") in err, err
