"""``overprov profile``: how much OP does this drive need to sustain N IOPS?"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from overprov import results as res
from overprov import units
from overprov.errors import EXIT_NO_ANSWER, ConfigError, OverprovError
from overprov.options import (
    add_json_option,
    add_report_option,
    add_retired_op,
    add_size_option,
    add_target_options,
    text_stream,
)
from overprov.outputs import (
    check_json_output,
    check_no_other_run,
    check_output_dir,
    check_report_page,
    discard_created_out_dir,
    write_json,
)
from overprov.placement_options import parse_ranges
from overprov.profile import dry_run, no_ftl
from overprov.profile.estimate import drive_facts
from overprov.profile.fdp_fio import plan_lines, refuse_device_run
from overprov.profile.settings import ProfileSettings, op_label
from overprov.units import human_bytes, plural

if TYPE_CHECKING:
    from overprov.profile.runner import Profile

# argparse dest → ProfileSettings field, for flags that --resume must not contradict
_SETTING_FLAGS = {
    "extra_op": "extra_op_percents",
    "target_iops": "target_iops",
    "min_iops": "min_iops",
    "bs": "bs_bytes",
    "qd": "qd",
    "jobs": "jobs",
    "size": "size_bytes",
    "round_seconds": "round_seconds",
    "max_rounds": "max_rounds",
    "precondition": "precondition",
    "stop_at_target": "stop_at_target",
    "fob_seconds": "fob_seconds",
    "ioengine": "ioengine",
    "rated_tbw": "rated_tbw",
    "min_phase_writes": "min_phase_drive_writes",
    "fdp_ranges": "fdp_ranges",
}


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "profile",
        help="measure steady-state random-write IOPS at several OP levels (real fio)",
        description=(
            "Profile a drive: identify it, measure its initial random-write performance, purge "
            "it, precondition it, then for each OP level discard the last X% of the tested "
            "space and run rounds of random writes on the rest until SNIA steady state. "
            "Writes results.json, a CSV per phase, fio job files and a log to --out. "
            "THIS DESTROYS ALL DATA ON THE TARGET AND WEARS THE DRIVE."
        ),
    )
    add_target_options(p, optional=True, resumed="profile")
    p.add_argument(
        "--extra-op",
        type=units.EXTRA_OP_LIST,
        default=None,
        metavar="LIST",
        help="extra OP levels in %% of the tested capacity (20 or 20%%), ascending "
        "(default 0,10,20,30,40,50,60)",
    )
    add_retired_op(p)
    add_json_option(p, "the final results.json document")
    p.add_argument(
        "--target-iops",
        type=units.POSITIVE,
        default=None,
        metavar="N",
        help="recommend the smallest OP whose steady IOPS meets N",
    )
    p.add_argument(
        "--min-iops",
        type=units.POSITIVE,
        default=None,
        metavar="N",
        help="end a phase early (skipped) when its first 3 rounds average below N",
    )
    p.add_argument(
        "--stop-at-target",
        action="store_true",
        default=None,
        help="end the sweep once a phase meets --target-iops",
    )
    p.add_argument(
        "--bs",
        type=units.BLOCK_SIZE,
        default=None,
        metavar="SIZE",
        help="random-write block size (default 4k)",
    )
    p.add_argument(
        "--qd", type=units.COUNT, default=None, metavar="N", help="queue depth per job (32)"
    )
    p.add_argument(
        "--jobs", type=units.COUNT, default=None, metavar="N", help="fio jobs per member (1)"
    )
    add_size_option(p)
    p.add_argument(
        "--round-seconds",
        type=units.WHOLE_SECONDS,
        default=None,
        metavar="TIME",
        help="length of one round (60; a duration: 90, 90s, 2m, 2min)",
    )
    p.add_argument(
        "--max-rounds",
        type=units.COUNT,
        default=None,
        metavar="N",
        help="give up on steady state after N rounds per phase, counted after the phase "
        "precondition (25; at least 10: the 5-round window and the 5 before it)",
    )
    p.add_argument(
        "--min-phase-writes",
        type=units.NON_NEGATIVE,
        default=None,
        metavar="DW",
        help="drive writes of its span each phase writes before its steady-state window may "
        "count (default: from the span, the OP level and the greedy WAF model; docs/profile.md)",
    )
    p.add_argument(
        "--fob-seconds",
        type=units.Arg(units.parse_duration_seconds, whole=True, allow_zero=True),
        default=None,
        metavar="TIME",
        help="initial (FOB) measurement length (default one round; 0 skips it)",
    )
    p.add_argument(
        "--precondition",
        choices=("seq", "random"),
        default=None,
        help="seq: 2x capacity of 128 KiB sequential writes (default); random: one random-map pass",
    )
    p.add_argument("--ioengine", default=None, metavar="NAME", help="fio ioengine (default libaio)")
    p.add_argument(
        "--fdp-ranges",
        default=None,
        metavar="START-END=ID,..",
        help="NVMe FDP: placement ID (handle index) by LBA range in percent of the tested span, "
        "e.g. 0-5=0,5-100=1; sim: targets simulate a handle per ID; on devices --dry-run "
        "shows fio's FDP options (docs/profile.md)",
    )
    p.add_argument(
        "--rated-tbw",
        type=units.TBW_TB,
        default=None,
        metavar="TB",
        help="rated endurance per drive, to show the share a run uses: TB written (a bare "
        "number is TB: 600 = 600TB; units accepted, e.g. 1.2PB)",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="output folder (default ./overprov-profile-<target name>)",
    )
    p.add_argument(
        "--resume",
        type=Path,
        default=None,
        metavar="DIR",
        help="continue the interrupted profile in DIR; finished phases are kept",
    )
    add_report_option(p)
    dry_run.add_option(p, "profile")
    p.set_defaults(func=run)


def _settings_from_args(args: argparse.Namespace) -> ProfileSettings:
    given = {
        field: getattr(args, dest)
        for dest, field in _SETTING_FLAGS.items()
        if getattr(args, dest) is not None
    }
    return ProfileSettings(**given)


def _default_out(target: str) -> Path:
    first = target.split(",")[0].rstrip("/")
    name = Path(first).name or "target"
    return Path(f"overprov-profile-{name}")


def _check_resume_flags(args: argparse.Namespace, stored: ProfileSettings, spec: str) -> None:
    if args.target is not None and args.target != spec:
        raise ConfigError(f"--resume: the stored profile is of {spec!r}, not {args.target!r}")
    if args.out is not None:
        raise ConfigError("--resume DIR: DIR is the output folder; do not also give --out")
    for dest, field in _SETTING_FLAGS.items():
        value = getattr(args, dest)
        if value is None:
            continue
        old = getattr(stored, field)
        if dest == "extra_op":
            value = [float(v) for v in value]
            old = [float(v) for v in old]
        if value != old:
            raise ConfigError(
                f"--resume: --{dest.replace('_', '-')} {value} differs from the stored run "
                f"({old}); a resumed profile keeps its settings"
            )


def _summary(doc: dict[str, Any], out: Path) -> str:
    lines = [f"profile of {doc['target']['spec']} — {doc['status']}"]
    lines.append(
        f"{'OP':>5}  {'status':<10} {'rounds':>6} {'steady IOPS':>12} {'p99 µs':>9} "
        f"{'DW before window':>16}"
    )
    for p in doc["phases"]:
        lat = (p.get("latency_us") or {}).get("p99")
        iops = p["steady_iops"]
        iops_text = f"{iops:,.0f}" if iops is not None else "—"
        lat_text = f"{lat:,.0f}" if lat is not None else "—"
        before = p.get("written_before_window_drive_writes")
        before_text = f"{before:.2f}" if before is not None else "—"
        lines.append(
            f"{p['extra_op_percent']:>4g}%  {p['status']:<10} {len(p['rounds']):>6} "
            f"{iops_text:>12} {lat_text:>9} {before_text:>16}"
            + (f"  ({p['skip_reason']})" if p["skipped"] else "")
            + host_bound_note(p)
        )
    lines.append(
        "DW before window: drive writes of the phase's span written before its steady-state "
        "window (the phase precondition; results.json phases[].precondition says why)"
    )
    rec = doc.get("recommendation")
    if rec:
        lines.append(f"recommendation: {res.recommendation_text(rec)}")
    if warning := no_ftl.op_warning(doc["target"].get("members") or []):
        lines.append(warning)
    csvs = ", ".join(f"phase-{op_label(p['extra_op_percent'])}.csv" for p in doc["phases"])
    simulated = doc["target"].get("kind") == "sim"
    lines.append(
        f"wrote {human_bytes(doc['totals']['bytes_written'])}"
        f"{' (simulated)' if simulated else ''}; results in {out}/results.json, "
        f"CSV per phase ({csvs})" + ("" if simulated else f", fio job files in {out}/fio/")
    )
    return "\n".join(lines)


def host_bound_note(phase: dict[str, Any]) -> str:
    """For a phase measured while the host held most of the request time on an emulated
    drive (``emulate.host_share.host_bound``): what it says beside the phase, else ""."""
    from overprov.emulate.host_share import host_bound

    share = phase.get("host_share")
    if not host_bound(share):
        return ""
    return (
        f"  (host-bound: the host held {share:.0%} of the window's request time, the "
        "emulated drive the rest: its IOPS are the host's; docs/emulate.md)"
    )


def _after_refusal(exc: Exception, profile: Profile, out: Path, *, resuming: bool) -> None:
    """A run refused or failed before it opened its target (an unconfirmed device or file)
    wrote nothing to it. The folder this command made holds only that failure and would block
    the corrected command, so it goes (``outputs.discard_created_out_dir``: only the run's own
    files, else it stays). A folder kept keeps the refused run's results.json, which the same
    command would refuse: the message says to go ahead with ``--resume`` (docs/profile.md)."""
    written = ("results.json", "profile.log")
    if profile.made_out_dir and discard_created_out_dir(out, written):
        return
    if not resuming and isinstance(exc, OverprovError):
        exc.args = (
            f"{exc} (with --resume {out}: the folder keeps this refused run's results.json, "
            "so the same command would be refused)",
        )


def run(args: argparse.Namespace) -> int:
    from overprov.profile.progress_view import ProfileProgress
    from overprov.profile.runner import Profile

    check_json_output(args.json)
    if args.resume is None:
        check_output_dir(args.out, "--out")
        check_no_other_run(args.out, "profile")  # first: a page there is that run's
        if not args.no_report:
            check_report_page(args.out)
    if args.target and args.target.startswith("sim:") and args.ioengine is not None:
        raise ConfigError("--ioengine: a simulated drive (sim:) runs no fio; leave --ioengine out")
    if args.dry_run:
        if args.resume is not None or not args.target:
            raise ConfigError("--dry-run: give a TARGET (a resumed profile continues its plan)")
        dry_run.refuse_json(args.json)
        settings = _settings_from_args(args)
        settings.validate()  # the plan shown is one the run would accept
        print(profile_dry_run(args.target, settings, list(args.confirm), args.allow_hdd))
        return 0
    view = ProfileProgress()
    if args.resume is not None:
        profile = Profile.resume(
            args.resume,
            confirm=list(args.confirm),
            allow_hdd=args.allow_hdd,
            progress=view,
        )
        _check_resume_flags(args, profile.settings, profile.doc["target"]["spec"])
        out = Path(args.resume)
    else:
        if not args.target:
            raise ConfigError("TARGET: give a block device, a file, or --resume DIR")
        if args.fdp_ranges is not None and not args.target.startswith("sim:"):
            raise refuse_device_run(args.target)
        settings = _settings_from_args(args)
        if not args.target.startswith("sim:"):
            # a mistyped target is refused before the output folder is made (its results
            # would hold the refusal and stand in the way of the corrected command)
            size_given = settings.size_bytes is not None
            dry_run.check_members(args.target, size_given=size_given, bs_bytes=settings.bs_bytes)
        out = args.out or _default_out(args.target)
        profile = Profile.create(
            args.target,
            settings,
            out,
            confirm=list(args.confirm),
            allow_hdd=args.allow_hdd,
            progress=view,
            scale_sim_rounds=True,
        )
    try:
        doc = profile.run()
    except Exception as exc:
        if not profile.doc["target"].get("members"):
            _after_refusal(exc, profile, out, resuming=args.resume is not None)
        raise
    finally:
        view.close()
    text = text_stream(args)
    print(_summary(doc, out), file=text)
    if args.json:
        write_json(doc, args.json)
    # The HTML report (overprov report) beside the results; the data are complete either way,
    # so a report that fails is said, not fatal.
    if not args.no_report:
        from overprov.report import write_report_beside

        write_report_beside(out, text)
    return EXIT_NO_ANSWER if not reached_answer(doc) else 0


def profile_dry_run(
    spec: str, settings: ProfileSettings, confirm: list[str], allow_hdd: bool
) -> str:
    """``--dry-run``: the target identified and checked, the plan's estimate; nothing written."""
    from overprov.profile.estimate import estimate, estimate_text, wear_warning

    ident = dry_run.identify(
        spec,
        size_bytes=settings.size_bytes,
        bs_bytes=settings.bs_bytes,
        confirm=confirm,
        allow_hdd=allow_hdd,
    )
    members = len(ident.members)
    if ident.sim is not None:
        ident.sim.scale_rounds()
        facts = drive_facts(ident.sim, settings)
    else:
        facts = {"simulated": False}
    est = estimate(settings, ident.capacity_bytes, members, **facts)
    lines = dry_run.header(ident, "profile")
    lines.append(estimate_text(est, spec, ident.kind, ident.capacity_bytes, members))
    # a true limit only at a stated speed: an assumed speed bounds nothing (estimate.bound_text)
    bound = est.get("bound")
    top = bound["bytes_per_member"] if bound else est["bytes_per_member_max"]
    lines.append(
        "  "
        + dry_run.wear_line(
            top / max(ident.capacity_bytes, 1),
            ident.capacity_bytes,
            settings.rated_tbw,
            "at most",
        )
        + " per member"
        + (f" if the drive writes no faster than {bound['random_iops']:,.0f} IOPS" if bound else "")
    )
    lines.append(wear_warning(ident.kind, spec))
    if settings.fdp_ranges is not None:
        ranges = parse_ranges(settings.fdp_ranges)
        if ident.sim is not None:
            lines.append(
                "FDP (--fdp-ranges): the simulated drive writes through "
                f"{plural(len(ranges), 'reclaim-unit handle')}, by LBA range (docs/fdp.md)"
            )
        else:
            lines += plan_lines(ident.members, ranges, ident.capacity_bytes, settings.bs_bytes)
    return "\n".join(lines)


def reached_answer(doc: dict[str, Any]) -> bool:
    """Whether a finished profile answers its question: some phase reached steady state, and
    with --target-iops, an OP level is recommended."""
    if not any(p.get("steady") for p in doc.get("phases", [])):
        return False
    rec = doc.get("recommendation") or {}
    return doc["settings"].get("target_iops") is None or rec.get("extra_op_percent") is not None
