"""``overprov smart``: WAF and wear from ``smartctl -j`` (docs/smart.md, docs/concepts.md).

The package: ``tables`` (the vendor tables, data in ``overprov/data/smart_vendors.toml``),
``snapshot`` (one smartctl document reduced to the figures), ``device`` (reading a file or a
device), ``wear`` (WAF, wear rate, days left), ``cli`` (the flags and the output),
``command`` (which reading a command line asks for), ``fleet`` (every SSD of the machine).

A drive in service counts the bytes the host wrote and, on many SSDs, the bytes it programmed
into NAND. Their ratio is the drive's real write amplification (WAF = NAND writes / host
writes). Together with the wear indicator (percentage of rated endurance used) and the
power-on hours it tells how fast the drive is wearing and how long it will last at the
observed rate.

Sources, most specific first:

- **NVMe** standard log ``nvme_smart_health_information_log``: ``data_units_written`` (units of
  1000 × 512 bytes), ``percentage_used``. It has no NAND-write counter.
- **ATA device statistics** (``ata_device_statistics``, ``smartctl -l devstat``): page 1
  "Logical Sectors Written", page 7 "Percentage Used Endurance Indicator".
- **Vendor ATA attributes** (``ata_smart_attributes``), recognised by id *and* by the name
  smartctl's drive database gives them, since ids mean different things on different
  controllers (``VENDOR_NAND_COUNTERS``, ``HOST_WRITE_ATTRIBUTES``, ``WEAR_ATTRIBUTES``).
- **SCSI/SAS**: ``scsi_percentage_used_endurance_indicator`` and the write error-counter log.

Hard disks (``rotation_rate`` > 0) are recognised and reported as such: WAF and NAND wear do
not apply to them. Library functions raise ``SmartDataError`` (an ``OverprovError``) naming
the file and the field; only ``overprov.cli`` turns that into an exit code.
"""

from overprov.smart.cli import format_delta, format_lifetime, report_to_dict
from overprov.smart.command import register, run
from overprov.smart.device import load_json_file, read_device, snapshot_from_target
from overprov.smart.snapshot import Counter, SmartDataError, Snapshot, WafCounters, parse_snapshot
from overprov.smart.wear import DeltaReport, LifetimeReport, compare, lifetime_report

__all__ = [
    "Counter",
    "DeltaReport",
    "LifetimeReport",
    "SmartDataError",
    "Snapshot",
    "WafCounters",
    "compare",
    "format_delta",
    "format_lifetime",
    "lifetime_report",
    "load_json_file",
    "parse_snapshot",
    "read_device",
    "register",
    "report_to_dict",
    "run",
    "snapshot_from_target",
]
