"""A running ``overprov exporter`` over every real smartctl -j file (tests/data/smart) and every
real NVMe log sample (tests/data/nvme-vendor), on 127.0.0.1 with a port the OS picks (the
helpers are in exporter_helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from exporter_helpers import Exporter, real_sources, start_exporter, stop


@pytest.fixture(scope="module")
def exporter(tmp_path_factory) -> Iterator[Exporter]:
    sources, pair = real_sources(tmp_path_factory.mktemp("exporter"))
    proc, url = start_exporter("--from-files", *sources)
    try:
        yield Exporter(url, sources, pair)
    finally:
        stop(proc)
