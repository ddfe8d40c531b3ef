"""A flag that would be ignored, or that contradicts another, is refused by name (exit 2):
nothing given on the command line is silently dropped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TRACE = Path(__file__).parent / "data" / "traces" / "fio-randrw.iolog"


#: (command line, the option its refusal names): each would have run with a flag dropped.
IGNORED = [
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
    # the advertised capacity means something only to --extra-op
    (
        ["simulate", "--user-bytes", "4G", "--advertised", "16G", "--rho", "0.2", "--check"],
        "--advertised",
    ),  # fmt: skip
    (
        [
            "simulate",
            "--physical-bytes",
            "20G",
            "--advertised",
            "16G",
            "--rho",
            "0.1",
            "--check",
        ],
        "--advertised",
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
]


@pytest.mark.parametrize(("argv", "named"), IGNORED)
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
        # the same words but for the sentence on a resumed run, which names the command's own
        seen[name] = tuple(
            (
                actions[d].option_strings,
                re.sub(r"; a resumed \w+ asks again [^(]*", " ", actions[d].help),
                actions[d].metavar,
            )
            for d in ("target", "allow_hdd", "confirm")
        )
        assert actions["confirm"].option_strings == [CONFIRM_FLAG]
    assert seen["profile"] == seen["calibrate"] == seen["qualify"]


#: simulate options that do not set one config field: outputs and run control, the sources of
#: the config (preset, file, trace), and the flags with rules of their own (the OP sweep, the
#: workload's shape, the host layer, the placement ranges).
SIMULATE_OTHER = {
    "help", "demo", "config", "out", "json", "no_progress", "check", "force", "jobs",
    "dask_scheduler", "preset", "scale", "timed", "series", "rho", "op", "extra_op",
    "workload", "hot", "zones", "zipf_theta", "numjobs", "raid", "members", "chunk_bytes",
    "trace", "trace_format", "trace_fold", "trace_device", "trace_time_scale", "trace_repeat",
    "trace_warmup_passes", "skip_bad_lines", "yes", "fdp_ranges", "qd",
}  # fmt: skip


def test_every_simulate_flag_is_a_row_or_has_a_rule(command_parsers):
    """A flag in neither the table nor the rules above would parse and be ignored."""
    from overprov.simulate.run_configs import FLAG_FIELDS

    rows = {dest for dest, _ in FLAG_FIELDS}
    dests = {a.dest for a in command_parsers["simulate"]._actions}
    assert dests - rows - SIMULATE_OTHER == set()
    assert rows <= dests  # no row for a flag that is gone


def test_each_row_sets_its_field(command_parsers):
    from overprov.simulate import run_configs as simulate

    argv = ["simulate", "--page-size", "16k", "--pages-per-block", "64", "--physical-blocks",
            "100", "--user-pages", "5000", "--policy", "fifo", "--d", "3", "--gc-free-blocks",
            "2", "--gc-frontier", "shared", "--gc-trigger", "per-write", "--streams", "workload",
            "--wear-dynamic", "--static-wl", "10", "--random-map", "--span", "50%", "--read-pct",
            "10", "--trim-pct", "5", "--bs", "8k", "--bssplit", "4k/50:8k/50", "--precondition",
            "none", "--drive-writes", "2", "--warmup", "1", "--interval-pct", "5", "--seed", "3",
            "--qd", "4", "--open-iops", "100", "--write-through", "--duration", "1min",
            "--interval-s", "2", "--physical-bytes", "1G", "--advertised", "1G",
            "--user-bytes", "1G", "--fdp", "--fdp-isolation", "persistently-isolated",
            "--zones-scattered"]  # fmt: skip
    args = command_parsers["simulate"].parse_args(argv[1:])
    over = simulate.flag_overrides(args)
    for dest, path in simulate.FLAG_FIELDS:
        node = over
        for key in path:
            node = node[key]
        assert node == getattr(args, dest), dest
    assert over["timing"]["enabled"] and over["timing"]["host"]["mode"] == "open"
    assert over["timing"]["duration_s"] == 60 and over["workload"]["request_bytes"] == 8192


@pytest.mark.parametrize(
    ("command", "option", "field"),
    [
        ("simulate", "--policy", "ftl.policy"),
        ("simulate", "--gc-frontier", "ftl.gc_frontier"),
        ("simulate", "--gc-trigger", "ftl.gc_trigger"),
        ("simulate", "--streams", "ftl.host_streams"),
        ("simulate", "--fdp-isolation", "placement.isolation"),
        ("simulate", "--workload", "workload.pattern"),
        ("calibrate", "--workload", "workload.pattern"),
        ("simulate", "--precondition", "precondition.kind"),
        ("simulate", "--trace-format", "trace.format"),
        ("plan", "--trace-format", "trace.format"),
    ],
)
def test_enum_choices_come_from_the_core(command_parsers, command, option, field):
    """The names are the Rust enums' (serde's spelling), not a copy in Python."""
    from overprov import _core

    action = next(a for a in command_parsers[command]._actions if option in a.option_strings)
    assert list(action.choices) == _core.choices()[field]


def test_core_choices_are_the_names_the_core_reads():
    from overprov import _core, engine
    from overprov.errors import ConfigError

    for field, names in _core.choices().items():
        section, key = field.split(".")
        if section == "trace":
            continue  # a trace needs a file; test_simulate_trace reads each format
        for name in names:
            try:
                engine.validate({section: {key: name}})
            except ConfigError as exc:  # another field it needs (a zoned pattern's zones)
                assert "unknown" not in str(exc), (field, name, exc)
        with pytest.raises(ConfigError, match=f"{field}: unknown"):
            engine.validate({section: {key: "nonesuch"}})
