"""The files a run keeps in its `--out` folder are its own (docs/safety.md, "Output files").
Every command that takes `--out` opened `DIR/.lock` (creating it), truncated it and wrote its
pid there, and `profile` appended to `DIR/profile.log` — both through a symbolic link, so an
`--out` folder another user can write to (the default `overprov-profile-sdb` in a shared
folder such as /tmp, made by them first) with `.lock -> /etc/shadow` had root truncate
/etc/shadow. Now both files are opened without following a link, and refused unless they
are regular files of one name; the file the link points to is unchanged.
"""

from __future__ import annotations

import os

import pytest
from safety_helpers import MIB, Digests, cli


@pytest.mark.parametrize("planted", [".lock", "profile.log"])
def test_a_link_planted_in_the_out_folder_is_not_written_through(tmp_path, planted):
    victim = tmp_path / "victim"  # what /etc/shadow would be
    victim.write_bytes(os.urandom(MIB))
    before = Digests.of(victim)
    out = tmp_path / "out"
    out.mkdir()
    (out / planted).symlink_to(victim)
    target = tmp_path / "t.img"
    target.write_bytes(os.urandom(MIB))  # unconfirmed data: the run is refused at its open
    proc = cli("profile", str(target), "--out", str(out))
    assert Digests.of(victim) == before, f"the run wrote through {planted}"
    assert proc.returncode != 0
    assert "a symbolic link; overprov writes only a file of its own there" in proc.stderr, (
        proc.stderr[-1000:]
    )
    assert (out / planted).is_symlink()
