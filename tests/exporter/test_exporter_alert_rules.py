"""The recording and alert rules of contrib/prometheus/overprov-rules.yml, checked and
unit-tested with promtool (Debian package prometheus) on series named as the exporter names
them: WAF over matched windows on a synthetic two-sample series whose WAF is known, the rated
life left from a drive's own rating, and every alert."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

PROMTOOL = shutil.which("promtool")
RULES = Path(__file__).resolve().parents[2] / "contrib" / "prometheus" / "overprov-rules.yml"

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
      - series: 'overprov_device_percentage_used_ratio{device="a"}'
        values: '0.92+0x2304'
      - series: 'overprov_device_projected_remaining_seconds{device="a"}'
        values: '17280000+0x2304'
      - series: 'overprov_device_available_spare_ratio{device="a"}'
        values: '0.05+0x2304'
      - series: 'overprov_device_read_ok{device="a",source="a.json",reason=""}'
        values: '1+0x2304'
      - series: 'overprov_device_read_ok{device="c",source="c.json",reason="bad_input"}'
        values: '0+0x2304'
      # drive b rated 300 TB written; host 2.304e12 B written at 1e9 B per 5 min
      - series: 'overprov_device_rated_endurance_bytes{device="b"}'
        values: '300000000000000+0x2304'
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
            exp_annotations: {summary: "a: 92% of rated endurance used"}
      - alertname: SSDLifeLeftUnderAYear
        eval_time: 8d
        exp_alerts:
          - exp_labels: {device: a, severity: warning}
            exp_annotations:
              summary: "a: about 200d 0h 0m 0s of rated life left at the lifetime wear rate"
      - alertname: SSDRatedWritesLeftUnderAYear
        eval_time: 8d
        exp_alerts: []
      - alertname: SSDAvailableSpareLow
        eval_time: 8d
        exp_alerts:
          - exp_labels: {device: a, severity: critical}
            exp_annotations: {summary: "a: available spare 5%"}
      - alertname: OverprovSourceUnreadable
        eval_time: 8d
        exp_alerts:
          - exp_labels: {device: c, source: c.json, reason: bad_input, severity: warning}
            exp_annotations: {summary: "overprov exporter cannot read c.json (bad_input)"}
    promql_expr_test:
      - expr: overprov:device_write_amplification:ratio_7d
        eval_time: 8d
        exp_samples:
          - labels: 'overprov:device_write_amplification:ratio_7d{device="a"}'
            value: 4
          - labels: 'overprov:device_write_amplification:ratio_7d{device="b"}'
            value: 2
      # (300e12 - 2.304e12) B left at 1e9 B / 300 s = 89,308,800 s
      - expr: overprov:device_rated_life_left:seconds_7d
        eval_time: 8d
        exp_samples:
          - labels: 'overprov:device_rated_life_left:seconds_7d{device="b"}'
            value: 89308800
"""


DESCRIPTION = (
    "The drive writes 4.0 bytes to NAND per byte the host writes. More over-provisioning "
    "(overprov plan) or fewer small random writes would lower it.\\n"
)


def rules_yaml() -> str:
    return RULES.read_text()


def test_rules_check(tmp_path):
    rules = tmp_path / "rules.yml"
    rules.write_text(rules_yaml())
    proc = subprocess.run(
        [PROMTOOL, "check", "rules", str(rules)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "SUCCESS: 10 rules found" in proc.stdout + proc.stderr


def promtool_test(tmp_path: Path, tests: str) -> None:
    """``promtool test rules`` of ``tests`` over the rules file; it must pass."""
    (tmp_path / "rules.yml").write_text(rules_yaml())
    (tmp_path / "tests.yml").write_text(tests)
    proc = subprocess.run(
        [PROMTOOL, "test", "rules", "tests.yml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_rules_fire_as_documented(tmp_path):
    promtool_test(tmp_path, RULE_TESTS.replace("DESCRIPTION", DESCRIPTION))


# Two samples a day apart: NAND +3.6e9 B, host +1.2e9 B, so the day's WAF is 3 exactly (the
# drive's lifetime WAF, 1e12 / 5e11 = 2, is not); a drive whose host did not write has none.
TWO_SAMPLES = """
rule_files: [rules.yml]
evaluation_interval: 1d
tests:
  - interval: 1d
    input_series:
      - series: 'overprov_device_nand_written_bytes_total{device="x"}'
        values: '1000000000000 1003600000000'
      - series: 'overprov_device_host_written_bytes_total{device="x"}'
        values: '500000000000 501200000000'
      - series: 'overprov_device_nand_written_bytes_total{device="idle"}'
        values: '7000000000 7000000000'
      - series: 'overprov_device_host_written_bytes_total{device="idle"}'
        values: '2000000000 2000000000'
    promql_expr_test:
      - expr: overprov:device_write_amplification:ratio_1d
        eval_time: 1d
        exp_samples:
          - labels: 'overprov:device_write_amplification:ratio_1d{device="x"}'
            value: 3
"""


def test_waf_over_matched_windows_two_samples(tmp_path):
    promtool_test(tmp_path, TWO_SAMPLES)
