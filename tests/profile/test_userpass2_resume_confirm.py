"""userpass2: ``profile --resume DIR`` without the confirmation flag was refused before
``same_as()`` could say how to confirm: the refusal lacked the "name this exact device:
--i-understand-this-destroys-data /dev/loopN" hint a fresh run prints. A loop device that
reports itself rotational over a backing file that is not (an overridable refusal without
--allow-hdd), opened to resume unconfirmed, shows the refusal."""

from __future__ import annotations

import pytest
from overprov.errors import UnsafeDeviceError
from overprov.profile.fio_target import FioTarget

pytestmark = [pytest.mark.root, pytest.mark.fio]


def test_an_unconfirmed_resume_says_how_to_confirm(tmp_path, loop_device, need_fio):
    dev = loop_device(size_bytes=16 * 2**20, rotational=True)
    target = FioTarget(dev, tmp_path / "fio")
    with pytest.raises(UnsafeDeviceError) as err:
        target.open(resuming=True)
    said = str(err.value)
    assert said.startswith("--resume: refusing to write to ")
    assert f"name this exact device to confirm: --i-understand-this-destroys-data {dev}" in said
    assert target.member_names == [dev]
