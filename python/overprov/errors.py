"""Exceptions raised by the library. Only ``overprov.cli`` turns them into exit codes."""


class OverprovError(Exception):
    """Base class: a problem the user can act on; the message says what and where."""


class ConfigError(OverprovError, ValueError):
    """A setting is invalid; the message names the field (e.g. ``ftl.policy``) or line."""


class UnsafeDeviceError(OverprovError):
    """A device was refused because writing to it could destroy data that is in use."""


class ToolError(OverprovError):
    """An external tool (fio, smartctl, sgdisk, ...) is missing or failed."""
