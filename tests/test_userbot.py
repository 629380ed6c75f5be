"""A contestant's own Python bot, ``codecup bot GAME FILE.py:NAME``, plays any game as a program.

The bot is written against the game's bot interface (``choose(state)`` on the
rules; Lucky Words' ``choose_pick`` and ``choose_place``), and the game's own
player session speaks the dialogue around it, in our referee's sandbox.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FIRST = '''
from helper import first  # a module beside the bot imports, as under `python bot.py`


class First:
    """Always the first listed legal move."""

    def __init__(self, seed, clock, variant):
        assert clock > 0 and variant, (clock, variant)

    def choose(self, state):
        return first(state.legal_moves())
'''

CORNER = '''
from codecup_games.lucky_words.bots.base import Bot


class Corner(Bot):
    """Calls E, and puts every letter in its first empty cell."""

    def __init__(self, seed, clock, variant):
        super().__init__(seed)

    def choose_pick(self):
        return "E", self.free[0]

    def choose_place(self, letter):
        return self.free[0]
'''


def codecup(folder: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codecup", *args],
        cwd=folder,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    (tmp_path / "helper.py").write_text("def first(moves):\n    return moves[0]\n")
    (tmp_path / "first.py").write_text(FIRST)
    (tmp_path / "corner.py").write_text(CORNER)
    (tmp_path / "nochoose.py").write_text("class Bot:\n    def __init__(self, **_):\n        pass\n")
    (tmp_path / "badsig.py").write_text("class BadSig:\n    def __init__(self, seed):\n        pass\n")
    (tmp_path / "five.py").write_text("X = 5\n")
    return tmp_path


@pytest.mark.parametrize(("game", "clock"), [("pillars", "5"), ("turn_right", "10"), ("spaghetti", "10")])
def test_an_own_bot_on_the_rules_plays_a_whole_game_that_verifies(bots, game, clock):
    me = f"{sys.executable} -m codecup bot {game} first.py:First"
    run = codecup(bots, "play", game, me, "bot:random", "--quiet", "--clock", clock, "--record", "g.json")
    assert run.returncode == 0, run.stderr
    record = json.loads((bots / "g.json").read_text())
    assert [end["kind"] for end in record["result"]["termination"]] == ["normal", "normal"], record["logs"]
    assert codecup(bots, "verify", "g.json").returncode == 0


def test_an_own_lucky_words_bot_plays_both_dialogues(bots):
    me = f"{sys.executable} -m codecup bot lucky_words corner.py:Corner"
    for variant in ("codecup2004", "wordracer"):
        run = codecup(bots, "play", "lucky_words", me, "bot:random", "--quiet", "--variant", variant)
        assert run.returncode == 0, run.stderr
        assert "first p1: score" in run.stdout and ", normal," in run.stdout.split("second")[0], run.stdout


@pytest.mark.parametrize(
    ("game", "name", "message"),
    [
        ("pillars", "missing.py:First", "bot missing.py:First: no file 'missing.py' in "),
        ("pillars", "first.py:Second", "first.py:Second: 'first.py' defines no class or function 'Second'"),
        ("pillars", "first.py", "bot 'first.py': name what in it makes the bot, first.py:NAME"),
        # run alone (not under play's check): it said X was not defined
        ("pillars", "five.py:X", "five.py:X: 'five.py' sets 'X' to 5, not a class or function that makes"),
        ("pillars", "nochoose.py:Bot", "a bot of pillars has a method choose(state) -> move; Bot has none"),
        ("pillars", "badsig.py:BadSig", "BadSig is called as BadSig(seed=..., clock=..., variant=...): "),
        # lucky_words' first.py:First: test_a_lucky_words_bot_of_another_kind_is_said_as_it_is_made
    ],
)
def test_a_mistake_in_naming_the_bot_is_one_line_and_exit_2(bots, game, name, message):
    run = codecup(bots, "bot", game, name, stdin="")
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and message in run.stderr, run.stderr


@pytest.mark.parametrize(("told", "stdin"), [((), "E\n1\n"), (("--variant", "wordracer"), "")])
def test_a_lucky_words_bot_of_another_kind_is_said_as_it_is_made(bots, told, stdin):
    """Told no variant, a Lucky Words bot is made once line 2 shows the dialogue (it is made for the
    variant it plays): a bot of another kind is said then; told one, before any line."""
    run = codecup(bots, "bot", "lucky_words", "first.py:First", *told, stdin=stdin)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and "a Lucky Words bot subclasses" in run.stderr, run.stderr


LOGS_MAKING = """
import sys
from codecup_games.lucky_words.bots.base import Bot


