"""``overprov report``: one self-contained HTML page (figures, tables, a plain-language
conclusion) from profile folders and simulate JSON files, with PNG/SVG figures and CSVs beside it.

Library entry point: :func:`write_report`. matplotlib is imported only when a report is built,
so importing this package (the CLI does, at start-up) stays cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["write_report"]


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
