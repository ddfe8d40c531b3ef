"""The kinds of profile target, registered by the prefix of the TARGET string (as fio registers
its engines by name): ``sim:`` a simulated drive; anything else devices or files through fio."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from overprov.errors import ConfigError
from overprov.profile.fdp_fio import refuse_device_run
from overprov.profile.fio_target import FioTarget
from overprov.profile.sim_target import SimTarget
from overprov.profile.targets import Target


def _sim(spec: str, job_dir: Path | None, **options: Any) -> Target:
    if options.get("size_bytes"):
        raise ConfigError(
            f"--size: a simulated drive is sized by its scale, e.g. {spec.split('@')[0]}@64GiB"
        )
    return SimTarget(spec, job_dir, fdp_ranges=options.get("fdp_ranges"))


def _fio(spec: str, job_dir: Path | None, **options: Any) -> Target:
    if options.pop("fdp_ranges", None) is not None:
        raise refuse_device_run(spec)
    return FioTarget(spec, job_dir, **options)


KINDS: dict[str, Callable[..., Target]] = {"sim:": _sim}
"""Target kinds by the prefix of the TARGET string; a new kind is one module and one row."""
DEFAULT_KIND = _fio
"""Devices and files, comma-separated (RAID members), through fio."""


def make_target(spec: str, job_dir: Path | None, **options: Any) -> Target:
    """The target for a TARGET string: ``sim:PRESET`` or devices/files, comma-separated."""
    for prefix, factory in KINDS.items():
        if spec.startswith(prefix):
            return factory(spec, job_dir, **options)
    return DEFAULT_KIND(spec, job_dir, **options)
