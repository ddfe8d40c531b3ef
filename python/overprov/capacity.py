"""Capacity arithmetic for over-provisioning: IDEMA LBA counts, GB↔GiB, hidden and total OP.

Definitions (docs/concepts.md): C is the advertised capacity in decimal GB; the NAND behind it is
assumed to be C binary GiB, so T = C·2³⁰ bytes. Extra OP X leaves X of C unused: U = (1−X)·C·10⁹.
Over-provisioning is **ρ = (T−U)/U** throughout; the spare factor is Sf = (T−U)/T = ρ/(1+ρ).
With X = 0, ρ is the hidden OP 2³⁰/10⁹ − 1 = 7.37 %.

IDEMA LBA1-03 (advertised GB → sectors): 97,696,368 + 1,953,504·(GB − 50) for 512-byte sectors;
12,212,046 + 244,188·(GB − 50) for 4096-byte sectors. Both give the same byte count.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from overprov import units
from overprov.errors import ConfigError
from overprov.options import add_json_option, text_stream
from overprov.outputs import check_json_output, document, write_json

GB = 10**9
GIB = 2**30
MIB = 2**20
HIDDEN_OP = GIB / GB - 1  # 0.073741824

_IDEMA = {512: (97_696_368, 1_953_504), 4096: (12_212_046, 244_188)}


def _fraction(value: float | int | str | Fraction) -> Fraction:
    return value if isinstance(value, Fraction) else Fraction(str(value))


def idema_lba_count(capacity_gb: float | int | str | Fraction, sector_bytes: int = 512) -> int:
    """IDEMA LBA1-03 sector count for an advertised capacity in decimal GB (rounded down
    for fractional GB, e.g. 1920 or 1.92 TB given as 1920)."""
    if sector_bytes not in _IDEMA:
        raise ConfigError(f"sector_bytes: IDEMA defines 512 and 4096, got {sector_bytes}")
    gb = _fraction(capacity_gb)
    if gb <= 0:
        raise ConfigError(f"capacity: must be > 0 GB, got {capacity_gb}")
    base, per_gb = _IDEMA[sector_bytes]
    count = base + per_gb * (gb - 50)
    if count <= 0:
        raise ConfigError(f"capacity: {capacity_gb} GB is below the IDEMA formula's range")
    return math.floor(count)


def idema_capacity_bytes(capacity_gb: float | int | str | Fraction, sector_bytes: int = 512) -> int:
    return idema_lba_count(capacity_gb, sector_bytes) * sector_bytes


def gb_from_idema_lba_count(sectors: int, sector_bytes: int = 512) -> Fraction:
    """Inverse of ``idema_lba_count``: the advertised GB a sector count corresponds to."""
    if sector_bytes not in _IDEMA:
        raise ConfigError(f"sector_bytes: IDEMA defines 512 and 4096, got {sector_bytes}")
    base, per_gb = _IDEMA[sector_bytes]
    return Fraction(sectors - base, per_gb) + 50


def gb_to_gib(gb: float) -> float:
    return gb * GB / GIB


def gib_to_gb(gib: float) -> float:
    return gib * GIB / GB


def rho(physical_bytes: float, user_bytes: float) -> float:
    """Over-provisioning ρ = (T−U)/U."""
    if user_bytes <= 0:
        raise ConfigError(f"user capacity must be > 0, got {user_bytes}")
    return (physical_bytes - user_bytes) / user_bytes


def spare_factor(rho_value: float) -> float:
    """Sf = (T−U)/T = ρ/(1+ρ)."""
    return rho_value / (1.0 + rho_value)


def total_rho(extra_op: float, hidden_op: float = HIDDEN_OP) -> float:
    """Total ρ = T/U − 1 for extra OP ``extra_op`` (a fraction, 0.2 for 20 %) on top of the
    hidden OP: T = (1+hidden)·C, U = (1−X)·C."""
    check_extra_op_fraction(extra_op)
    return (1.0 + hidden_op) / (1.0 - extra_op) - 1.0


def check_extra_op_fraction(extra_op: float) -> None:
    if not 0.0 <= extra_op < 1.0:
        raise ConfigError(f"extra_op: must be a fraction in [0, 1), got {extra_op}")


def parse_extra_op_percent(text: str | float) -> float:
    """'20', '20%', 20 → 0.2. Extra OP is given in percent (the NAS vendor uses 1–60 %)."""
    return units.parse_percent(text, "--extra-op", lo=0.0, hi=100.0, hi_open=True) / 100.0


def user_bytes_for_extra_op(capacity_bytes: int, extra_op: float, align_bytes: int = MIB) -> int:
    """U = (1−X)·C rounded down to ``align_bytes`` (1 MiB keeps partitions and namespaces
    aligned to any flash page/erase geometry)."""
    check_extra_op_fraction(extra_op)
    user = Fraction(capacity_bytes) * (1 - _fraction(extra_op))
    return math.floor(user / align_bytes) * align_bytes


def parse_capacity_gb(text: str, option: str = "capacity", bare_unit: str = "gb") -> Fraction:
    """'512GB', '1.92TB', '476.94GiB' → advertised decimal GB, exactly (``overprov.units``'
    rule; a bare number is in ``bare_unit``: GB for an option named in GB, bytes else)."""
    gb = units.parse_size_exact(text, option, bare_unit=bare_unit) / GB
    if gb < 1:
        raise ConfigError(
            f"{option}: {text!r} is {float(gb * GB):,.0f} bytes, less than 1 GB: give a drive "
            "capacity with its unit, e.g. 512GB or 476.9GiB (a bare number is "
            f"{'GB' if bare_unit == 'gb' else 'bytes'})"
        )
    return gb


@dataclass(frozen=True)
class CapacityReport:
    capacity_gb: float
    capacity_gib: float
    idema_sectors_512: int
    idema_sectors_4096: int
    idema_bytes: int
    hidden_op: float
    extra_op: float | None
    user_bytes: int | None  # (1−X)·C·10⁹
    total_rho: float  # (T−U)/U with T = C GiB, U = (1−X)·C GB
    spare_factor: float


def capacity_report(
    capacity_gb: Fraction | float | int, extra_op: float | None = None
) -> CapacityReport:
    gb = _fraction(capacity_gb)
    x = 0.0 if extra_op is None else extra_op
    r = total_rho(x)
    return CapacityReport(
        capacity_gb=float(gb),
        capacity_gib=float(gb * GB / GIB),
        idema_sectors_512=idema_lba_count(gb, 512),
        idema_sectors_4096=idema_lba_count(gb, 4096),
        idema_bytes=idema_capacity_bytes(gb, 512),
        hidden_op=HIDDEN_OP,
        extra_op=extra_op,
        user_bytes=None if extra_op is None else math.floor(gb * GB * (1 - _fraction(x))),
        total_rho=r,
        spare_factor=spare_factor(r),
    )


def format_report(rep: CapacityReport) -> str:
    lines = [
        f"advertised capacity C: {rep.capacity_gb:g} GB = {rep.capacity_gib:.2f} GiB",
        f"IDEMA LBA count, 512-byte sectors:  {rep.idema_sectors_512:>15,}",
        f"IDEMA LBA count, 4096-byte sectors: {rep.idema_sectors_4096:>15,}",
        f"IDEMA capacity: {rep.idema_bytes:,} bytes",
        f"hidden OP (NAND in GiB sold as GB): {rep.hidden_op * 100:.2f} %",
    ]
    if rep.extra_op is not None:
        assert rep.user_bytes is not None
        lines.append(
            f"extra OP {rep.extra_op * 100:g} %: user capacity U = (1−X)·C = "
            f"{rep.user_bytes / GB:.2f} GB ({rep.user_bytes:,} bytes)"
        )
    lines.append(
        f"total OP ρ = (T−U)/U = {rep.total_rho * 100:.2f} %  "
        f"(T = C GiB of NAND, U = (1−X)·C GB); spare factor (T−U)/T = "
        f"{rep.spare_factor * 100:.2f} %"
    )
    return "\n".join(lines)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "capacity",
        help="IDEMA LBA counts, GB↔GiB, hidden OP and total OP for an advertised capacity",
        description=(
            "Capacity arithmetic for over-provisioning. Prints IDEMA LBA counts (512 and "
            "4096-byte sectors), GB↔GiB, the 7.37 % hidden OP and the total OP "
            "ρ = (T−U)/U for an extra OP X (T = C GiB of NAND, U = (1−X)·C GB)."
        ),
    )
    p.add_argument(
        "capacity",
        nargs="?",
        help="advertised capacity: 512GB, 512G, 1.92TB or 476.9GiB (G = 10^9 bytes, GiB = "
        "2^30; a bare number is bytes)",
    )
    p.add_argument(
        "--sectors",
        type=units.COUNT,
        metavar="N",
        help="instead of a capacity: an LBA count, converted back to advertised GB (IDEMA)",
    )
    p.add_argument(
        "--sector-size", type=int, choices=(512, 4096), help="for --sectors (default 512)"
    )
    p.add_argument(
        "--extra-op",
        metavar="PERCENT",
        help="extra OP in percent (e.g. 20) to compute U and total ρ",
    )
    add_json_option(p, "the figures")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_json_output(args.json)
    if (args.capacity is None) == (args.sectors is None):
        raise ConfigError("capacity: give either a capacity (e.g. 512GB) or --sectors N")
    if args.sector_size is not None and args.sectors is None:
        raise ConfigError("--sector-size: only with --sectors (the size of the sectors it counts)")
    sector_bytes = args.sector_size or 512
    if args.sectors is not None:
        if args.sectors <= 0:
            raise ConfigError(f"--sectors: must be > 0, got {args.sectors}")
        gb = gb_from_idema_lba_count(args.sectors, sector_bytes)
        if gb <= 0:
            raise ConfigError(f"--sectors: {args.sectors} is below the IDEMA formula's range")
    else:
        gb = parse_capacity_gb(args.capacity, "capacity", bare_unit="b")
    extra = None if args.extra_op is None else parse_extra_op_percent(args.extra_op)
    rep = capacity_report(gb, extra)
    out = text_stream(args)
    if args.sectors is not None:
        print(
            f"{args.sectors:,} sectors of {sector_bytes} bytes = IDEMA {float(gb):.3f} GB",
            file=out,
        )
    print(format_report(rep), file=out)
    if args.json:
        write_json(capacity_document(rep), args.json)
    return 0


def capacity_document(rep: CapacityReport) -> dict[str, Any]:
    """``capacity --json``: fractions as percent where the name says so, ρ as a fraction."""
    return document(
        "capacity",
        {
            "capacity_gb": rep.capacity_gb,
            "capacity_gib": rep.capacity_gib,
            "idema_sectors_512": rep.idema_sectors_512,
            "idema_sectors_4096": rep.idema_sectors_4096,
            "idema_bytes": rep.idema_bytes,
            "hidden_op_percent": rep.hidden_op * 100,
            "extra_op_percent": None if rep.extra_op is None else rep.extra_op * 100,
            "user_bytes": rep.user_bytes,
            "rho": rep.total_rho,
            "spare_factor": rep.spare_factor,
        },
    )
