"""``overprov qualify``: is this drive fit for the job?

Four tests on one target (a device, a file, RAID members or a simulated drive ``sim:``), each
with its own verdict and the figures behind it (docs/qualify.md):

* ``cache`` (cache.py): mixed 70/30 4 KiB at QD8, write-back against write-through; does a
  flush wait for NAND (no power-loss protection)?
* ``trim_recovery`` (trim_recovery.py): after steady random writes, discard a share, write
  the rest sequentially once: how much random-write performance comes back?
* ``idle_recovery`` (idle_recovery.py): writes at half the steady rate, so the drive idles
  between them: does it then serve writes as when fresh?
* ``consistency`` (consistency.py): where the write cliff is (bytes written until
  fresh-out-of-box performance drops) and the latency outliers over the steady window.

``session.py`` runs them; ``verdict.py`` holds the verdict and the document
(``overprov.qualify/1``, schema ``qualify.schema.json``).
"""
