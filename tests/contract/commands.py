"""Every command that writes a JSON document, with small real inputs: the command lines the
contract tests run (a simulated profile and a simulation at small scale, the repository's
saved smartctl and nvme-cli outputs)."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
SMART_FILE = DATA / "smart" / "INTEL_SSDPE2KX080T8_1.json"
NVME_LOG = DATA / "nvme-vendor" / "cachelib-wdc-vs-smart-add-log-c0.txt"

SMALL_SIMULATE = ("simulate", "--advertised", "64M", "--pages-per-block", "64",
                  "--extra-op", "0,20", "--warmup", "1", "--drive-writes", "0.5",
                  "--no-progress")  # fmt: skip


def json_commands(tmp: Path) -> dict[str, list[str]]:
    """schema kind → argv (without ``--json -``) for every command with a JSON document,
    except ``status``, which needs a block device (tests/contract/test_status_json.py)."""
    return {
        "overprov.simulate": [*SMALL_SIMULATE],
        "overprov.plan": ["plan", "--capacity", "960GB", "--daily-writes", "500GB"],
        "overprov.capacity": ["capacity", "1.92TB", "--extra-op", "20"],
        "overprov.smart": ["smart", str(SMART_FILE)],
        "overprov.smart-nvme": ["smart-nvme", "--nvme-log", str(NVME_LOG)],
        "overprov.calibrate": [
            "calibrate",
            "--points",
            "0:11000,20:25000,40:32000",
            "--extra-op",
            "0,20,40",
            "--out",
            str(tmp / "cal"),
        ],  # fmt: skip
        "overprov.profile": [
            "profile",
            "sim:consumer-tlc-sata@1GiB",
            "--extra-op",
            "0,40",
            "--round-seconds",
            "5",
            "--max-rounds",
            "8",
            "--out",
            str(tmp / "prof"),
        ],  # fmt: skip
    }
