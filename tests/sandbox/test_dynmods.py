"""cgroup2's favordynmods: a bot's start does not wait for the kernel's cgroup lock, and nothing
else of the machine's cgroup2 mount changes."""

from __future__ import annotations

import os

import pytest

from codecup.cli.doctor import dynmods_line
from codecup.sandbox import Box, Policy, dynmods, linux

MOUNTS = """\
sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0
cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate,memory_recursiveprot 0 0
cgroup2 /mnt/other\\040view cgroup2 rw,relatime,nsdelegate,memory_recursiveprot 0 0
"""


def test_the_cgroup2_mount_is_read_with_its_own_options_not_the_mounts_flags():
    found = dynmods.parse(MOUNTS)
    assert found == dynmods.Dynmods("/sys/fs/cgroup", ("nsdelegate", "memory_recursiveprot"))
    assert not found.on
    assert dynmods.parse(MOUNTS.replace("recursiveprot", "recursiveprot,favordynmods")).on
    assert dynmods.parse("proc /proc proc rw 0 0\n") == dynmods.Dynmods(None)


def test_doctor_says_whether_a_start_waits_and_who_can_change_it():
    off = dynmods.parse(MOUNTS)
    waits = "waits about 10 ms for the kernel's cgroup lock"
    assert dynmods_line(off, root_user=False).endswith(f"{waits}; run as root to have it turned on")
    assert dynmods_line(off).endswith("; the referee turns it on")
    on = dynmods.Dynmods("/sys/fs/cgroup", ("favordynmods",))
    assert dynmods_line(on) == (
        "cgroup2 at /sys/fs/cgroup has favordynmods: a bot's start does not wait for the kernel's cgroup lock"
    )
    assert dynmods_line(dynmods.Dynmods(None)) == "no cgroup2 mount"


def _reconfigure(found: dynmods.Dynmods, options: tuple[str, ...]) -> None:
    """Set the machine's cgroup2 hierarchy to exactly ``options`` (mount(2)'s remount keeps no flag
    it is not given; the mount's own flags are passed again)."""
    table = dynmods.current()
    assert table.point == found.point
    flags = linux.MS_REMOUNT
    with open("/proc/self/mounts", errors="surrogateescape") as f:  # a mount point may be no UTF-8
        for line in f:
            fields = line.split()
            if fields[2] == "cgroup2":
                mount_flags = set(fields[3].split(","))
                break
    for name, bit in (("nosuid", linux.MS_NOSUID), ("nodev", linux.MS_NODEV), ("noexec", linux.MS_NOEXEC)):
        if name in mount_flags:
            flags |= bit
    linux.mount("cgroup2", found.point or "", None, flags, ",".join(options))


def test_the_referee_turns_it_on_keeping_every_option_the_mount_had(full_sandbox, tmp_path, caplog):
    if os.geteuid() != 0:
        pytest.skip("turning favordynmods on needs root")  # the full sandbox needs root already
    before = dynmods.current()
    assert before.point is not None
    kept = tuple(o for o in before.options if o != dynmods.OPTION)
    # As a machine would have it: favordynmods off, and an option of its own (nsdelegate) to keep.
    _reconfigure(before, (*kept, "nsdelegate"))
    try:
        assert not dynmods.current().on
        dynmods.favor_once.cache_clear()
        Box.prepare(Policy(), tmp_path).remove()
        after = dynmods.current()
        assert after.on
        assert "nsdelegate" in after.options and set(kept) <= set(after.options)
        assert "turned on favordynmods on the cgroup2 mount" in caplog.text
        # Once per process: the next box does not look again.
        caplog.clear()
        Box.prepare(Policy(), tmp_path).remove()
        assert "favordynmods" not in caplog.text
    finally:
        _reconfigure(before, before.options)  # the machine's mount as it was
        dynmods.favor_once.cache_clear()
