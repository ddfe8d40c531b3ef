"""Run loop for WiscSim's DFTL-DES (WiscSee, He et al., EuroSys 2017) on 4 KiB random writes.

    python2.7 harness.py SPEC.json REPORT_FILE     (WiscSee's folder and its packages on PYTHONPATH)

WiscSee is Python 2 (print statements, `Queue`), so this file runs under python2.7; it is
written to be valid Python 3 too (the project's linters read it). It builds WiscSim's own
simulator as its SimulatorDESNew does (a simpy environment, WiscSim's `ssdframework.Ssd` with
its NCQ, its `dftldes.Ftl`, its `controller.Controller3` and its `recorder.Recorder`) and feeds
the NCQ from a generator instead of WiscSee's blktrace-driven `Host`: a sequential fill of the
span, then `random_writes` uniform random 4 KiB writes over it (seed `seed`), all issued at time
0 (a closed loop at the NCQ depth: WiscSim's `ncq_depth` workers each take the next request when
they finish one). Nothing of WiscSim is changed; one wrapper counts a request when WiscSim's
`Ftl.write_ext` returns, and every `report_every` completions the REPORT_FILE gets a line

    R <requests completed> <simulated ns> <page programs> <block erases> <page reads>

(the last three WiscSim's own `flash_ops` counters, kept by `Controller3.execute_request` for
every flash operation: the host's, GC's and translation pages'), after a first line

    G <channels> <blocks a channel> <pages a block> <ncq depth> <over_provisioning>
      <GC high> <GC low> <n_gc_procs>

SPEC.json: {"channels", "blocks_per_channel", "pages_per_block", "over_provisioning",
"gc_high", "gc_low", "n_gc_procs", "t_prog_ns", "t_read_ns", "t_erase_ns", "ncq_depth",
"span_pages", "random_writes", "report_every", "seed", "result_dir",
"do_not_check_gc_setting"} and, optionally, "fix_move_race" (default false).

"fix_move_race": WiscSim's GC move (`dftldes.DataBlockCleaner._clean_page`) reads a valid page,
programs its copy, then points the mapping at the copy and marks it valid with no check that the
logical page still maps to the page it read; a host write to that page in between (another NCQ
worker) is lost from the mapping and its page stays valid forever (leaked valid pages:
bench/foreign/results/wiscsee2/valid_pages.log). With the option, `fix_move_race` below changes
that at run time, as a correct DFTL does: the move remaps only if the logical page still maps to
the page it read (else its copy is marked invalid), and a host write invalidates the page its
logical page maps to when its mapping is updated (not the one it looked up earlier). Off, WiscSim
runs as it is.
"""

import json
import random
import sys


def build(spec):
    """WiscSim's dftldes configuration for `spec`: its defaults with this drive's lines."""
    import config  # WiscSee's
    import wiscsim.dftldes

    conf = wiscsim.dftldes.Config()
    fc = conf["flash_config"]
    fc["page_size"] = 4096
    fc["n_pages_per_block"] = spec["pages_per_block"]
    fc["n_blocks_per_plane"] = spec["blocks_per_channel"]
    fc["n_planes_per_chip"] = 1
    fc["n_chips_per_package"] = 1
    fc["n_packages_per_channel"] = 1
    fc["n_channels_per_dev"] = spec["channels"]
    fc["t_R"] = spec["t_read_ns"]
    fc["t_PROG"] = spec["t_prog_ns"]
    fc["t_BERS"] = spec["t_erase_ns"]
    conf["SSDFramework"]["ncq_depth"] = spec["ncq_depth"]
    conf["ftl_type"] = "dftldes"
    conf["simulator_class"] = "SimulatorDESNew"
    conf["stripe_size"] = 1
    conf["n_gc_procs"] = spec["n_gc_procs"]
    conf["over_provisioning"] = spec["over_provisioning"]
    conf.GC_high_threshold_ratio = spec["gc_high"]
    conf.GC_low_threshold_ratio = spec["gc_low"]
    # WiscSim refuses a drive with fewer than 32 blocks above the GC threshold unless told not
    # to check (WiscSee's own experiments set not_check_gc_setting); a small drive needs it
    conf["do_not_check_gc_setting"] = spec["do_not_check_gc_setting"]
    conf["write_gc_log"] = False
    conf["result_dir"] = spec["result_dir"]
    conf["output_target"] = "file"
    # the whole mapping table cached: a page-mapped FTL (WiscSee's experiments set
    # cache_mapped_data_bytes to the logical space for the same); in whole translation pages,
    # the unit its cache loads
    conf.n_cache_entries = conf.total_translation_pages() * conf.n_mapping_entries_per_page
    assert isinstance(conf, config.Config)
    return conf


def events(spec, sector_size, op_write):
    """The host's requests: the fill, then the random writes (each one 4 KiB Event)."""
    import wiscsim.hostevent as hostevent

    page = 4096
    for p in range(spec["span_pages"]):
        yield hostevent.Event(sector_size, 0, op_write, p * page, page)
    rng = random.Random(spec["seed"])
    for _ in range(spec["random_writes"]):
        lpn = rng.randrange(spec["span_pages"])
        yield hostevent.Event(sector_size, 0, op_write, lpn * page, page)


