"""``overprov plan``: the command (``cli``), plan --trace (``trace``) and data placement
(``placement``); the endurance arithmetic is ``overprov.endurance``. docs/models.md."""
