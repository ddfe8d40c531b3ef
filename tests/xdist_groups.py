"""A pytest plugin that makes ``--dist loadgroup`` keep the tests of an ``xdist_group`` on one
worker under pytest 9 (tests/conftest.py loads it; docs/testing.md).

pytest-xdist (3.8) names a test's group by setting ``item._nodeid`` to ``"NODEID@GROUP"``, which
its scheduler reads back from the node id. Since pytest 9 an item's node id is ``item._id`` (a
``NodeId``), so that assignment changes nothing: every test of a group went to whichever worker
was free, a module's module-scoped fixture was built on each worker, and tests meant to run one
after another ran at once. This plugin's hook runs after pytest-xdist's and puts the name it
computed into the node id, as pytest-xdist does under pytest 8."""

from __future__ import annotations

import pytest


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]):
    result = yield
    for item in items:
        wanted = getattr(item, "_nodeid", None)  # set by pytest-xdist's hook, with the group
        current = item.nodeid
        if not isinstance(wanted, str) or wanted == current or not wanted.startswith(current):
            continue
        node_id = getattr(item, "_id", None)
        if node_id is not None and hasattr(type(node_id), "parse"):
            item._id = type(node_id).parse(wanted)  # type: ignore[attr-defined]
    return result


def pytest_configure(config: pytest.Config) -> None:
    # The scheduler would otherwise hand out the largest groups first, whatever order the
    # collection hook chose (tests/conftest.py: the costliest first).
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False