def _remap(mappings, oob, lpn, new_ppn, expected_ppn, update_time):
    """Point `lpn` at `new_ppn` and mark it valid, invalidating the page `lpn` maps to now, as one
    step under WiscSim's lock of the translation page; if `expected_ppn` is given and `lpn` maps
    elsewhere now, change nothing and return False. Needs the whole mapping table cached."""
    m_vpn = mappings.conf.lpn_to_m_vpn(lpn)
    locks = mappings._m_vpn_interface_lock
    req = locks.get_request(m_vpn)
    yield req
    try:
        if not mappings._lpn_table.has_lpn(lpn):
            raise RuntimeError("fix_move_race: page not in the mapping cache: " + str(lpn))
        current = mappings._lpn_table.lpn_to_ppn(lpn)
        moved = expected_ppn is None or current == expected_ppn
        if moved:
            mappings.recorder.count_me("translation", "overwrite-in-cache")
            mappings._lpn_table.overwrite_lpn(lpn, new_ppn, dirty=True)
            oob.relocate_data_page(lpn=lpn, old_ppn=current, new_ppn=new_ppn,
                                   update_time=update_time)  # fmt: skip
    finally:
        locks.release_request(m_vpn, req)
    mappings.env.exit(moved)


def fix_move_race(ftl):
    """Make `ftl`'s (a dftldes.Ftl) GC moves and host writes update a mapping only from what it
    holds when they change it (the module docstring's "fix_move_race"); returns the counter of
    moves dropped because the host rewrote their page meanwhile."""
    import wiscsim.dftldes as dftldes

    cleaner = ftl._cleaner
    data = cleaner._datablockcleaner
    env = ftl.env
    dropped = {"moves": 0}

    def clean_page(ppn, purpose):
        # WiscSim's DataBlockCleaner._clean_page, its last step replaced by _remap
        assert data.oob.states.is_page_valid(ppn) is True
        if purpose == dftldes.PURPOSE_GC:
            data.recorder.count_me("gc", "user.page.moves")
            choice = dftldes.LEAST_ERASED
        else:
            data.recorder.count_me("wearleveling", "user.page.moves")
            choice = dftldes.MOST_ERASED
        yield env.process(data.flash.rw_ppn_extent(
            ppn, 1, "read", tag=data.recorder.get_tag("read.data.gc", None)))  # fmt: skip
        new_ppn = data.block_pool.next_gc_data_page_to_program(choice)
        yield env.process(data.flash.rw_ppn_extent(
            new_ppn, 1, "write", tag=data.recorder.get_tag("write.data.gc", None)))  # fmt: skip
        lpn = data.oob.ppn_to_lpn_or_mvpn(ppn)
        moved = yield env.process(_remap(data.mappings, data.oob, lpn, new_ppn, ppn, False))
        if not moved:
            data.oob.invalidate_ppn(new_ppn)
            dropped["moves"] += 1

    def relocate(lpn, old_ppn, new_ppn, tag=None):
        # Ftl._update_metadata_for_relocating_lpn: the page invalidated is the one mapped now
        yield env.process(_remap(ftl._mappings, ftl.oob, lpn, new_ppn, None, True))

    data._clean_page = clean_page
    ftl._update_metadata_for_relocating_lpn = relocate
    return dropped


def line(tag, *fields):
    """One report line: the tag, then the fields separated by spaces."""
    return " ".join([tag] + [str(f) for f in fields]) + "\n"


def run(spec, out):
    """Build WiscSim's SSD for `spec`, feed it the requests and write the report to `out`."""
    import simpy
    import wiscsim.recorder as recorder
    import wiscsim.ssdframework as ssdframework
    from commons import OP_ERASE, OP_READ, OP_SHUT_SSD, OP_WRITE
    from wiscsim.ftlsim_commons import NCQSingleQueue
    from wiscsim.hostevent import ControlEvent

    conf = build(spec)
    rec = recorder.Recorder(output_target="file", output_directory=spec["result_dir"],
                            verbose_level=-1, print_when_finished=False)  # fmt: skip
    rec.enable()
    env = simpy.Environment()
    depth = spec["ncq_depth"]
    ncq = NCQSingleQueue(ncq_depth=depth, simpy_env=env)
    ncq.queue = simpy.Store(env, capacity=depth)  # the host waits for room: same closed loop
    ssd = ssdframework.Ssd(conf, env, ncq, rec)
    total = spec["span_pages"] + spec["random_writes"]
    state = {"done": 0}
    write_ext = ssd.ftl.write_ext

    def report():
        flash = [rec.get_count_me("flash_ops", op) for op in (OP_WRITE, OP_ERASE, OP_READ)]
        out.write(line("R", state["done"], int(env.now), *flash))
        out.flush()

    def counted(extent):
        yield env.process(write_ext(extent))
        state["done"] += 1
        if state["done"] % spec["report_every"] == 0 or state["done"] == total:
            report()

    ssd.ftl.write_ext = counted
    if spec.get("fix_move_race", False):
        fix_move_race(ssd.ftl)

    def host():
        for ev in events(spec, conf["sector_size"], OP_WRITE):
            yield ncq.queue.put(ev)
        yield ncq.queue.put(ControlEvent(OP_SHUT_SSD))

    fc = conf["flash_config"]
    out.write(line("G", fc["n_channels_per_dev"], conf.n_blocks_per_channel,
                   fc["n_pages_per_block"], depth, conf["over_provisioning"],
                   conf.GC_high_threshold_ratio, conf.GC_low_threshold_ratio,
                   conf["n_gc_procs"]))  # fmt: skip
    env.process(host())
    env.process(ssd.run())
    env.run()


def main(argv):
    with open(argv[1]) as f:
        spec = json.load(f)
    with open(argv[2], "w") as out:
        run(spec, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
