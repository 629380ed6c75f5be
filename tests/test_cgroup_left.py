"""A bot cgroup folder the kernel would not yet let go of when its game ended is removed later (no
root needed: plain folders stand in). A killed referee's leftovers: tests/test_owner.py."""

from __future__ import annotations

from codecup.sandbox import cgroup
from tests.support import lacking, sleeps_noted


def test_a_folder_not_yet_removable_is_removed_once_it_can_be(tmp_path, monkeypatch):
    monkeypatch.setattr(cgroup, "_left_behind", [])
    busy = tmp_path / "4242-1"
    busy.mkdir()
    (busy / "a process still dying").touch()  # a cgroup refuses rmdir while it is populated
    cgroup._rmdir_soon(busy, patience=0.0)
    assert busy.is_dir()
    assert cgroup._left_behind == [busy]
    cgroup.retry_left()  # still refused: kept for later, without waiting
    assert busy.is_dir()
    assert cgroup._left_behind == [busy]
    (busy / "a process still dying").unlink()
    cgroup.retry_left()
    assert not busy.exists() and cgroup._left_behind == []


def test_a_folder_already_gone_is_forgotten(tmp_path, monkeypatch):
    monkeypatch.setattr(cgroup, "_left_behind", [tmp_path / "gone"])
    cgroup.retry_left()
    assert cgroup._left_behind == []


def test_a_tree_slow_to_exit_is_waited_for_in_the_event_loop_once(tmp_path, monkeypatch):
    """A red team's bot forked children sharing a big address space, whose exits took seconds:
    the wait after cgroup.kill held the referee's loop (twice: as its game closed, and as its
    cgroup was removed). No root needed: a plain folder stands in, its tree never empties."""
    import asyncio

    from codecup.sandbox import Limits

    group = cgroup.BotCgroup(tmp_path, None, None, Limits())
    events: list[str] = []  # each look at the tree, and each turn of another task of the loop
    monkeypatch.setattr(cgroup.BotCgroup, "populated", lambda self: events.append("look") or True)

    async def main():
        async def tick():
            while True:
                events.append("tick")
                await asyncio.sleep(0)

        ticker = asyncio.create_task(tick())
        killed = await group.kill_soon(0.3)
        ticker.cancel()
        return killed

    assert asyncio.run(main()) is False
    assert (tmp_path / "cgroup.kill").read_text() == "1"
    # The loop ran on between its looks: counted in turns, not in ticks of a real clock (a loaded
    # machine gave the loop one 10 ms tick in the 0.3 s, and the test failed). One look alone: a
    # machine so loaded that the wait was over by its first.
    looks = [i for i, event in enumerate(events) if event == "look"]
    assert len(looks) == 1 or "tick" in events[looks[0] : looks[-1]], events
    slept, looked = sleeps_noted(monkeypatch, cgroup), events.count("look")
    assert group.kill(2.0) is False  # it gave up once: no second wait
    assert slept == []
    assert events.count("look") - looked <= 1, events  # nor one that spins instead of sleeping


def test_a_cancelled_wait_after_cgroup_kill_is_not_made_again(tmp_path, monkeypatch):
    """A worker told to stop cancels its game's close mid-wait: the cgroup's removal then waited
    the whole 2 s again, in the loop, past the worker's grace (a reviewer's)."""
    import asyncio

    from codecup.sandbox import Limits

    group = cgroup.BotCgroup(tmp_path, None, None, Limits())
    looks: list[None] = []
    monkeypatch.setattr(cgroup.BotCgroup, "populated", lambda self: looks.append(None) or True)

    async def main():
        waiting = asyncio.create_task(group.kill_soon(5.0))
        await asyncio.sleep(0.05)
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)

    asyncio.run(main())
    slept, looked = sleeps_noted(monkeypatch, cgroup), len(looks)
    assert group.kill(2.0) is False
    assert slept == []  # no wait: a loaded machine's slowness is none
    assert len(looks) - looked <= 1, len(looks) - looked  # nor one that spins instead of sleeping


