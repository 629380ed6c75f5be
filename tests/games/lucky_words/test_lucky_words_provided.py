"""``words.dat`` for programs: what the game provides, and what a run says of a folder's own."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from codecup import owner
from codecup.cli.tournament import provided_notes
from codecup.players.seat import provisions_of
from codecup.record import PlayerInfo
from codecup.sandbox.box import OwnKind, Provision, own_differing
from codecup_games.lucky_words.game import LuckyWords
from codecup_games.lucky_words.words import DEFAULT_SOURCE, WORDS_ENV
from tests.games.lucky_words.lw_support import SMALL_WORDS

GAME = LuckyWords()


def _player(folder: Path) -> PlayerInfo:
    return PlayerInfo(folder.name, command=("./bot",), directory=str(folder))


@pytest.mark.parametrize(
    ("text", "unlike"),
    [
        (SMALL_WORDS.lower(), "lower case"),
        ("".join(f"{w} \n" for w in SMALL_WORDS.split()), "blanks in its lines"),
    ],
)
def test_a_program_in_the_folder_of_the_games_list_is_given_the_games_copy_over_it(
    tmp_path, monkeypatch, text, unlike
):
    """A red team's, then a reviewer's: ``./words.dat`` in lower case (or with a blank after each
    word) is the game's list, and ``codecup play`` runs its programs in that folder. They read the
    file as it is, only a line said so ("p1, p2 read words.dat in their folders as it is ... made one
    upper-case word a line", as if the file were changed). The folder's file is the organiser's,
    not the program's own: the game's copy is given over it, the file left as it is, and said."""
    monkeypatch.delenv(WORDS_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.dat").write_text(text)
    (provided,) = GAME.provided_files("codecup2004")
    about = f"a copy of {tmp_path / 'words.dat'}, one upper-case word a line (the file has {unlike})"
    assert provided.original == tmp_path / "words.dat" and provided.about == about
    assert provided.source.parent == owner.temp_folder()  # the copy programs are given elsewhere
    here = [_player(tmp_path), PlayerInfo("p2", command=("./bot",), directory=str(tmp_path))]
    assert provided_notes(GAME, "codecup2004", here, sandboxed=True) == [
        f"words.dat provided to {tmp_path.name}, p2, over their folder's words.dat, the file it is made "
        f"from as it is (left as it is): {about}"
    ]
    assert provided_notes(GAME, "codecup2004", here[:1], sandboxed=True) == [
        f"words.dat provided to {tmp_path.name}, over its folder's words.dat, the file it is made "
        f"from as it is (left as it is): {about}"
    ]
    (provision,) = provisions_of(GAME, "codecup2004")
    assert provision.given_in(str(tmp_path)) and own_differing([provision], tmp_path) == []
    assert (tmp_path / "words.dat").read_text() == text
    other = tmp_path / "other"  # a folder with a list of its own still plays with it, said so
    other.mkdir()
    (other / "words.dat").write_text("ZZ\n")
    assert provided_notes(GAME, "codecup2004", [_player(other)], sandboxed=True) == [
        "other plays with its own words.dat, not the game's"
    ]
    assert str(owner.temp_folder()) not in own_differing([provision], other)[0].note()


def test_a_list_file_that_is_what_programs_are_given_is_read_in_its_folder_itself(tmp_path, monkeypatch):
    """Where the list's file is already one upper-case word a line, it is handed out itself: a
    program in its folder reads it there, and nothing is said or put over it."""
    monkeypatch.delenv(WORDS_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.dat").write_text(SMALL_WORDS)
    (provided,) = GAME.provided_files("codecup2004")
    assert provided.source == (tmp_path / "words.dat").resolve() and provided.original is None
    assert provided_notes(GAME, "codecup2004", [_player(tmp_path)], sandboxed=True) == []
    (provision,) = provisions_of(GAME, "codecup2004")
    assert not provision.given_in(str(tmp_path))


def test_the_bundled_list_is_named_by_what_it_is(tmp_path, monkeypatch):
    """The bundled list's copy for programs is a temporary file: notes name the list instead."""
    monkeypatch.delenv(WORDS_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    (provided,) = GAME.provided_files("wordracer")
    assert provided.about == f"the {DEFAULT_SOURCE} written one upper-case word a line"
    assert provided.original is None


@pytest.mark.parametrize("entry", ["folder", "link to a folder", "FIFO", "socket"])
def test_a_words_dat_that_is_no_file_is_said_to_leave_the_program_without_the_games(
    tmp_path, monkeypatch, small_words, entry
):
    """A red team's bot folder whose words.dat was a folder got no list, and the run said nothing
    (an entry of its own is never replaced): it says the program gets none of the game's."""
    folder = tmp_path / "bot"
    folder.mkdir()
    own = folder / "words.dat"
    if entry == "folder":
        own.mkdir()
    elif entry == "link to a folder":
        (folder / "lists").mkdir()
        own.symlink_to("lists")
    elif entry == "FIFO":
        os.mkfifo(own)
    else:
        monkeypatch.chdir(folder)  # a short name: a socket's path is at most 107 bytes
        listening = socket.socket(socket.AF_UNIX)
        listening.bind("words.dat")
        listening.close()
    kind = {"FIFO": "a FIFO", "socket": "a socket"}.get(entry, "a folder")
    assert provided_notes(GAME, "wordracer", [_player(folder)], sandboxed=True) == [
        f"bot's words.dat is {kind}, not a file: it is given none of the game's"
    ]
    (found,) = own_differing(provisions_of(GAME, "wordracer"), folder)
    assert found.kind is OwnKind.NO_FILE and found.what == kind


def test_a_bots_own_differing_list_is_said_whatever_the_games_original(tmp_path):
    """A reviewer's: ``own_differing`` asked whether a bot's file is the game's ``original`` inside
    the same ``try`` as the comparison with the game's file, and an ``original`` that was gone (or
    unreadable) raised there and skipped the bot's own differing list, unsaid."""
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "words.dat").write_text("ZZ\n")
    (tmp_path / "src.dat").write_text("AA\n")
    for original in ("", str(tmp_path / "gone.dat")):
        provision = Provision("words.dat", str(tmp_path / "src.dat"), "a copy", original)
        (found,) = own_differing([provision], tmp_path / "bot")
        assert found.provided == provision and found.kind is OwnKind.OTHER


def test_a_copy_of_the_games_list_file_in_a_folder_is_given_the_games_copy_over_it(tmp_path, monkeypatch):
    """A reviewer's: ``--words run/a/words.dat`` in lower case, player ``c``'s a hard link to it,
    ``b``'s a ``cp`` of it. ``a`` and ``c`` were given the game's upper-case copy, ``b`` read its
    file as it is, "its own": the same bytes as the list's file, the copy over them hides nothing
    of ``b``'s. A file of the same size whose bytes differ stays the bot's own."""
    monkeypatch.delenv(WORDS_ENV, raising=False)
    run = tmp_path / "run"
    for name in "abcd":
        (run / name).mkdir(parents=True)
    (run / "a" / "words.dat").write_text(SMALL_WORDS.lower())
    (run / "b" / "words.dat").write_text(SMALL_WORDS.lower())
    os.link(run / "a" / "words.dat", run / "c" / "words.dat")
    (run / "d" / "words.dat").write_text(SMALL_WORDS.lower().replace("a", "b", 1))
    monkeypatch.setenv(WORDS_ENV, str(run / "a" / "words.dat"))
    (provision,) = provisions_of(GAME, "codecup2004")
    players = [_player(run / name) for name in "abcd"]
    assert [provision.given_in(str(run / name)) for name in "abcd"] == [True, True, True, False]
    assert own_differing([provision], run / "b") == []
    (lines, own) = provided_notes(GAME, "codecup2004", players, sandboxed=True)
    assert lines.startswith(
        "words.dat provided to a, b, c, over their folders' words.dat, the file it is made from "
    )
    assert own == "d plays with its own words.dat, not the game's"
    (run / "new.dat").write_text(SMALL_WORDS.lower().replace("a", "b", 1))
    (run / "new.dat").rename(run / "b" / "words.dat")  # another file since: its own
    assert not provision.given_in(str(run / "b"))


def test_without_a_sandbox_the_run_says_new_files_in_the_folder_of_links_are_not_kept(tmp_path, monkeypatch):
    """A reviewer's: without namespaces (not root) a program given the game's file runs in a
    temporary folder of links to its own, and a file it makes there is gone after its game, now
    also with ``codecup play`` in the folder of a lower-case ``./words.dat``: the line says so.
    Two players sharing one folder have "their folder", not "their folders"."""
    monkeypatch.delenv(WORDS_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.dat").write_text(SMALL_WORDS.lower())
    (tmp_path / "empty").mkdir()
    here = [_player(tmp_path), PlayerInfo("p2", command=("./bot",), directory=str(tmp_path))]
    lost = (
        "without a sandbox they run in a folder of links to their own: new files they make there are not kept"
    )
    (over,) = provided_notes(GAME, "codecup2004", here, sandboxed=False)
    assert over.startswith(f"words.dat provided to {tmp_path.name}, p2, over their folder's words.dat")
    assert over.endswith(f"; {lost}")
    (alone,) = provided_notes(GAME, "codecup2004", [_player(tmp_path / "empty")], sandboxed=False)
    assert alone == (
        "words.dat provided to empty (its folder has none); without a sandbox it runs in a folder of "
        "links to its own: new files it makes there are not kept"
    )
    two = [
        _player(tmp_path / "empty"),
        PlayerInfo("p3", command=("./bot",), directory=str(tmp_path / "empty")),
    ]
    assert provided_notes(GAME, "codecup2004", two, sandboxed=True) == [
        "words.dat provided to empty, p3 (their folder has none)"
    ]
