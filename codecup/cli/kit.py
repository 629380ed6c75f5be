"""A contest kit's players file, which names no game: the game and variant it is played as.

The Word Racer contest's kit writes ``conf/players.yml`` with its players and
nothing else, and its runner takes no game. A game plugin claims such files
(:attr:`codecup.game.GameInfo.kit_variant`, Lucky Words' ``wordracer``).
"""

from __future__ import annotations

from pathlib import Path

from codecup.errors import ConfigError
from codecup.plugins import GameRegistry


def game_and_variant(
    given_game: str | None,
    file_game: str | None,
    variant_name: str | None,
    registry: GameRegistry,
    file: Path,
) -> tuple[str, str | None, tuple[str, ...]]:
    """The game and variant asked for, and a note when the file's kit chose them.

    A players file that names no game is a contest kit's (the Word Racer kit's
    ``conf/players.yml`` lists players and nothing else, and its runner takes no
    game). With no game given it is played as the one installed game that claims
    such files (:attr:`GameInfo.kit_variant`); played as that game (given or
    not), with no variant given, it is played in the kit's variant, not the
    game's first, and the run says so. ``given_game`` is the command line's
    ``--game``, ``file_game`` the file's ``game:``, ``variant_name`` the variant
    asked for (either's); ``file`` names the file in messages.
    """
    game_name = given_game or file_game
    kits = [info for info in (registry.get(n).info for n in registry.names()) if info.kit_variant is not None]
    named = [info for info in kits if info.name == given_game]
    kit = None if file_game is not None else (named or kits)[0] if len(named or kits) == 1 else None
    if game_name is None:
        if kit is None:
            installed = ", ".join(registry.names())
            several = f" ({', '.join(k.name for k in kits)} each play a file naming none)" if kits else ""
            raise ConfigError(
                f"which game? give --game (installed: {installed}) or 'game:' in {file}{several}"
            )
        if variant_name not in (None, *(v.name for v in kit.variants)):
            known = ", ".join(v.name for v in kit.variants)
            raise ConfigError(
                f"which game? {file} names none, so it plays {kit.name}, which has no variant"
                f" {variant_name!r} (known: {known}); give --game for another game"
            )
        game_name = kit.name
    if kit is None or game_name != kit.name:
        return game_name, variant_name, ()
    chosen = variant_name or kit.kit_variant
    if given_game is None:
        note = (
            f"no game given: a contest kit's players file, played as {kit.name} (variant {chosen});"
            " give --game or 'game:' in the file to play another"
        )
    elif variant_name is None:
        note = (
            f"a contest kit's players file (it names no game): {kit.name} in the kit's variant,"
            f" {chosen}; give --variant for another"
        )
    else:
        return game_name, variant_name, ()
    return kit.name, chosen, (note,)
