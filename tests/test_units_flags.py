"""A flag that would be ignored, or that contradicts another, is refused by name (exit 2):
nothing given on the command line is silently dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

TRACE = Path(__file__).parent / "data" / "traces" / "fio-randrw.iolog"


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        # --demo is a fixed sweep: it would simulate its own drive at its own OP levels
        (["simulate", "--demo", "--rho", "0.1", "--check"], "--rho"),
        (["simulate", "--demo", "--hot", "80/20", "--check"], "--hot"),
        (["simulate", "--demo", "--preset", "consumer-tlc-sata", "--check"], "--preset"),
        # --extra-op sets U = (1 − X)·advertised: a user size beside it would be dropped
        (
            [
                "simulate",
                "--advertised",
                "16G",
                "--user-bytes",
                "4G",
                "--extra-op",
                "10",
                "--check",
            ],
            "--user-bytes",
        ),  # fmt: skip
        (
            [
                "simulate",
                "--advertised",
                "16G",
                "--user-pages",
                "1000",
                "--extra-op",
                "10",
                "--check",
            ],
            "--user-pages",
        ),  # fmt: skip
        (
            [
                "simulate",
                "--physical-bytes",
                "16G",
                "--user-bytes",
                "8G",
                "--rho",
                "0.2",
                "--check",
            ],
            "--user-bytes",
        ),  # fmt: skip
        # a shape flag belongs to one pattern
        (["simulate", "--workload", "uniform", "--hot", "80/20", "--check"], "--hot"),
        (["simulate", "--workload", "jesd219", "--zones", "50/5:50/95", "--check"], "--zones"),
        (["simulate", "--workload", "hot-cold", "--zipf-theta", "0.9", "--check"], "--zipf-theta"),
        (["simulate", "--hot", "80/20", "--zones", "50/5:50/95", "--check"], "--zones"),
        (
            ["calibrate", "--points", "0:1000", "--workload", "zipf", "--zones", "50/50:50/50"],
            "--zones",
        ),  # fmt: skip
        # a queue depth of 0 ran QD32
        (
            [
                "plan",
                "--trace",
                str(TRACE),
                "--preset",
                "consumer-tlc-sata",
                "--target-iops",
                "1000",
                "--qd",
                "0",
            ],
            "--qd",
        ),  # fmt: skip
        # a simulated drive runs no fio
        (["profile", "sim:consumer-tlc-sata@1GiB", "--ioengine", "nonesuch"], "--ioengine"),
    ],
)
def test_ignored_or_conflicting_flag_refused_by_name(overprov_cli, tmp_path, monkeypatch, argv,
                                                     named):  # fmt: skip
    monkeypatch.chdir(tmp_path)  # a command that ran would write here, not in the checkout
    rc, out, err = overprov_cli(*argv)
    assert rc == 2, (rc, out[-300:], err[-300:])
    assert named in err.splitlines()[-1], err


def test_the_same_flags_alone_still_run(overprov_cli):
    """The refusals are about the combination: each flag alone is accepted."""
    for argv in (
        ["simulate", "--workload", "hot-cold", "--hot", "80/20", "--check"],
        ["simulate", "--user-bytes", "4G", "--rho", "0.2", "--check"],
        ["simulate", "--demo", "--check"],
    ):
        rc, _, err = overprov_cli(*argv)
        assert rc == 0, (argv, err)


def test_target_options_declared_once(command_parsers):
    """profile, calibrate and qualify take TARGET, --allow-hdd and the confirmation flag from
    one declaration (options.add_target_options): the same words, the same destination."""
    from overprov.blockdev import CONFIRM_FLAG

    seen = {}
    for name in ("profile", "calibrate", "qualify"):
        actions = {a.dest: a for a in command_parsers[name]._actions}
        seen[name] = tuple(
            (actions[d].option_strings, actions[d].help, actions[d].metavar)
            for d in ("target", "allow_hdd", "confirm")
        )
        assert actions["confirm"].option_strings == [CONFIRM_FLAG]
    assert seen["profile"] == seen["calibrate"] == seen["qualify"]
