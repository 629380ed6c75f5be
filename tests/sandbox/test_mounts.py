"""Finding the cgroup hierarchies from /proc/mounts and /proc/self/cgroup (no root needed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codecup.errors import ConfigError
from codecup.sandbox import Limits, Policy, mounts
from codecup.sandbox.mounts import (
    CgroupMount,
    cgroup_mounts,
    hugetlbfs_mounts,
    kernel_view_mounts,
    other_proc_mounts,
    other_sys_mounts,
    parse,
)
from tests.support import lacking

BESIDE_V1 = """\
tmpfs /sys/fs/cgroup tmpfs rw,relatime,mode=755 0 0
cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,relatime,cpu,cpuacct 0 0
cgroup /sys/fs/cgroup/cpuset cgroup rw,relatime,cpuset 0 0
cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0
cgroup /sys/fs/cgroup/pids cgroup rw,relatime,pids 0 0
cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0
"""
BESIDE_V1_SELF = """\
5:pids:/
4:memory:/jobs/7
3:cpuset:/
2:cpu,cpuacct:/jobs/7
0::/
"""


def test_v1_controllers_beside_cgroup2():
    found = parse(BESIDE_V1, BESIDE_V1_SELF)
    assert found.v2 == Path("/sys/fs/cgroup/unified")
    assert found.memory_v1 == Path("/sys/fs/cgroup/memory/jobs/7")
    assert found.pids_v1 == Path("/sys/fs/cgroup/pids")
    assert found.cpu_v1 == Path("/sys/fs/cgroup/cpu,cpuacct/jobs/7")  # not the cpuset hierarchy


def test_pure_cgroup2_has_no_v1_hierarchies():
    found = parse("cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0\n", "0::/user.slice/x\n")
    assert found.v2 == Path("/sys/fs/cgroup/user.slice/x")
    assert (found.memory_v1, found.pids_v1, found.cpu_v1) == (None, None, None)


def test_proc_mounted_elsewhere_is_found():
    table = (
        "proc /proc proc rw,nosuid 0 0\n"
        "binfmt_misc /proc/sys/fs/binfmt_misc binfmt_misc rw 0 0\n"
        "proc /srv/chroot/sid/proc proc rw 0 0\n"
        "proc /srv/with\\040space/proc proc rw 0 0\n"
        "sysfs /sys sysfs rw 0 0\n"
    )
    assert other_proc_mounts(table) == ("/srv/chroot/sid/proc", "/srv/with space/proc")


def test_the_kernels_own_views_are_found_wherever_mounted():
    """debugfs, tracefs and their kind show the kernel's own state (every process's traced events) to
    root, whose uid a bot keeps: each mount is hidden from the bots."""
    table = (
        "debugfs /sys/kernel/debug debugfs rw,nosuid,nodev,noexec,relatime 0 0\n"
        "tracefs /sys/kernel/tracing tracefs rw,nosuid,nodev,noexec,relatime 0 0\n"
        "bpf /sys/fs/bpf bpf rw,nosuid,nodev,noexec,relatime,mode=700 0 0\n"
        "sysfs /sys sysfs rw,relatime 0 0\n"
        "none /srv/my\\040trace tracefs rw 0 0\n"
    )
    assert sorted(kernel_view_mounts(table)) == [
        "/srv/my trace",
        "/sys/fs/bpf",
        "/sys/kernel/debug",
        "/sys/kernel/tracing",
    ]


def test_other_sysfs_mounts_are_found_but_the_machines_own():
    """A chroot's sysfs shows whole what a bot's /sys hides and covers (a reviewer's bot read the
    kernel's slab counts through one): each is hidden from the bots."""
    table = (
        "sysfs /sys sysfs rw,relatime 0 0\n"
        "sysfs /srv/chroot/sys sysfs rw,relatime 0 0\n"
        "none /sys/kernel/tracing tracefs rw 0 0\n"
    )
    assert other_sys_mounts(table) == ("/srv/chroot/sys",)


def test_hugetlbfs_mounts_are_found_but_under_dev():
    """Their files' pages are huge pages of the machine's pool; /dev/hugepages is under the bot's
    own /dev, which covers it."""
    table = (
        "hugetlbfs /dev/hugepages hugetlbfs rw,relatime,pagesize=2M 0 0\n"
        "none /mnt/huge hugetlbfs rw,relatime,pagesize=1024M 0 0\n"
        "none /srv/dpdk\\040pages hugetlbfs rw,relatime 0 0\n"
        "tmpfs /mnt/hugetlbfs tmpfs rw 0 0\n"
    )
    assert hugetlbfs_mounts(table) == ("/mnt/huge", "/srv/dpdk pages")


def test_cgroup_mounts_are_found_with_what_mounting_their_hierarchy_again_needs():
    mounts = (
        BESIDE_V1
        + "cgroup /sys/fs/cgroup/systemd cgroup rw,nosuid,nodev,noexec,relatime,xattr,name=systemd 0 0\n"
    )
    mounts += "cgroup /sys/fs/cgroup/freezer cgroup rw,relatime,freezer,release_agent=/sbin/agent 0 0\n"
    assert cgroup_mounts(mounts) == (
        CgroupMount("/sys/fs/cgroup/cpu,cpuacct", "cgroup", "cpu,cpuacct"),
        CgroupMount("/sys/fs/cgroup/cpuset", "cgroup", "cpuset"),
        CgroupMount("/sys/fs/cgroup/memory", "cgroup", "memory"),
        CgroupMount("/sys/fs/cgroup/pids", "cgroup", "pids"),
        CgroupMount("/sys/fs/cgroup/unified", "cgroup2", ""),
        CgroupMount("/sys/fs/cgroup/systemd", "cgroup", "xattr,name=systemd"),
        CgroupMount("/sys/fs/cgroup/freezer", "cgroup", "freezer"),
    )
    pure = "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate 0 0\n"
    assert cgroup_mounts(pure) == (CgroupMount("/sys/fs/cgroup", "cgroup2", ""),)


def test_escapes_are_undone_byte_by_byte_whatever_the_path_holds(tmp_path):
    """/proc/mounts escapes a space as \\040; the rest of a path is its bytes, UTF-8 or not. The
    escapes were once undone as Python escapes, which turned "café x" into "cafÃ© x"."""
    assert mounts.unescape("/mnt/caf\u00e9\\040x") == "/mnt/caf\u00e9 x"
    assert mounts.unescape("/a\\040b\\011c\\134d") == "/a b\tc\\d"
    raw = b"proc /srv/ch\xff\\040root/proc proc rw 0 0\n"
    (tmp_path / "mounts").write_bytes(raw)
    text = mounts.read_proc(str(tmp_path / "mounts"))  # no UnicodeDecodeError
    assert [os.fsencode(p) for p in mounts.other_proc_mounts(text)] == [b"/srv/ch\xff root/proc"]


def test_a_cover_the_machine_refuses_is_left_not_fatal():
    """Covering /proc's root-only files is a hardening of its own: a file the bot's /proc lacks
    (or the machine will not let be covered) stays as it is; the bot still starts in its
    namespaces (a reviewer's: one failed cover dropped the whole namespace sandbox)."""
    from codecup.sandbox.launch import cover

    cover(["/proc/no-such-file-here", "/nonexistent/codecup/cover"])  # raises nothing


def test_the_files_covered_are_read_from_the_referees_proc_with_its_masks_and_the_known_ones(tmp_path):
    """A bot's /proc is new: what the referee's own /proc covers (a container masks timer_list with
    /dev/null, which is no plain file) was left uncovered in the bot's (a reviewer's find), as was
    what a /proc with subset=pid leaves out. Root-only files are found; the known ones always
    listed; a file any user may read, a link, and sys/net are left."""
    import os

    from codecup.sandbox.launch import ROOT_ONLY, root_only_files

    proc = tmp_path / "proc"
    (proc / "sys" / "vm").mkdir(parents=True)
    (proc / "sys" / "net").mkdir()
    for name, mode in [
        ("meminfo", 0o444),
        ("newinfo", 0o400),
        ("sys/vm/newstat", 0o600),
        ("sys/net/key", 0o600),
    ]:
        (proc / name).write_text("x")
        (proc / name).chmod(mode)
    os.mkfifo(proc / "masked")  # as a mask: no plain file
    (proc / "self").symlink_to("1")
    sys = tmp_path / "sys"
    for name, mode in {
        "class/zram-control/hot_add": 0o400,
        "kernel/slab/x/objects": 0o400,
        "devices/a": 0o444,
    }.items():
        (sys / name).parent.mkdir(parents=True, exist_ok=True)
        (sys / name).write_text("x")
        (sys / name).chmod(mode)
    found = root_only_files.__wrapped__(str(proc), str(sys))
    expected = {f"{proc}/{name}" for name in (*ROOT_ONLY, "newinfo", "sys/vm/newstat", "masked")}
    assert set(found) == expected | {f"{sys}/class/zram-control/hot_add"}, found  # slab: hidden whole


def test_a_file_only_roots_group_may_read_is_listed_to_cover(tmp_path):
    """Root's group is root's too: a plain file of mode 0440 or 0640 of group root (sch_htb's module
    parameters) was left uncovered, and a bot (uid and gid 0) read it (a reviewer's scan); one of
    another group is that group's to read, and is left."""
    from codecup.sandbox.launch import root_only_files

    if os.geteuid() != 0:
        lacking("needs root, to give files root's group and another")
    sys = tmp_path / "sys"
    (sys / "module").mkdir(parents=True)
    for name, mode, group in [("roots", 0o640, 0), ("roots_too", 0o440, 0), ("others", 0o640, 4321)]:
        (sys / "module" / name).write_text("x")
        (sys / "module" / name).chmod(mode)
        os.chown(sys / "module" / name, -1, group)
    found = root_only_files.__wrapped__(str(tmp_path / "proc"), str(sys))
    assert {path for path in found if path.startswith(str(sys))} == {
        f"{sys}/module/roots",
        f"{sys}/module/roots_too",
    }, found


def test_the_machines_counts_a_bot_moves_are_listed_to_cover(tmp_path):
    """dentry-state's count of negative dentries carried a word from one game's bot to a later
    one's (a red team's): the known counts always, and every plain file of sys/fs/quota and fs that
    the kernel has; the tunables beside them, and meminfo, are left."""
    from codecup.sandbox.launch import MACHINE_COUNTS, counter_files

    proc = tmp_path / "proc"
    for name in ("meminfo", "sys/fs/file-max", "sys/fs/quota/lookups", "fs/ext4/vda/es_shrinker_info"):
        (proc / name).parent.mkdir(parents=True, exist_ok=True)
        (proc / name).write_text("1")
    (proc / "fs" / "ext4" / "link").symlink_to("vda")
    found = counter_files.__wrapped__(str(proc))
    listed = (*MACHINE_COUNTS, "sys/fs/quota/lookups", "fs/ext4/vda/es_shrinker_info")
    assert set(found) == {f"{proc}/{name}" for name in listed}, found
    assert "sys/fs/dentry-state" in MACHINE_COUNTS


def test_the_counts_listed_to_cover_are_of_the_proc_file_system_only(tmp_path, monkeypatch):
    """A file system mounted in the referee's /proc (nfsd's at fs/nfsd, where the machine serves
    NFS) is in no bot's new /proc: its files were listed, to be covered there, and the test of
    what a bot reads found "No such file" (a reviewer's find). Its device tells it apart."""
    from codecup.sandbox import launch

    proc = tmp_path / "proc"
    for name in ("fs/ext4/vda/es_shrinker_info", "fs/nfsd/exports", "fs/nfsd/pool/threads"):
        (proc / name).parent.mkdir(parents=True, exist_ok=True)
        (proc / name).write_text("1")
    device = launch._device

    def mounted(path: str) -> int:  # fs/nfsd (and what is under it) lies on another file system
        return device(path) + (1 if "/fs/nfsd" in path else 0)

    monkeypatch.setattr(launch, "_device", mounted)
    found = launch.counter_files.__wrapped__(str(proc))
    assert set(found) == {
        f"{proc}/{name}" for name in (*launch.MACHINE_COUNTS, "fs/ext4/vda/es_shrinker_info")
    }


def test_mount_points_lists_every_point_unescaped():
    table = "tmpfs /tmp/a\\040b tmpfs rw 0 0\n/dev/vda / ext4 rw 0 0\nbroken\n"
    assert mounts.mount_points(table) == ("/tmp/a b", "/")


def test_the_temp_folders_a_bot_writes_privately(tmp_path, monkeypatch):
    """/tmp and /var/tmp, each once by its real path, but one hidden from the bot, or its working
    folder or inside it (writable through that overlay already), or missing."""
    from codecup.sandbox import box

    tmp, var_tmp = tmp_path / "tmp", tmp_path / "var" / "tmp"
    tmp.mkdir()
    var_tmp.mkdir(parents=True)
    (tmp_path / "linked").symlink_to(tmp)
    names = (str(tmp), str(var_tmp), str(tmp_path / "linked"), str(tmp_path / "missing"))
    monkeypatch.setattr(box, "TEMP_FOLDERS", names)
    bots = tmp / "bots" / "a"
    assert box.temp_folders(str(bots), ()) == (str(tmp), str(var_tmp))
    assert box.temp_folders(str(tmp), ()) == (str(var_tmp),)
    assert box.temp_folders(str(tmp_path / "var"), ()) == (str(tmp),)
    assert box.temp_folders(str(bots), (str(tmp_path / "var"),)) == (str(tmp),)
    assert box.temp_folders(str(bots), (str(tmp),)) == (str(var_tmp),)


@pytest.mark.parametrize(
    ("given", "named"),
    [
        (
            {"shm_size": 0},
            "Policy.shm_size must be a positive number of bytes (a tmpfs of size 0 has no bound), not 0",
        ),
        ({"shm_size": -1}, "Policy.shm_size must be a positive"),
        ({"scratch_size": 0}, "Policy.scratch_size must be a positive"),
        ({"limits": Limits(memory=0)}, "not None (its memory limit, 0)"),
    ],
)
def test_a_policy_refuses_a_tmpfs_without_a_bound(given, named):
    """A tmpfs mounted with ``size=0`` has no bound: ``Policy(shm_size=0)`` gave a bot an
    unbounded /dev/shm (a reviewer's). An API caller's mistake, named in one line."""
    with pytest.raises(ConfigError) as caught:
        Policy(**given)
    assert named in str(caught.value)
    assert Policy(shm_size=1 << 20).shm_bytes == 1 << 20
