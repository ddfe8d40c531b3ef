"""Apply over-provisioning to real drives, safely: plan, show, confirm, execute, verify.

Methods (docs/apply.md): ``partition`` (discard + GPT leaving the tail unpartitioned), ``hpa``
(SATA Host Protected Area via hdparm -N), ``nvme-ns`` (a smaller NVMe namespace), ``mdraid``
(members prepared alike, then mdadm --create with --size or on partitions), and ``auto``.
Building a plan only reads; ``Plan.execute`` writes, after re-checking safety.
"""

from overprov.apply.auto import METHODS, build_plans, plan_auto
from overprov.apply.base import Plan, Step, VerificationError, VisibleSize
from overprov.apply.hpa import plan_hpa
from overprov.apply.mdraid import plan_mdraid
from overprov.apply.nvme import plan_nvme_namespace
from overprov.apply.partition import plan_partition

__all__ = [
    "METHODS",
    "Plan",
    "Step",
    "VisibleSize",
    "VerificationError",
    "build_plans",
    "plan_auto",
    "plan_hpa",
    "plan_mdraid",
    "plan_nvme_namespace",
    "plan_partition",
]
