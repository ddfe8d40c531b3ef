"""What decides a profile's work: :class:`ProfileSettings` (stored in results.json ``settings``)
and the label of an OP level."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from overprov.errors import ConfigError
from overprov.placement_options import parse_ranges
from overprov.profile.steady import SteadyStateCriteria, snia_equivalent_fio_slope_percent


@dataclass
class ProfileSettings:
    """Everything that decides what a profile does; stored in results.json ``settings``."""

    extra_op_percents: list[float] = field(default_factory=lambda: [0, 10, 20, 30, 40, 50, 60])
    target_iops: float | None = None
    min_iops: float | None = None
    min_iops_rounds: int = 3
    """A phase whose first rounds (this many, or max_rounds if fewer) average below min_iops
    ends early, marked skipped."""
    stop_at_target: bool = False
    bs_bytes: int = 4096
    qd: int = 32
    jobs: int = 1
    size_bytes: int | None = None
    round_seconds: int = 60
    max_rounds: int = 25
    fob_seconds: int | None = None
    """Length of the FOB measurement; None: one round (round_seconds); 0: skip it."""
    precondition: str = "seq"
    ioengine: str = "libaio"
    steady_window_rounds: int = 5
    steady_max_range_fraction: float = 0.20
    steady_max_slope_excursion_fraction: float = 0.10
    steady_max_decline_fraction: float | None = 0.05
    """Plateau check: the rounds before the window may average at most 5% above it."""
    steady_max_waf_rise_fraction: float | None = 0.05
    """Plateau check, where the target reports NAND writes: window WAF at most 5% above the
    rounds before it."""
    min_phase_drive_writes: float | None = None
    """Drive writes of the span each phase writes before its window may count; None: the rule
    of ``overprov.profile.phase_precondition``."""
    rated_tbw: float | None = None
    """Rated endurance of one member in TB written (1e12 bytes), when known."""
    fdp_ranges: str | None = None
    """``--fdp-ranges``: placement ID by LBA range of the tested span (sim: targets run it;
    devices: planned in --dry-run only; profile/fdp_fio.py)."""

    def validate(self) -> None:
        ops = self.extra_op_percents
        if not ops:
            raise ConfigError("--extra-op: give at least one OP level")
        for op in ops:
            if not (isinstance(op, int | float) and 0 <= op <= 95):
                raise ConfigError(f"--extra-op: each level must be between 0 and 95 (%), got {op}")
        given = ",".join(f"{op:g}" for op in ops)
        if len(set(ops)) != len(ops):
            raise ConfigError(f"--extra-op: a level is repeated in {given}")
        if list(ops) != sorted(ops):
            ascending = ",".join(f"{op:g}" for op in sorted(ops))
            raise ConfigError(
                f"--extra-op: give levels in ascending order ({ascending}, not {given}): each "
                "phase discards more of the drive than the one before, which cannot be undone "
                "without a refill"
            )
        for name in ("target_iops", "min_iops", "rated_tbw"):
            v = getattr(self, name)
            if v is not None and not v > 0:
                raise ConfigError(f"--{name.replace('_', '-')}: must be positive, got {v}")
        if self.stop_at_target and self.target_iops is None:
            raise ConfigError("--stop-at-target: needs --target-iops")
        if self.bs_bytes < 512 or self.bs_bytes % 512:
            raise ConfigError(f"--bs: must be a multiple of 512 bytes, got {self.bs_bytes}")
        for name in ("qd", "jobs", "round_seconds", "min_iops_rounds"):
            if getattr(self, name) < 1:
                raise ConfigError(f"--{name.replace('_', '-')}: must be at least 1")
        if self.max_rounds < self.settling_rounds:
            w = self.steady_window_rounds
            why = f"the steady-state window ({w} rounds)"
            if self.settling_rounds > w:
                why += f" and the {w} rounds before it that the plateau check compares it with"
            raise ConfigError(
                f"--max-rounds: must be at least {why}: {self.settling_rounds} rounds, got "
                f"{self.max_rounds} (a phase could never reach steady state)"
            )
        if self.fob_seconds is not None and self.fob_seconds < 0:
            raise ConfigError("--fob-seconds: must be 0 (skip) or more")
        if self.precondition not in ("seq", "random"):
            raise ConfigError(f"--precondition: seq or random, got {self.precondition!r}")
        if self.min_phase_drive_writes is not None and not (
            isinstance(self.min_phase_drive_writes, int | float)
            and 0 <= self.min_phase_drive_writes <= 1000
        ):
            raise ConfigError(
                "--min-phase-writes: drive writes of the span, 0 to 1000, got "
                f"{self.min_phase_drive_writes}"
            )
        if self.size_bytes is not None and self.size_bytes < self.bs_bytes:
            raise ConfigError("--size: must be at least one block (--bs)")
        if self.fdp_ranges is not None:
            parse_ranges(self.fdp_ranges)
        try:
            self.criteria()
        except ValueError as exc:
            raise ConfigError(f"steady state: {exc}") from None

    def criteria(self) -> SteadyStateCriteria:
        return SteadyStateCriteria(
            window_rounds=self.steady_window_rounds,
            max_range_fraction=self.steady_max_range_fraction,
            max_slope_excursion_fraction=self.steady_max_slope_excursion_fraction,
            max_rounds=self.max_rounds,
            max_decline_fraction=self.steady_max_decline_fraction,
            max_waf_rise_fraction=self.steady_max_waf_rise_fraction,
        )

    @property
    def settling_rounds(self) -> int:
        """The fewest rounds in which a phase can be steady: the window, and with the plateau
        check (``steady_max_decline_fraction``) the baseline of as many rounds before it."""
        w = self.steady_window_rounds
        return 2 * w if self.steady_max_decline_fraction is not None else w

    @property
    def fob_s(self) -> int:
        return self.round_seconds if self.fob_seconds is None else self.fob_seconds

    @property
    def precondition_passes(self) -> int:
        """seq: 2 × capacity (SNIA); random: one random-map pass (every block once)."""
        return 2 if self.precondition == "seq" else 1

    @property
    def fio_ss_slope_percent(self) -> float | None:
        """fio's ``iops_slope`` limit equivalent to our slope rule over one round's samples."""
        if self.round_seconds < 2:
            return None
        return round(snia_equivalent_fio_slope_percent(self.round_seconds, self.criteria()), 6)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["extra_op_percents"] = [float(op) for op in self.extra_op_percents]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ProfileSettings:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


def op_label(op: float) -> str:
    """0 → "op00", 7.5 → "op07_5"."""
    text = f"{op:g}"
    whole, _, frac = text.partition(".")
    return "op" + whole.zfill(2) + (f"_{frac}" if frac else "")
