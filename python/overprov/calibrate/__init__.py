"""overprov calibrate: a digital twin of a drive from a short measurement (docs/calibrate.md)."""
