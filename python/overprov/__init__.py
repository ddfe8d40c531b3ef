"""overprov: how much SSD over-provisioning do you need? Simulate, profile, apply it safely."""

from __future__ import annotations

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    """``overprov.__version__``, read from the installed metadata when first asked for:
    importlib.metadata costs tens of milliseconds, paid only by what reports the version."""
    if name != "__version__":
        raise AttributeError(f"module 'overprov' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        value = version("overprov")
    except PackageNotFoundError:  # running from a source tree without an install
        value = "0.0.0+local"
    globals()["__version__"] = value
    return value
