"""Ordinary bots still run in the sandbox: a plain `python3 bot.py` found on PATH, and a compiled one."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import tempfile

import pytest

from codecup.dialogue import Termination
from codecup.game import ProvidedFile
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match

PYTHON_BOT = """\
import sys
sys.stdin.readline()
for line in sys.stdin:
    if line.strip() == "Quit":
        break
    print(1, flush=True)
"""

C_BOT = r"""
#include <stdio.h>
#include <string.h>
int main(void) {
    char line[256];
    if (!fgets(line, sizeof line, stdin)) return 1;
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "Quit", 4) == 0) break;
        printf("2\n");
        fflush(stdout);
    }
    return 0;
}
"""


def play(game, bot: PlayerInfo, **policy):
    match = new_match(game, [bot, PlayerInfo("random", bot="random")], seed=2)
    return asyncio.run(play_match(game, match))


def test_plain_python3_on_path(tiny_game, tmp_path, full_sandbox):
    (tmp_path / "bot.py").write_text(PYTHON_BOT)
    record = play(tiny_game, PlayerInfo("py", command=("python3", "bot.py"), directory=str(tmp_path)))
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    assert record.containment[0].startswith("namespaces")
    assert "cgroup2" in record.containment[0]
    assert record.containment[1] == "in-process"


def test_a_bot_whose_folder_holds_the_scratch_folders(tiny_game, tmp_path, monkeypatch, full_sandbox):
    """A bot started in the temporary folder (``codecup play`` run from /tmp, say): its scratch
    folder lies inside its working folder, under the overlay, and must still be there."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    (tmp_path / "bot.py").write_text("open('written.txt', 'w').write('x')\n" + PYTHON_BOT)
    record = play(tiny_game, PlayerInfo("py", command=("python3", "bot.py"), directory=str(tmp_path)))
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    assert record.containment[0].startswith("namespaces")
    assert not (tmp_path / "written.txt").exists()  # its writes landed in its scratch folder
    assert list(temp.iterdir()) == []  # and the scratch mount points are gone


def test_compiled_program(tiny_game, tmp_path, full_sandbox):
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler on this machine")
    (tmp_path / "bot.c").write_text(C_BOT)
    subprocess.run([compiler, "-O1", "-o", str(tmp_path / "bot"), str(tmp_path / "bot.c")], check=True)
    record = play(tiny_game, PlayerInfo("c", command=("./bot",), directory=str(tmp_path)))
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    assert all(m.move == "2" for m in record.moves if m.seat == 0)


class WithWordList:
    """Twenty-one, whose programs expect a file ``words.dat`` in their working folder."""

    def __init__(self, game, source):
        self.game, self.source = game, source

    def __getattr__(self, name):
        return getattr(self.game, name)

    def provided_files(self, variant):
        return (ProvidedFile("words.dat", self.source),)


READS_WORDS = """\
import sys
print(open("words.dat").read().strip(), file=sys.stderr, flush=True)
sys.stdin.readline()
for line in sys.stdin:
    if line.strip() == "Quit":
        break
    print(1, flush=True)
"""


@pytest.mark.parametrize("own_file", [False, True])
def test_a_provided_file_appears_in_the_working_folder_without_touching_it(
    tiny_game, tmp_path, full_sandbox, own_file
):
    source = tmp_path / "list.txt"
    source.write_text("THE TOURNAMENT'S LIST")
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text(READS_WORDS)
    if own_file:
        (folder / "words.dat").write_text("THE BOT'S OWN LIST")
    game = WithWordList(tiny_game, source)
    record = play(game, PlayerInfo("w", command=("python3", "bot.py"), directory=str(folder)))
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    if own_file:
        assert record.logs[0].startswith("THE BOT'S OWN LIST")
        assert "provided" not in record.containment[0]
    else:
        assert record.logs[0].startswith("THE TOURNAMENT'S LIST")
        assert f"words.dat provided from {source}" in record.containment[0]
        assert not (folder / "words.dat").exists()
