"""Drive an already-built MQSim binary (CMU-SAFARI/MQSim) with 4 KiB random writes per OP level.

    python bench/foreign/mqsim.py --binary PATH/MQSim --work DIR \
        [--extra-op 0,10,20,30,40] [--qd 32] [--qd-sweep 4,128@0,40] [--drive-writes 5] \
        [--out bench/foreign/results/mqsim.json] [--patch TEXT] [--chips 1] \
        [--planes-per-die 2] [--blocks-per-plane 1024] [--pages-per-block 32] [--native-op 0.07]

The drive: MQSim's own page-level FTL with its shipped defaults for GC (RGA victim choice --
d-choices --, GC below 5% free blocks per plane, hard threshold 0.5%, non-preemptible GC,
per-plane GC) and native spare (Overprovisioning_Ratio 0.07: the host sees 93% of the pages),
on a small geometry (GEOMETRY: 2 planes of 1024 blocks of 32 pages, 256 MiB) with 4 KiB flash
pages so a host write is one page. With fewer blocks per plane (8 planes of 128 or 256 blocks)
MQSim's GC did not keep up at 0% extra OP: the run stopped with "Requesting a free block from
an empty pool!" or crashed in Set_barrier_for_accessing_physical_block, at native spare 0.07
and 0.125 alike. No data cache (caching mode TURNED_OFF), a mapping
cache (CMT) that holds the whole map, no preconditioning: each run starts from an empty drive.
`--chips N` gives the channel N such chips (each one die of two planes), which run their
commands at once (the dies of one chip would take turns: MQSim issues a command to an idle
chip only).

Extra OP X% is the host's span: the synthetic flow writes Working_Set_Percentage = 100 - X of
the user space (the way a drive with a partition X% short of its capacity behaves); the native
spare stays.

Each (OP, QD) case: MQSim reports totals at the end of a run only, and it is deterministic for
a seed, so runs ending at k/8 of D span writes (D = --drive-writes, k = 3..8) share their first
requests; the differences of their counters give the exact IOPS and WAF of each eighth from
3/8 on (`series`). The steady figures are the last quarter's (6/8 to 8/8); the settling
evidence is the last half's four eighths agreeing within +-3% in range and trend (calibrate's
tolerance). WAF = NAND pages programmed (MQSim's program commands, a multi-plane one counted
once per plane) / host pages written; `waf_gc_moves` = 1 + GC page movements / host pages,
beside. FOB: a run of FOB_SPAN_WRITES of the span from empty (no GC may run in it: checked).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

GEOMETRY = {
    "Flash_Channel_Count": 1,
    "Chip_No_Per_Channel": 1,
    "Die_No_Per_Chip": 1,
    "Plane_No_Per_Die": 2,
    "Block_No_Per_Plane": 1024,
    "Page_No_Per_Block": 32,
    "Page_Capacity": 4096,
}
NATIVE_OP_RATIO = 0.07  # MQSim's shipped ssdconfig.xml
GC_EXEC_THRESHOLD = 0.05  # MQSim's shipped ssdconfig.xml: GC below 5% free blocks per plane
FOB_SPAN_WRITES = 0.25
SECTOR = 512
# MQSim (7ec40e3b) is deterministic for its seeds and arguments, but not for its heap layout:
# writes held back while a plane's pool is below 10 blocks wait in a set ordered by pointer
# (Address_Mapping_Unit_Page_Level::Write_transactions_for_overfull_planes) and are resumed in
# that order. The same run with its files named by absolute path, not by name, gave WAF 0.13%
# and IOPS 0.27% apart (2 planes of 512 blocks at 10%, 2026-11-28), and at 0% one layout ran to
# its end where another died (SIGSEGV or an error exit, every time on that layout). So a failed
# run is run again on another layout, at most RETRIES times, and counted (`retries`).
RETRIES = 2


def physical_pages() -> int:
    g = GEOMETRY
    return (
        g["Flash_Channel_Count"]
        * g["Chip_No_Per_Channel"]
        * g["Die_No_Per_Chip"]
        * g["Plane_No_Per_Die"]
        * g["Block_No_Per_Plane"]
        * g["Page_No_Per_Block"]
    )


def logical_pages() -> int:
    # Address_Mapping_Unit_Base: total_logical_pages_no = physical * (1 - overprovisioning)
    return int(physical_pages() * (1 - NATIVE_OP_RATIO))


def ssd_config(gc_threshold: float = GC_EXEC_THRESHOLD) -> str:
    g = GEOMETRY
    return f"""<?xml version="1.0" encoding="us-ascii"?>
