"""Fixtures shared by all test folders.

``loop_device`` — a factory for loop devices on sparse files in the test's tmp dir::

    def test_x(loop_device):
        dev = loop_device(size_bytes=64 * 2**20)            # sparse: reads zeros, no blocks
        dev2 = loop_device(size_bytes=64 * 2**20, fill=b"\\xa5")   # pattern over every byte
        dev3 = loop_device(size_bytes=64 * 2**20, fill="random")  # random bytes everywhere
        backing = loop_device.backing_file(dev)                # the sparse file behind it

Optional keywords: ``sector_bytes=4096`` (losetup --sector-size), ``partscan=False``.

``tmpfs_mount`` — a factory for tmpfs mounts of a given size in the test's tmp dir (a RAM file
system, or a small disk that fills up): ``where = tmpfs_mount("48k")``; unmounted afterwards;
skips when not root or when the mount fails.
Tests using it are marked ``root`` automatically and skip with the reason when not root, when
losetup is missing or the kernel has no loop support. Every device is detached afterwards, even
when the test fails — after unmounting/swapoff of that device only; a device whose backing file
is not ours is never touched.

``made_once(name, make)`` (a session fixture) — a folder made once per test run and shared by
every parallel worker (pytest-xdist, docs/testing.md): the first worker to ask runs
``make(folder)`` under a file lock, the others wait and get the same folder. For the costly
inputs session fixtures build (simulations, profiles, calibrations); tests only read them.
``sim_profile`` is one: a profile of a simulated drive, for the report and calibrate tests;
``calibrated_once(*figures)`` another: ``overprov calibrate FIGURES`` of typed figures, for the
calibrate tests and a report test.

Parallel runs (``pytest -n N --dist loadgroup``, as ``make test`` runs them): the tests of a
module that share a module-scoped fixture are put in one group (``xdist_group``), so the
fixture is built once, on one worker (tests/xdist_groups.py makes the groups hold under
pytest 9); so are the few readers of a long-built ``made_once`` input (``BUILT_ONCE_GROUPS``),
so that none waits on another worker's lock; the emulated-drive tests, which run in real time,
are one group, one after another.
Loop-device tests run on any worker: a test holds ``loop_lock.attach_lock()`` while it attaches
a loop device, or detaches one and attaches another file at its number.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import loop_folders  # tests/ is on sys.path: this conftest's folder
import pytest
from loop_lock import attach_lock

pytest_plugins = ["xdist_groups"]

MIB = 2**20
_SBIN = "/usr/sbin:/sbin:/usr/bin:/bin"


def _tool(name: str) -> str | None:
    return shutil.which(name) or shutil.which(name, path=_SBIN)


def loop_skip_reason() -> str | None:
    if os.geteuid() != 0:
        return "needs root: creating loop devices (losetup) requires it"
    if _tool("losetup") is None:
        return "losetup not found (Debian package util-linux)"
    if not Path("/dev/loop-control").exists():
        return "no /dev/loop-control: this kernel has no loop device support"
    return None


def _module_scoped_fixtures(item: pytest.Item) -> list[str]:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    return sorted(
        name
        for name, defs in info.name2fixturedefs.items()
        if defs and defs[-1].scope == "module" and name in item.fixturenames
    )


# `make test-fast` (``-m "not slow and not fio and not root"``) is the edit loop, meant to end in
# two minutes on two cores. Chosen by measured cost (scripts/pytest_cpu_log.py, docs/testing.md):
# every test that reads one of these inputs, each a simulation, profile, qualification or
# calibration of 3-18 CPU seconds built once for the tests that share it, is marked slow (its
# path where it is defined, its name), and so are these tests, 2.5-11 CPU seconds each (with
# their parameters, if any).
COSTLY_INPUTS = frozenset({
    "tests::sim_profile",
    "tests/report::sim_json", "tests/report::sim_fifo_json", "tests/report::timed_json",
    "tests/report::timed_real_json", "tests::qualify_sim",
    "tests/report/test_report_steady_waf.py::timed_4000_blocks",
    "tests/report::waf_calibration",
    "tests/report/test_report_calibrate.py::sim_calibration",
    "tests/report/test_report_pts.py::swept",
    "tests/report/test_report_figures.py::five_level_profile",
    "tests/report/test_report_trace.py::trace_run", "tests/report::trace_replay",
    "tests/calibrate/test_calibrate_flags.py::kept",
    "tests/calibrate/test_measurement_file.py::good",
    "tests/calibrate/test_keeping.py::measured",
    "tests/fuzz/test_fuzz_report.py::sources",
    "tests/contract/test_report_inputs.py::sim_json",
    "tests/contract/test_report_inputs.py::timed_json",
    "tests/traces/test_plan_trace.py::trace",
    "tests/traces/test_plan_trace_placement.py::cache_trace",
    "tests/traces/test_plan_trace_placement.py::three_streams",
})  # fmt: skip
COSTLY_TESTS = frozenset({
    "tests/profile/test_profile_sim.py::test_recommendation_is_the_smallest_op_meeting_the_target",
    "tests/simulate/test_timed.py::test_write_saturation_has_fob_transition_and_steady_state",
    "tests/simulate/test_timed.py::test_out_folder_gets_json_series_and_report",
    "tests/simulate/test_timed.py::test_a_scaled_drive_keeps_waf_and_the_iops_curve",
    "tests/simulate/test_host.py::test_nas_mirror_of_consumer_drives_runs_at_one_drives_flush_rate",
    "tests/calibrate/test_plausibility.py::test_a_refused_prediction_leaves_no_twin",
    "tests/fuzz/test_fuzz_cli_values.py::test_nan_everywhere_in_options",
    "tests/qualify/test_qualify_cli.py::test_qualify_a_simulated_consumer_drive_json_to_stdout",
    "tests/report/test_report_build.py::test_missing_and_foreign_inputs_are_refused_with_the_path",
    "tests/drives/test_published_fits.py::test_pny_waf_pair_under_jesd219_from_secure_erase",
    "tests/profile/test_one_drive_one_answer.py::test_a_preset_written_as_a_drive_file_is_the_same_drive",
    "tests/profile/test_profile_fdp.py::test_sim_profile_with_fdp_ranges_records_them_and_validates",
    "tests/report/test_report_calibrate.py::test_report_of_a_prediction_file_with_both_readings_of_the_raw_nand",
    "tests/calibrate/test_keeping.py::test_killed_mid_measurement_and_resumed_repeats_no_finished_segment",
})  # fmt: skip


def _inputs(item: pytest.Item) -> set[str]:
    """The fixtures ``item`` reads, each as "PATH::NAME" (PATH: the folder or module that
    defines it)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return set()
    return {
        f"{defs[-1].baseid}::{name}"
        for name, defs in info.name2fixturedefs.items()
        if defs and name in item.fixturenames
    }


