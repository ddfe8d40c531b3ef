"""The example alert rules in docs/exporter.md, checked and unit-tested with promtool (Debian
package prometheus) on series named as the exporter names them."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

PROMTOOL = shutil.which("promtool")
DOC = Path(__file__).resolve().parents[2] / "docs" / "exporter.md"

pytestmark = pytest.mark.skipif(
    PROMTOOL is None, reason="promtool not installed (Debian package prometheus)"
)

# 8 days of samples every 5 min: NAND grows 4 GB and host 1 GB per step on drive a (WAF 4),
# 2 GB and 1 GB on drive b (WAF 2); drive a is 92 % used, 200 days left, spare 5 %.
RULE_TESTS = """
rule_files: [rules.yml]
evaluation_interval: 1h
tests:
  - interval: 5m
    input_series:
      - series: 'overprov_device_nand_written_bytes_total{device="a"}'
        values: '0+4000000000x2304'
      - series: 'overprov_device_host_written_bytes_total{device="a"}'
        values: '0+1000000000x2304'
      - series: 'overprov_device_nand_written_bytes_total{device="b"}'
        values: '0+2000000000x2304'
      - series: 'overprov_device_host_written_bytes_total{device="b"}'
        values: '0+1000000000x2304'
      - series: 'overprov_device_percentage_used{device="a"}'
        values: '92+0x2304'
      - series: 'overprov_device_projected_remaining_seconds{device="a"}'
        values: '17280000+0x2304'
      - series: 'overprov_device_available_spare{device="a"}'
        values: '5+0x2304'
      - series: 'overprov_device_read_ok{device="a",source="a.json"}'
        values: '1+0x2304'
    promql_expr_test:
      - expr: overprov:device_write_amplification:ratio_7d
        eval_time: 8d
        exp_samples:
          - labels: 'overprov:device_write_amplification:ratio_7d{device="a"}'
            value: 4
          - labels: 'overprov:device_write_amplification:ratio_7d{device="b"}'
            value: 2
    alert_rule_test:
      - alertname: SSDWriteAmplificationHigh
        eval_time: 8d
        exp_alerts:
          - exp_labels: {device: a, severity: warning}
            exp_annotations:
              summary: "a: WAF 4.00 over 7 days"
              description: "DESCRIPTION"
      - alertname: SSDEnduranceNearlyUsed
        eval_time: 8d
        exp_alerts:
          - exp_labels: {device: a, severity: warning}
            exp_annotations: {summary: "a: 92 % of rated endurance used"}
      - alertname: SSDLifeLeftUnderAYear
        eval_time: 8d
        exp_alerts:
          - exp_labels: {device: a, severity: warning}
            exp_annotations:
              summary: "a: about 200d 0h 0m 0s of rated life left at the current wear rate"
      - alertname: SSDAvailableSpareLow
        eval_time: 8d
        exp_alerts:
          - exp_labels: {device: a, severity: critical}
            exp_annotations: {summary: "a: available spare 5 %"}
      - alertname: OverprovSourceUnreadable
        eval_time: 8d
        exp_alerts: []
"""


DESCRIPTION = (
    "The drive writes 4.0 bytes to NAND per byte the host writes. More over-provisioning "
    "(overprov plan) or fewer small random writes would lower it.\\n"
)


def rules_yaml() -> str:
    m = re.search(r"## Example alert rules.*?```yaml\n(.*?)```", DOC.read_text(), re.S)
    assert m, "docs/exporter.md has no yaml block under 'Example alert rules'"
    return m.group(1)


def test_rules_check(tmp_path):
    rules = tmp_path / "rules.yml"
    rules.write_text(rules_yaml())
    proc = subprocess.run(
        [PROMTOOL, "check", "rules", str(rules)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "SUCCESS: 6 rules found" in proc.stdout + proc.stderr


def test_rules_fire_as_documented(tmp_path):
    (tmp_path / "rules.yml").write_text(rules_yaml())
    (tmp_path / "tests.yml").write_text(RULE_TESTS.replace("DESCRIPTION", DESCRIPTION))
    proc = subprocess.run(
        [PROMTOOL, "test", "rules", "tests.yml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