class Words(Bot):
    def __init__(self, seed, clock, variant):
        super().__init__(seed)
        print("made", clock, variant, file=sys.stderr)

    def prepare(self):
        print("prepare", self.overwrites_allowed, file=sys.stderr)

    def choose_pick(self):
        return "E", self.free[-1]

    def choose_place(self, letter):
        return self.free[0]


class Rules:
    def __init__(self, seed, clock, variant):
        print("made", clock, variant, file=sys.stderr)

    def choose(self, state):
        return state.legal_moves()[0]
"""


def _told_nothing(folder: Path, *args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    """``codecup bot ...`` as a referee that tells it nothing runs it: no ``CODECUP_*`` variable."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODECUP_")}
    return subprocess.run(
        [sys.executable, "-m", "codecup", "bot", *args],
        cwd=folder,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@pytest.mark.parametrize(
    ("told", "second", "made", "overwrites"),
    [
        ((), "1", "10.0 wordracer", False),
        ((), "0", "10.0 wordracer", False),
        ((), "start", "30.0 codecup2004", False),
        ((), "Q", "30.0 codecup2004", False),
        (("--clock", "4"), "1", "4.0 wordracer", False),
        (("--variant", "wordracer-contest"), "1", "10.0 wordracer-contest", True),
        (("--variant", "wordracer-greedy"), "0", "10.0 wordracer-greedy", False),
        (("--variant", "codecup2004"), "start", "30.0 codecup2004", False),
    ],
)
def test_an_own_lucky_words_bot_is_made_once_for_the_variant_it_plays(bots, told, second, made, overwrites):
    """A red team's: under a referee that told it nothing (the Word Racer kit's runner), a
    contestant's bot heard Word Racer and spoke it, but was made twice, for 2004's 30 s and then
    for 10 s, told ``variant='codecup2004'`` both times (docs/writing-a-bot.md: ``NAME(seed=...,
    clock=..., variant=...)``; docs/games/lucky_words.md, Playing: told nothing, ``1`` or ``0``
    plays ``wordracer``, with its 10 s clock unless told less)."""
    (bots / "logs.py").write_text(LOGS_MAKING)
    run = _told_nothing(bots, "lucky_words", "logs.py:Words", *told, stdin=f"A\n{second}\nE\n")
    assert run.returncode == 0, run.stderr
    assert [line for line in run.stderr.splitlines() if line.startswith(("made", "prepare"))] == [
        f"made {made}",
        f"prepare {overwrites}",
    ], run.stderr


@pytest.mark.parametrize(
    ("game", "made"),
    [("pillars", "5.0 codecup2009"), ("turn_right", "30.0 codecup2006"), ("spaghetti", "30.0 codecup2022")],
)
def test_an_own_bot_of_the_other_games_told_nothing_is_made_once_for_their_variant(bots, game, made):
    """The games of one dialogue each: told nothing, the bot is made once, as the program starts,
    for the game's variant and its clock."""
    (bots / "logs.py").write_text(LOGS_MAKING)
    run = _told_nothing(bots, game, "logs.py:Rules", stdin="")
    assert [line for line in run.stderr.splitlines() if line.startswith("made")] == [f"made {made}"], (
        run.stderr
    )


def test_an_error_in_the_bots_own_code_shows_its_traceback(bots):
    (bots / "broken.py").write_text("class Broken:\n    def __init__(self, **_):\n        1 / 0\n")
    run = codecup(bots, "bot", "pillars", "broken.py:Broken")
    assert run.returncode == 1
    assert "Traceback" in run.stderr and "ZeroDivisionError" in run.stderr and "broken.py" in run.stderr


PILLARS_START = "Aa\nBb\nCc\nDd\nEe\nFf\nGg\nHh\nIi\nJj\nStart\n"
"""A Pillars referee's setup (ten pillars) and its Start: the bot is asked for its first move."""

LOOKAHEAD = """
class Look:
    def __init__(self, seed, clock, variant):
        pass

    def choose(self, state):
        move = state.legal_moves()[0]
        state.apply(move).apply(move)  # a search bug: the same rectangle twice
        return move
"""

BOOK = """
class Book:
    def __init__(self, seed, clock, variant):
        self.book = open("openings.dat").read()
"""

INTERRUPTS = """
class Stops:
    def __init__(self, seed, clock, variant):
        pass

    def choose(self, state):
        raise KeyboardInterrupt
"""

AT_IMPORT = "BOOK = open('openings.dat').read()\n"

EXITS = """
import sys


class Exits:
    def __init__(self, seed, clock, variant):
        pass

    def choose(self, state):
        sys.exit(0)
"""

EXITS_SAYING = INTERRUPTS.replace("raise KeyboardInterrupt", 'raise SystemExit("giving up")')

EXITS_PICKING = """
from codecup_games.lucky_words.bots.base import Bot


class Picks(Bot):
    def __init__(self, seed, clock, variant):
        super().__init__(seed)

    def choose_pick(self):
        raise SystemExit(0)

    def choose_place(self, letter):
        return self.free[0]
"""

PREPARES = """
from codecup_games.lucky_words.bots.base import Bot


class Prepares(Bot):
    def __init__(self, seed, clock, variant):
        super().__init__(seed)

    def prepare(self):
        self.table = open("table.dat").read()

    def choose_pick(self):
        return "E", self.free[0]

    def choose_place(self, letter):
        return self.free[0]
"""


@pytest.mark.parametrize(
    ("game", "text", "stdin", "raised", "where"),
    [
        ("pillars", LOOKAHEAD + "BOT = Look\n", PILLARS_START, "IllegalMoveError", "its choose(state)"),
        (
            "pillars",
            BOOK + "BOT = Book\n",
            "",
            "FileNotFoundError",
            "its BOT(seed=..., clock=..., variant=...)",
        ),
        ("pillars", INTERRUPTS + "BOT = Stops\n", PILLARS_START, "KeyboardInterrupt", "its choose(state)"),
        ("pillars", AT_IMPORT, "", "FileNotFoundError", "the file 'own.py', as it ran"),
        ("lucky_words", PREPARES + "BOT = Prepares\n", "E\n1\n", "FileNotFoundError", "its prepare()"),
        ("pillars", EXITS + "BOT = Exits\n", PILLARS_START, "SystemExit", "its choose(state)"),
        ("pillars", EXITS_SAYING + "BOT = Stops\n", PILLARS_START, "SystemExit", "its choose(state)"),
        ("pillars", "import sys\nsys.exit(3)\n", "", "SystemExit", "the file 'own.py', as it ran"),
        ("lucky_words", EXITS_PICKING + "BOT = Picks\n", "E\n1\n", "SystemExit", "its choose_pick()"),
    ],
    ids=[
        "search",
        "init",
        "interrupt",
        "import",
        "prepare",
        "exit-0",
        "exit-saying",
        "exit-import",
        "exit-pick",
    ],
)
def test_an_error_of_the_bots_own_code_is_its_whatever_its_type(bots, game, text, stdin, raised, where):
    """The red team's: errors of the types the command says in one line (the framework's own
    MoveError, OSError, KeyboardInterrupt) lost their traceback when the bot's own code raised them:
    an illegal move of its own search read as the referee refusing its move. They show it, and a
    line that says the bot's code raised it, as any other of its exceptions does."""
    (bots / "own.py").write_text(text)
    run = codecup(bots, "bot", game, "own.py:BOT", stdin=stdin)
    assert run.returncode == 1, run.stderr
    assert run.stderr.startswith("Traceback (most recent call last):\n"), run.stderr
    *_, exception, last = run.stderr.splitlines()
    assert 'own.py", line' in run.stderr and exception.split(":")[0].endswith(raised)
    assert last.startswith(f"codecup: error: the bot's own code raised {raised}")
    assert last.endswith(f", in {where} (its traceback above)")


LOADS_WORDS = PREPARES.replace(
    'self.table = open("table.dat").read()',
    "from codecup_games.lucky_words.words import load_words\n        self.words = load_words()",
)


@pytest.mark.parametrize(
    ("bot", "words", "message"),
    [
        ("strong", "/nonexistent", "word list /nonexistent (from $CODECUP_WORDS) does not exist or is not"),
        ("own.py:Prepares", "/nonexistent", "word list /nonexistent (from $CODECUP_WORDS) does not exist"),
        ("strong", "empty.dat", "word list empty.dat holds no word of 2..7 letters A..Z"),
    ],
    ids=["built-in", "own-prepare", "built-in-empty-list"],
)
def test_a_word_list_mistake_is_the_users_in_one_line(bots, bot, words, message):
    """A reviewer's: a word list that is missing or holds no word (the user's mistake, a
    ConfigError) was shown as the bot's own code failing, traceback and exit status 1, when a
    built-in bot's or a contestant's ``prepare()`` loaded it: it is one line and status 2."""
    import os

    (bots / "own.py").write_text(LOADS_WORDS)
    (bots / "empty.dat").write_text("x\n")
    run = subprocess.run(
        [sys.executable, "-m", "codecup", "bot", "lucky_words", bot],
        cwd=bots,
        input="E\n1\n",
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CODECUP_WORDS": str(bots / words) if words == "empty.dat" else words},
    )
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith(f"codecup: error: {message}".replace("empty.dat", str(bots / "empty.dat")))
    assert run.stderr.count("\n") == 1, run.stderr


WRONG_ANSWERS = """
from codecup_games.lucky_words.bots.base import Bot


class FakeStr:
    @property
    def __class__(self):
        return str


class Gives:
    def __init__(self, seed, clock, variant):
        pass

    def choose(self, state):
        return ANSWER


class Letters(Bot):
    def __init__(self, seed, clock, variant):
        super().__init__(seed)

    def choose_pick(self):
        return ANSWER

    def choose_place(self, letter):
        return self.free[0]
"""


@pytest.mark.parametrize(
    ("game", "bot", "answer", "said"),
    [
        ("pillars", "Gives", "None", "the bot's choose(state) gave None, not a move's text"),
        ("pillars", "Gives", "FakeStr()", "the bot's choose(state) gave <_codecup_user_bot.FakeStr object"),
        ("pillars", "Gives", "'Aa\\nBb'", "the bot's choose(state) gave 'Aa\\nBb', a move with a line"),
        ("lucky_words", "Letters", "('1', 0)", "the bot chose '1', not a letter A..Z"),
        ("lucky_words", "Letters", "None", "the bot's choose_pick() gave None, not a (letter, cell) pair"),
    ],
    ids=["none", "lying-class", "two-lines", "bad-letter", "no-pair"],
)
def test_an_answer_the_session_refuses_is_one_line(bots, game, bot, answer, said):
    """A reviewer's: a wrong answer was a traceback of the session's own code (an internal
    TypeError for an object whose ``__class__`` claimed str): one line says the answer was wrong."""
    (bots / "own.py").write_text(WRONG_ANSWERS.replace("ANSWER", answer))
    stdin = PILLARS_START if game == "pillars" else "E\n1\n"
    run = codecup(bots, "bot", game, f"own.py:{bot}", stdin=stdin)
    assert run.returncode == 1, run.stderr
    assert run.stderr.startswith(f"codecup: error: the bot's answer is wrong: {said}"), run.stderr
    assert run.stderr.count("\n") == 1, run.stderr


def test_an_interrupt_while_the_bot_thinks_is_still_an_interrupt(bots):
    """Ctrl-C while the bot's code runs is no error of the bot's: one line, status 130, as before."""
    import select
    import signal

    (bots / "slow.py").write_text(
        "import sys, time\n\nclass Slow:\n    def __init__(self, **_):\n        pass\n\n"
        "    def choose(self, state):\n        print('thinking', file=sys.stderr, flush=True)\n"
        "        time.sleep(60)\n"
    )
    program = subprocess.Popen(
        [sys.executable, "-m", "codecup", "bot", "pillars", "slow.py:Slow"],
        cwd=bots,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert program.stdin is not None and program.stderr is not None
        program.stdin.write(PILLARS_START)
        program.stdin.flush()
        # bounded: a bot that never says it thinks fails the test, not hangs it (a reviewer's)
        assert select.select([program.stderr], [], [], 60)[0], "the bot said nothing in 60 s"
        assert program.stderr.readline() == "thinking\n"
        program.send_signal(signal.SIGINT)
        assert program.wait(timeout=60) == 130
        assert program.stderr.read() == "codecup: interrupted\n"
    finally:
        program.kill()
        program.communicate()


def test_an_own_bots_print_is_its_log_never_a_move(bots):
    """A debugging print() went to stdout and reached the referee as a move, moves later."""
    (bots / "chatty.py").write_text(
        FIRST.replace("        return first(", "        print('x' * 3000)\n        return first(")
    )
    me = f"{sys.executable} -m codecup bot pillars chatty.py:First"
    run = codecup(bots, "play", "pillars", me, "bot:random", "--quiet", "--record", "g.json")
    assert run.returncode == 0, run.stderr
    record = json.loads((bots / "g.json").read_text())
    assert [end["kind"] for end in record["result"]["termination"]] == ["normal", "normal"]
    assert record["logs"][0].startswith("x" * 3000)


def test_a_bot_program_gets_the_seed_the_same_bot_gets_in_process(bots):
    """`codecup bot` takes its seat's seed from $CODECUP_SEED: the game is the one `bot:NAME` plays."""
    games = []
    for second in ("bot:random", f"{sys.executable} -m codecup bot pillars random"):
        run = codecup(
            bots, "play", "pillars", "bot:baseline", second, "--quiet", "--seed", "7", "--record", "g.json"
        )
        assert run.returncode == 0, run.stderr
        games.append([m["move"] for m in json.loads((bots / "g.json").read_text())["moves"]])
        (bots / "g.json").unlink()
    assert games[0] == games[1] and len(games[0]) > 10


def test_without_a_seed_a_bot_cannot_compute_its_opponents_seed(bots):
    """A red team's bot knew the seed (0, the default) and so computed its opponent's seed, and the
    built-in bot's hidden choices. With no --seed given the seats' seeds hold a secret drawn for the
    game (kept in the record); with one given they follow from it, to reproduce the run."""
    from codecup.drive import derive_seed
    from codecup.record import Record

    (bots / "seer.sh").write_text(
        f'echo "SEED=$CODECUP_SEED" >&2\nexec {sys.executable} -m codecup bot pillars random\n'
    )
    seeds = []
    for extra in ((), (), ("--seed", "0")):
        run = codecup(
            bots, "play", "pillars", "sh seer.sh", "bot:random", "--quiet", "--record", "g.json", *extra
        )
        assert run.returncode == 0, run.stderr
        record = Record.from_json(json.loads((bots / "g.json").read_text()))
        (bots / "g.json").unlink()
        seed = int(record.logs[0].split("SEED=")[1].split()[0])
        public = [derive_seed(s, "seat", 0) for s in range(1000)]
        seeds.append(seed)
        if extra:
            assert record.match.seat_key == "" and seed == derive_seed(0, "seat", 0)
        else:
            assert len(record.match.seat_key) == 32 and seed not in public
            assert seed == derive_seed(0, "seat", 0, record.match.seat_key)  # the record reproduces it
    assert seeds[0] != seeds[1]


def test_a_bot_file_that_is_a_fifo_is_called_what_it_is(bots):
    """Run alone, `codecup bot pillars fifo.py:Bot` said "no file 'fifo.py'", though it was there."""
    import os

    os.mkfifo(bots / "fifo.py")
    run = codecup(bots, "bot", "pillars", "fifo.py:Bot", stdin="")
    assert run.returncode == 2
    assert (
        run.stderr
        == f"codecup: error: bot fifo.py:Bot: 'fifo.py' in {bots} is a pipe (FIFO), not a regular file\n"
    )


@pytest.fixture
def own_module(monkeypatch):
    """Whatever loading a bot in-process puts on the module path and in sys.modules, taken out after."""
    from codecup import userbot

    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setitem(sys.modules, userbot._MODULE, None)


def test_a_bot_file_whose_read_would_wait_is_one_line(bots, monkeypatch, own_module):
    """A link to /proc/kmsg (a "regular file" whose read waits) blocked `codecup bot` for ever:
    the file was read by the import machinery, blocking (a reviewer's). It is read as every file a
    user names is, without blocking."""
    import fcntl
    import os

    import codecup.reading
    from codecup.errors import ConfigError
    from codecup.userbot import UserBot

    reads = []

    def would_wait(fd, size):
        reads.append(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_NONBLOCK)
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.chdir(bots)
    monkeypatch.setattr(codecup.reading.os, "read", would_wait)
    with pytest.raises(ConfigError, match=r"^bot first.py:First: first.py: reading it would wait") as info:
        UserBot(Path("first.py"), "First").maker()
    assert "\n" not in str(info.value)
    assert reads and all(reads)


def test_a_bot_file_is_run_as_its_own_module(bots, monkeypatch, own_module):
    """Read by codecup rather than imported, it is still compiled as itself: its own file name (for
    __file__ and tracebacks), its coding line, and not under codecup's `from __future__`."""
    from codecup.userbot import UserBot

    text = (
        "# -*- coding: latin-1 -*-\nclass Mine:\n    x: int = 1\n\n    def __init__(self, **_):\n"
        "        raise ValueError(NAME)\n\nNAME = 'caf\xe9'\nWHERE = __file__\n"
    )
    (bots / "mine.py").write_bytes(text.encode("latin-1"))
    monkeypatch.chdir(bots)
    maker = UserBot(Path("mine.py"), "Mine").maker()
    module = sys.modules[maker.__module__]
    name, where = module.NAME, module.WHERE
    assert name == "caf\xe9" and where == str(bots / "mine.py")
    assert maker.__annotations__ == {"x": int}  # evaluated: no `annotations` future inherited
    with pytest.raises(ValueError) as info:
        maker()
    assert info.traceback[-1].path == bots / "mine.py"
    assert "raise ValueError(NAME)" in str(info.traceback[-1].statement)


CLOSES = """
import os


class Closes:
    def __init__(self, seed, clock, variant):
        pass

    def choose(self, state):
        os.close(0)
        return state.legal_moves()[0]
"""


def test_a_bot_closing_its_input_is_said_to_be_its_own_doing(bots):
    """The red team's ``os.close(0)`` in ``choose`` ended as ``codecup: error: Bad file descriptor``,
    read as the command's own failure: the command never closes its input itself."""
    (bots / "own.py").write_text(CLOSES + "BOT = Closes\n")
    run = codecup(bots, "bot", "pillars", "own.py:BOT", stdin=PILLARS_START)
    assert run.returncode == 1, run.stderr
    assert run.stderr.splitlines()[-1] == (
        "codecup: error: its input from the referee (standard input) was closed in this process, by "
        "the bot's own code (an os.close() of its file descriptor?): Bad file descriptor"
    )


CLOSES_OWN = """
import os
import sys


class Closes:
    def __init__(self, seed, clock, variant):
        pass

    def choose(self, state):
        {act}
        return state.legal_moves()[0]
"""

OUTPUT_CLOSED = (
    "codecup: error: its output to the referee (standard output) was closed in this process, by "
    "the bot's own code (an os.close() of its file descriptor?): Bad file descriptor"
)


@pytest.mark.parametrize(
    "act",
    [
        "os.closerange(3, 1024)",  # the 'close every inherited descriptor' idiom
        "from codecup.cli.bot import answers_fd; os.close(answers_fd())",
    ],
)
def test_a_bot_closing_its_answers_descriptor_ends_with_the_one_line(bots, act):
    """A reviewer's: the one line came, then a traceback of the command's own clean-up (its
    ``os.dup2`` of the closed descriptor it had kept: ``OSError: [Errno 9] Bad file descriptor``)."""
    (bots / "own.py").write_text(CLOSES_OWN.format(act=act) + "BOT = Closes\n")
    run = codecup(bots, "bot", "pillars", "own.py:BOT", stdin=PILLARS_START)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    assert run.stderr.splitlines()[-1] == OUTPUT_CLOSED


@pytest.mark.parametrize("act", ["sys.stdin.close()", "sys.stdin.buffer.close()"])
def test_a_bot_closing_sys_stdin_is_said_to_be_its_own_doing(bots, act):
    """A reviewer's: ``sys.stdin.close()`` in ``choose`` ended with the command's traceback,
    ``ValueError: readline of closed file``, the bot's own doing unsaid."""
    (bots / "own.py").write_text(CLOSES_OWN.format(act=act) + "BOT = Closes\n")
    run = codecup(bots, "bot", "pillars", "own.py:BOT", stdin=PILLARS_START)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    assert run.stderr.splitlines()[-1] == (
        "codecup: error: its input from the referee (standard input) was closed in this process, by "
        "the bot's own code (its file object closed: sys.stdin.close()?): readline of closed file"
    )