def _costly(item: pytest.Item) -> bool:
    if item.nodeid.split("[", 1)[0] in COSTLY_TESTS:
        return True
    return bool(_inputs(item) & COSTLY_INPUTS)


# Inputs made once per run (``made_once``) that take long to build and that a few tests read:
# their readers are one ``xdist_group``, one after another on one worker, so that none waits
# on another's file lock with its worker idle while that one builds (docs/testing.md, "Round
# 13"). ``waf_curves``: the four JESD219 curves, about 36 CPU s, read by the two JESD219
# calibrations (tests/calibrate/test_workload_points.py, tests/calibrate/test_spare_readings.py),
# both handed out among the first (900 s timeouts). ``qualify_fio``: a qualification with real
# fio, about 30 s of wall for 15 CPU s (its rounds and idle waits), read by two report tests
# and the qualify CLI's test; two of them met in a whole run, one waiting 36 s for 4.9 CPU s.
BUILT_ONCE_GROUPS = {
    "tests/calibrate::waf_curves": "waf-curves",
    "tests::qualify_fio": "qualify-fio",
}


# The emulated-drive tests (tests/emulate/) serve a simulated drive in real time: one at a time,
# so that each keeps up, and first, being the longest chain of the run.
REAL_TIME_GROUP = "emulated-drive"


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the xdist_group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def module(item: pytest.Item) -> str:
        return item.nodeid.split("::", 1)[0]

    for item in items:
        if {"loop_device", "tmpfs_mount"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.root)
        if item.get_closest_marker("slow") is None and _costly(item):
            item.add_marker(pytest.mark.slow)
    for item in items:
        if any(item.iter_markers("xdist_group")):
            continue
        built_once = sorted(BUILT_ONCE_GROUPS[i] for i in _inputs(item) & BUILT_ONCE_GROUPS.keys())
        if _module_scoped_fixtures(item):  # its module's fixture built once comes first
            item.add_marker(pytest.mark.xdist_group(module(item)))
        elif built_once:
            item.add_marker(pytest.mark.xdist_group(built_once[0]))
    # The costliest first, so that no worker is left alone with a long test at the end of a
    # parallel run: the real-time chain, then the modules whose tests need more than the
    # default timeout (the longest single items: the profile-accuracy cases, the GC-design
    # sweeps, the wheel's build), longest first, then the modules with the most tests marked
    # slow; a module's tests stay together and in their order.
    slow: dict[str, int] = {}
    longest: dict[str, float] = {}
    for item in items:
        slow[module(item)] = slow.get(module(item), 0) + (
            item.get_closest_marker("slow") is not None
        )
        timeout = item.get_closest_marker("timeout")
        seconds = float(timeout.args[0]) if timeout is not None and timeout.args else 0.0
        longest[module(item)] = max(longest.get(module(item), 0.0), seconds)
    real_time = {
        module(item)
        for item in items
        if any(m.args[:1] == (REAL_TIME_GROUP,) for m in item.iter_markers("xdist_group"))
    }
    first_seen = {m: i for i, m in reversed(list(enumerate(map(module, items))))}

    def cost(m: str) -> tuple[bool, float, int, int]:
        return (m not in real_time, -longest[m], -slow[m], first_seen[m])

    items.sort(key=lambda item: cost(module(item)))


