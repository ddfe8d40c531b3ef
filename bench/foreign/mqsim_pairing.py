"""MQSim's multi-plane pairing share: a model of its scheduler, and the core on its geometry.

    python bench/foreign/mqsim_pairing.py scheduler --out FILE.json [--table FILE] \
        [--stored bench/foreign/results/mqsim-form/stored.json] [--seeds 1,2,3] [--host-writes N]
    PYTHONPATH=python python bench/foreign/mqsim_pairing.py twin --drive 512x32 --out FILE.json \
        [--table FILE] [--erase-hold | --plane-pools [--at-trigger] | --collections-first]

A diagnosis (docs/calibrate-validation.md, "MQSim's pairing share: what sets it, what the twin
lacks, what would identify it"), not a rule; nothing here is fitted.

``scheduler`` predicts, for each level of the stored MQSim drives, the share of program (read,
erase) commands that are multi-plane and the IOPS from MQSim's configuration and the level's
measured WAF alone, with a queue model of one chip of one die of two planes as CMU-SAFARI/MQSim
``7ec40e3b`` schedules it (read from ``src/ssd/``; :func:`scheduler_model`). It is a model of
the scheduler, not of the FTL: each collection relocates the valid pages a victim holds at the
measured WAF, ``pages_per_block·(1 − 1/WAF)`` on average, at random page offsets of the victim.

``twin`` runs overprov's core (``crates/overprov-sim``, docs/simulator.md: multi-plane programs,
GC relocations in them, pairing at one page offset, the two GC triggers) on MQSim's geometry and
NAND times (:func:`twin_config`) at 0–40% extra OP and QD4/32/128, to see whether its
mechanisms bend the time per NAND page as MQSim's do; with ``--erase-hold`` its one-offset
variants with and without MQSim's erase hold (``timing.gc.erase_hold``;
docs/calibrate-validation.md, "MQSim's erase hold in the core"); with ``--plane-pools`` those
variants beside the one-offset twin with MQSim's per-plane free pools (``ftl.plane_pools``,
the plane whose pool ran low collecting; docs/calibrate-validation.md, "MQSim's per-plane
pools in the core").
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import mqsim  # noqa: E402
import mqsim_commands  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402

LEVELS = (0, 10, 20, 30, 40)
#: One 4 KiB page on MQSim's channel as configured by ``mqsim.py`` (333 MT/s, 8 bits wide).
TRANSFER_US = 4096 / 333.0
#: MQSim's ``max_ongoing_gc_reqs_per_plane`` (its default, ``GC_and_WL_Unit_Page_Level.h``):
#: collections in flight a plane at most, the GC threshold's floor, and the free blocks below
#: which a plane's host writes are held back (``Stop_servicing_writes``).
MAX_ONGOING = 10
#: The twin's variants (``twin``): name -> (planes a die, page offsets pairing, GC trigger,
#: MQSim's erase hold, ``timing.gc.erase_hold``[, a free pool a plane, ``ftl.plane_pools``]).
TWIN_VARIANTS = {
    "one plane": (1, 0, "victim", False),
    "two planes, any free plane, victim's plane": (2, 0, "victim", False),
    "two planes, one offset, victim's plane": (2, -1, "victim", False),
    "two planes, one offset, writer's plane": (2, -1, "writer", False),
}
#: ``twin --erase-hold``: the one-offset variants with and without the hold, beside one plane.
HOLD_VARIANTS = {
    "one plane": TWIN_VARIANTS["one plane"],
    **{f"{name}{hold}": (*v[:3], bool(hold))
       for name, v in TWIN_VARIANTS.items() if v[1] < 0 for hold in ("", ", erase hold")},
}  # fmt: skip
#: ``twin --plane-pools``: the one-offset variants without the hold, beside one plane and the
#: one-offset twin with a free pool a plane (its victim's plane is the plane that ran low).
POOL_VARIANTS = {
    **{name: v for name, v in TWIN_VARIANTS.items() if v[0] == 1 or v[1] < 0},
    "two planes, one offset, plane pools": (2, -1, "victim", False, True),
}
#: ``twin --plane-pools --at-trigger``: those variants beside the one-offset twins with a
#: collection's relocations queued at its trigger (``timing.gc.relocations_at_trigger``), with
#: and without a free pool a plane.
AT_TRIGGER_VARIANTS = {
    **POOL_VARIANTS,
    "two planes, one offset, victim's plane, relocations at trigger": (2, -1, "victim", False,
                                                                      False, True),
    "two planes, one offset, plane pools, relocations at trigger": (2, -1, "victim", False, True,
                                                                   True),
}  # fmt: skip
#: ``twin --collections-first``: the plane-pools twin with neither option, with
#: ``relocations_at_trigger``, and with it and ``timing.gc.collections_first`` (a collection
#: ahead of the host programs queued at its trigger; bench/foreign/results/mqmid/RULE.md).
_POOLS = "two planes, one offset, plane pools"
COLLECTIONS_FIRST_VARIANTS = {
    _POOLS: AT_TRIGGER_VARIANTS[_POOLS],
    f"{_POOLS}, relocations at trigger": AT_TRIGGER_VARIANTS[f"{_POOLS}, relocations at trigger"],
    f"{_POOLS}, relocations at trigger, collections first": (2, -1, "victim", False, True, True,
                                                             True),
}  # fmt: skip


def scheduler_model(
    pages_per_block: int, blocks_per_plane: int, waf: float, queue_depth: int,
    host_writes: int = 20_000, warmup: int = 5_000, seed: int = 1,
    gc_threshold: float = mqsim.GC_EXEC_THRESHOLD, erase_holds_programs: bool = True,
    queued_first: bool = False, trace: list | None = None, rga_empty_picks: bool = False,
) -> dict[str, float]:  # fmt: skip
    """The multi-plane shares and IOPS of MQSim's scheduler on one die of two planes.

    What it keeps of MQSim (``src/ssd/``): a closed loop of ``queue_depth`` 4 KiB writes, each
    to a uniformly random plane (``CWDP``), its page the next of its plane's user frontier when
    it arrives; a plane whose pool is below :data:`MAX_ONGOING` free blocks holds its writes
    back until an erase returns one (``Stop_servicing_writes``; the parked writes resumed, the
    patched build's first patch). Every block a frontier takes, and every erase (the third
    patch), checks the plane's pool: below ``gc_threshold`` of its blocks (at least
    :data:`MAX_ONGOING`) one collection starts, if fewer than :data:`MAX_ONGOING` are in flight
    there (``Check_gc_required``). A collection submits a read for each valid page at once
    (offsets a random subset of the victim's); a read's relocation is placed when it completes
    on the plane's GC frontier; its erase is queued from the start and ready when every
    relocation is programmed. The die, when idle, serves GC reads first, then programs — GC
    writes first and host writes as the second source, no program at all while an erase is
    queued and no GC write waits, host writes alone otherwise (``TSU_Priority_OutOfOrder``,
    non-preemptible GC) — then erases; a command takes the first source's front and then, in
    queue order, ready transactions on the other plane at the front's page offset
    (``TSU_Base::issue_command_to_chip``). Read 75 µs, program 750 µs, erase 3.8 ms, plus a
    channel transfer a page (:data:`TRANSFER_US`). Not kept: the FTL (the victims' valid pages
    come from ``waf``), mapping reads, the host interface, wear levelling.

    ``erase_holds_programs`` False lifts one rule, for a what-if: host writes are then
    programmed alone while an erase is queued (a collection holds only its own plane's writes
    and those joining its relocations, as in the core's twin). ``queued_first`` True is another
    (bench/foreign/results/mqmid/DIAGNOSIS.md): the host writes queued when a collection starts
    are programmed before its reads and writes, as the core's request-order die books them
    (later writes may still join them at their offset), instead of being held behind it.

    ``rga_empty_picks`` True is a third (bench/foreign/results/mqstatic/DIAGNOSIS.md): a
    victim's valid pages are drawn Binomial(``pages_per_block``, q), q such that the victims
    collected keep the mean the WAF asks for (:func:`page_valid_share`), and a draw with every
    page valid starts no collection — MQSim's RGA pick with no
    invalid page (``GC_and_WL_Unit_Page_Level.cpp`` l. 79–84, 143), the check spent; the next
    check on the plane (its next frontier block or erase) draws again.

    ``trace``, a list, receives one tuple a command for diagnosis (results/mqorder/):
    (start µs, kind ``r``/``p``/``e``, planes in it, host writes in it, free blocks of plane 0
    and 1, collections in flight on plane 0 and 1, host writes queued for plane 0 and 1, the
    plane of its first transaction).

    Returns the shares of program, read and erase commands that are multi-plane, the IOPS and
    WAF of the ``host_writes`` after ``warmup``, and ``overlap``: the share of that time both
    planes had a collection in flight."""
    rng = random.Random(seed)
    n = pages_per_block
    soft = max(MAX_ONGOING, int(gc_threshold * blocks_per_plane))
    mean_valid = n * (1 - 1 / waf)
    valid_share = page_valid_share(n, mean_valid) if rga_empty_picks else 0.0
    pool = [soft, soft]
    user_off, gc_off, ongoing = [0, 0], [0, 0], [0, 0]
    gc_reads: list[list[int]] = []  # [plane, offset, collection]
    gc_writes: list[list[int]] = []  # [plane, offset, collection]
    user: list[list[int]] = []  # [plane, offset]
    first: list[list[int]] = []  # [plane, offset]: queued at a collection's start (what-if)
    erases: list[list[int]] = []  # [plane, collection]
    remaining: dict[int, int] = {}
    held: list[int] = []
    started = [0]
    st = {"t": 0.0, "prog": 0, "mprog": 0, "read": 0, "mread": 0, "er": 0, "mer": 0, "both": 0.0,
          "empty": 0, "starts": 0}  # fmt: skip
    mark: dict[str, float] = {}

    def check(plane: int) -> None:
        if pool[plane] < soft and ongoing[plane] < MAX_ONGOING:
            if rga_empty_picks:
                v = sum(rng.random() < valid_share for _ in range(n))
                if v == n:
                    st["empty"] += 1
                    return
            else:
                v = min(n, int(mean_valid) + (rng.random() < mean_valid - int(mean_valid)))
            started[0] += 1
            st["starts"] += 1
            c = started[0]
            ongoing[plane] += 1
            gc_reads.extend([plane, o, c] for o in sorted(rng.sample(range(n), v)))
            remaining[c] = v
            erases.append([plane, c])
            if queued_first:
                first.extend(user)
                user.clear()

    def take_page(offsets: list[int], plane: int) -> int:
        o = offsets[plane]
        offsets[plane] = (o + 1) % n
        if offsets[plane] == 0:
            pool[plane] -= 1
            check(plane)
        return o

    def arrive(plane: int) -> None:
        if pool[plane] < MAX_ONGOING:
            held.append(plane)
        else:
            user.append([plane, take_page(user_off, plane)])

    def form(first: list[list[int]], second: list[list[int]] | None) -> list[list[int]]:
        offset, taken, used = first[0][1], [], set()
        for q in (first, second or []):
            i = 0
            while i < len(q) and len(taken) < 2:
                x = q[i]
                if x[0] not in used and (not taken or x[1] == offset):
                    taken.append(q.pop(i))
                    used.add(x[0])
                else:
                    i += 1
        return taken

    for _ in range(queue_depth):
        arrive(rng.randrange(2))
    done = 0
    while done < warmup + host_writes:
        if done >= warmup and not mark:
            mark = dict(st)
        both = ongoing[0] > 0 and ongoing[1] > 0
        if gc_reads and not first:
            cmd = form(gc_reads, None)
            dt = mqsim_commands.LATENCY_US["reads"] + TRANSFER_US * len(cmd)
            kind = "r"
            st["read"] += 1
            st["mread"] += len(cmd) > 1
            for plane, _offset, c in cmd:
                gc_writes.append([plane, take_page(gc_off, plane), c])
        elif first or gc_writes or (user and not (erases and erase_holds_programs)):
            src = first or gc_writes
            cmd = form(src, user) if src else form(user, None)
            dt = mqsim_commands.LATENCY_US["programs"] + TRANSFER_US * len(cmd)
            kind = "p"
            st["prog"] += 1
            st["mprog"] += len(cmd) > 1
            for x in cmd:
                if len(x) == 3:
                    remaining[x[2]] -= 1
                else:
                    done += 1
                    arrive(rng.randrange(2))
        else:
            ready = [e for e in erases if remaining[e[1]] == 0]
            if not ready:
                raise RuntimeError("MQSim scheduler model: nothing the die can issue")
            cmd = [ready[0]] + [e for e in ready[1:] if e[0] != ready[0][0]][:1]
            dt = mqsim_commands.LATENCY_US["erases"]
            kind = "e"
            st["er"] += 1
            st["mer"] += len(cmd) > 1
            for plane, c in cmd:
                erases.remove([plane, c])
                del remaining[c]
                pool[plane] += 1
                ongoing[plane] -= 1
            for plane, _c in cmd:
                check(plane)
            while held and pool[held[0]] >= MAX_ONGOING:
                arrive(held.pop(0))
        if trace is not None:
            hosts = sum(len(x) == 2 for x in cmd)
            queued = [sum(u[0] == p for u in user + first) for p in (0, 1)]
            trace.append((st["t"], kind, len(cmd), hosts, *pool, *ongoing, *queued, cmd[0][0]))
        st["t"] += dt
        st["both"] += dt if both else 0.0
    d = {k: st[k] - mark[k] for k in st}
    return {
        "share_programs": d["mprog"] / max(1, d["prog"]),
        "share_reads": d["mread"] / max(1, d["read"]),
        "share_erases": d["mer"] / max(1, d["er"]),
        "iops": host_writes / d["t"] * 1e6,
        "waf": (d["prog"] + d["mprog"]) / host_writes,
        "overlap": d["both"] / d["t"],
        **({"empty_picks_per_start": d["empty"] / max(1, d["starts"])} if rga_empty_picks else {}),
    }


def page_valid_share(pages_per_block: int, mean_valid: float) -> float:
    """q such that Binomial(``pages_per_block``, q) given fewer than ``pages_per_block`` has the
    mean ``mean_valid`` (bisection; the mean rises with q)."""
    n, lo, hi = pages_per_block, 0.0, 1.0
    for _ in range(60):
        q = (lo + hi) / 2
        full = q**n
        if (n * q - n * full) / (1 - full) < mean_valid:
            lo = q
        else:
            hi = q
    return (lo + hi) / 2


def drive_geometry(name: str) -> tuple[int, int]:
    """(blocks a plane, pages a block) of a stored drive's name (``u512x32``, ``u1024x32-op12``,
    ``qd-u320x32``)."""
    m = re.search(r"u(\d+)x(\d+)", name)
    if m is None:
        raise ValueError(f"{name}: no BLOCKSxPAGES in the drive's name")
    return int(m.group(1)), int(m.group(2))


def scheduler(
    stored: dict, seeds: list[int], host_writes: int, drives: list[str] | None = None,
    levels: list[int] | None = None, erase_holds_programs: bool = True,
    queue_depth: int | None = None, queued_first: bool = False, rga_empty_picks: bool = False,
) -> dict:  # fmt: skip
    """The model against each stored drive's levels (those named, or all): its shares and IOPS
    per seed, at each level's queue depth or at ``queue_depth`` (a what-if: MQSim's figures
    beside it are then those of the stored depth)."""
    rows, hold = [], erase_holds_programs
    for d in stored["drives"]:
        if drives and d["drive"] not in drives:
            continue
        blocks, pages = drive_geometry(d["drive"])
        for qd, by_level in d["levels"].items():
            for x, lv in by_level.items():
                if levels and int(x) not in levels:
                    continue
                depth = queue_depth or int(qd)
                runs = [scheduler_model(pages, blocks, lv["waf"], depth, host_writes,
                                        host_writes // 4, s, erase_holds_programs=hold,
                                        queued_first=queued_first,
                                        rga_empty_picks=rga_empty_picks)
                        for s in seeds]  # fmt: skip
                rows.append({"drive": d["drive"], "level": int(x), "queue_depth": int(qd),
                             "model_queue_depth": depth,
                             "waf": lv["waf"], "mqsim": {"iops": lv["iops"],
                             **{f"share_{k}": v for k, v in lv["multiplane_share"].items()}},
                             "model": runs})  # fmt: skip
    return {"seeds": seeds, "host_writes": host_writes, "queue_depth": queue_depth,
            "erase_holds_programs": erase_holds_programs, "queued_first": queued_first,
            "rga_empty_picks": rga_empty_picks, "rows": rows}  # fmt: skip


def scheduler_table(doc: dict) -> str:
    depth = f" (model at QD{doc['queue_depth']})" if doc.get("queue_depth") else ""
    out = [f"| drive | level{depth} | WAF | programs paired: MQSim / model (seeds) | reads | "
           "erases | both planes collecting (model) | IOPS: MQSim / model mean (range) |",
           "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in sorted(doc["rows"], key=lambda r: (r["drive"], r["queue_depth"], -r["level"])):
        m, q = r["model"], r["mqsim"]

        def seeds(k: str, m: list = m) -> str:
            return " ".join(f"{x[k]:.2f}" for x in m)

        iops = [x["iops"] for x in m]
        mean = sum(iops) / len(iops)
        out.append(
            f"| {r['drive']} | {r['level']}% QD{r['queue_depth']} | {r['waf']:.2f} | "
            f"{q['share_programs']:.2f} / {seeds('share_programs')} | "
            f"{q['share_reads']:.2f} / {seeds('share_reads')} | "
            f"{q['share_erases'] or 0:.2f} / {seeds('share_erases')} | {seeds('overlap')} | "
            f"{q['iops']:.0f} / {mean:.0f} ({100 * (min(iops) / q['iops'] - 1):+.0f}…"
            f"{100 * (max(iops) / q['iops'] - 1):+.0f}%) |"
        )
    return "\n".join(out) + "\n"


def twin_config(blocks: int, pages: int, extra_op_percent: float, queue_depth: int,
                planes: int, offsets: int, trigger: str,
                erase_hold: bool = False, plane_pools: bool = False,
                at_trigger: bool = False, collections_first: bool = False) -> dict:  # fmt: skip
    """The core on MQSim's drive as ``mqsim.py`` configures it: one die of ``planes`` planes of
    ``blocks`` blocks of ``pages`` 4 KiB pages (the two-plane drive's NAND; one plane holds
    both planes' blocks), native spare ``mqsim.NATIVE_OP_RATIO``, read / program / erase
    75 / 750 / 3,800 µs, a 333 MB/s channel, no buffer, a free host link; GC that blocks its
    plane (a domain a plane), d-choices victims (d = 10, about MQSim's RGA set), the FTL's
    pool kept at ``mqsim.GC_EXEC_THRESHOLD`` of the blocks; with two planes GC relocations in
    multi-plane programs, at one page offset of ``pages`` when ``offsets`` is −1, with MQSim's
    erase hold (``timing.gc.erase_hold``) when ``erase_hold``, a free pool a plane
    (``ftl.plane_pools``) when ``plane_pools``, a collection's relocations queued at its trigger
    (``timing.gc.relocations_at_trigger``) when ``at_trigger``, and ahead of the host programs
    queued at its trigger (``timing.gc.collections_first``) when ``collections_first``."""
    from overprov import engine

    physical = 2 * blocks * pages
    user = int(physical * (1 - mqsim.NATIVE_OP_RATIO))
    gc: dict = {"blocking": "domain", "domains": planes, "trigger": trigger}
    if planes > 1:
        gc["multiplane"] = True
        if offsets:
            gc["multiplane_offsets"] = pages if offsets < 0 else offsets
    if erase_hold:
        gc["erase_hold"] = True
    if at_trigger:
        gc["relocations_at_trigger"] = True
    if collections_first:
        gc["collections_first"] = True
    lat = mqsim_commands.LATENCY_US
    ftl: dict = {"policy": "d-choices", "d_choices": 10,
                 "gc_free_blocks": max(2, int(mqsim.GC_EXEC_THRESHOLD * 2 * blocks))}  # fmt: skip
    if plane_pools:
        ftl["plane_pools"] = planes
    return engine.merge(engine.default_config(), {
        "ftl": ftl,
        "geometry": {"page_size_bytes": 4096, "pages_per_block": pages,
                     "advertised_bytes": user * 4096, "physical_bytes": physical * 4096,
                     "extra_op_percent": float(extra_op_percent)},
        "run": {"warmup_drive_writes": 3.0, "drive_writes": 2.0, "seed": 1},
        "timing": {"enabled": True,
                   "host": {"queue_depth": queue_depth, "command_overhead_us": 0.0,
                            "link_mb_s": 1e6},
                   "nand": {"channels": 1, "dies_per_channel": 1, "planes_per_die": planes,
                            "flash_page_bytes": 4096, "die_block_bytes": 4096 * pages * planes,
                            "read_us": lat["reads"], "program_us": lat["programs"],
                            "erase_us": lat["erases"], "channel_mb_s": 333.0},
                   "buffer": {"bytes": 0, "power_loss_protected": False}, "gc": gc,
                   "state_round_drive_writes": 0.1}})  # fmt: skip


def line_errors(points: list[tuple[float, float]]) -> list[float]:
    """IOPS errors at the middle levels of the line ``t_cmd + WAF·t_page`` through the first
    and last (IOPS, WAF) points."""
    (i0, w0), (i4, w4) = points[0], points[-1]
    t_page = (1e6 / i0 - 1e6 / i4) / (w0 - w4)
    t_cmd = 1e6 / i4 - w4 * t_page
    return [1e6 / (t_cmd + w * t_page) / i - 1 for i, w in points[1:-1]]


def twin(blocks: int, pages: int, queue_depths: tuple[int, ...] = (4, 32, 128),
         variants: dict | None = None) -> dict:  # fmt: skip
    """The core's IOPS, WAF, time per NAND page and line errors per variant (default
    :data:`TWIN_VARIANTS`) and queue depth."""
    from overprov import engine

    out = {}
    for name, (planes, offsets, trigger, hold, *pools) in (variants or TWIN_VARIANTS).items():
        for qd in queue_depths:
            pts = []
            for x in LEVELS:
                cfg = twin_config(blocks, pages, x, qd, planes, offsets, trigger, hold, *pools)
                r = engine.run(cfg)
                pts.append((r["timed"]["measured"]["iops"], r["measured"]["waf"]))
            out[f"{name}, QD{qd}"] = {
                "iops": [p[0] for p in pts],
                "waf": [p[1] for p in pts],
                "page_time_us": [1e6 / (i * w) for i, w in pts],
                "line_iops_error": line_errors(pts),
            }
    return {"blocks_per_plane": blocks, "pages_per_block": pages, "levels": list(LEVELS),
            "cases": out}  # fmt: skip


def twin_table(doc: dict, stored: dict | None = None) -> str:
    """The cases' WAF, time per NAND page and line errors, MQSim's stored QD32 curve first;
    with the erase hold's cases, a second table of the program share each case's time per page
    implies against the one-plane case at its queue depth (:func:`implied_shares`)."""
    out = ["| case | WAF at 0 / 10 / 20 / 30 / 40% | time per NAND page at 0 / 10 / 20 / 30 / 40%, "
           "µs | the line through 0% and 40%: IOPS error at 10 / 20 / 30% |",
           "|---|---|---|---|"]  # fmt: skip
    rows = dict(doc["cases"])
    if stored:
        rows = {f"MQSim (u{doc['blocks_per_plane']}x{doc['pages_per_block']}), QD32": stored,
                **rows}  # fmt: skip
    for name, c in rows.items():
        out.append(
            f"| {name} | " + " / ".join(f"{w:.2f}" for w in c["waf"]) + " | "
            + " / ".join(f"{t:.0f}" for t in c["page_time_us"]) + " | "
            + " / ".join(f"{100 * e:+.1f}%" for e in c["line_iops_error"]) + " |"
        )  # fmt: skip
    if any("erase hold" in name or "plane pools" in name for name in doc["cases"]):
        out += ["", "| case | programs paired at 0 / 10 / 20 / 30 / 40% (MQSim: measured; core: "
                "implied, one plane's time per page / the case's − 1) |", "|---|---|"]  # fmt: skip
        if stored and "share_programs" in stored:
            name = f"MQSim (u{doc['blocks_per_plane']}x{doc['pages_per_block']}), QD32"
            out.append(f"| {name} | " + " / ".join(f"{x:.2f}" for x in stored["share_programs"])
                       + " |")  # fmt: skip
        for name, shares in implied_shares(doc).items():
            out.append(f"| {name} | " + " / ".join(f"{x:.2f}" for x in shares) + " |")
    return "\n".join(out) + "\n"


def implied_shares(doc: dict) -> dict[str, list[float]]:
    """Each two-plane case's share of paired programs as its time per NAND page implies:
    ``t_one / t − 1`` against the one-plane case at the same queue depth (programs only; GC
    reads and erases pairing are ignored, docs/calibrate-validation.md's approximation)."""
    out = {}
    for name, c in doc["cases"].items():
        qd = name.rsplit(", QD", 1)[1]
        one = doc["cases"].get(f"one plane, QD{qd}")
        if one is None or name.startswith("one plane"):
            continue
        pairs = zip(one["page_time_us"], c["page_time_us"], strict=True)
        out[name] = [t1 / t - 1 for t1, t in pairs]
    return out


def counter_lines(text: str, variants: dict, name: str) -> dict[tuple[str, int, int], dict]:
    """mqlock's temporary counter (``results/mqlock/diag-counter.patch``): its stderr lines
    (``MQLOCK_DIAG ...``) of one ``twin`` run over ``variants``, by (variant, queue depth,
    level) in ``twin``'s order; each line's figures, its join reasons under ``why``."""
    lines = [x for x in text.splitlines() if x.startswith("MQLOCK_DIAG")]
    keys = [(v, qd, x) for v in variants for qd in (4, 32, 128) for x in LEVELS]
    if len(keys) != len(lines):
        raise ValueError(f"{name}: {len(lines)} counter lines for {len(keys)} runs")
    out = {}
    for k, line in zip(keys, lines, strict=True):
        head, why = line.split(" why=")
        d = {a: float(b) for a, b in (kv.split("=") for kv in head.split()[1:])}
        d["why"] = ast.literal_eval(why)
        out[k] = d
    return out


def counter_cells(runs: list[dict]) -> tuple[str, str, str]:
    """The counter's cells of one case over the levels (:func:`counter_lines`' dicts, 0% first):
    both planes collecting at each level, programs paired at each level, and the relocations
    joining at 0% (the rest: none waiting / every one started / the plane taken)."""
    g = runs[0]["why"][0]
    n = max(sum(g), 1)
    return (" / ".join(f"{d['both']:.2f}" for d in runs),
            " / ".join(f"{d['share']:.2f}" for d in runs),
            f"{g[0] / n:.2f} ({g[1] / n:.2f} / {g[2] / n:.2f} / {g[3] / n:.2f})")  # fmt: skip


def stored_case(stored: dict, blocks: int, pages: int) -> dict | None:
    """MQSim's QD32 curve of the stored drive of that geometry, in ``twin``'s form."""
    for d in stored["drives"]:
        if drive_geometry(d["drive"]) == (blocks, pages) and d["drive"].count("-") == 0:
            lv = d["levels"]["32"]
            pts = [(lv[str(x)]["iops"], lv[str(x)]["waf"]) for x in LEVELS]
            return {"iops": [p[0] for p in pts], "waf": [p[1] for p in pts],
                    "page_time_us": [1e6 / (i * w) for i, w in pts],
                    "line_iops_error": line_errors(pts),
                    "share_programs": [lv[str(x)]["multiplane_share"]["programs"]
                                       for x in LEVELS]}  # fmt: skip
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("scheduler", help="the scheduler model against the stored MQSim drives")
    s.add_argument("--seeds", default="1,2,3")
    s.add_argument("--host-writes", type=int, default=20_000)
    s.add_argument("--drives", help="comma-separated drive names (default: all)")
    s.add_argument("--levels", help="comma-separated levels, percent (default: all)")
    s.add_argument(
        "--queue-depth",
        type=int,
        help="what-if: the model at this queue depth (default: each level's)",
    )
    s.add_argument("--lift-erase-hold", action="store_true",
                   help="what-if: host writes programmed alone with an erase queued")  # fmt: skip
    s.add_argument("--queued-first", action="store_true",
                   help="what-if: writes queued as a collection starts go first")  # fmt: skip
    s.add_argument("--rga-empty-picks", action="store_true",
                   help="what-if: a victim with no invalid page starts no collection")  # fmt: skip
    t = sub.add_parser("twin", help="overprov's core on MQSim's geometry")
    t.add_argument("--drive", default="512x32", help="BLOCKSxPAGES: blocks a plane, pages a block")
    hold = t.add_mutually_exclusive_group()
    hold.add_argument(
        "--erase-hold",
        action="store_true",
        help="the one-offset variants with and without MQSim's erase hold",
    )
    hold.add_argument(
        "--plane-pools",
        action="store_true",
        help="the one-offset variants beside a free pool a plane",
    )
    hold.add_argument(
        "--collections-first",
        action="store_true",
        help="at QD32: the plane-pools twin with neither option, relocations at trigger, and "
        "both with collections first",
    )
    t.add_argument(
        "--at-trigger",
        action="store_true",
        help="with --plane-pools: beside them the one-offset twins with relocations queued at "
        "the trigger",
    )
    for p in (s, t):
        p.add_argument("--stored", type=Path,
                       default=HERE / "results" / "mqsim-form" / "stored.json")  # fmt: skip
        p.add_argument("--out", type=Path, required=True)
        p.add_argument("--table", type=Path)
    args = ap.parse_args(argv)
    stored = json.loads(args.stored.read_text())
    if args.cmd == "scheduler":
        doc = scheduler(stored, [int(x) for x in args.seeds.split(",")], args.host_writes,
                        args.drives.split(",") if args.drives else None,
                        [int(x) for x in args.levels.split(",")] if args.levels else None,
                        not args.lift_erase_hold, args.queue_depth,
                        args.queued_first, args.rga_empty_picks)  # fmt: skip
        doc["command"] = "python bench/foreign/mqsim_pairing.py " + " ".join(
            a for a in (argv if argv is not None else sys.argv[1:]) if not a.startswith("/")
        )
        table = scheduler_table(doc)
    else:
        blocks, pages = (int(v) for v in args.drive.split("x"))
        cpu0 = cpu_s()
        if args.at_trigger and not args.plane_pools:
            ap.error("--at-trigger needs --plane-pools")
        pools = AT_TRIGGER_VARIANTS if args.at_trigger else POOL_VARIANTS
        variants = HOLD_VARIANTS if args.erase_hold else pools if args.plane_pools else None
        if args.collections_first:
            doc = twin(blocks, pages, (32,), COLLECTIONS_FIRST_VARIANTS)
        else:
            doc = twin(blocks, pages, variants=variants)
        doc["cpu_s"] = round(cpu_s() - cpu0, 1)
        flag = " --erase-hold" if args.erase_hold else " --plane-pools" if args.plane_pools else ""
        flag += " --collections-first" if args.collections_first else ""
        flag += " --at-trigger" if args.at_trigger else ""
        doc["command"] = f"python bench/foreign/mqsim_pairing.py twin --drive {args.drive}{flag}"
        table = twin_table(doc, stored_case(stored, blocks, pages))
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    if args.table:
        args.table.write_text(table)
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
