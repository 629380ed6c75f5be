"""What a run gives the programs of the files a game provides (Lucky Words' ``words.dat``), in
lines for the user (``codecup tournament``'s, ``codecup play``'s): :func:`provided_notes`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import attrs

from codecup.game import Game
from codecup.players.seat import provisions_of
from codecup.record import PlayerInfo
from codecup.sandbox.box import OwnKind, own_differing
from codecup.sandbox.launch import is_original, own_entry


def provided_notes(
    game: Game, variant: str, players: Sequence[PlayerInfo], hidden: Sequence[str] = (), *, sandboxed: bool
) -> list[str]:
    """What the run gives the programs of the files the game provides (Lucky Words' ``words.dat``):
    which players' folders lack one (it is provided), which hold a link to one out of the folder or
    into a folder ``hidden`` from the bots nested in it (another player's, one given to hide, the
    results: it shows nothing in its sandbox, so it is provided too), which hold the file the game's
    is made from as it is (the organiser's: provided over it, left as it is), which hold their own,
    unlike the game's, and which an entry of that name that is no file (they get none of the
    game's). Not ``sandboxed`` (no namespaces: :attr:`~codecup.sandbox.Support.namespaces`), a
    program given a file runs in a folder of links to its own, and a line says what that costs."""
    lines = []
    for provided in provisions_of(game, variant):
        name = provided.name
        given, linked, over, own = _Given(), _Given(), _Given(), _Given()
        for p in players:
            if p.bot is not None or not p.directory:
                continue
            folder = str(Path(p.directory))
            if is_original(folder, name, provided.original):
                over.add(p.name, folder)
            elif own_entry(folder, name, hidden):
                for differing in own_differing([provided], Path(folder), hidden):
                    if differing.kind is OwnKind.OTHER:
                        own.add(p.name, folder)
                    else:
                        said = f"{differing.what}, not a file: it is given none of the game's"
                        lines.append(f"{p.name}'s {name} is {said}")
            elif (Path(folder) / name).exists():
                linked.add(p.name, folder)
            else:
                given.add(p.name, folder)
        # A reviewer's: without namespaces a program given the file runs in a temporary folder of
        # links to its own, and a new file it makes there is gone after its game; now that the
        # list's own folder (codecup play's) is given the copy too, it is said where it happens.
        links = ""
        if not sandboxed and (given or linked or over):
            who = _Given([*given.names, *linked.names, *over.names], [])
            links = (
                f"; without a sandbox {who.pick('it runs', 'they run')} in a folder of links to "
                f"{who.pick('its', 'their')} own: new files {who.pick('it makes', 'they make')} there "
                "are not kept"
            )
        if given:
            theirs = given.folders("has", "have")
            lines.append(f"{name} provided to {given} ({theirs} none){links}")
        if linked:
            theirs = f"{linked.pick('its own is a link', 'theirs are links')} out of {linked.folders()}"
            hidden_ones = linked.pick("a hidden one", "hidden ones")
            lines.append(f"{name} provided to {linked} ({theirs} or into {hidden_ones}){links}")
        if over:
            # The organiser's own list file in a program's folder (codecup play run where the list
            # is ./words.dat, or --words a/words.dat, or a cp of it): programs were said to read it
            # as it is (lower case, blanks), and did; they are given the game's copy, as anywhere else.
            lines.append(
                f"{name} provided to {over}, over {_owning(over.folders())} {name}, the file it is made "
                f"from as it is (left as it is): {provided.label}{links}"
            )
        if own:
            lines.append(f"{own} {own.pick('plays with its', 'play with their')} own {name}, not the game's")
    return lines


def _owning(folders: str) -> str:
    """``its folder's``, ``their folders'``: the possessive of :meth:`_Given.folders`."""
    return f"{folders}'" if folders.endswith("s") else f"{folders}'s"


@attrs.define
class _Given:
    """Players a line of :func:`provided_notes` names, and their folders (two may share one)."""

    names: list[str] = attrs.Factory(list)
    places: list[str] = attrs.Factory(list)

    def add(self, name: str, folder: str) -> None:
        """One more player, in ``folder``."""
        self.names.append(name)
        self.places.append(folder)

    def __bool__(self) -> bool:
        return bool(self.names)

    def __str__(self) -> str:
        return ", ".join(self.names)

    def pick(self, one: str, more: str) -> str:
        """``one`` for a single player, else ``more``."""
        return one if len(self.names) == 1 else more

    def folders(self, one: str = "", more: str = "") -> str:
        """Their folders, in words (``its folder``, ``their folder`` when they share one, ``their
        folders``), followed by ``one`` or ``more`` as there are one or more folders."""
        many = len(set(self.places)) > 1
        said = "their folders" if many else self.pick("its folder", "their folder")
        verb = more if many else one
        return f"{said} {verb}" if verb else said