def _made_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]
) -> Path:
    """The folder ``name`` in the run's base temp, made by ``make(folder)`` once per test run
    even when pytest-xdist runs the tests on several workers (they share the base temp's
    parent; the first one takes the lock and builds, the others wait and reuse). A ``make``
    that fails leaves no folder: the next worker to ask tries again and fails on its own."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    folder = root / name
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".made").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            try:
                make(folder)
            except BaseException:
                shutil.rmtree(folder, ignore_errors=True)
                raise
            (folder / ".made").touch()
    return folder


@pytest.fixture(scope="session")
def made_once(tmp_path_factory: pytest.TempPathFactory) -> Callable:
    """``made_once(name, make)``: see the module's docstring."""
    return lambda name, make: _made_once(tmp_path_factory, name, make)


@pytest.fixture(scope="session")
def calibrated_once(made_once):
    """``calibrated_once(*figures)``: ``overprov calibrate FIGURES --out DIR --json -`` run
    once per test run (``made_once``) for the tests that check the same calibration of typed
    figures from two sides; returns (DIR, what it printed). Tests only read them. Beside DIR,
    ``runs.json`` lists the configs the run simulated (each as ``json.dumps(config,
    sort_keys=True)``, in order), as every call of ``sweep.run_points`` was given them, and
    ``stderr.txt`` holds what it wrote to stderr (its progress and, with ``--json -``, its
    text)."""

    def run(*figures: str) -> tuple[Path, str]:
        from overprov import sweep
        from overprov.cli import main

        key = json.dumps(figures)
        name = "calibrated-" + hashlib.sha256(key.encode()).hexdigest()[:16]

        def make(folder: Path) -> None:
            printed, said = io.StringIO(), io.StringIO()
            runs: list[str] = []
            run_points = sweep.run_points

            def counted(configs, **kw):
                runs.extend(json.dumps(c, sort_keys=True) for c in configs)
                return run_points(configs, **kw)

            sweep.run_points = counted
            try:
                with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(said):
                    rc = main(["calibrate", *figures, "--out", str(folder / "out"), "--json", "-"])
            finally:
                sweep.run_points = run_points
            assert rc == 0, f"calibrate {key} exited {rc}"
            (folder / "stdout.json").write_text(printed.getvalue(), encoding="utf-8")
            (folder / "runs.json").write_text(json.dumps(runs), encoding="utf-8")
            (folder / "stderr.txt").write_text(said.getvalue(), encoding="utf-8")

        folder = made_once(name, make)
        return folder / "out", (folder / "stdout.json").read_text(encoding="utf-8")

    return run


@pytest.fixture(scope="session")
def sim_profile(made_once) -> Path:
    """A profile of a simulated drive (sim:PRESET@SCALE) through the profiler's pipeline,
    OP 0/20/40%, 5 s rounds, target 20,000 IOPS, made once per run (the report tests read it,
    ``calibrate --from`` takes its points). The profile CLI writes report.html."""

    def make(d: Path) -> None:
        out = d / "prof"
        res = subprocess.run(
            [sys.executable, "-m", "overprov.cli", "profile", "sim:consumer-tlc-sata@1GiB",
             "--extra-op", "0,20,40",
             "--round-seconds", "5000",  # scale 1/1000: 5 s of simulated time (docs/profile.md)
             "--target-iops", "20000", "--out", str(out)],
            capture_output=True, text=True, timeout=900, check=False,
        )  # fmt: skip
        assert res.returncode == 0, res.stderr[-3000:]
        assert f"report: {out / 'report.html'}" in res.stdout, res.stdout + res.stderr

    return made_once("sim-profile", make) / "prof"


