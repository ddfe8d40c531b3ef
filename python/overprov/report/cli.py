"""``overprov report``: the HTML report of profile folders and simulate JSON files."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from overprov import units
from overprov.errors import ConfigError
from overprov.options import add_json_option, text_stream
from overprov.outputs import (
    RUN_DOCUMENTS,
    check_json_output,
    check_no_other_run,
    check_output_dir,
    check_report_page,
    command_text,
    document,
    hold_out_dir,
    write_json,
)
from overprov.report.validate import validate_inputs

NAND_TYPES = ("slc", "mlc", "tlc", "qlc")


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "report",
        help="HTML report (figures, tables, conclusion) of profiles and simulations",
        description=(
            "Write one self-contained HTML page from profile, calibrate and qualify folders "
            "(their --out DIR), simulate JSON files (overprov simulate --json FILE) and plan "
            "JSON files (overprov plan --json FILE): steady IOPS vs OP "
            "with the target and the recommended OP, IOPS over time per phase, write "
            "saturation, latency CDF (probit axis) and exceedance, WAF vs OP beside the "
            "analytic models, erase-count spread, endurance (TBW, DWPD) and a conclusion in "
            "words. Several inputs are overlaid for comparison. Figures (SVG, or PNG when "
            "many points) and CSVs go to report-files/ beside the page."
        ),
    )
    p.add_argument(
        "inputs",
        nargs="+",
        type=Path,
        metavar="DIR|FILE",
        help="a profile, calibrate or qualify output folder (or its results.json, "
        "prediction.json, qualify.json), or a JSON file of overprov simulate --json or plan --json",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="output folder (default: beside the results when there is one input and it is a "
        "run's folder or document — profile, calibrate, qualify or simulate --out — else "
        "./overprov-report)",
    )
    p.add_argument(
        "--target-iops",
        type=units.POSITIVE,
        default=None,
        metavar="N",
        help="draw this target and recommend the smallest steady OP meeting it (default: "
        "the profile's own --target-iops, if any)",
    )
    p.add_argument(
        "--rated-tbw",
        type=units.TBW_TB,
        default=None,
        metavar="TB",
        help="rated endurance per drive, for the TBW/DWPD table: TB written (a bare number "
        "is TB: 600 = 600TB; units accepted, e.g. 1.2PB)",
    )
    p.add_argument(
        "--pe-cycles",
        type=units.POSITIVE,
        default=None,
        metavar="N",
        help="rated P/E cycles of the NAND",
    )
    p.add_argument(
        "--nand",
        choices=NAND_TYPES,
        default=None,
        help="NAND type, for typical P/E cycles when no rating is known (default: none; the "
        "TBW/DWPD table is drawn only when --rated-tbw, --pe-cycles, --nand or --smart gives "
        "the NAND's budget)",
    )
    p.add_argument(
        "--years",
        type=units.POSITIVE,
        default=5.0,
        metavar="Y",
        help="service life for DWPD, in years (default 5)",
    )
    p.add_argument(
        "--smart",
        action="append",
        default=[],
        type=Path,
        metavar="FILE.json",
        help="a 'smartctl -j -a' JSON of the drive: lifetime WAF and wear, and the endurance "
        "it implies (repeatable)",
    )
    p.add_argument(
        "--title",
        metavar="TEXT",
        help="page title (default: 'SSD over-provisioning report:' and the inputs' names)",
    )
    add_json_option(p, "what was read, written and recommended (schema overprov.report/1)")
    p.set_defaults(func=run)


def run_folder(path: Path) -> Path | None:
    """The output folder of a command's run that ``path`` is, or holds as one of its documents
    (:data:`outputs.RUN_DOCUMENTS`: ``prof/`` or ``prof/results.json``, ``cal/prediction.json``);
    None for anything else (a simulate --json file anywhere, a folder of several)."""
    folder, name = (path, None) if path.is_dir() else (path.parent, path.name)
    for names, _what in RUN_DOCUMENTS.values():
        if (name is None or name in names) and any((folder / n).is_file() for n in names):
            return folder
    return None


def default_out(inputs: list[Path]) -> Path:
    """Beside the results: the folder of a single input that is a run's (:func:`run_folder`),
    else ./overprov-report."""
    folder = run_folder(inputs[0]) if len(inputs) == 1 else None
    return folder if folder is not None else Path("overprov-report")


def run(args: argparse.Namespace) -> int:
    # outputs and inputs first: the report's modules (matplotlib) take a second to import, so
    # a command refused for its arguments or inputs is refused before they are
    if args.pe_cycles is not None and args.nand is not None:
        raise ConfigError("give --pe-cycles or --nand, not both")
    out = args.out or default_out(list(args.inputs))
    check_output_dir(out, "--out")
    read = {(p if p.is_dir() else p.parent).resolve() for p in map(Path, args.inputs)}
    if Path(out).resolve() not in read:  # another run's folder: its page is that run's
        check_no_other_run(out, "report")
    check_report_page(out)
    check_json_output(args.json)
    validate_inputs(list(args.inputs))
    from overprov import smart
    from overprov.report.build import build
    from overprov.report.document import report_document
    from overprov.report.findings import Options

    reports = [
        smart.lifetime_report(smart.parse_snapshot(smart.load_json_file(f), str(f)))
        for f in args.smart
    ]
    options = Options(
        target_iops=args.target_iops,
        rated_tbw=args.rated_tbw,
        pe_cycles=args.pe_cycles,
        nand=args.nand,
        years=args.years,
        smart=reports,
        title=args.title,
    )
    runs = {f.resolve() for f in map(run_folder, map(Path, args.inputs)) if f is not None}
    if Path(out).resolve() not in runs:
        # a run's folder reported into itself is that run's (it may be running: its lock)
        hold_out_dir(out, command_text(args))
    built = build(list(args.inputs), out, options)
    path = built.path
    print(
        f"report written to {path} (figures and CSVs in {path.parent / 'report-files'})",
        file=text_stream(args),
    )
    if args.json:
        write_json(document("report", report_document(built)), args.json)
    return 0
