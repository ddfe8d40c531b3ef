"""Refusals no confirmation lifts are grouped alike in every message: "in use now" for a
device something holds, "needs --allow-hdd" for a hard disk or a loop device over one
(hard_disk.refused_groups; blockdev's error, apply's plan lines, profile's dry run)."""

from overprov import hard_disk


def test_in_use_and_hard_disk_reasons_are_grouped_apart():
    hdd = hard_disk.HARD_DISK_REASON
    groups = hard_disk.refused_groups(["mounted at /mnt", hdd])
    assert groups == [("in use now", ["mounted at /mnt"]), ("needs --allow-hdd", [hdd])]


def test_a_hard_disk_alone_is_not_called_in_use():
    groups = hard_disk.refused_groups([hard_disk.HARD_DISK_REASON])
    assert [head for head, _ in groups] == ["needs --allow-hdd"]
    assert hard_disk.refused_groups([]) == []


def test_the_one_line_form_names_both_groups():
    hdd = hard_disk.HARD_DISK_REASON
    said = hard_disk.refused_text(["mounted at /mnt", hdd])
    assert said == f"in use now: mounted at /mnt; needs --allow-hdd: {hdd}"