<Execution_Parameter_Set>
<Host_Parameter_Set>
<PCIe_Lane_Bandwidth>1.00000</PCIe_Lane_Bandwidth><PCIe_Lane_Count>4</PCIe_Lane_Count>
<SATA_Processing_Delay>400000</SATA_Processing_Delay>
<Enable_ResponseTime_Logging>false</Enable_ResponseTime_Logging>
<ResponseTime_Logging_Period_Length>1000000</ResponseTime_Logging_Period_Length>
</Host_Parameter_Set>
<Device_Parameter_Set>
<Seed>321</Seed><Enabled_Preconditioning>false</Enabled_Preconditioning>
<Memory_Type>FLASH</Memory_Type><HostInterface_Type>NVME</HostInterface_Type>
<IO_Queue_Depth>1024</IO_Queue_Depth><Queue_Fetch_Size>512</Queue_Fetch_Size>
<Caching_Mechanism>ADVANCED</Caching_Mechanism><Data_Cache_Sharing_Mode>SHARED</Data_Cache_Sharing_Mode>
<Data_Cache_Capacity>8388608</Data_Cache_Capacity><Data_Cache_DRAM_Row_Size>8192</Data_Cache_DRAM_Row_Size>
<Data_Cache_DRAM_Data_Rate>100</Data_Cache_DRAM_Data_Rate><Data_Cache_DRAM_Data_Busrt_Size>1</Data_Cache_DRAM_Data_Busrt_Size>
<Data_Cache_DRAM_tRCD>13</Data_Cache_DRAM_tRCD><Data_Cache_DRAM_tCL>13</Data_Cache_DRAM_tCL><Data_Cache_DRAM_tRP>13</Data_Cache_DRAM_tRP>
<Address_Mapping>PAGE_LEVEL</Address_Mapping><Ideal_Mapping_Table>false</Ideal_Mapping_Table>
<CMT_Capacity>2097152</CMT_Capacity><CMT_Sharing_Mode>SHARED</CMT_Sharing_Mode>
<Plane_Allocation_Scheme>CWDP</Plane_Allocation_Scheme>
<Transaction_Scheduling_Policy>PRIORITY_OUT_OF_ORDER</Transaction_Scheduling_Policy>
<Overprovisioning_Ratio>{NATIVE_OP_RATIO}</Overprovisioning_Ratio>
<GC_Exec_Threshold>{gc_threshold:.5f}</GC_Exec_Threshold><GC_Block_Selection_Policy>RGA</GC_Block_Selection_Policy>
<Use_Copyback_for_GC>false</Use_Copyback_for_GC><Preemptible_GC_Enabled>false</Preemptible_GC_Enabled>
<GC_Hard_Threshold>0.005000</GC_Hard_Threshold>
<Dynamic_Wearleveling_Enabled>true</Dynamic_Wearleveling_Enabled>
<Static_Wearleveling_Enabled>true</Static_Wearleveling_Enabled><Static_Wearleveling_Threshold>100</Static_Wearleveling_Threshold>
<Preferred_suspend_erase_time_for_read>700000</Preferred_suspend_erase_time_for_read>
<Preferred_suspend_erase_time_for_write>700000</Preferred_suspend_erase_time_for_write>
<Preferred_suspend_write_time_for_read>100000</Preferred_suspend_write_time_for_read>
<Flash_Channel_Count>{g["Flash_Channel_Count"]}</Flash_Channel_Count><Flash_Channel_Width>1</Flash_Channel_Width>
<Channel_Transfer_Rate>333</Channel_Transfer_Rate><Chip_No_Per_Channel>{g["Chip_No_Per_Channel"]}</Chip_No_Per_Channel>
<Flash_Comm_Protocol>NVDDR2</Flash_Comm_Protocol>
<Flash_Parameter_Set>
<Flash_Technology>MLC</Flash_Technology><CMD_Suspension_Support>ERASE</CMD_Suspension_Support>
<Page_Read_Latency_LSB>75000</Page_Read_Latency_LSB><Page_Read_Latency_CSB>75000</Page_Read_Latency_CSB>
<Page_Read_Latency_MSB>75000</Page_Read_Latency_MSB><Page_Program_Latency_LSB>750000</Page_Program_Latency_LSB>
<Page_Program_Latency_CSB>750000</Page_Program_Latency_CSB><Page_Program_Latency_MSB>750000</Page_Program_Latency_MSB>
<Block_Erase_Latency>3800000</Block_Erase_Latency><Block_PE_Cycles_Limit>10000</Block_PE_Cycles_Limit>
<Suspend_Erase_Time>700000</Suspend_Erase_Time><Suspend_Program_Time>100000</Suspend_Program_Time>
<Die_No_Per_Chip>{g["Die_No_Per_Chip"]}</Die_No_Per_Chip><Plane_No_Per_Die>{g["Plane_No_Per_Die"]}</Plane_No_Per_Die>
<Block_No_Per_Plane>{g["Block_No_Per_Plane"]}</Block_No_Per_Plane><Page_No_Per_Block>{g["Page_No_Per_Block"]}</Page_No_Per_Block>
<Page_Capacity>{g["Page_Capacity"]}</Page_Capacity><Page_Metadat_Capacity>448</Page_Metadat_Capacity>
</Flash_Parameter_Set>
</Device_Parameter_Set>
</Execution_Parameter_Set>
"""


def workload(extra_op: int, qd: int, requests: int) -> str:
    g = GEOMETRY
    ids = lambda n: ",".join(str(i) for i in range(n))  # noqa: E731
    return f"""<?xml version="1.0" encoding="us-ascii"?>