def test_the_shared_parent_a_bot_froze_is_thawed_at_the_next_bots_start(tmp_path):
    """A reviewer's bot of uid 0 without capabilities (root, the namespaces failing) froze the
    ``codecup`` folder every referee of the machine shares: the next run's games hung. No root
    needed: plain folders stand in for the cgroups."""
    (tmp_path / cgroup.PARENT).mkdir()
    freeze = tmp_path / cgroup.PARENT / "cgroup.freeze"
    freeze.write_text("1")
    assert cgroup._unfrozen(tmp_path) == tmp_path / cgroup.PARENT
    assert freeze.read_text() == "0"
    freeze.write_text("1")  # frozen again during the run: thawed at the next start too
    cgroup._unfrozen(tmp_path)
    assert freeze.read_text() == "0"


def test_a_bots_cgroup_files_go_to_a_uid_this_namespace_maps():
    """``chown`` to an unmapped uid fails with EINVAL: as root in a user namespace mapping root
    alone (a rootless container), a reviewer's bot kept its cgroup files, and nothing said so."""
    whole = "0 0 4294967295"
    assert cgroup.pick_no_one(whole, whole, {0, 1000}) == (cgroup.NO_ONE, cgroup.NO_ONE)
    assert cgroup.pick_no_one("0 1000 1", "0 1000 1", {0}) is None  # unshare --map-root-user
    subordinate = "0 1000 1\n1 100000 65536"
    assert cgroup.pick_no_one(subordinate, subordinate, {0}) == (65536, 65536)
    assert cgroup.pick_no_one(subordinate, "0 1000 1", {0, 1}) == (65536, -1)  # its gid unchanged
    assert cgroup.pick_no_one(subordinate, subordinate, {0, 65536}) is None  # a process runs as it


def test_a_cgroup_whose_files_cannot_be_kept_from_its_bot_says_so(tmp_path, monkeypatch, caplog):
    from codecup.sandbox import Limits

    monkeypatch.setattr(cgroup, "no_one", lambda: None)
    group = cgroup.BotCgroup(tmp_path, None, None, Limits())
    group.keep_from_bot()
    assert group.bots_files
    assert "its cgroup files writable to it" in group.describe()


def _needs_root():
    import os

    if os.geteuid() != 0:
        lacking("needs root")


def test_only_the_bots_own_cgroups_are_given_away(tmp_path, monkeypatch):
    """Root in a cgroup delegated to a user (``sudo`` in that user's session): a reviewer's
    degraded root run gave the user's ``codecup`` folder and its files to the unused uid for good,
    and the user's later runs lost their cgroups ("not root, not delegated"). Only the bot's own
    cgroups, what uid 0 owns of them, are given away; the ``codecup`` folder stays as it is."""
    import os

    from codecup.sandbox import Limits

    _needs_root()
    parent = tmp_path / cgroup.PARENT
    own = parent / "t-1"
    own.mkdir(parents=True)
    (own / "pids.max").write_text("128")
    users, roots = parent / "cgroup.subtree_control", parent / "cgroup.freeze"
    users.write_text("")
    roots.write_text("0")
    for path in (parent, users):
        os.chown(path, 1000, 1000)
    monkeypatch.setattr(cgroup, "no_one", lambda: (cgroup.NO_ONE, cgroup.NO_ONE))
    group = cgroup.BotCgroup(own, None, None, Limits())
    group.keep_from_bot()
    assert not group.bots_files
    for path in (parent, users):
        assert (path.stat().st_uid, path.stat().st_gid) == (1000, 1000), path
    for path in (own, own / "pids.max"):
        assert path.stat().st_uid == cgroup.NO_ONE, path
    assert roots.stat().st_uid == 0  # the codecup folder's files are not the bot's to have


