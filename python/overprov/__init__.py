"""overprov: how much SSD over-provisioning do you need? Simulate, profile, apply it safely."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("overprov")
except PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0.0.0+local"

__all__ = ["__version__"]
