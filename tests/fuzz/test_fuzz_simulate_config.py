"""Fuzz: ``overprov simulate --config FILE`` on mutated TOML configs. Every case is checked
(``--check``: parsed, validated by the core, estimated); the ones that stay small enough are
also simulated for real, so a panic in the core would show."""

from __future__ import annotations

import random
import tomllib

import pytest

from .mutate import SEED, assert_clean, case_count, mutate_doc, mutate_text, run_cli, to_toml

BASES = [
    """
[geometry]
user_bytes = 16777216
op_ratio = 0.28
pages_per_block = 64
[ftl]
policy = "greedy"
[workload]
pattern = "hot-cold"
hot_access_percent = 80.0
hot_space_percent = 20.0
[run]
drive_writes = 0.5
warmup_drive_writes = 0.5
interval_percent = 10.0
seed = 3
""",
    """
[geometry]
advertised_bytes = 32000000
extra_op_percent = 20.0
pages_per_block = 32
[ftl]
policy = "d-choices"
d_choices = 4
[workload]
pattern = "zoned"
zones = [
  {access_percent = 60.0, space_percent = 10.0},
  {access_percent = 40.0, space_percent = 90.0},
]
trim_percent = 5.0
[precondition]
kind = "random"
[run]
drive_writes = 0.3
warmup_drive_writes = 0.2
[timing]
enabled = true
duration_s = 0.5
[timing.host]
queue_depth = 4
""",
]
#: a real run only when the core would write at most this many pages
REAL_RUN_PAGES = 2**19


def _small(doc: dict) -> bool:
    try:
        from overprov import engine
        from overprov.simulate import estimate as sim_estimate

        g = engine.validate(doc)["geometry"]
        return sim_estimate.planned_host_pages(doc, g) <= REAL_RUN_PAGES
    except Exception:  # noqa: BLE001 - not valid: --check already said why
        return False


@pytest.mark.slow
def test_fuzz_simulate_toml(tmp_path):
    rng = random.Random(SEED)
    path = tmp_path / "sim.toml"
    real = 0
    outcomes = {0: 0, 1: 0, 2: 0, 3: 0}
    for i in range(case_count()):
        base = tomllib.loads(rng.choice(BASES))
        if rng.random() < 0.85:
            doc = mutate_doc(base, rng, toml=True)
            text = to_toml(doc)
        else:
            text = mutate_text(to_toml(base), rng)
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        rc, _, err = run_cli(["simulate", "--config", str(path), "--check"])
        assert_clean(rc, err, f"case {i}: {text[:400]!r}")
        outcomes[rc] += 1
        if rc == 0 and real < 40:
            try:
                parsed = tomllib.loads(text)
            except tomllib.TOMLDecodeError:
                continue
            if _small(parsed):
                real += 1
                rc, _, err = run_cli(["simulate", "--config", str(path), "--no-progress"])
                assert_clean(rc, err, f"case {i} (run): {text[:400]!r}")
    assert outcomes[0] and outcomes[2], outcomes
    assert real > 0
