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
import subprocess
import sys

import pytest
from safety_helpers import MIB, REPO, Digests, cli, tool


def overprov(*args: str) -> subprocess.CompletedProcess[str]:
    """``overprov ARGS`` with every command (the safety suite's ``cli`` has only those that
    write to devices and files)."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    return subprocess.run([sys.executable, "-m", "overprov", *args], capture_output=True,
                          text=True, timeout=180, cwd=REPO, env=env, check=False)  # fmt: skip


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


def test_root_writes_no_output_into_a_folder_another_user_can_write_to(tmp_path):
    """Run as root, `report --out DIR` with DIR owned by another user (uid 65534, nobody) who
    put `report.html.tmp` there as a link: the report was written through it, over the file
    it points to. Such a folder is refused now (so is one writable by its group or everyone),
    before anything is written; a folder only root can write to, or a new one, is used."""
    if os.geteuid() != 0:
        pytest.skip("needs root: the rule is root's")
    sim = tmp_path / "sim.json"
    made = overprov("simulate", "--advertised", "64M", "--pages-per-block", "64", "--extra-op",
                    "0,20", "--warmup", "1", "--drive-writes", "0.5", "--no-progress",
                    "--json", str(sim))  # fmt: skip
    assert made.returncode == 0, made.stderr[-1000:]
    victim = tmp_path / "victim"
    victim.write_bytes(os.urandom(MIB))
    before = Digests.of(victim)
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.html.tmp").symlink_to(victim)
    os.chown(out, 65534, -1)
    proc = overprov("report", str(sim), "--out", str(out))
    assert Digests.of(victim) == before, "root wrote the report through the planted link"
    assert proc.returncode == 2, proc.stderr[-1000:]
    assert "is owned by uid 65534: run as root" in proc.stderr
    os.chown(out, 0, -1)
    out.chmod(0o777)
    proc = overprov("report", str(sim), "--out", str(out))
    assert proc.returncode == 2 and "is writable by everyone" in proc.stderr, proc.stderr


@pytest.mark.parametrize("existing", [True, False])
def test_root_writes_no_output_into_a_folder_others_can_move(tmp_path, existing):
    """The folder itself only root can write to, but the one above writable by everyone
    without the sticky bit: any user could move the output folder away and put theirs, with
    links, in its place. Refused (the folder made or not), before anything is written; with the
    sticky bit (as /tmp has) the run goes ahead. In-process checks: nothing is simulated."""
    if os.geteuid() != 0:
        pytest.skip("needs root: the rule is root's")
    from overprov import outputs
    from overprov.errors import OutputError

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    out = shared / "deeper" / "out"
    if existing:
        out.mkdir(parents=True)
    for check in (lambda: outputs.check_output_dir(out, "--out"),
                  lambda: outputs.hold_out_dir(out, "overprov test")):  # fmt: skip
        with pytest.raises(OutputError, match=f"{shared} is writable by everyone without the"):
            check()
    assert out.exists() == existing and not (out / ".lock").exists()
    shared.chmod(0o1777)
    outputs.check_output_dir(out, "--out")


def test_qualify_keeps_the_results_already_in_its_out_folder(tmp_path):
    """`qualify --out DIR` replaced the `qualify.json` another run had left there (hours of
    tests, and the drive's wear, lost); `profile` and `calibrate` refuse such a folder, and
    so does `qualify` now, before anything is written."""
    if tool("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    out = tmp_path / "out"
    out.mkdir()
    kept = out / "qualify.json"
    kept.write_text('{"schema": "overprov.qualify/1", "note": "yesterday\'s drive"}\n')
    before = Digests.of(kept)
    target = tmp_path / "t.img"
    with open(target, "wb") as f:
        f.truncate(16 * MIB)
    confirm = ["--i-understand-this-destroys-data", str(target)]
    proc = cli("qualify", str(target), "--tests", "cache", "--round-seconds", "1", "--out",
               str(out), "--no-report", *confirm)  # fmt: skip
    assert Digests.of(kept) == before, "qualify replaced the results already in --out"
    assert proc.returncode == 2, proc.stderr[-1000:]
    assert "already holds a qualification" in proc.stderr
