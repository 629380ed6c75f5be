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


def test_a_referee_in_another_pid_namespace_leaves_a_live_games_cgroups_alone(full_sandbox, tmp_path):
    """A red team's ``unshare --pid --fork codecup doctor``, run while a game was on, removed the
    game's cgroups and killed both its bots (cleaning up, it took their referee's pid for a dead
    one's). Here a bot runs in its sandbox while a referee in a pid namespace of its own starts."""
    if shutil.which("unshare") is None:
        pytest.skip("needs util-linux unshare")

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
