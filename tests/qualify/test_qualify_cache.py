"""The cache-device test: a flush that waits for NAND fails it, a protected buffer passes,
judged from measured IOPS, not from the drive's name."""

from __future__ import annotations

from pathlib import Path

import pytest
from overprov.profile.fio_target import FioTarget
from overprov.profile.targets import RoundSpec
from overprov.qualify import cache
from overprov.qualify.bench import QualifySettings
from overprov.qualify.verdict import FAIL, PASS

REPO = Path(__file__).resolve().parents[2]
SETTINGS = QualifySettings()


def _verdict(spec: str):
    figures, method = cache.measure_sim(spec, SETTINGS)
    return cache.judge(figures, method)


def test_consumer_preset_fails_and_enterprise_passes_by_the_flush_model():
    consumer = _verdict("sim:consumer-tlc-sata@2GiB")
    enterprise = _verdict("sim:enterprise-tlc-nvme@2GiB")
    print(consumer.finding, enterprise.finding, sep="\n")
    assert consumer.verdict == FAIL and "flushes wait for NAND" in consumer.finding
    assert enterprise.verdict == PASS and "protected buffer" in enterprise.finding
    wt = consumer.figures["write_through"]
    # one flush at a time, each waiting a program of the data (SLC mode) and of the
    # metadata pages (docs/simulator.md): QD8 write-through writes cannot beat that rate
    from overprov import presets

    timing = presets.get("consumer-tlc-sata")["config"]["timing"]
    flush_us = (
        timing["slc"]["program_us"]
        + timing["flush"]["metadata_flash_pages"] * (timing["nand"]["program_us"])
    )
    write_iops = wt["iops"] * (100 - SETTINGS.read_percent) / 100
    assert write_iops <= 1e6 / flush_us * 1.05
    assert consumer.figures["write_through_ratio"] < 0.05
    assert enterprise.figures["write_through_ratio"] > 0.9


def test_the_same_drive_passes_once_its_buffer_is_power_loss_protected(tmp_path):
    text = (REPO / "docs/drives/consumer-1tb-sata.toml").read_text()
    assert "power_loss_protected = false" in text
    plp = tmp_path / "consumer-1tb-sata-plp.toml"
    plp.write_text(text.replace("power_loss_protected = false", "power_loss_protected = true"))
    volatile = _verdict(f"sim:{REPO / 'docs/drives/consumer-1tb-sata.toml'}@2GiB")
    protected = _verdict(f"sim:{plp}@2GiB")
    assert volatile.verdict == FAIL
    assert protected.verdict == PASS  # the name still says consumer: the mechanism decides
    assert (
        protected.figures["write_through"]["iops"] > 10 * volatile.figures["write_through"]["iops"]
    )


def test_mixed_write_through_rounds_reach_fio_as_randrw_and_sync(tmp_path):
    target = FioTarget(str(tmp_path / "t.img"), tmp_path / "fio", size_bytes=1 << 20)
    spec = RoundSpec("x", "randwrite", 4096, 8, 1, 1 << 20, seconds=2, read_percent=70,
                     write_through=True)  # fmt: skip
    lines = target.job_file_text(spec).splitlines()
    assert {"rw=randrw", "rwmixread=70", "sync=1"} <= set(lines)
    plain = target.job_file_text(RoundSpec("y", "randwrite", 4096, 8, 1, 1 << 20, seconds=2))
    assert "sync=1" not in plain and "rw=randwrite" in plain.splitlines()
    with pytest.raises(Exception, match="read_percent"):
        RoundSpec("z", "write", 4096, 8, 1, 1 << 20, read_percent=50)
