"""MQSim's flash commands per host write, from the output files of `mqsim.py`'s runs.

    python bench/foreign/mqsim_commands.py RUN_DIR/op20-qd32 RUN_DIR/op20-qd128 ... \
        [--results bench/foreign/results/mqsim.json] \
        [--out bench/foreign/results/commands/mqsim.json]

Each folder is one (extra OP, queue depth) case of `mqsim.py --work RUN_DIR`: its checkpoint
runs `w3` ... `w8` (`w<k>_scenario_1.xml`, MQSim's own report) are differenced as `mqsim.py`
does, and for each interval the script records the commands the flash chip executed per host
write: reads, programs and erases, single-plane and multi-plane (one command for a page on
each plane at the same page offset, MQSim's TSU_Base::issue_command_to_chip), and the IOPS the
chip's command time alone allows, 1 / sum(commands x latency) with the configuration's read,
program and erase times (`LATENCY_US`: a multi-plane command takes one latency). The drive has
one chip of one die (mqsim.GEOMETRY), so where that figure matches the measured IOPS the die
is busy all the time and the IOPS are set by how many commands a host write costs. Beside them,
the requests in the device on average (Little's law: IOPS times the flow's mean device response
time over the interval), to compare with the queue depth the host keeps outstanding.

The steady window is the last quarter (the last two intervals), as in `mqsim.py`; each case's
steady IOPS are checked against `--results` (the curve the runs produced) and the check is
recorded (`matches_results`).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import mqsim  # noqa: E402

#: MQSim's command kinds in its report (`SSDDevice.FTL` attributes), by what they do.
COMMANDS = {
    "reads": "Issued_Flash_Read_CMD",
    "multiplane_reads": "Issued_Flash_Multiplane_Read_CMD",
    "programs": "Issued_Flash_Program_CMD",
    "multiplane_programs": "Issued_Flash_Multiplane_Program_CMD",
    "erases": "Issued_Flash_Erase_CMD",
    "multiplane_erases": "Issued_Flash_Multiplane_Erase_CMD",
}

#: Each command's chip time (mqsim.ssd_config: MLC read 75 us, program 750 us, erase 3.8 ms).
LATENCY_US = {"reads": 75.0, "programs": 750.0, "erases": 3800.0}


def counters(xml: Path) -> dict:
    """Host requests, simulated seconds and command counts of one MQSim report."""
    text = xml.read_text()
    count = mqsim.attr(text, "Request_Count")
    return {
        "requests": count,
        "sim_s": count / mqsim.attr(text, "IOPS"),
        # the host flow's mean device response time (us) times the requests it completed
        "response_us_sum": mqsim.attr(text, "Device_Response_Time") * count,
        **{k: mqsim.attr(text, name) for k, name in COMMANDS.items()},
    }


def per_host_write(a: dict, b: dict) -> dict:
    """Commands per host write between two checkpoints, and the IOPS their chip time allows."""
    host = b["requests"] - a["requests"]
    per = {k: (b[k] - a[k]) / host for k in COMMANDS}
    busy_us = sum((per[kind] + per[f"multiplane_{kind}"]) * us for kind, us in LATENCY_US.items())
    iops = host / (b["sim_s"] - a["sim_s"])
    response_s = (b["response_us_sum"] - a["response_us_sum"]) / host * 1e-6
    return {
        "iops": iops,
        "command_time_iops": 1e6 / busy_us,
        # requests in the device on average (Little's law: IOPS x mean response time); the
        # host keeps the queue depth outstanding, so a lower figure means requests that never
        # completed (docs/calibrate-validation.md, "Why MQSim's IOPS rise from QD32 to QD128")
        "requests_in_device": iops * response_s,
        "multiplane_program_share": per["multiplane_programs"]
        / (per["programs"] + per["multiplane_programs"]),
        "per_host_write": per,
    }


def case(folder: Path) -> dict:
    """One case folder (`op<X>-qd<Q>`): its intervals and steady window."""
    m = re.fullmatch(r"op(\d+)-qd(\d+)", folder.name)
    if m is None:
        raise ValueError(f"{folder}: not a mqsim.py case folder (op<X>-qd<Q>)")
    cps = sorted(
        (counters(p) for p in folder.glob("w*_scenario_1.xml")), key=lambda c: c["requests"]
    )
    if len(cps) < 3:
        raise ValueError(f"{folder}: fewer than 3 checkpoint reports")
    span = int(mqsim.logical_pages() * (100 - int(m.group(1))) / 100)
    series = [
        {"span_writes": b["requests"] / span, **per_host_write(a, b)}
        for a, b in zip(cps, cps[1:], strict=False)
    ]
    return {
        "extra_op_percent": int(m.group(1)),
        "queue_depth": int(m.group(2)),
        "steady": per_host_write(cps[-3], cps[-1]),
        "series": series,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path)
    here = Path(__file__).parent / "results"
    ap.add_argument("--results", type=Path, default=here / "mqsim.json")
    ap.add_argument("--out", type=Path, default=here / "commands" / "mqsim.json")
    args = ap.parse_args(argv)
    curve = json.loads(args.results.read_text())
    truth = {(lv["extra_op_percent"], lv["queue_depth"]): lv for lv in curve["levels"]}
    cases = []
    for folder in args.folders:
        c = case(folder)
        lv = truth.get((c["extra_op_percent"], c["queue_depth"]))
        c["matches_results"] = (
            lv is not None and abs(c["steady"]["iops"] / lv["steady_iops"] - 1) < 1e-6
        )
        cases.append(c)
    doc = {
        "simulator": "MQSim",
        "repository": curve["repository"],
        "commit": curve["commit"],
        "results": args.results.name,
        "command": "python bench/foreign/mqsim_commands.py "
        + " ".join(f"RUN_DIR/{f.name}" for f in args.folders),
        "latency_us": LATENCY_US,
        "cases": sorted(cases, key=lambda c: (c["extra_op_percent"], c["queue_depth"])),
    }
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
