"""``overprov report``: one self-contained HTML page (figures, tables, a plain-language
conclusion) from profile folders and simulate JSON files, with its figures (SVG, or PNG when
many points) and CSVs beside it.

Library entry point: :func:`write_report`. matplotlib is imported only when a report is built,
so importing this package (the CLI does, at start-up) stays cheap.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

__all__ = ["write_report", "write_report_beside"]


def write_report(inputs: Sequence[Path | str], out_dir: Path | str, **options: Any) -> Path:
    """Write ``out_dir/report.html`` (and ``out_dir/report-files/``) from ``inputs``: profile
    folders (or their ``results.json``) and ``overprov simulate --json`` files. Several inputs
    are overlaid for comparison. Returns the HTML file's path.

    Optional keywords (see :class:`overprov.report.findings.Options`): ``target_iops``,
    ``rated_tbw`` (TB per drive), ``pe_cycles``, ``nand``, ``years``, ``smart`` (a list of
    ``overprov.smart.LifetimeReport``), ``title``. Raises ``overprov.errors.ConfigError`` for an
    input that is missing or of an unknown kind.
    """
    from overprov.report.build import build_report
    from overprov.report.findings import Options

    return build_report([Path(p) for p in inputs], Path(out_dir), Options(**options))


def write_report_beside(out_dir: Path, stream: TextIO) -> None:
    """A command's report of its own output folder (profile, qualify), said on ``stream``. The
    folder's data are complete either way, so a report that fails is said on stderr with the
    command that retries it, not raised: the command keeps its exit status."""
    try:
        print(f"report: {write_report([out_dir], out_dir)}", file=stream)
    except Exception as exc:  # noqa: BLE001 - the data are written; keep the command's status
        print(f"report: not written ({exc}); retry: overprov report {out_dir}", file=sys.stderr)
