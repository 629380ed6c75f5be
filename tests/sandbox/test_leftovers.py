"""Referees in other pid namespaces, on the real cgroup hierarchy: a live game's cgroups are its
own while its referee runs (see codecup/owner.py)."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys

import pytest

from codecup.players import SubprocessPlayer
from codecup.sandbox import Box, Policy
from tests.support import lacking


def test_a_referee_in_another_pid_namespace_leaves_a_live_games_cgroups_alone(full_sandbox, tmp_path):
    """A red team's ``unshare --pid --fork codecup doctor``, run while a game was on, removed the
    game's cgroups and killed both its bots (cleaning up, it took their referee's pid for a dead
    one's). Here a bot runs in its sandbox while a referee in a pid namespace of its own starts."""
    if shutil.which("unshare") is None:
        lacking("needs util-linux unshare")

    async def run() -> tuple[bool, str | None]:
        box = Box.prepare(Policy(), tmp_path)
        bot = "import sys\nprint('ready', flush=True)\nsys.stdin.readline()\nprint('still here')\n"
        player = SubprocessPlayer((sys.executable, "-S", "-c", bot), cwd=tmp_path, box=box)
        await player.start()
        try:
            player.resume()
            assert await player.receive(10.0) == "ready"
            assert box.cgroup is not None
            done = await asyncio.to_thread(
                subprocess.run,
                ["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-m", "codecup", "doctor"],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert done.returncode == 0, done.stderr
            alive = box.cgroup.v2.is_dir()
            player.send("go")
            player.resume()
            reply = await player.receive(10.0)
            return alive, reply if isinstance(reply, str) else reply.message
        finally:
            await player.close()

    alive, reply = asyncio.run(run())
    assert alive
    assert reply == "still here"


HOLDER = """\
import fcntl, os, sys
path = sys.argv[1]
while True:  # as codecup.owner.hold: another referee of the machine may take it for a dead one's
    os.makedirs(path, exist_ok=True)
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        if os.stat(path).st_ino == os.fstat(fd).st_ino:
            break
    except FileNotFoundError:
        pass
    os.close(fd)
print("held", flush=True)
sys.stdin.read()
"""


@pytest.mark.parametrize("hierarchy", ["v2", "pids_v1"])
def test_another_referees_cgroups_stay_while_it_holds_its_lock_in_that_hierarchy(full_sandbox, hierarchy):
    """Each hierarchy's bot cgroups are judged by their maker's lock folder beside them. A red
    team's two referees in different cgroup2 cgroups sharing the v1 pids and cpu cgroups: the
    second looked for the first's lock among its own cgroup2 folders, did not find it, and killed
    the first's live bots through the v1 hierarchy."""
    from codecup.sandbox import cgroup, mounts

    where = mounts.read()
    base = getattr(where, hierarchy)
    if base is None:
        lacking(f"this machine has no {hierarchy} hierarchy")
    parent = base / cgroup.PARENT
    parent.mkdir(exist_ok=True)
    foreign = "999999.0badf00d"  # a pid no process has here, as another pid namespace's looks
    lock, bots = parent / foreign, parent / f"{foreign}-1"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(lock)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        bots.mkdir()  # once the lock is held: the machine's other referees leave it alone from then on
        cgroup.remove_stale(where)
        assert lock.is_dir() and bots.is_dir()
    finally:
        assert holder.stdin is not None and holder.stdout is not None
        holder.stdin.close()
        holder.wait(10)
        holder.stdout.close()
    cgroup.remove_stale(where)
    assert not bots.exists() and not lock.exists()
