"""Ordinary bots still run in the sandbox: a plain `python3 bot.py` found on PATH, and a compiled one."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest

from codecup import owner
from codecup.dialogue import Termination
from codecup.game import ProvidedFile
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from codecup.sandbox import Policy

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


@pytest.mark.parametrize("where", ["its folder", "a hidden folder", "/tmp, by a link"])
def test_the_scratch_folders_inside_a_folder_the_bot_sees_differently(
    tiny_game, tmp_path, monkeypatch, full_sandbox, where
):
    """The scratch folders' mount points (in the temporary folder) inside the bot's working
    folder (``codecup play`` run from /tmp, say), covered by its overlay, or inside a folder
    hidden from it, covered by an empty tmpfs, or in /tmp, overlaid, named by a link from outside
    it (its path did not say it lay there): the bot's scratch folder must still be there."""
    folder = tmp_path if where == "its folder" else tmp_path / "bot"
    hidden = tmp_path / "results"
    temp = (folder if where == "its folder" else hidden if where == "a hidden folder" else tmp_path) / "tmp"
    temp.mkdir(parents=True)
    folder.mkdir(exist_ok=True)
    link = Path("/dev/shm", f"codecup-test-{uuid.uuid4().hex}")  # outside /tmp
    if where == "/tmp, by a link":
        link.symlink_to(temp)
    monkeypatch.setattr(tempfile, "tempdir", str(link if where == "/tmp, by a link" else temp))
    (folder / "bot.py").write_text("open('written.txt', 'w').write('x')\n" + PYTHON_BOT)
    bot = PlayerInfo("py", command=("python3", "bot.py"), directory=str(folder))
    match = new_match(tiny_game, [bot, PlayerInfo("random", bot="random")], seed=2)
    try:
        record = asyncio.run(play_match(tiny_game, match, policy=Policy(hide=(str(hidden),))))
    finally:
        link.unlink(missing_ok=True)
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    assert record.containment[0].startswith("namespaces")
    assert not (folder / "written.txt").exists()  # its writes landed in its scratch folder
    # The scratch mount points are gone; this referee's own folder stays (its lock) until it ends.
    own = temp / f"{owner.TEMP_PREFIX}{owner.token()}"
    assert list(temp.iterdir()) == [own] and list(own.iterdir()) == []


SHARED_MEMORY_BOT = """\
import mmap, os, sys
from multiprocessing import shared_memory
size = 100 << 20
table = os.memfd_create("table")  # as a JVM's ZGC heap
os.ftruncate(table, 2 * size)
mmap.mmap(table, 2 * size)[-1] = 1
fd = os.open("/dev/shm/table", os.O_RDWR | os.O_CREAT, 0o600)  # POSIX shm, filled
os.posix_fallocate(fd, 0, size)
os.unlink("/dev/shm/table")
block = shared_memory.SharedMemory(create=True, size=size)
block.buf[size - 1] = 1
print("shared memory ok", file=sys.stderr, flush=True)
"""


def test_shared_memory_to_the_memory_limit(tiny_game, tmp_path, full_sandbox):
    """Shared memory is charged to the bot's memory limit, and no more bounded than that: the
    file-size limit (64 MiB) refused a 200 MiB memfd (a JVM with ZGC and ``-Xmx512m`` could not
    start) and a POSIX shm object of 100 MiB (Python's ``SharedMemory``), and a 64 MiB /dev/shm
    killed a bot with SIGBUS whose tables held 80 MiB (a red team's)."""
    (tmp_path / "bot.py").write_text(SHARED_MEMORY_BOT + PYTHON_BOT)
    record = play(tiny_game, PlayerInfo("py", command=("python3", "bot.py"), directory=str(tmp_path)))
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    assert "shared memory ok" in record.logs[0], record.logs[0]
    assert "/dev/shm 1024 MiB" in record.containment[0] and "file size 1024 MiB" in record.containment[0]


TEMP_FILES_BOT = """\
import os, sys, tempfile
token, beside = sys.argv[1], sys.argv[2]
for folder in sys.argv[3:]:
    with open(f"{folder}/{token}", "w") as f:
        f.write(folder)
    with tempfile.TemporaryFile(dir=folder) as f:  # C's tmpfile(), in effect
        f.write(b"x")
    fd, name = tempfile.mkstemp(dir=folder)
    os.close(fd)
    print(folder, open(f"{folder}/{token}").read(), os.path.exists(name), file=sys.stderr, flush=True)
print("own", sorted(os.listdir(".")), "beside", sorted(os.listdir(beside)), file=sys.stderr, flush=True)
"""


