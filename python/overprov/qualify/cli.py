"""``overprov qualify TARGET``: is this drive fit for the job? (docs/qualify.md)"""

from __future__ import annotations

import argparse
import re
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from overprov import units
from overprov.errors import ConfigError
from overprov.options import (
    add_json_option,
    add_report_option,
    add_size_option,
    add_target_options,
)
from overprov.outputs import (
    check_json_output,
    check_no_other_run,
    check_output_dir,
    check_report_page,
    command_text,
    hold_out_dir,
    write_json,
)
from overprov.profile import dry_run
from overprov.qualify import resume, session, verdict
from overprov.qualify.bench import QualifySettings
from overprov.units import parse_duration_seconds


def _arg(parse: Any) -> Any:
    def convert(text: str) -> Any:
        try:
            return parse(text)
        except ConfigError as exc:  # argparse names the option itself: not twice
            raise argparse.ArgumentTypeError(re.sub(r"^--[a-z-]+: ", "", str(exc))) from None

    return convert


def _seconds_list(text: str) -> tuple[float, ...]:
    """'5,10,1min' → (5.0, 10.0, 60.0): durations (units.parse_duration_seconds)."""
    values = tuple(
        parse_duration_seconds(x.strip(), "--idle-waits") for x in text.split(",") if x.strip()
    )
    if not values:
        raise ConfigError(f"--idle-waits: no idle time given (e.g. 5,10,15,25,50), got {text!r}")
    return values


def register(subparsers: Any) -> None:
    d = QualifySettings()
    p = subparsers.add_parser(
        "qualify",
        help="is this drive fit for the job? cache (power-loss protection), TRIM and idle "
        "recovery, write cliff, latency outliers",
        description=(
            "Qualify a drive: a cache-device test (write-back against write-through, which "
            "shows whether flushes wait for NAND), TRIM recovery, host idle recovery, the write "
            "cliff and IO consistency; one verdict per test with the figures behind it. Real "
            "targets run fio and THIS DESTROYS ALL DATA ON THE TARGET; the same safety rules as "
            "profile apply (docs/safety.md)."
        ),
    )
    add_target_options(p, optional=True, resumed="qualification")
    p.add_argument(
        "--tests",
        type=_arg(session.parse_tests),
        default=list(session.TESTS),
        metavar="LIST",
        help=f"comma-separated, from {','.join(session.TESTS)} (default: all)",
    )
    add_json_option(p, "the verdicts, each with its figures")
    p.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="folder for qualify.json, the HTML report and fio's job files and outputs "
        "(default for a real target: overprov-qualify-TIME; a simulated drive writes no "
        "folder unless given one)",
    )
    add_size_option(p)
    p.add_argument(
        "--bs",
        type=units.BLOCK_SIZE,
        default=d.bs_bytes,
        metavar="SIZE",
        help="block size (default 4k)",
    )
    p.add_argument(
        "--qd", type=units.COUNT, default=d.qd, metavar="N", help=f"queue depth (default {d.qd})"
    )
    p.add_argument(
        "--read-percent",
        type=units.Arg(units.parse_percent, lo=0, hi=100, integer=True),
        default=d.read_percent,
        metavar="P",
        help=f"cache test: share of reads (default {d.read_percent})",
    )
    p.add_argument(
        "--round-seconds",
        type=units.WHOLE_SECONDS,
        default=d.round_seconds,
        metavar="TIME",
        help=f"length of one round, simulated seconds on sim: (default {d.round_seconds})",
    )
    p.add_argument(
        "--steady-drive-writes",
        type=units.POSITIVE,
        default=d.steady_drive_writes,
        metavar="DW",
        help=f"random writes before a state counts as steady "
        f"(default {d.steady_drive_writes:g} drive writes)",
    )
    p.add_argument(
        "--max-rounds",
        type=units.COUNT,
        default=d.max_rounds,
        metavar="N",
        help=f"at most N rounds to write that much (default {d.max_rounds})",
    )
    p.add_argument(
        "--discard-percent",
        type=units.PERCENT_POSITIVE,
        default=d.discard_percent,
        metavar="P",
        help=f"TRIM recovery: share of the span discarded (default {d.discard_percent:g})",
    )
    p.add_argument(
        "--idle-waits",
        type=_arg(_seconds_list),
        default=d.idle_waits_s,
        metavar="LIST",
        help="idle recovery: host idle times before the bursts, comma-separated durations "
        f"(default SNIA's wait states: {','.join(f'{w:g}' for w in d.idle_waits_s)})",
    )
    p.add_argument(
        "--idle-burst-seconds",
        type=units.WHOLE_SECONDS,
        default=d.idle_burst_seconds,
        metavar="TIME",
        help="idle recovery: random writes after each idle time "
        f"(default {d.idle_burst_seconds} s)",
    )
    p.add_argument(
        "--idle-repeats",
        type=units.COUNT,
        default=d.idle_repeats,
        metavar="N",
        help=f"idle recovery: bursts per idle time (default {d.idle_repeats}; SNIA runs 360)",
    )
    p.add_argument(
        "--cliff-drive-writes",
        type=units.POSITIVE,
        default=d.cliff_drive_writes,
        metavar="DW",
        help="write cliff: random writes from fresh "
        f"(default {d.cliff_drive_writes:g} drive writes)",
    )
    p.add_argument(
        "--tail-ratio",
        type=units.Arg(units.parse_number, lo=1.0),
        default=d.tail_ratio,
        metavar="R",
        help=f"IO consistency: p99.99 at most R × p99 (default {d.tail_ratio:g}, our choice: no "
        "standard sets one: docs/qualify.md)",
    )
    p.add_argument(
        "--qos-us",
        type=units.POSITIVE,
        default=None,
        metavar="US",
        help="IO consistency: also hold p99.99 to this limit in µs, the drive's data-sheet "
        "99.99%% QoS figure (measured at the same queue depth, --qd)",
    )
    add_report_option(p)
    dry_run.add_option(p, "tests")
    p.add_argument(
        "--resume",
        type=Path,
        default=None,
        metavar="DIR",
        help="run the tests an interrupted qualification in DIR did not finish (its "
        "qualify.json lists them as pending), on the same target with the same settings; the "
        "finished tests are kept",
    )
    p.set_defaults(func=run, _parser=p)


