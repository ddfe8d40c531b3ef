"""The profiler: how much OP does a drive need to sustain N random-write IOPS?

``overprov profile TARGET`` runs, through a :class:`~overprov.profile.targets.Target`,
identify → FOB → purge → precondition → one phase per OP level until SNIA steady state, and
writes ``results.json`` (its format: ``overprov.results``, schema ``schemas/results.schema.json``),
a CSV per phase and the fio job files. See docs/profile.md.
"""

from overprov.profile.fio_target import FioTarget
from overprov.profile.runner import Profile
from overprov.profile.settings import ProfileSettings
from overprov.profile.steady import SNIA, SteadyStateCriteria, SteadyStateVerdict, assess
from overprov.profile.targets import Figures, RoundResult, RoundSpec, Target

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