@pytest.mark.parametrize("mounted", [False, True], ids=["plain folder", "in a mount of the machine"])
def test_temp_folders_are_writable_and_private(tiny_game, tmp_path, full_sandbox, mounted):
    """/tmp and /var/tmp are writable in the bot's view, its writes landing in its scratch folder:
    in a read-only /tmp C's ``tmpfile()`` and a JVM's ``File.createTempFile`` (its
    ``java.io.tmpdir`` is ``/tmp``), which ignore ``TMPDIR``, failed (a red team's). Its own
    folder under /tmp (here, pytest's) and what lies beside it stay as they were, also in a file
    system the machine mounted there, and so does the machine's /tmp."""
    token = f"codecup-test-{uuid.uuid4().hex}"
    root = tmp_path / "mnt"
    root.mkdir()
    if mounted:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "codecup-test", str(root)], check=True)
    try:
        (root / "beside.txt").write_text("the organiser's")
        (root / "bot").mkdir()
        (root / "bot" / "bot.py").write_text(TEMP_FILES_BOT + PYTHON_BOT)
        folders = [f for f in ("/tmp", "/var/tmp") if os.path.isdir(f)]
        command = ("python3", "bot.py", token, str(root), *folders)
        record = play(tiny_game, PlayerInfo("py", command=command, directory=str(root / "bot")))
        assert sorted(p.name for p in root.iterdir()) == ["beside.txt", "bot"]
        assert [p.name for p in (root / "bot").iterdir()] == ["bot.py"]
    finally:
        if mounted:
            subprocess.run(["umount", str(root)], check=True)
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    lines = record.logs[0].splitlines()
    assert all(f"{folder} {folder} True" in lines for folder in folders), lines
    assert f"read-only filesystem but private writable {', '.join(folders)}," in record.containment[0]
    assert "own ['bot.py'] beside ['beside.txt', 'bot']" in lines, lines
    assert not any(Path(folder, token).exists() for folder in folders)


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

    def __init__(self, game, source, about="", original=None):
        self.game, self.source, self.about, self.original = game, source, about, original

    def __getattr__(self, name):
        return getattr(self.game, name)

    def provided_files(self, variant):
        return (ProvidedFile("words.dat", self.source, self.about, self.original),)


READS_WORDS = """\
import sys
print(open("words.dat").read().strip(), file=sys.stderr, flush=True)
sys.stdin.readline()
for line in sys.stdin:
    if line.strip() == "Quit":
        break
    print(1, flush=True)
"""


@pytest.mark.parametrize("own_file", ["none", "own", "broken link"])
def test_a_provided_file_appears_in_the_working_folder_without_touching_it(
    tiny_game, tmp_path, full_sandbox, own_file
):
    source = tmp_path / "list.txt"
    source.write_text("THE TOURNAMENT'S LIST")
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text(READS_WORDS)
    if own_file == "own":
        (folder / "words.dat").write_text("THE BOT'S OWN LIST")
    elif own_file == "broken link":  # it was noted "provided", but the bot found only the link
        (folder / "words.dat").symlink_to("/nonexistent/words.dat")
    game = WithWordList(tiny_game, source)
    record = play(game, PlayerInfo("w", command=("python3", "bot.py"), directory=str(folder)))
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    if own_file == "own":
        assert record.logs[0].startswith("THE BOT'S OWN LIST")
        assert "words.dat provided from" not in record.containment[0]
        assert f"its own words.dat kept, not the game's {source}" in record.containment[0]  # it differs
    else:
        assert record.logs[0].startswith("THE TOURNAMENT'S LIST")
        assert f"words.dat provided from {source}" in record.containment[0]
        assert ("its own is a link to nothing" in record.containment[0]) == (own_file == "broken link")
        assert (folder / "words.dat").is_symlink() == (own_file == "broken link")  # its folder untouched
        assert not (folder / "words.dat").exists()


def test_a_link_into_another_players_folder_counts_as_no_list_of_its_own(tiny_game, tmp_path, full_sandbox):
    """A bot's words.dat linking into another player's folder (``a/words.dat -> ../b/words.dat``)
    leads, in its sandbox, into a hidden folder: it found no list, and the run said nothing. A
    link out of its folder is none of its own: the game's list is provided, and said."""
    source = tmp_path / "list.txt"
    source.write_text("THE TOURNAMENT'S LIST")
    run = tmp_path / "run"
    for name in ("a", "b"):
        (run / name).mkdir(parents=True)
        (run / name / "bot.py").write_text(READS_WORDS)
    (run / "b" / "words.dat").write_text("B'S OWN LIST")
    (run / "a" / "words.dat").symlink_to("../b/words.dat")
    game = WithWordList(tiny_game, source)
    players = [PlayerInfo(n, command=("python3", "bot.py"), directory=str(run / n)) for n in ("a", "b")]
    record = asyncio.run(play_match(game, new_match(game, players, seed=2)))
    assert [end.kind for end in record.result.termination] == [Termination.NORMAL] * 2
    assert record.logs[0].startswith("THE TOURNAMENT'S LIST"), record.logs[0]
    assert (
        f"words.dat provided from {source} (its own is a link out of its folder or into a hidden one)"
        in record.containment[0]
    )
    assert "kept" not in record.containment[0]
    assert record.logs[1].startswith("B'S OWN LIST")  # b's own, in its folder
    assert (run / "a" / "words.dat").is_symlink()  # its folder untouched