@pytest.fixture(scope="session")
def qualify_sim(made_once) -> Path:
    """``overprov qualify sim:consumer-tlc-sata@2GiB --round-seconds 10 --out Q --json -``,
    made once per run: qualify.json and report.html in Q (the report tests read them), and
    beside Q the command's exit status (``exit``: 1, the cache and consistency tests fail), its
    stdout (``stdout.json``, the document) and stderr (``stderr.txt``, the text), which the
    qualify CLI's test reads."""

    def make(d: Path) -> None:
        out = d / "q"
        res = subprocess.run(
            [sys.executable, "-m", "overprov.cli", "qualify", "sim:consumer-tlc-sata@2GiB",
             "--round-seconds", "10", "--out", str(out), "--json", "-"],
            capture_output=True, text=True, timeout=900, check=False,
        )  # fmt: skip
        assert res.returncode == 1, res.stderr[-3000:]
        assert f"report: {out / 'report.html'}" in res.stderr, res.stdout + res.stderr
        (d / "exit").write_text(str(res.returncode))
        (d / "stdout.json").write_text(res.stdout)
        (d / "stderr.txt").write_text(res.stderr)

    return made_once("qualify-sim", make) / "q"


@pytest.fixture(scope="session")
def qualify_fio(made_once) -> Path:
    """``overprov qualify`` of a 16 MiB file with real fio, every test, 1 s rounds, two idle
    waits (1 and 2 s), made once per run: qualify.json, report.html and fio's job files in Q
    (the report tests read them), and beside Q the command's exit status (``exit``), stdout
    (``stdout.txt``) and stderr (``stderr.txt``), which the qualify CLI's test reads."""
    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")

    def make(d: Path) -> None:
        out = d / "q"
        res = subprocess.run(
            [sys.executable, "-m", "overprov.cli", "qualify", str(d / "drive.img"),
             "--size", "16MiB", "--round-seconds", "1", "--steady-drive-writes", "1",
             "--max-rounds", "2", "--cliff-drive-writes", "2", "--idle-waits", "1,2",
             "--idle-burst-seconds", "1", "--idle-repeats", "1", "--out", str(out)],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert res.returncode in (0, 1), res.stderr[-3000:]
        assert (out / "qualify.json").is_file() and (out / "report.html").is_file()
        (d / "exit").write_text(str(res.returncode))
        (d / "stdout.txt").write_text(res.stdout)
        (d / "stderr.txt").write_text(res.stderr)

    return made_once("qualify-fio", make) / "q"


def _backing_file(dev: str) -> Path | None:
    path = Path("/sys/block") / Path(dev).name / "loop" / "backing_file"
    try:
        return Path(path.read_text().strip())
    except OSError:
        return None


def _mounts_under(dev: str) -> list[str]:
    """Mount points whose source is ``dev`` or one of its partitions (dev + p<N>)."""
    name = Path(dev).name
    found = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        left, _, right = line.partition(" - ")
        src = right.split()[1] if len(right.split()) > 1 else ""
        src_name = Path(src).name
        suffix = src_name[len(name) + 1 :]
        if src_name == name or (src_name.startswith(name + "p") and suffix.isdigit()):
            found.append(left.split()[4])
    return found


def _swaps_under(dev: str) -> list[str]:
    name = Path(dev).name
    out = []
    for line in Path("/proc/swaps").read_text().splitlines()[1:]:
        src = line.split()[0]
        src_name = Path(src).name
        if src_name == name or src_name.startswith(name + "p"):
            out.append(src)
    return out


def _release(dev: str, backing: Path) -> None:
    """Undo what a test may have left on our own loop device, then detach it."""
    current = _backing_file(dev)
    if current is None or os.path.realpath(current) != os.path.realpath(backing):
        return  # already detached, or the number now belongs to someone else: hands off
    for mp in reversed(_mounts_under(dev)):
        subprocess.run(["umount", mp], capture_output=True, check=False)
    for sw in _swaps_under(dev):
        subprocess.run(["swapoff", sw], capture_output=True, check=False)
    subprocess.run(
        [_tool("losetup") or "losetup", "--detach", dev], capture_output=True, check=False
    )


def _write_fill(path: Path, size_bytes: int, fill: bytes | str) -> None:
    chunk = MIB
    with open(path, "r+b") as f:
        if fill == "random":
            for off in range(0, size_bytes, chunk):
                f.write(os.urandom(min(chunk, size_bytes - off)))
        else:
            assert isinstance(fill, bytes) and fill, "fill: None, 'random' or non-empty bytes"
            block = (fill * (chunk // len(fill) + 1))[:chunk]
            for off in range(0, size_bytes, chunk):
                f.write(block[: min(chunk, size_bytes - off)])
        f.flush()
        os.fsync(f.fileno())


def pytest_sessionstart(session) -> None:
    """Folders of backing files an interrupted run left on /dev/shm (RAM) are given back."""
    if os.geteuid() == 0 and loop_folders.SHM.is_dir():
        loop_folders.sweep_stale()


@pytest.fixture
def loop_device(tmp_path: Path) -> Iterator:
    reason = loop_skip_reason()
    if reason:
        pytest.skip(reason)
    created: list[tuple[str, Path]] = []
    in_ram: list[Path] = []  # its folder on /dev/shm, made when first needed

    def folder_for(size_bytes: int) -> Path:
        if not in_ram and loop_folders.has_room(loop_folders.SHM, size_bytes):
            in_ram.append(loop_folders.make_folder())
        if in_ram and loop_folders.has_room(in_ram[0], size_bytes):
            return in_ram[0]
        return tmp_path  # no room in RAM for twice the file: on disk

    def make(
        size_bytes: int = 64 * MIB,
        fill: bytes | str | None = None,
        *,
        sector_bytes: int = 512,
        partscan: bool = True,
        on_disk: bool = False,
        rotational: bool | None = None,
    ) -> str:
        """A loop device over a sparse file in RAM (``on_disk``: in tmp_path), reporting
        itself ``rotational`` where that is given (its queue's flag set; else the kernel's)."""
        folder = tmp_path if on_disk else folder_for(size_bytes)
        backing = folder / f"loop-backing-{len(created)}.img"
        with open(backing, "wb") as f:
            f.truncate(size_bytes)  # sparse: no blocks allocated until written
        if fill is not None:
            _write_fill(backing, size_bytes, fill)
        argv = [_tool("losetup") or "losetup", "--find", "--show"]
        if partscan:
            argv.append("--partscan")
        if sector_bytes != 512:
            argv += ["--sector-size", str(sector_bytes)]
        argv.append(str(backing))
        with attach_lock():
            proc = subprocess.run(argv, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            pytest.skip(f"losetup could not attach a loop device: {proc.stderr.strip()}")
        dev = proc.stdout.strip()
        created.append((dev, backing))
        if rotational is not None:
            flag = Path("/sys/block") / Path(dev).name / "queue" / "rotational"
            try:
                flag.write_text("1" if rotational else "0")
            except OSError as exc:
                pytest.skip(f"cannot set {flag}: {exc.strerror}")
        return dev

    make.backing_file = _backing_file  # type: ignore[attr-defined]
    try:
        yield make
    finally:
        for dev, backing in reversed(created):
            _release(dev, backing)
        for folder in in_ram:  # RAM: given back now, once nothing in it backs a loop device
            loop_folders.remove_if_unattached(folder)


@pytest.fixture
def tmpfs_mount(tmp_path: Path) -> Iterator:
    mounted: list[Path] = []

    def make(size: str) -> Path:
        if os.geteuid() != 0:
            pytest.skip("needs root: mounting a tmpfs")
        where = tmp_path / f"tmpfs-{len(mounted)}"
        where.mkdir()
        proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                              capture_output=True, text=True, check=False)  # fmt: skip
        if proc.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip()}")
        mounted.append(where)
        return where

    try:
        yield make
    finally:
        for where in reversed(mounted):
            subprocess.run(["umount", str(where)], capture_output=True, check=False)


@pytest.fixture
def overprov_cli(capsys: pytest.CaptureFixture[str]):
    """Run ``overprov ARGS...`` in-process through the real ``overprov.cli.main`` with every
    subcommand registered; returns (exit code, stdout, stderr)."""
    from overprov import cli

    def run(*argv: str) -> tuple[int, str, str]:
        capsys.readouterr()
        try:
            rc = cli.main(list(argv))
        except SystemExit as exc:  # argparse errors
            rc = exc.code if isinstance(exc.code, int) else 2
        out, err = capsys.readouterr()
        return rc, out, err

    return run


@pytest.fixture
def command_parsers() -> dict[str, argparse.ArgumentParser]:
    """Each subcommand's parser, by name, as ``overprov.cli`` builds them (parsing only)."""
    from overprov import cli

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)