def _settings(args: argparse.Namespace) -> QualifySettings:
    return QualifySettings(
        bs_bytes=args.bs,
        qd=args.qd,
        read_percent=args.read_percent,
        round_seconds=args.round_seconds,
        steady_drive_writes=args.steady_drive_writes,
        max_rounds=args.max_rounds,
        discard_percent=args.discard_percent,
        idle_waits_s=tuple(args.idle_waits),
        idle_burst_seconds=args.idle_burst_seconds,
        idle_repeats=args.idle_repeats,
        cliff_drive_writes=args.cliff_drive_writes,
        tail_ratio=args.tail_ratio,
        qos_p99_99_us=args.qos_us,
    )


def run(args: argparse.Namespace) -> int:
    kept_before: list[verdict.Verdict] = []
    stored_target = None
    if args.resume is not None:
        if args.dry_run:
            raise ConfigError(
                "--dry-run: give a TARGET (a resumed qualification runs its pending tests)"
            )
        stored = resume.load(args.resume)
        args = resume.resumed_args(args, args._parser, stored)
        kept_before, stored_target = stored.kept, stored.target
    elif not args.target:
        raise ConfigError("TARGET: give the drive to qualify, or --resume DIR")
    s = _settings(args)
    s.validate()
    sim = args.target.startswith("sim:")
    if sim and args.size is not None:
        raise ConfigError(
            f"--size: a simulated drive is sized by its scale, e.g. "
            f"{args.target.split('@')[0]}@2GiB"
        )
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    out = args.out or Path(f"overprov-qualify-{stamp}")
    folder = args.out is not None or not sim
    # every output is checked before a test writes a byte to the drive
    check_json_output(args.json)
    if args.dry_run:
        dry_run.refuse_json(args.json)
    if folder:
        check_output_dir(out, "--out")
        check_no_other_run(out, "qualify")
        if not args.no_report:
            check_report_page(out)
        if args.resume is None and (out / "qualify.json").exists():  # another run's results
            raise ConfigError(
                f"--out: {out} already holds a qualification (qualify.json), which this run "
                "would replace; choose another folder"
            )
    to_stdout = args.json == "-"
    say_file = sys.stderr if to_stdout else sys.stdout
    for line in session.plan_lines(args.target, args.tests, s):
        print(line, file=say_file)
    options: dict[str, Any] = {}
    if not sim:
        options = {
            "size_bytes": args.size,
            "bs_bytes": s.bs_bytes,
            "confirm": list(args.confirm),
            "allow_hdd": args.allow_hdd,
        }
    if args.dry_run:
        print(dry_run.qualify_text(args.target, args.tests, s, options), file=say_file)
        return 0
    if folder:
        hold_out_dir(out, command_text(args))
    summary = _target_summary

    def keep(identity: dict[str, Any], done: list[verdict.Verdict], pending: list[str]) -> None:
        """Each finished test is written at once (qualify.json, and --json FILE), so a later
        failure loses nothing."""
        doc = verdict.document(
            summary(identity),
            s.to_dict(),
            kept_before + done,
            getattr(args, "command_line", []),
            pending,
        )
        if folder:
            write_json(doc, out / "qualify.json")
        if args.json and not to_stdout:
            write_json(doc, args.json)

    left = list(args.tests)

    def kept(identity: dict[str, Any], done: list[verdict.Verdict], pending: list[str]) -> None:
        keep(identity, done, pending)
        left[:] = pending

    try:
        identity, verdicts = session.run(
            args.target,
            args.tests,
            s,
            out_dir=out,
            target_options=options,
            say=lambda line: print(line, file=sys.stderr),
            on_result=kept,
            stored_target=stored_target,
        )
    except KeyboardInterrupt:
        print(
            interrupted_text(args, out if folder else None, left, len(kept_before)),
            file=sys.stderr,
        )
        raise
    verdicts = kept_before + verdicts
    doc = verdict.document(
        _target_summary(identity), s.to_dict(), verdicts, getattr(args, "command_line", [])
    )
    for v in verdicts:
        print(f"{v.test:<14} {v.verdict.upper():<12} {v.finding}", file=say_file)
    print(f"summary: {doc['summary']['line']}", file=say_file)
    if not sim:
        print(f"fio job files and outputs in {out / 'fio'}", file=say_file)
    if args.json:
        write_json(doc, args.json)
    if folder:
        _write_folder(doc, out, say_file, report=not args.no_report)
    return 1 if doc["summary"]["failed"] else 0


