"""A game's ``info`` is a record it keeps: a computed ``info`` (a property) that raised, looped or
changed on a later read broke every command (a traceback, or no end), other games' too. One that
is computed is refused as it is registered, in one line, and the other games work."""

from __future__ import annotations

import attrs
import pytest

from codecup.hookspecs import hookimpl
from codecup.plugins import BrokenPlugin, load_games, make_plugin_manager


def _computed(base: type, fail: str) -> type:
    """A subclass of ``base`` whose info is a property: right on its first read, then ``fail``."""

    class Computed(base):  # type: ignore[misc, valid-type]
        reads = 0

        @property
        def info(self):
            type(self).reads += 1
            if type(self).reads > 1 and fail == "raise":
                raise ValueError("info boom")
            if type(self).reads > 1 and fail == "spin":
                while True:
                    pass
            if type(self).reads > 1 and fail == "change":
                return attrs.evolve(base.info, name="other")
            return attrs.evolve(base.info, name="computed")

    return Computed


def _registry(monkeypatch, *games: object):
    monkeypatch.setattr("codecup.plugins._skipped", {})
    said: list[BrokenPlugin] = []
    pm = make_plugin_manager(load_entry_points=False, report=said.append)
    for number, game in enumerate(games):

        class Plugin:
            @hookimpl
            def codecup_register_games(self, register, game=game):
                register(game)

        pm.register(Plugin(), name=f"plugin{number}")
        pm.installed.add(f"plugin{number}")
    return load_games(pm), said


@pytest.mark.parametrize("fail", ["raise", "spin", "change"])
def test_an_info_computed_on_each_read_skips_its_plugin_in_one_line(monkeypatch, tiny_game, fail):
    from codecup import overrun

    monkeypatch.setattr(overrun, "LIMIT", 0.2)
    game = _computed(type(tiny_game), fail)()
    registry, said = _registry(monkeypatch, game, tiny_game)
    assert said == [
        BrokenPlugin(
            "plugin0",
            "registered a Computed: its info is computed on each read (a property?):"
            " give a GameInfo as a class attribute",
        )
    ]
    assert registry.names() == ["twentyone"]  # read again, it would fail: it is not
    assert type(game).reads == 1
    assert registry.get("twentyone").info.name == "twentyone"


def test_an_info_that_raises_at_registration_skips_its_plugin_in_one_line(monkeypatch, tiny_game):
    class Raises(type(tiny_game)):  # type: ignore[misc]
        @property
        def info(self):
            raise ValueError("no info today")

    registry, said = _registry(monkeypatch, Raises(), tiny_game)
    assert registry.names() == ["twentyone"]
    assert said == [BrokenPlugin("plugin0", "registered a Raises: its info raised ValueError: no info today")]


def test_a_plain_info_is_taken(monkeypatch, tiny_game):
    class Instance(type(tiny_game)):  # type: ignore[misc]
        def __init__(self):
            self.info = attrs.evolve(type(tiny_game).info, name="own")  # an instance attribute

    registry, said = _registry(monkeypatch, tiny_game, Instance())
    assert said == []
    assert registry.names() == ["own", "twentyone"]


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("bots", (".hidden",), "its bots ('.hidden',) are not names of a letter or digit, then letters"),
        ("bots", ("r+1.5_b-c",), None),
        ("variants", ("_v",), "its variants' names ['_v'] are not names of a letter or digit, then"),
        ("clock", 86400.0, None),
        ("clock", 86400.5, "its clock 86400.5 is not over 0 and at most 86400 seconds"),
        ("startup", 86400.5, "its startup 86400.5 is not 0 to 86400 seconds"),
    ],
)
def test_the_names_and_times_adding_a_game_states(field, value, said):
    """docs/adding-a-game.md, section 5: the rules the page now states, as the code checks them."""
    from codecup.game import GameInfo, Variant

    variant = Variant("v", "d", clock=2.0)
    if field in ("clock", "startup"):
        variant = attrs.evolve(variant, **{field: value})
    variants = tuple(Variant(n, "d", clock=2.0) for n in value) if field == "variants" else (variant,)
    bots = value if field == "bots" else ("random",)
    problems = GameInfo(name="g", title="G", seats=("a", "b"), variants=variants, bots=bots).problems()
    assert problems == [] if said is None else said in "; ".join(problems), problems


def test_an_info_kept_in_a_slot_is_taken(monkeypatch, tiny_game):
    """An attrs game (slots) keeps its info in a slot, which inspect sees as a descriptor: it was
    taken for one computed on each read and its plugin skipped (a reviewer's)."""

    @attrs.frozen
    class Slotted(type(tiny_game)):  # type: ignore[misc]
        info: object = attrs.evolve(type(tiny_game).info, name="slotted")
        depth: int = 3

    registry, said = _registry(monkeypatch, Slotted(), tiny_game)
    assert said == []
    assert registry.names() == ["slotted", "twentyone"]


def test_an_empty_slot_whose_info_comes_from_getattr_is_a_computed_one(monkeypatch, tiny_game):
    """A slot left empty, info given by __getattr__: reading the slot raised, and every command
    ended in a traceback (a reviewer's); it is an info computed on each read."""
    base = type(tiny_game)

    class EmptySlot(base):  # type: ignore[misc, valid-type]
        __slots__ = ("info",)

        def __getattr__(self, name):
            if name == "info":
                return attrs.evolve(base.info, name="empty")
            raise AttributeError(name)

    registry, said = _registry(monkeypatch, EmptySlot(), tiny_game)
    assert registry.names() == ["twentyone"]
    assert len(said) == 1 and "its info is computed on each read" in said[0].reason
