"""The built-in bots: legal play, zracer's Z, strong against zracer, strong's clock and frame."""

from __future__ import annotations

import pytest

from codecup.drive import play_bots
from codecup_games.lucky_words.bots import make_bot
from codecup_games.lucky_words.bots.evaluate import LINES
from codecup_games.lucky_words.engine import LETTERS
from codecup_games.lucky_words.game import LuckyWords
from codecup_games.lucky_words.words import WORDS_ENV

GAME = LuckyWords()


def test_unknown_bot_name():
    with pytest.raises(KeyError):
        make_bot("nobody", 0)


def test_strong_picks_for_its_own_word(small_words):
    bot = make_bot("strong", 0)
    bot.spite = 0.0  # its own board alone (T also completes AT for the opponent)
    bot.start("A", first=True)  # the A in cell 24
    bot.board[23] = "C"
    letter, cell = bot.pick()
    assert bot.board[cell] == letter
    assert (letter, cell) == ("T", 25)  # CAT is the best it can make in one letter


def test_strong_places_to_finish_cat(small_words):
    bot = make_bot("strong", 0)
    bot.start("A", first=False)  # the A in cell 24
    bot.board[23] = "C"
    assert bot.place("T") == 25  # C A T in row 3


@pytest.mark.slow
def test_strong_beats_zracer_on_the_default_list(tmp_path, monkeypatch):
    monkeypatch.delenv(WORDS_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    zracer_picks = ""
    for seed in (0, 1, 2):
        seat = seed % 2
        bots = ["zracer", "zracer"]
        bots[seat] = "strong"
        out = play_bots(GAME, bots, seed=seed, variant="wordracer").outcome
        assert out.scores[seat] > out.scores[1 - seat] > 40
        zracer_picks += out.extra["letters"][1 - seat :: 2]
    assert "Z" in zracer_picks  # zracer calls Z where it can


def test_strong_budget_depends_on_the_clock_alone():
    from codecup_games.lucky_words.bots.strong import Budget

    full, standard, short = Budget.for_clock(None), Budget.for_clock(10.0), Budget.for_clock(2.0)
    assert full == standard == Budget.for_clock(30.0)
    assert short.candidates < Budget.for_clock(5.0).candidates < standard.candidates
    assert short.look <= Budget.for_clock(5.0).look <= standard.look
    # the full clock's endgame compares more candidates by more playouts (40 of 8; from 4 s, 16 of 6)
    assert short.playouts <= Budget.for_clock(5.0).playouts < standard.playouts
    assert Budget.for_clock(5.0).endgame_width < standard.endgame_width
    assert make_bot("strong", 0, 2.0).budget == short


class _TickingClocks:
    """``time`` on a machine where every reading comes ``tick`` seconds after the last:
    each move the bot makes seems to take ``tick`` seconds, however fast the real machine."""

    def __init__(self, tick: float) -> None:
        self.tick = tick
        self.now = 0.0

    def _read(self) -> float:
        self.now += self.tick
        return self.now

    thread_time = _read


def _strong_game(seed: int) -> tuple[list[str], list[object]]:
    bots: list[object] = []
    original = make_bot

    def keep(name: str, seed: int, clock: float | None = None):
        bot = original(name, seed, clock)
        bots.append(bot)
        return bot

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("codecup_games.lucky_words.game.make_bot", keep)
        result = play_bots(GAME, ("strong", "zracer"), seed=seed, variant="wordracer")
    assert [end.kind.value for end in result.outcome.ends] == ["normal", "normal"]
    return [m for _, m in result.moves], bots


def test_strong_plays_the_same_game_on_a_slower_machine(small_words, monkeypatch):
    monkeypatch.setattr("codecup_games.lucky_words.bots.strong.time", _TickingClocks(0.001))
    calm, _ = _strong_game(5)
    # 49 moves of 0.08 s: 3.9 s of its 10 s clock, a slow machine, still short of the net.
    monkeypatch.setattr("codecup_games.lucky_words.bots.strong.time", _TickingClocks(0.08))
    loaded, bots = _strong_game(5)
    assert loaded == calm
    assert bots[0]._calm()  # the safety net never fired


def test_strong_safety_net_fires_on_a_hopeless_machine(small_words, monkeypatch):
    monkeypatch.setattr("codecup_games.lucky_words.bots.strong.time", _TickingClocks(0.001))
    calm, _ = _strong_game(5)
    monkeypatch.setattr("codecup_games.lucky_words.bots.strong.time", _TickingClocks(1.0))
    hopeless, bots = _strong_game(5)
    assert not bots[0]._calm()  # it stopped looking ahead, and still played every move
    assert len(hopeless) == len(calm) == 96


def test_strong_completes_its_frame(official_words):
    _, bots = _strong_game(2)
    strong = bots[0]
    assert len(strong.words) == 4 and not strong.plan
    board = strong.board
    for planned in strong.words:
        assert "".join(board[c] for c in LINES[planned.line]) == planned.word


def test_strong_forgets_a_flood_once_it_ends(small_words):
    bot = make_bot("strong", 0)
    bot.start("A", first=True)
    for letter in "ZEZ":
        bot._expect(letter)
    assert not bot.flood  # two Zs are no flood yet: every call counts alike
    expected = (2 + bot.prior * dict(bot.share)["Z"]) / (3 + bot.prior)
    assert dict(bot.next_share)["Z"] == pytest.approx(expected)
    for _ in range(6):
        bot._expect("Z")
    assert bot.flood
    assert dict(bot.next_share)["Z"] > 0.2  # a Z caller calls Z again (with a prior of 12 calls)
    for _ in range(8):
        bot._expect("E")
    shares = dict(bot.next_share)
    assert shares["Z"] < 0.05 < 0.3 < shares["E"]  # it stopped: its last calls count most
    assert sum(shares.values()) == pytest.approx(1.0)


def test_strong_sees_no_flood_in_varied_calls(small_words):
    bot = make_bot("strong", 0)
    bot.start("A", first=False)
    for letter in "SESTERSTEAS":
        bot._expect(letter)
    assert not bot.flood  # four S of eleven calls


def test_strong_keeps_to_its_plan_in_the_endgame_without_a_pick_to_spare(small_words):
    bot = make_bot("strong", 0)
    bot.start("A", first=True)
    # cells 0..9 empty, the rest full
    for cell in range(10, 49):
        if cell != 24:
            bot.board[cell] = "Z"
    bot.board[10:12] = ["R", "T"]  # an A in cell 9 makes ART
    bot.letters = ["A"] + ["Z"] * 38  # turn 39: its picks are turns 39, 41, 43, 45, 47
    assert bot.picks_left() == 5
    bot.plan = dict.fromkeys(range(5), "C")  # five planned cells for five picks
    # The playouts expect the opponent to call C every time, so A in 9 looks free of cost; but
    # if the opponent called anything else, a planned word would break.
    bot.next_share = [(ch, 1.0 if ch == "C" else 0.0) for ch in LETTERS]
    assert bot._endgame()
    letter, cell = bot.pick()
    assert cell in range(5) and letter == "C"


@pytest.mark.parametrize("mode", ["cpu", "wall"])
def test_strong_counts_wall_time_only_where_the_clock_charges_it(small_words, monkeypatch, mode):
    """Each move seems to take a second of wall time (a machine loaded far beyond the bot's need)
    and a millisecond of processor time. Under the cpu clock that load changes nothing; under a
    wall clock the safety net fires, else the game would run past the clock (a wall-clock game
    of Word Racer timed out on a loaded machine while the net watched processor time)."""
    from codecup import budget

    monkeypatch.setattr("codecup_games.lucky_words.bots.strong.time", _TickingClocks(0.001))
    calm, _ = _strong_game(5)
    monkeypatch.setattr("codecup_games.lucky_words.bots.strong.wall_time", _TickingClocks(1.0).thread_time)
    token = budget.IN_PROCESS_CLOCK_MODE.set(mode)
    try:
        loaded, bots = _strong_game(5)
    finally:
        budget.IN_PROCESS_CLOCK_MODE.reset(token)
    assert bots[0]._calm() == (mode == "cpu")
    assert (loaded == calm) == (mode == "cpu")
