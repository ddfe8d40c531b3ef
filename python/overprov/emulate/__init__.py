"""A simulated drive served as a real block device: a FUSE file whose I/O goes to the
simulator core (``fuse_device``), a loop device over it (``loop``), and the ``overprov
emulate`` command (``cli``). docs/emulate.md."""
