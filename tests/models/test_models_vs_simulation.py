"""An independent check of the mean-field models: a small page-mapped FTL simulated directly.

The mean-field models (greedy, d-choices) are limits for many blocks; a drive of 400 blocks
of 16 pages already lands within a few percent of them. The simulator below is deliberately
plain Python, separate from the Rust core, so it checks the formulas rather than sharing code
with them.
"""

from __future__ import annotations

import random

import pytest
from overprov import models


def simulate_waf(
    blocks: int, pages_per_block: int, rho: float, d: int | None, seed: int = 1
) -> float:
    """Steady-state WAF under uniform random single-page writes.

    ``d=None`` is greedy (fewest valid pages); otherwise d-choices (d random full blocks, the
    emptiest erased). One write frontier: a victim's valid pages are copied into the block
    just erased, and host writes fill the rest. The drive is filled sequentially, then
    written randomly 20 times over; the second half is measured.
    """
    rng = random.Random(seed)
    b = pages_per_block
    logical = int(blocks * b / (1.0 + rho))
    valid = [0] * blocks
    owner = [[-1] * b for _ in range(blocks)]  # logical page stored in each slot
    where = [-1] * logical  # slot (block * b + offset) holding each logical page
    free = list(range(blocks))
    full: list[int] = []
    full_index: dict[int, int] = {}
    state = {"block": free.pop(), "offset": 0, "nand": 0}

    def seal(blk: int) -> None:
        full_index[blk] = len(full)
        full.append(blk)

    def unseal(blk: int) -> None:
        i = full_index.pop(blk)
        last = full.pop()
        if last != blk:
            full[i] = last
            full_index[last] = i

    def pick_victim() -> int:
        if d is None:
            return min(full, key=valid.__getitem__)
        return min((full[rng.randrange(len(full))] for _ in range(d)), key=valid.__getitem__)

    def program(page: int) -> None:
        blk, off = state["block"], state["offset"]
        owner[blk][off] = page
        where[page] = blk * b + off
        valid[blk] += 1
        state["offset"] += 1
        state["nand"] += 1
        if state["offset"] == b:
            seal(blk)
            if free:
                state["block"], state["offset"] = free.pop(), 0
            else:
                collect()

    def collect() -> None:
        victim = pick_victim()
        unseal(victim)
        survivors = [
            page
            for off, page in enumerate(owner[victim])
            if page >= 0 and where[page] == victim * b + off
        ]
        valid[victim] = 0
        owner[victim] = [-1] * b
        state["block"], state["offset"] = victim, 0
        for page in survivors:
            program(page)

    def host_write(page: int) -> None:
        old = where[page]
        if old >= 0:
            valid[old // b] -= 1
            where[page] = -1
        program(page)

    for page in range(logical):
        program(page)
    total = 20 * logical
    start_nand = 0
    for i in range(total):
        if i == total // 2:
            start_nand = state["nand"]
        host_write(rng.randrange(logical))
    return (state["nand"] - start_nand) / (total - total // 2)


@pytest.mark.parametrize(
    "rho, d",
    [(0.28, None), (0.15, None), (0.28, 2), (0.15, 3), (0.28, 1)],
    ids=["greedy-0.28", "greedy-0.15", "2-choices-0.28", "3-choices-0.15", "random-0.28"],
)
def test_mean_field_models_match_a_small_simulated_drive(rho: float, d: int | None) -> None:
    simulated = simulate_waf(blocks=400, pages_per_block=16, rho=rho, d=d)
    model = models.waf_greedy(rho, 16) if d is None else models.waf_d_choices(rho, 16, d)
    assert simulated == pytest.approx(model, rel=0.03)
