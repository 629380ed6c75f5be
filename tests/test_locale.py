"""Whatever the locale's encoding, what codecup writes survives it: what it cannot represent is
written as an escape (``\\u795e``), never a traceback.

A red team's tournament under ``LC_ALL=C`` with a player named 神 died after its first game
(the progress line), and on every resume; under Latin-1 with ``--quiet`` at its summary; and a
program that wrote Russian to its stderr ended ``codecup play`` in a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support import TINYGAME_DIST

PLAYERS = """\
game: twentyone
seed: 1
players:
  - {name: 神, command: 'bot:random'}
  - {name: "Zoë 👨‍👩‍👧", command: 'bot:perfect'}
"""

LOCALES = {
    "ascii": {"LC_ALL": "C", "PYTHONUTF8": "0"},
    "latin-1": {"PYTHONUTF8": "0", "PYTHONIOENCODING": "latin-1"},
    "ascii, strict": {"PYTHONUTF8": "0", "PYTHONIOENCODING": "ascii:strict"},
}


def codecup(locale: str, *args: str, cwd: os.PathLike[str]) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "LC_ALL", "LANG")}
    env.update(LOCALES[locale])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TINYGAME_DIST), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "codecup", *args], env=env, cwd=cwd, capture_output=True, timeout=120
    )


@pytest.mark.parametrize(
    ("locale", "quiet"), [("ascii", ()), ("latin-1", ("--quiet",)), ("ascii, strict", ())]
)
def test_a_tournament_of_players_the_locale_cannot_spell_runs(tmp_path, locale, quiet):
    (tmp_path / "t.yml").write_text(PLAYERS, encoding="utf-8")
    done = codecup(locale, "tournament", "t.yml", "--out", "out", "--rounds", "1", *quiet, cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert b"Traceback" not in done.stderr
    if not quiet:
        assert b"\\u795e" in done.stdout  # 神, escaped in the standings
    assert (tmp_path / "out" / "standings.json").exists()


@pytest.mark.parametrize("locale", ["ascii", "latin-1"])
def test_a_bots_stderr_the_locale_cannot_spell_is_shown_escaped(tmp_path, locale):
    bot = tmp_path / "crash.py"
    bot.write_text('import sys\nsys.stderr.buffer.write("ошибка 神\\n".encode())\nsys.exit(3)\n')
    done = codecup(locale, "play", "twentyone", f"{sys.executable} {bot}", "bot:random", cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert b"Traceback" not in done.stderr
    assert b"\\u043e\\u0448\\u0438\\u0431\\u043a\\u0430 \\u795e" in done.stdout + done.stderr


def test_a_folder_the_locale_cannot_spell_is_said_so(tmp_path):
    """A red team's ``directory: "Jürgen dir"``, which was there, was said not to exist under
    ``LC_ALL=C`` (its name cannot be given to the system in ASCII)."""
    (tmp_path / "Jürgen dir").mkdir()
    (tmp_path / "Jürgen dir" / "bot.py").write_text("")
    players = PLAYERS.replace("command: 'bot:random'", "directory: Jürgen dir, command: 'python3 bot.py'")
    (tmp_path / "t.yml").write_text(players, encoding="utf-8")
    done = codecup("ascii", "tournament", "t.yml", "--out", "out", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.decode("ascii").endswith(
        "directory 'J\\xfcrgen dir': the locale's encoding for file names (ascii) cannot represent it:"
        " run codecup under a UTF-8 locale (LC_ALL=C.UTF-8)\n"
    )


@pytest.mark.parametrize(
    "option, said",
    [
        ("  - {name: c, command: 'bot:random', env: {NOTE: 'é'}}\n", "env 'é'"),
        ("  - {name: c, command: 'bot:random', env: {'NOTÉ': x}}\n", "env 'NOTÉ'"),
        ("hide: Jürgen dir\n", "option 'hide' 'Jürgen dir'"),
        ("out: résultats\n", "option 'out' 'résultats'"),
    ],
    ids=["env value", "env name", "hide", "out"],
)
def test_every_text_of_a_players_file_the_locale_cannot_spell_is_said_so(tmp_path, option, said):
    """Not only a player's folder and command (a reviewer's, under ``LC_ALL=C``): an ``env:``
    value in French was a traceback, 'a bug of codecup's'; a folder to hide was 'not a folder'; an
    ``out:`` folder a traceback."""
    (tmp_path / "Jürgen dir").mkdir()
    players = PLAYERS + option if option.startswith("  -") else option + PLAYERS
    (tmp_path / "t.yml").write_text(players, encoding="utf-8")
    done = codecup("ascii", "tournament", "t.yml", "--quiet", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    shown = said.encode("ascii", "backslashreplace").decode("ascii")
    assert shown in done.stderr.decode("ascii")
    assert "cannot represent it" in done.stderr.decode("ascii")
    assert len(done.stderr.splitlines()) == 1
