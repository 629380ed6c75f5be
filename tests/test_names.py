"""Player names: what may be one, and which two look alike (``codecup/names.py``)."""

from __future__ import annotations

import pytest

from codecup.errors import PlayersFileError
from codecup.names import blank, look_alike, name_problem, shown_form
from codecup.tournament.players import read_players

#: Characters that draw as blank or as nothing yet are printable: strip() and isprintable() let
#: them through, so ``rnd\u2800`` played beside ``rnd`` (a red team's).
BLANKS = ["\u2800", "\u3164", "\u115f", "\u1160", "\uffa0", "\u034f", "\ufe0f", "\u180b", "\U000e0100"]
#: Variation selectors: blank on their own, part of the glyph after a visible character.
SELECTORS = ["\ufe0f", "\ufe00", "\u180b", "\u180f", "\U000e0100", "\U000e0101"]


@pytest.mark.parametrize("char", BLANKS)
def test_a_name_of_blank_characters_only_is_empty(char):
    assert char.isprintable() and char.strip() == char  # what let it through
    assert blank(char)
    assert "empty" in name_problem(char)
    assert "empty" in name_problem(char * 3 + " " + char)


@pytest.mark.parametrize("char", BLANKS)
def test_a_name_starting_or_ending_blank_is_refused(char):
    ends = [f"{char}rnd", f"rnd {char}", f"rnd\u2800{char}"]
    if char not in SELECTORS:
        ends.append(f"rnd{char}")
    for name in ends:
        assert "start or end with a space" in name_problem(name), ascii(name)


@pytest.mark.parametrize("selector", SELECTORS)
def test_a_name_may_end_with_a_selector_of_its_last_character(selector):
    """A selector after a visible character is part of its glyph: these names were accepted before
    names ending blank were refused, and their tournaments could not be resumed (a reviewer's)."""
    assert name_problem(f"rnd{selector}") is None
    assert name_problem(f"{selector}rnd") is not None


@pytest.mark.parametrize(
    "name", ["Bot \u2764\ufe0f", "Star\u2b50\ufe0f", "\u6e21\u908a\U000e0101", "\u1822\u1824\u180b"]
)
def test_names_ending_with_an_emoji_or_ideograph_variant_are_names(name):
    assert name_problem(name) is None


@pytest.mark.parametrize("name", ["Jürgen", "Zoë's bot", "神", "한글 봇", "\u2764\ufe0f bot", "r nd", "a.b"])
def test_names_people_write_are_still_names(name):
    assert name_problem(name) is None


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("rnd", "\uff52\uff4e\uff44"),  # fullwidth
        ("Jürgen", "Ju\u0308rgen"),  # one character, or a letter and an accent (NFC)
        ("r nd", "r\u2800nd"),  # a blank glyph inside
        ("r nd", "r\u3164nd"),  # a Hangul filler: most fonts draw it a space wide
        ("r nd", "r\uffa0nd"),
        ("r nd", "r  nd"),  # a page shows two spaces as one
        ("rnd", "r\u034fnd"),  # a character that draws as nothing
        ("\u30d1", "\uff8a\uff9f"),  # halfwidth katakana and its sound mark: one character
        ("rnd", "rnd\ufe0f"),  # a selector of a letter that has no variant
        ("Ren\u00e9", "Rene\u034f\u0301"),  # an invisible joiner between the e and its accent
    ],
)
def test_names_that_look_the_same_are_look_alikes(one, other):
    assert shown_form(one) == shown_form(other)
    assert look_alike([one, "x", other]) == (one, other)


def test_different_names_are_not_look_alikes():
    assert look_alike(["rnd", "Rnd", "rnd2", "Jurgen", "Jürgen", "r nd"]) is None


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Bot2", "Bot\u00b2"),  # superscript: drawn raised
        ("bot 2", "bot \u2082"),  # subscript
        ("1", "\u2460"),  # circled
        ("1/2", "\u00bd"),  # a fraction
        ("fi", "\ufb01"),  # a ligature
        ("rnd", "\U0001d42b\U0001d427\U0001d41d"),  # mathematical bold
    ],
)
def test_names_drawn_differently_are_not_look_alikes(one, other):
    """Unicode's compatibility form (NFKC) made these one name, and a players file of two of them,
    accepted before, was refused (a reviewer's): they are drawn differently."""
    assert look_alike([one, other]) is None


def test_a_players_file_of_names_alike_is_refused(tmp_path):
    """The red team's file: ``rnd``, ``rnd\u3164``, fullwidth ``rnd`` and ``rnd\u2800`` all played."""
    players = ["rnd", "\uff52\uff4e\uff44"]
    text = "".join(f'- name: "{n}"\n  command: bot:random\n' for n in players)
    (tmp_path / "p.yml").write_text(text, "utf-8")
    with pytest.raises(PlayersFileError, match="look the same when shown"):
        read_players(tmp_path / "p.yml")
    for twin in ("rnd\u3164", "rnd\u2800"):
        (tmp_path / "p.yml").write_text(text.replace("\uff52\uff4e\uff44", twin), "utf-8")
        with pytest.raises(PlayersFileError, match="start or end with a space"):
            read_players(tmp_path / "p.yml")


@pytest.mark.parametrize(
    "name",
    [
        "\u0645\u062d\u0645\u062f\u200c\u0631\u0636\u0627",  # a Persian name: a ZWNJ between its parts
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family emoji, joined by ZWJ
        "Bot\u00adname",  # a soft hyphen
    ],
)
def test_joiners_inside_a_name_are_allowed(name):
    """``isprintable()`` calls ZWJ, ZWNJ and the soft hyphen unprintable: these names were refused
    though the docs let a joiner be anywhere but at a name's start or end (a red team's)."""
    assert name_problem(name) is None


@pytest.mark.parametrize("joiner", ["\u200c", "\u200d", "\u00ad"])
def test_a_joiner_stays_refused_at_either_end_and_invisible_to_look_alikes(joiner):
    assert "start or end" in name_problem(f"{joiner}ab")
    assert "start or end" in name_problem(f"ab{joiner}")
    assert look_alike(["ab", f"a{joiner}b"]) == ("ab", f"a{joiner}b")


@pytest.mark.parametrize(
    "control",
    [
        "\u200e",
        "\u200f",
        "\u202a",
        "\u202b",
        "\u202c",
        "\u202d",
        "\u202e",
        "\u2066",
        "\u2069",
        "\u061c",
        "\u200b",
        "\u2060",
        "\ufeff",
        "\t",
        "\x1b",
    ],
)
def test_other_format_and_control_characters_stay_refused_inside_a_name(control):
    """The bidi controls above all: one inside a name reorders what a page shows around it."""
    assert name_problem(f"a{control}b") is not None