def interrupted_text(
    args: argparse.Namespace, folder: Path | None, left: list[str], kept: int
) -> str:
    """What an interrupted qualification kept, and how to run the tests it did not finish
    (``left``: the one interrupted, then those not started; ``kept``: tests a resumed run
    found finished)."""
    done = [t for t in args.tests if t not in left]
    if not done and not kept:
        return f"qualify: interrupted during {left[0]}: no test finished; run the command again"
    where = [str(folder / "qualify.json")] if folder is not None else []
    where += [str(args.json)] if args.json and args.json != "-" else []
    what = f"{', '.join(done)} finished" if done else "no other test finished"
    said = f"kept in {' and '.join(where)}" if where else "not kept (no --out or --json FILE)"
    from overprov.blockdev import CONFIRM_FLAG

    # the confirmations are asked again, not stored (resume.py): the resume needs them
    again = "".join(f" {CONFIRM_FLAG} {c}" for c in getattr(args, "confirm", None) or [])
    again += " --allow-hdd" if getattr(args, "allow_hdd", False) else ""
    rest = (
        f"continue with: overprov qualify --resume {folder}{again}"
        if folder is not None
        else f"to run the tests left, the same command with --tests {','.join(left)}"
    )
    return f"qualify: interrupted during {left[0]}: {what}, {said}; {rest}"


def _write_folder(doc: dict[str, Any], out: Path, say: Any, *, report: bool = True) -> None:
    """``qualify.json`` and the HTML report (``overprov report``, unless ``report`` is False) in
    the output folder; the verdicts stand either way, so a report that fails is said, not
    fatal."""
    write_json(doc, out / "qualify.json")
    if report:
        from overprov.report import write_report_beside

        write_report_beside(out, say)


def _target_summary(identity: dict[str, Any]) -> dict[str, Any]:
    return {
        "spec": identity["spec"],
        "kind": identity["kind"],
        "capacity_bytes": identity["capacity_bytes"],
        "members": identity.get("members", []),
    }