def test_an_entry_gone_between_its_listing_and_its_chown_stops_nothing(tmp_path, monkeypatch):
    """An entry listed and gone before its ``chown`` (FileNotFoundError) ended the whole loop (a
    reviewer's race), and the bot's cgroups in the hierarchies after it were never kept from it."""
    from pathlib import Path

    from codecup.sandbox import Limits

    _needs_root()
    v2, pids = tmp_path / "v2" / cgroup.PARENT / "t-1", tmp_path / "pids" / cgroup.PARENT / "t-1"
    for own in (v2, pids):
        own.mkdir(parents=True)
        (own / "pids.max").write_text("128")
    gone = v2 / "memory.pressure"
    gone.write_text("")
    listed = Path.iterdir

    def iterdir(self):
        entries = list(listed(self))
        if gone in entries:
            gone.unlink()  # the kernel removed it meanwhile
        return iter(entries)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    monkeypatch.setattr(cgroup, "no_one", lambda: (cgroup.NO_ONE, cgroup.NO_ONE))
    group = cgroup.BotCgroup(v2, None, pids, Limits())
    group.keep_from_bot()
    assert not group.bots_files
    for own in (v2, pids):
        for kept in (own, own / "pids.max"):
            assert kept.stat().st_uid == cgroup.NO_ONE, kept
    assert v2.parent.stat().st_uid == 0  # the codecup folder stays root's


def test_the_machines_processes_are_read_only_where_the_unused_uid_is_not_mapped(monkeypatch):
    """Reading every process's status took 100 ms at 3,000 processes (a reviewer's), at each run's
    first bot, where it cannot change the answer: the unused uid is mapped (the machine's own
    namespace) or there are no user namespaces."""
    read = []

    def users():
        read.append(1)
        return {0, 1000}

    monkeypatch.setattr(cgroup, "_users", users)
    whole, root_alone = "0 0 4294967295", "0 1000 1"
    for maps, expected, scans in [
        ((whole, whole), (cgroup.NO_ONE, cgroup.NO_ONE), 0),
        (None, (cgroup.NO_ONE, cgroup.NO_ONE), 0),  # no user namespaces in this kernel
        ((root_alone, root_alone), None, 1),
    ]:
        read.clear()
        monkeypatch.setattr(cgroup, "_maps", (lambda m: lambda: m)(maps))
        assert cgroup.no_one.__wrapped__() == expected
        assert len(read) == scans


def test_a_tree_whose_kill_file_cannot_be_written_has_its_members_killed(tmp_path, monkeypatch):
    """A dead degraded referee's bot cgroup, its files given to the unused uid: root inside a user
    namespace that does not map that uid may not write its ``cgroup.kill``, and the bot ran on at
    every later start (a reviewer's). Its members are then killed one by one."""
    import os
    import signal

    tree = tmp_path / "1.deadbeef-1"
    tree.mkdir()
    (tree / "cgroup.procs").write_text("4242\n")
    killed = []

    def kill(pid, sig):
        killed.append((pid, sig))
        (tree / "cgroup.procs").unlink()  # a plain folder stands in: emptied, it can be removed

    monkeypatch.setattr(cgroup, "_write", lambda path, text: False)
    monkeypatch.setattr(os, "kill", kill)
    cgroup._remove_tree(tree)
    assert killed == [(4242, signal.SIGKILL)]
    assert not tree.exists()


def test_members_this_pid_namespace_cannot_see_are_never_signalled(tmp_path, monkeypatch):
    """cgroup2 lists a member outside the reader's pid namespace as 0, and ``kill(0, SIGKILL)``
    is the caller's own process group: a reviewer's referee in a pid namespace killed itself,
    and the dead referee's bot lived on."""
    import os

    tree = tmp_path / "1.deadbeef-1"
    tree.mkdir()
    (tree / "cgroup.procs").write_text("0\n0\n")
    killed = []
    monkeypatch.setattr(os, "kill", lambda pid, sig: killed.append(pid))
    assert cgroup._kill_members(tree)
    assert killed == []


