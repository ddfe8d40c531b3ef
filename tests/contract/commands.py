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
    except ``status``, which needs a block device (tests/apply/test_apply_status.py)."""
    return {
        "overprov.simulate": [*SMALL_SIMULATE],
        "overprov.plan": ["plan", "--capacity", "960GB", "--daily-writes", "500GB"],
        "overprov.report": ["report", str(tmp / "sim.json"), "--out", str(tmp / "rep")],
        "overprov.capacity": ["capacity", "1.92TB", "--extra-op", "20"],
        "overprov.drive": ["drive", "show", "consumer-tlc-sata"],
        "overprov.smart": ["smart", str(SMART_FILE)],
        "overprov.smart-nvme": ["smart-nvme", "--nvme-log", str(NVME_LOG)],
        # this machine's SSDs (none on the build machine); with drives: test_smart_fleet_json.py
        "overprov.smart-fleet": ["smart", "--all"],
        "overprov.calibrate": [
            "calibrate",
            "--points",
            "0:11000,20:25000,40:32000",
            "--extra-op",
            "0,20,40",
            "--out",
            str(tmp / "cal"),
        ],  # fmt: skip
        "overprov.qualify": [
            "qualify",
            "sim:enterprise-tlc-nvme@2GiB",
            "--tests",
            "cache",
            "--round-seconds",
            "5",
        ],  # fmt: skip
        "overprov.profile": [
            "profile",
            "sim:consumer-tlc-sata@1GiB",
            "--extra-op",
            "0,40",
            "--round-seconds",
            "5000",  # scale 1/1000: 5 s of simulated time (docs/profile.md)
            "--max-rounds",
            "10",
            "--out",
            str(tmp / "prof"),
        ],  # fmt: skip
    }


def write_commands(tmp: Path) -> dict[str, list[str]]:
    """:func:`json_commands` for the tests whose claim is about how a command writes, not what
    (the JSON contract: where the document and the text go, its envelope, its schema; stdout
    closed early: the command meets EPIPE at its first write, after its work):

    - ``calibrate`` fits two WAF figures (``--waf-points``: its twins' runs WAF-only, 2-3 CPU
      seconds a run against 13 for two IOPS figures and 37 for three, docs/testing.md) and
      writes its text and its document the same way. calibrate checks every prediction
      document against its schema as it writes it (prediction_file.py, ``check``), so the
      documents of IOPS figures are checked in every run of the calibrate tests that writes
      one: with the GC-mechanism fit, tests/calibrate/test_calibrate_cli.py's
      ``calibrate --from ... --json -`` of its module's five-level calibration.
    - ``profile`` writes no report.html into its folder (``--no-report``): the document and
      the text are written before it, and no contract test reads the page (the report of a
      profile is the report tests' ``sim_profile``)."""
    commands = json_commands(tmp)
    points = commands["overprov.calibrate"].index("--points")
    commands["overprov.calibrate"][points : points + 2] = ["--waf-points", "0:3,40:1.5"]
    commands["overprov.profile"].append("--no-report")
    return commands


def prepare_inputs(kind: str, tmp: Path) -> None:
    """Make the files a command of :func:`json_commands` reads (``report`` reads a simulate
    file, written here by a small real simulation)."""
    if kind == "overprov.report" and not (tmp / "sim.json").exists():
        from overprov import cli

        assert cli.main([*SMALL_SIMULATE, "--json", str(tmp / "sim.json")]) == 0
