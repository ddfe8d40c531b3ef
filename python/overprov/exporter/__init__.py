"""``overprov exporter``: WAF, wear and days left of every drive as Prometheus metrics; the
command and its HTTP server (``cli``) over sources each read on its own (``reads``).
docs/exporter.md."""