def test_two_threads_retrying_at_once_each_take_a_folder_once(monkeypatch):
    """Bots start in threads of one process (a Dask worker's games): two retries at once both
    removed a folder left behind, and the second's ``list.remove`` raised ValueError out of the
    bot's cgroup creation (a red team's). One takes it: the other finds nothing to try."""
    import threading

    entered, other_done = threading.Event(), threading.Event()
    tries = []

    class Folder:  # a folder left behind, removable by now; its removal slow
        def rmdir(self) -> None:
            tries.append(threading.current_thread().name)
            if len(tries) > 1:
                raise FileNotFoundError("removed by the other thread")
            entered.set()
            other_done.wait(2.0)

    monkeypatch.setattr(cgroup, "_left_behind", [Folder()])
    errors = []

    def first() -> None:
        try:
            cgroup.retry_left()
        except Exception as exc:
            errors.append(exc)

    thread = threading.Thread(target=first, name="first")
    thread.start()
    assert entered.wait(2.0)
    try:
        cgroup.retry_left()  # the second thread, while the first is in its rmdir
    finally:
        other_done.set()
        thread.join(5.0)
    assert errors == [] and tries == ["first"]
    assert cgroup._left_behind == []


def test_each_limit_is_written_as_the_tournament_gives_it(tmp_path):
    """A bot's memory, process and processor limits are the ones asked for, to the byte (no swap
    beside its memory), not a multiple: a plain folder stands in for its cgroup2 folder."""
    from codecup.sandbox import Limits
    from codecup.sandbox.mounts import Hierarchies

    v2 = tmp_path / "bot"
    v2.mkdir()
    (v2 / "cgroup.controllers").write_text("cpu memory pids\n")
    limits = Limits(memory=48 << 20, processes=7, cpus=0.5)
    group = cgroup.BotCgroup(v2, None, None, limits)
    group._limit(Hierarchies(v2=tmp_path), "bot")
    assert (v2 / "memory.max").read_text() == str(48 << 20)
    assert (v2 / "memory.swap.max").read_text() == "0"
    assert (v2 / "pids.max").read_text() == "7"
    assert (v2 / "cpu.max").read_text() == "5000 10000"  # half of each 10 ms period
    assert (group.memory_v2, group.pids_v2, group.cpu_v2, group.failures) == (True, True, True, [])


def test_the_limits_hit_are_read_from_the_kernels_counts(tmp_path):
    """An OOM kill (``oom_kill``, not the ``oom`` events that killed nothing) and a refused fork
    are read back, so that the fault names the limit; a plain folder stands in."""
    from codecup.sandbox import Limits

    group = cgroup.BotCgroup(tmp_path, None, None, Limits(), memory_v2=True, pids_v2=True)
    (tmp_path / "memory.events").write_text("low 0\nhigh 0\nmax 9\noom 5\noom_kill 2\noom_group_kill 0\n")
    (tmp_path / "pids.events").write_text("max 3\n")
    assert group.hits() == cgroup.LimitHits(oom_kills=2, process_refusals=3)
    assert group.hits().describe(Limits(memory=64 << 20)) == "exceeded its memory limit (64 MiB)"
    (tmp_path / "memory.events").write_text("oom 0\noom_kill 0\n")
    assert group.hits().describe(Limits(processes=5)) == "tried to run more than 5 processes or threads"


def test_kill_writes_cgroup_kill_and_waits_for_the_tree(tmp_path, monkeypatch):
    """The blocking kill (a cgroup's removal) writes ``cgroup.kill`` itself, not only the event
    loop's: a plain folder stands in, its tree empties at the second look."""
    from codecup.sandbox import Limits

    group = cgroup.BotCgroup(tmp_path, None, None, Limits())
    looks = iter((True, False))
    monkeypatch.setattr(cgroup.BotCgroup, "populated", lambda self: next(looks))
    assert group.kill(30.0) is True
    assert (tmp_path / "cgroup.kill").read_text() == "1"
    assert group.outlived_kill is False
