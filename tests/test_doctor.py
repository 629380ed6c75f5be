"""``codecup doctor``: each containment mechanism, yes or no, and the machine's counts a bot could take."""

from __future__ import annotations

import subprocess
import sys

from codecup.cli.doctor import cores_line, irq_time_line, overcommit_line, quota_lines
from codecup.sandbox import Limits, quotas


def test_doctor_names_every_mechanism_and_exits_0():
    done = subprocess.run(
        [sys.executable, "-m", "codecup", "doctor"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    for row in ("own cgroup2 per bot", "memory limit per bot", "system call filter", "clock mode", "cores: "):
        assert row in done.stdout


def test_the_cores_line_says_what_a_bot_sees_beside_what_it_gets():
    """A runtime that sizes itself by the machine's cores (GHC's ``+RTS -N``: about two threads a
    core; Python's ``Pool()``) gains no time from them, and on a big machine runs out of the 128
    processes (a red team's GHC bot at ``-N64``): the doctor says how many a bot sees."""
    assert cores_line(Limits(), seen=8) == (
        "cores: a bot sees 8, and gets 1 processor's worth of time and 128 processes or threads "
        "(the default limits): threads by the cores it sees make a bot no faster (docs/writing-a-bot.md)"
    )
    big = cores_line(Limits(), seen=64)
    assert "warning: a runtime that starts threads by the cores it sees runs out of processes" in big
    assert "(GHC's +RTS -N: 131)" in big
    assert cores_line(Limits(cpus=2.5, processes=300), seen=64).startswith(
        "cores: a bot sees 64, and gets 2.5 processor's worth of time and 300 processes"
    )


def test_the_quota_lines_say_how_much_one_bot_could_hold_and_whether_it_is_lifted(tmp_path):
    (tmp_path / "fs" / "epoll").mkdir(parents=True)
    (tmp_path / "fs" / "epoll" / "max_user_watches").write_text("1000000\n")
    (tmp_path / "fs" / "file-max").write_text(f"{quotas.LONG_MAX}\n")
    (tmp_path / "fs" / "pipe-user-pages-soft").write_text("16384\n")
    held = (256 << 20) // 210
    lines = quota_lines(tmp_path, memory=256 << 20, root_user=False)
    lifted = "(lifted: a bot holds the machine's open files up to its memory limit)"
    assert lines[0] == f"  fs.file-max = {quotas.LONG_MAX:,} {lifted}"
    assert lines[1] == (
        "  fs.epoll.max_user_watches = 1,000,000: a bot at its 256 MiB memory limit could hold about "
        f"{held:,} of uid 0's epoll watches (128%); run as root to have it lifted"
    )
    assert lines[2].endswith("(400%); run as root to have it lifted")
    assert quota_lines(tmp_path / "missing") == []


def test_lifting_raises_what_is_below_and_leaves_the_rest(tmp_path, caplog):
    (tmp_path / "fs" / "epoll").mkdir(parents=True)
    (tmp_path / "fs" / "file-max").write_text("2466170\n")
    (tmp_path / "fs" / "pipe-user-pages-soft").write_text("0\n")
    after = quotas.lift(tmp_path)
    assert [(s.quota.name, s.value, s.lifted) for s in after] == [
        ("fs.file-max", quotas.LONG_MAX, True),
        ("fs.epoll.max_user_watches", None, False),  # not there: left alone
        ("fs.pipe-user-pages-soft", 0, True),
    ]
    assert "raised fs.file-max from 2466170" in caplog.text and "pipe" not in caplog.text


def test_strict_overcommit_is_warned_of(tmp_path):
    """Under vm.overcommit_memory 2 memory mapped and never touched counts against the machine's
    commit limit, which no memory limit covers: a red team's bot under a 64 MiB limit mapped
    270 GB (harmless in the default mode, where only memory used counts)."""
    vm = tmp_path / "vm"
    vm.mkdir()
    for mode, warned in (("0\n", False), ("1\n", False), ("2\n", True)):
        (vm / "overcommit_memory").write_text(mode)
        line = overcommit_line(tmp_path)
        assert (line is not None) == warned, mode
    assert "vm.overcommit_memory = 2" in (line or "")
    assert overcommit_line(tmp_path / "missing") is None


def test_doctor_says_whether_the_kernel_keeps_interrupt_time_apart(tmp_path):
    """Without it, an interrupt's work is charged to the bot it interrupts: a red team's bot had
    its opponent charged half again its work, with timers firing in the opponent's turn."""
    import gzip

    with gzip.open(tmp_path / "on.gz", "wt") as f:
        f.write("CONFIG_A=y\nCONFIG_IRQ_TIME_ACCOUNTING=y\n")
    (tmp_path / "off").write_text("CONFIG_A=y\n# CONFIG_IRQ_TIME_ACCOUNTING is not set\n")
    assert "kept apart" in irq_time_line((tmp_path / "on.gz",))
    assert "charged to the task it interrupts" in irq_time_line((tmp_path / "off",))
    assert "charged to the task it interrupts" in irq_time_line((tmp_path / "missing", tmp_path / "off"))


def test_the_orphans_row_says_what_ends_a_bots_processes_without_a_pid_namespace():
    """For a user who is not root it said that a process clearing its environment escapes, which
    the filter refuses (a process cannot leave the group that is killed): a reviewer's find."""
    from codecup.cli.doctor import orphans_row
    from codecup.sandbox import Support

    assert orphans_row(Support(namespaces=True)) == (True, "a bot's orphans cannot escape (pid namespace)")
    filtered = orphans_row(Support(subreaper=True, syscall_filter=True))[1]
    assert "process group, killed with its game" in filtered and "escapes" not in filtered
    assert "clears its environment escapes" in orphans_row(Support(subreaper=True))[1]


def test_the_quota_lines_name_the_bots_uid_and_no_memory_limit_where_there_is_none(tmp_path):
    """Run as uid 1000, doctor said "uid 0's epoll watches" and "up to its memory limit" where it
    had just said the machine gives no memory limit (a red team's)."""
    (tmp_path / "fs" / "epoll").mkdir(parents=True)
    (tmp_path / "fs" / "epoll" / "max_user_watches").write_text("1000000\n")
    (tmp_path / "fs" / "file-max").write_text(f"{quotas.LONG_MAX}\n")
    (tmp_path / "fs" / "pipe-user-pages-soft").write_text("0\n")
    lines = quota_lines(tmp_path, memory=None, root_user=False, uid=1000)
    unlimited = "no memory limit here: a bot"
    assert lines == [
        f"  fs.file-max = {quotas.LONG_MAX:,} (lifted: {unlimited} holds the machine's open files up to"
        " the machine's memory)",
        f"  fs.epoll.max_user_watches = 1,000,000 ({unlimited} could hold all uid 1000's epoll watches);"
        " run as root to have it lifted",
        f"  fs.pipe-user-pages-soft = 0 (lifted: {unlimited} holds uid 1000's pipe pages up to the"
        " machine's memory)",
    ]
    limited = quota_lines(tmp_path, memory=256 << 20, root_user=False, uid=1000)
    assert "of uid 1000's epoll watches" in limited[1] and "uid 0" not in "".join(limited)


def test_run_by_another_user_it_names_that_users_quotas(monkeypatch, capsys):
    """Run as uid 1000, the user namespace line said "uid 0's per-user quotas" (a reviewer's): the
    bots are uid 0 in their namespace, the referee's uid outside, whose counts they share."""
    import argparse
    import os

    from codecup.cli import doctor
    from codecup.sandbox import machine_support

    machine_support()  # found as the test's user, before its uid is said otherwise
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert doctor.run(argparse.Namespace()) == 0
    out = capsys.readouterr().out
    assert "its own counts of uid 1000's per-user quotas" in out
    assert "uid 0" not in out


def test_every_quota_line_separates_thousands(tmp_path):
    """Lifted or not, with a memory limit or without, the values read alike (a reviewer's: those of
    a machine without a memory limit had separators, the others not)."""
    (tmp_path / "fs" / "epoll").mkdir(parents=True)
    (tmp_path / "fs" / "epoll" / "max_user_watches").write_text("1000000\n")
    (tmp_path / "fs" / "file-max").write_text(f"{quotas.LONG_MAX}\n")
    (tmp_path / "fs" / "pipe-user-pages-soft").write_text("0\n")
    for memory in (None, 256 << 20):
        lines = quota_lines(tmp_path, memory=memory, root_user=False, uid=1000)
        assert f"fs.file-max = {quotas.LONG_MAX:,} (" in lines[0]
        assert "fs.epoll.max_user_watches = 1,000,000" in lines[1]


def test_a_count_is_lifted_only_at_its_lifted_value():
    """A count below the lifted value is still one a bot could take (half of LONG_MAX is not
    lifted); 0, where it means no limit, is lifted only at 0."""
    files, pipes = (
        next(q for q in quotas.QUOTAS if q.name == name)
        for name in ("fs.file-max", "fs.pipe-user-pages-soft")
    )
    assert files.is_lifted(quotas.LONG_MAX) and not files.is_lifted(quotas.LONG_MAX // 2)
    assert not files.is_lifted(9_223_372_036_854_775_806)
    assert pipes.is_lifted(0) and not pipes.is_lifted(16384)
