"""The profiler: how much OP does a drive need to sustain N random-write IOPS?

``overprov profile TARGET`` runs, through a :class:`~overprov.profile.targets.Target`,
identify → FOB → purge → precondition → one phase per OP level until SNIA steady state, and
writes ``results.json`` (its format: ``overprov.results``, schema ``schemas/results.schema.json``),
a CSV per phase and the fio job files. See docs/profile.md.
"""

from __future__ import annotations

import importlib
from typing import Any

# What the package offers, and the module each comes from: imported when first used, so that
# importing one light module of the package (dry_run, settings) does not load the runner.
_EXPORTS = {
    "SNIA": "overprov.profile.steady",
    "Figures": "overprov.profile.targets",
    "FioTarget": "overprov.profile.fio_target",
    "Profile": "overprov.profile.runner",
    "ProfileSettings": "overprov.profile.settings",
    "RoundResult": "overprov.profile.targets",
    "RoundSpec": "overprov.profile.targets",
    "SteadyStateCriteria": "overprov.profile.steady",
    "SteadyStateVerdict": "overprov.profile.steady",
    "Target": "overprov.profile.targets",
    "assess": "overprov.profile.steady",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'overprov.profile' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "SNIA",
    "Figures",
    "FioTarget",
    "Profile",
    "ProfileSettings",
    "RoundResult",
    "RoundSpec",
    "SteadyStateCriteria",
    "SteadyStateVerdict",
    "Target",
    "assess",
]
