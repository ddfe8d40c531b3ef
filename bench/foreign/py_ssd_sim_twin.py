"""The twin of py_ssd_sim's drive (bench/foreign/py_ssd_sim_cliff.py): a drive dict written from
the simulator's configuration files alone (config/ssd_config.xml and the "256gb_g3" NAND of
config/nand_config.xml, at commit a9f9c73), for calibrate's cache fit and cliff prediction.

What each value is, from those files (no value is taken from a run of either simulator):

- 8 channels x 1 die (``channel``, ``way_per_channel``); a program unit of 4 planes x 8 KiB
  pages (``plane_num``, ``page_size``): 32 KiB;
- TLC program 700 us per 32 KiB (``t_prog_avg``: its one-shot program of three pages takes
  ``t_prog`` 2,100 us), read 70 us (``t_read_full``), erase 10 ms (``t_bers``); a NAND bus of
  533 MB/s per channel (``nand_if``);
- SLC mode: program 300 us (``t_prog_slc``; calibrate fits it anyway), read 30 us
  (``t_read_slc``); no size: the cache's size is what the fit sets (``with_cache``);
- a block of 1,152 pages x 32 KiB (``page_num``): 36 MiB per die;
- a 2 MiB write buffer (``<buffer><write>2MB``, read as MiB by the simulator);
- PCIe Gen3 x4 (``host_speed``): 4 lanes x 8 GT/s with 128b/130b coding, 3,938 MB/s;
- the NAND the driver's FTL writes: the ``slc_cache`` and ``user`` block groups, blocks 10-100
  of every die (91 blocks x 8 dies x 36 MiB); the host's span, 1 GiB, as the capacity (the
  driver's requests cover only it; a workload over the whole namespace would not).

``twin(channels)`` is the same drive with the driver's ``--channels`` (one die each: 4 is the
die count of the simulator's config/ufs_config.xml), its NAND scaled with the dies.

``twin(channels, one_shot=True)``: the same NAND read as the simulator programs it rather than
by its average. Its FTL programs TLC one shot, three 32 KiB pages at once (the ``user`` super
block's program unit is three pages' chunks: ``open`` of ``model.block_manager``), in
``t_prog`` 2,100 us (``calculate_tProg`` of ``model.nand`` takes ``nand_t_prog`` in TLC mode),
and an SLC page of 32 KiB in ``t_prog_slc``; its NAND model keeps a die busy for the whole
program (the program's end is one event, ``EVENT_NAND_PROG_END``; no suspend), so a read to the
die waits for it. In the core: a 96 KiB flash page programmed in 2,100 us, whole
(``timing.nand.program_granularity = "page"``: docs/simulator.md), whose SLC page is a third of
it, 32 KiB (``overprov.calibrate.read_probes.one_shot``). The TLC rate is the same (96 KiB per
2,100 us); what changes is how long a read waits behind a program.
"""

from __future__ import annotations

from overprov.calibrate import read_probes

#: the driver's span (bench/foreign/py_ssd_sim_cliff.py ``--span-mib`` 1024)
SPAN_BYTES = 2**30
DIE_BLOCK_BYTES = 1152 * 4 * 8192
#: blocks 10-100 of a die (the driver's ``slc_cache`` then ``user`` groups)
BLOCKS_PER_DIE = 91


def twin(channels: int = 8, one_shot: bool = False) -> dict:
    """The drive dict (a preset's form: python/overprov/presets.py) with ``channels`` dies;
    ``one_shot``: its NAND programmed as the simulator does, three pages whole (above)."""
    drive = {
        "description": "py_ssd_sim's drive (bench/foreign/py_ssd_sim_twin.py)",
        "source": "github.com/baramjin92/py_ssd_sim a9f9c73, config/ssd_config.xml and "
        "config/nand_config.xml (256gb_g3)",
        "advertised_bytes": SPAN_BYTES,
        "physical_bytes": BLOCKS_PER_DIE * channels * DIE_BLOCK_BYTES,
        "config": {
            "geometry": {"page_size_bytes": 4096, "pages_per_block": 1152 * 8},
            "timing": {
                "enabled": True,
                "host": {"link_mb_s": 3938.0},
                "nand": {
                    "channels": channels,
                    "dies_per_channel": 1,
                    "flash_page_bytes": 32768,
                    "read_us": 70.0,
                    "program_us": 700.0,
                    "erase_us": 10000.0,
                    "die_block_bytes": DIE_BLOCK_BYTES,
                    "channel_mb_s": 533.0,
                },
                "buffer": {"bytes": 2 * 2**20, "power_loss_protected": False},
                "slc": {
                    "enabled": True,
                    "program_us": 300.0,
                    "read_us": 30.0,
                },
            },
        },
    }
    return read_probes.one_shot(drive) if one_shot else drive