<MQSim_IO_Scenarios><IO_Scenario><IO_Flow_Parameter_Set_Synthetic>
<Priority_Class>HIGH</Priority_Class><Device_Level_Data_Caching_Mode>TURNED_OFF</Device_Level_Data_Caching_Mode>
<Channel_IDs>{ids(g["Flash_Channel_Count"])}</Channel_IDs><Chip_IDs>{ids(g["Chip_No_Per_Channel"])}</Chip_IDs>
<Die_IDs>{ids(g["Die_No_Per_Chip"])}</Die_IDs><Plane_IDs>{ids(g["Plane_No_Per_Die"])}</Plane_IDs>
<Initial_Occupancy_Percentage>0</Initial_Occupancy_Percentage>
<Working_Set_Percentage>{100 - extra_op}</Working_Set_Percentage>
<Synthetic_Generator_Type>QUEUE_DEPTH</Synthetic_Generator_Type><Read_Percentage>0</Read_Percentage>
<Address_Distribution>RANDOM_UNIFORM</Address_Distribution><Percentage_of_Hot_Region>0</Percentage_of_Hot_Region>
<Generated_Aligned_Addresses>true</Generated_Aligned_Addresses><Address_Alignment_Unit>8</Address_Alignment_Unit>
<Request_Size_Distribution>FIXED</Request_Size_Distribution><Average_Request_Size>8</Average_Request_Size>
<Variance_Request_Size>0</Variance_Request_Size><Seed>798</Seed>
<Average_No_of_Reqs_in_Queue>{qd}</Average_No_of_Reqs_in_Queue><Intensity>32768</Intensity>
<Stop_Time>0</Stop_Time><Total_Requests_To_Generate>{requests}</Total_Requests_To_Generate>
</IO_Flow_Parameter_Set_Synthetic></IO_Scenario></MQSim_IO_Scenarios>
"""


def attr(text: str, name: str) -> float:
    m = re.search(rf'\b{name}="([^"]*)"', text) or re.search(rf"<{name}>([^<]*)</{name}>", text)
    if m is None:
        raise ValueError(f"MQSim output has no {name}")
    return float(m.group(1))


def run(binary: Path, folder: Path, tag: str, extra_op: int, qd: int, requests: int,
        gc_threshold: float = GC_EXEC_THRESHOLD) -> dict:  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    cfg = folder / f"{tag}-ssd.xml"
    wl = folder / f"{tag}.xml"
    cfg.write_text(ssd_config(gc_threshold))
    wl.write_text(workload(extra_op, qd, requests))
    t0 = time.monotonic()
    retries = 0
    while True:
        # the files by name in the run's folder, so that every run of a case passes MQSim
        # arguments of one length (its heap layout, which orders some of its work: below);
        # a retry prefixes them with "./" to run it on another layout
        prefix = "./" * retries
        done = subprocess.run(
            ["nice", str(binary), "-i", prefix + cfg.name, "-w", prefix + wl.name],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder,
        )  # fmt: skip
        if done.returncode == 0 or retries == RETRIES:
            break
        retries += 1
    done.check_returncode()
    out = (folder / f"{tag}_scenario_1.xml").read_text()
    count = attr(out, "Request_Count")
    iops = attr(out, "IOPS")
    gc_runs = attr(out, "Total_GC_Executions")
    moves = attr(out, "Average_Page_Movement_For_GC") * gc_runs if gc_runs else 0.0
    planes = GEOMETRY["Plane_No_Per_Die"]  # a multi-plane program is on one die
    return {
        "requests": count,
        "sim_s": count / iops,
        "gc_runs": gc_runs,
        "gc_moves": moves,
        "erases": attr(out, "Issued_Flash_Erase_CMD")
        + attr(out, "Issued_Flash_Multiplane_Erase_CMD"),
        # NAND pages programmed (host, GC, wear levelling, mapping): a multi-plane program
        # writes one page per plane of its die (MQSim's planes are 2: a multi-plane command
        # holds both)
        "nand_pages": attr(out, "Issued_Flash_Program_CMD")
        + planes * attr(out, "Issued_Flash_Multiplane_Program_CMD")
        + attr(out, "Issued_Flash_Copyback_Program_CMD"),
        "wall_s": time.monotonic() - t0,
        "retries": retries,
    }


CHECKPOINTS = 8  # the run is cut into 8 equal parts of host writes
FIRST_CHECKPOINT = 3  # runs end at 3/8, 4/8, ..., 8/8 of D (--first-checkpoint)


def measure(binary: Path, work: Path, extra_op: int, qd: int, drive_writes: float,
            first: int = FIRST_CHECKPOINT,
            gc_threshold: float = GC_EXEC_THRESHOLD) -> dict:  # fmt: skip
    span = int(logical_pages() * (100 - extra_op) / 100)
    folder = work / f"op{extra_op}-qd{qd}"
    fob = run(binary, folder, "fob", extra_op, qd, int(span * FOB_SPAN_WRITES), gc_threshold)
    if fob["gc_runs"]:
        raise RuntimeError(f"GC ran in the FOB run at {extra_op}%")
    fob_iops = fob["requests"] / fob["sim_s"]
    cps = []
    for k in range(first, CHECKPOINTS + 1):
        n = int(span * drive_writes * k / CHECKPOINTS)
        cps.append(run(binary, folder, f"w{k}", extra_op, qd, n, gc_threshold))
    series = []
    for a, b in zip(cps, cps[1:], strict=False):
        host = b["requests"] - a["requests"]
        series.append({
            "span_writes": b["requests"] / span,
            "t_s": b["sim_s"],
            "iops": host / (b["sim_s"] - a["sim_s"]),
            "waf": (b["nand_pages"] - a["nand_pages"]) / host,
            "waf_gc_moves": 1 + (b["gc_moves"] - a["gc_moves"]) / host,
            "gc_runs": b["gc_runs"] - a["gc_runs"],
        })  # fmt: skip
    last = series[-2:]  # the steady window: the last quarter of the run
    host = cps[-1]["requests"] - cps[-3]["requests"]
    steady_iops = host / (cps[-1]["sim_s"] - cps[-3]["sim_s"])
    steady_waf = (cps[-1]["nand_pages"] - cps[-3]["nand_pages"]) / host
    tail = series[-4:]  # the last half: range and trend within the tolerance
    rule = {}
    for key in ("iops", "waf"):
        vals = [r[key] for r in tail]
        mean = statistics.fmean(vals)
        rule[f"{key}_half_range"] = (max(vals) - min(vals)) / 2 / mean
        rule[f"{key}_trend"] = abs(statistics.fmean(vals[2:]) - statistics.fmean(vals[:2])) / mean
    settled = all(v <= common.WINDOW_TOLERANCE for v in rule.values())
    return {
        "extra_op_percent": extra_op,
        "queue_depth": qd,
        "span_pages": span,
        "drive_writes": drive_writes,
        "steady_iops": steady_iops,
        "steady_waf": steady_waf,
        "fob_iops": fob_iops,
        "fob": {"span_writes": FOB_SPAN_WRITES, "gc_runs": fob["gc_runs"]},
        "steady_window": {
            "span_writes": [
                last[0]["span_writes"] - drive_writes / CHECKPOINTS,
                last[-1]["span_writes"],
            ],
            "settled": settled,
            "rule": rule | {"intervals": len(tail), "tolerance": common.WINDOW_TOLERANCE},
        },
        "series": series,
        "wall_s": sum(c["wall_s"] for c in cps) + fob["wall_s"],
        "retries": sum(c["retries"] for c in cps) + fob["retries"],
    }


def main(argv: list[str] | None = None) -> int:
    global NATIVE_OP_RATIO
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common.add_arguments(
        ap,
        qd_sweep="4,128@0,40",
        drive_writes=12.0,
        out=Path(__file__).parent / "results" / "mqsim.json",
    )
    ap.add_argument("--first-checkpoint", type=int, default=FIRST_CHECKPOINT)
    ap.add_argument(
        "--gc-threshold",
        type=float,
        default=GC_EXEC_THRESHOLD,
        help="GC_Exec_Threshold: GC below this share of a plane's blocks free (MQSim's "
        "shipped 0.05; at most 10 collections per plane at once, so below 10 blocks it is 10)",
    )
    ap.add_argument(
        "--chips",
        type=int,
        default=GEOMETRY["Chip_No_Per_Channel"],
        help="Chip_No_Per_Channel (1 by default): chips of one die of Plane_No_Per_Die planes "
        "each that run their commands at once (MQSim issues a command to an idle chip only, so "
        "the dies of one chip take turns)",
    )
    geometry_options = {  # option: (GEOMETRY key, what it sets)
        "--planes-per-die": ("Plane_No_Per_Die", "2 by default"),
        "--blocks-per-plane": ("Block_No_Per_Plane", "1,024 by default; RGA's sample is log2 "
                               "of it, the GC threshold GC_Exec_Threshold of it"),
        "--pages-per-block": ("Page_No_Per_Block", "32 by default"),
    }  # fmt: skip
    for option, (key, what) in geometry_options.items():
        ap.add_argument(option, type=int, default=GEOMETRY[key], help=f"{key} ({what})")
    ap.add_argument(
        "--native-op",
        type=float,
        default=0.07,
        help="Overprovisioning_Ratio, the native spare (MQSim's shipped 0.07: the host sees "
        "93%% of the pages)",
    )
    args = ap.parse_args(argv)
    NATIVE_OP_RATIO = args.native_op
    GEOMETRY["Chip_No_Per_Channel"] = args.chips
    for option, (key, _) in geometry_options.items():
        GEOMETRY[key] = getattr(args, option[2:].replace("-", "_"))
    cases = common.cases(args.extra_op, args.qd, args.qd_sweep)
    doc = {
        "simulator": "MQSim",
        "repository": "https://github.com/CMU-SAFARI/MQSim",
        **common.provenance(args.binary, "mqsim.py", sys.argv[1:] if argv is None else argv),
        "patch": args.patch,
        "extra_op_definition": "native spare from Overprovisioning_Ratio kept; the workload's "
        "span is (100 - X)% of the user space (Working_Set_Percentage)",
        "advertised_bytes": logical_pages() * GEOMETRY["Page_Capacity"],
        "physical_bytes": physical_pages() * GEOMETRY["Page_Capacity"],
        "config": {
            "geometry": GEOMETRY,
            "Overprovisioning_Ratio": NATIVE_OP_RATIO,
            "gc": f"RGA (d-choices), GC_Exec_Threshold {args.gc_threshold:g} free blocks per "
            "plane, GC_Hard_Threshold 0.005, Preemptible_GC_Enabled false, copyback off",
            "flash": "MLC: read 75 us, program 750 us, erase 3.8 ms; NVMe, PCIe 4 lanes",
            "cache": "Device_Level_Data_Caching_Mode TURNED_OFF; Ideal_Mapping_Table false "
            "with a 2 MiB CMT that holds the whole map",
            "preconditioning": "off: every run starts from an empty drive",
        },
        "workload": "4 KiB random writes (RANDOM_UNIFORM, aligned, 8 sectors), closed loop at "
        "the queue depth (QUEUE_DEPTH generator)",
        "drive_writes": args.drive_writes,
        "levels": [],
    }
    common.run_cases(
        doc,
        cases,
        lambda op, qd: measure(
            args.binary,
            args.work,
            op,
            qd,
            args.drive_writes,
            args.first_checkpoint,
            args.gc_threshold,
        ),
        args.out,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