def test_a_link_into_a_hidden_folder_nested_in_its_own_counts_as_no_list_of_its_own(
    tiny_game, tmp_path, full_sandbox
):
    """A reviewer's: ``a/words.dat -> c/words.dat`` where ``a/c`` is the opponent's folder, hidden
    from ``a``: the link stays in its folder, but leads where its sandbox shows nothing."""
    source = tmp_path / "list.txt"
    source.write_text("THE TOURNAMENT'S LIST")
    a = tmp_path / "a"
    (a / "c").mkdir(parents=True)
    for folder in (a, a / "c"):
        (folder / "bot.py").write_text(READS_WORDS)
    (a / "c" / "words.dat").write_text("C'S OWN LIST")
    (a / "words.dat").symlink_to("c/words.dat")
    game = WithWordList(tiny_game, source)
    players = [
        PlayerInfo("a", command=("python3", "bot.py"), directory=str(a)),
        PlayerInfo("c", command=("python3", "bot.py"), directory=str(a / "c")),
    ]
    record = asyncio.run(play_match(game, new_match(game, players, seed=2)))
    assert [end.kind for end in record.result.termination] == [Termination.NORMAL] * 2
    assert record.logs[0].startswith("THE TOURNAMENT'S LIST"), record.logs[0]
    assert record.logs[1].startswith("C'S OWN LIST")


def test_a_folder_holding_the_file_the_games_copy_is_made_from_is_given_the_copy_over_it(
    tiny_game, tmp_path, full_sandbox
):
    """A reviewer's: ``--words run/a/words.dat`` in lower case (or ``./words.dat`` with ``codecup
    play`` run there). The game gives programs an upper-case copy; player ``a``'s folder holds the
    very file it is made from, the organiser's, and ``a`` read it as it is, in lower case, while
    ``b`` was given the copy: only a note said so. The copy is put over it in ``a``'s overlay too,
    the file on disk left as it is, and the record says so. So it is over ``b``'s ``cp`` of it (a
    second reviewer's: the same bytes were "its own", read as they are)."""
    run = tmp_path / "run"
    for name in ("a", "b"):
        (run / name).mkdir(parents=True)
        (run / name / "bot.py").write_text(READS_WORDS)
    original = run / "a" / "words.dat"
    original.write_text("the list in lower case")
    shutil.copyfile(original, run / "b" / "words.dat")  # a cp of it: the same bytes, not its own either
    copy = tmp_path / "referee-temp" / "words-copy.dat"
    copy.parent.mkdir()
    copy.write_text("THE LIST IN LOWER CASE")
    about = f"a copy of {original}, upper case"
    game = WithWordList(tiny_game, copy, about, original)
    players = [PlayerInfo(n, command=("python3", "bot.py"), directory=str(run / n)) for n in ("a", "b")]
    record = asyncio.run(play_match(game, new_match(game, players, seed=2)))
    assert [end.kind for end in record.result.termination] == [Termination.NORMAL] * 2
    assert [log.splitlines()[0] for log in record.logs] == ["THE LIST IN LOWER CASE"] * 2
    assert original.read_text() == "the list in lower case"  # never touched
    assert sorted(p.name for p in (run / "a").iterdir()) == ["bot.py", "words.dat"]
    note = record.containment[0]
    assert f"words.dat provided from {about} (over its own, the file it is made from as it is" in note
    assert str(copy.parent) not in note and "kept" not in note, note
    assert (
        f"words.dat provided from {about} (over its own, the file it is made from as it is"
        in (record.containment[1])
    )
    assert (run / "b" / "words.dat").read_text() == "the list in lower case"


@pytest.mark.parametrize("entry", ["folder", "link to a folder", "FIFO"])
def test_a_words_dat_that_is_no_file_is_said_to_leave_the_bot_without_the_games(
    tiny_game, tmp_path, full_sandbox, entry
):
    """A red team's bot folder whose words.dat is a folder got no list, and nothing said so: an
    entry of its own is never replaced, but its record says it has none of the game's."""
    source = tmp_path / "list.txt"
    source.write_text("THE TOURNAMENT'S LIST")
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text(PYTHON_BOT)
    own = folder / "words.dat"
    if entry == "folder":
        own.mkdir()
    elif entry == "link to a folder":
        (folder / "lists").mkdir()
        own.symlink_to("lists")
    else:
        os.mkfifo(own)
    record = play(
        WithWordList(tiny_game, source), PlayerInfo("w", command=("python3", "bot.py"), directory=str(folder))
    )
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    kind = "a FIFO" if entry == "FIFO" else "a folder"
    said = f"its own words.dat is {kind}, not a file: kept, so it has none of the game's, {source}"
    assert said in record.containment[0], record.containment[0]
    assert "provided from" not in record.containment[0]
