"""``overprov simulate``: the command (``cli``), its host layer (``host``: --numjobs, --raid),
what it prints and writes (``output``), its time and memory estimate (``estimate``), and the
trace options and table (``trace_options``, ``trace_output``; plan --trace uses them too).
docs/simulate.md."""
