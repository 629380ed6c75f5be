"""Lines of plumbing per game, at a git revision: what every game repeated before the rules API.

Plumbing is the code a game needs only to fit the framework, not its rules,
dialogue, bots or drawings: the player session and its bot protocol loop, the
judging of a reply line, the ``random`` bot, the replay of moves for
rendering, and (counted once, for the framework) the request-dispatch loop.
Each is counted as the non-blank lines of the named definitions (their
docstrings included) read from ``git show REV:PATH``; an inline block is
named by its function and the kind of statement it is (``referee/Try``).

    python bench/plumbing_lines.py 4a08e4a before
    python bench/plumbing_lines.py HEAD after
"""

from __future__ import annotations

import argparse
import ast
import subprocess

TINY = "tests/plugins/tinygame_dist/tinygame/__init__.py"

BEFORE: dict[str, list[tuple[str, str]]] = {
    "pillars": [
        ("games/pillars/player.py", "*"),  # View, the bot protocol, PillarsPlayer
        ("games/pillars/referee.py", "judge"),
        ("games/pillars/bots.py", "RandomBot"),
        ("games/pillars/render.py", "Picture"),  # the replay for render_text and render_svg
        ("games/pillars/view.py", "frames"),  # the replay for the site's frames
        ("games/pillars/game.py", "Pillars.new_player"),
        ("games/pillars/game.py", "Pillars.render_text"),
        ("games/pillars/game.py", "Pillars.render_svg"),
    ],
    "turn_right": [
        ("games/turn_right/player.py", "*"),
        ("games/turn_right/referee.py", "referee/Try"),  # the judging of a reply
        ("games/turn_right/referee.py", "_quote"),
        ("games/turn_right/bots.py", "Bot"),
        ("games/turn_right/bots.py", "RandomBot"),
        ("games/turn_right/render.py", "Picture"),
        ("games/turn_right/render.py", "replay"),
        ("games/turn_right/view.py", "frames"),
        ("games/turn_right/game.py", "TurnRight.new_player"),
        ("games/turn_right/game.py", "TurnRight.render_text"),
        ("games/turn_right/game.py", "TurnRight.render_svg"),
    ],
    "spaghetti": [
        ("games/spaghetti/player.py", "*"),  # SpaghettiPlayer: the session, its clock, observe
        ("games/spaghetti/referee.py", "_judge"),
        ("games/spaghetti/bots/random_bot.py", "RandomBot"),
        ("games/spaghetti/render.py", "snapshot"),  # the replay for render_text and render_svg
        ("games/spaghetti/view.py", "frames/For"),  # the replay in the site's frames (the jury's tiles)
        ("games/spaghetti/view.py", "frames/Assign"),  # ... (the jury parsed)
        ("games/spaghetti/game.py", "Spaghetti.new_player"),
        ("games/spaghetti/game.py", "Spaghetti.render_text"),
        ("games/spaghetti/game.py", "Spaghetti.render_svg"),
    ],
    "lucky_words": [
        ("games/lucky_words/player.py", "*"),
        ("games/lucky_words/referee.py", "_Offence"),
        ("games/lucky_words/referee.py", "_line"),
        ("games/lucky_words/referee.py", "_move_error"),
        ("games/lucky_words/bots/randombot.py", "RandomBot"),
        ("games/lucky_words/engine.py", "Position.after"),  # the replay for render, view and tests
        ("games/lucky_words/render.py", "scorer_for"),
        ("games/lucky_words/game.py", "LuckyWords.new_player"),
        ("games/lucky_words/game.py", "LuckyWords.render_text"),
        ("games/lucky_words/game.py", "LuckyWords.render_svg"),
    ],
    "twentyone": [
        (TINY, "TwentyOnePlayer"),
        (TINY, "referee/If"),  # the judging of a reply (the first if/elif chain)
        (TINY, "TwentyOne.new_player"),
    ],
    "framework": [
        ("codecup/drive.py", "drive"),
        ("codecup/runner.py", "_Match.run"),
    ],
}

AFTER: dict[str, list[tuple[str, str]]] = {
    "pillars": [
        ("games/pillars/rules.py", "View"),
        ("games/pillars/rules.py", "PillarsState.view"),
        ("games/pillars/rules.py", "pass_on"),
        ("games/pillars/bots.py", "Strategy"),
        ("games/pillars/bots.py", "StrategyBot"),
        ("games/pillars/game.py", "WIRE"),
        ("games/pillars/game.py", "session"),
        ("games/pillars/game.py", "Pillars.wire"),
        ("games/pillars/game.py", "Pillars.new_bot"),
    ],
    "turn_right": [
        ("games/turn_right/rules.py", "CircuitTexts"),  # the lazy list of circuits for the random bot
        ("games/turn_right/bots.py", "Strategy"),
        ("games/turn_right/bots.py", "StrategyBot"),
        ("games/turn_right/game.py", "WIRE"),
        ("games/turn_right/game.py", "session"),
        ("games/turn_right/game.py", "TurnRight.wire"),
        ("games/turn_right/game.py", "TurnRight.new_bot"),
    ],
    "spaghetti": [
        ("games/spaghetti/player.py", "*"),  # ClockedBot (the bots' clock, observe), WIRE, session
        ("games/spaghetti/bots/random_bot.py", "RandomBot"),  # kept: seeded games unchanged
        ("games/spaghetti/game.py", "Spaghetti.wire"),
        ("games/spaghetti/game.py", "Spaghetti.new_bot"),
    ],
    "lucky_words": [
        ("games/lucky_words/player.py", "*"),  # kept: both seats place every letter on hidden boards
        ("games/lucky_words/referee.py", "_lenient_move"),  # the 2004 lines read into the notation
        ("games/lucky_words/bots/randombot.py", "RandomBot"),  # kept: answers the session's pick/place
        ("games/lucky_words/game.py", "LuckyWords.new_player"),
        ("games/lucky_words/game.py", "LuckyWords.replay_state"),
    ],
    "twentyone": [
        (TINY, "TwentyOne.wire"),
        (TINY, "TwentyOne.new_bot"),
    ],
    "framework": [
        ("codecup/dispatch.py", "dispatch"),
        ("codecup/dispatch.py", "run_sync"),
        ("codecup/drive.py", "_ChannelSeats"),
        ("codecup/runner.py", "_Match.sent"),
        ("codecup/runner.py", "_Match.send"),
        ("codecup/runner.py", "_Match.receive"),
        ("codecup/runner.py", "_Match.played"),
        ("codecup/runner.py", "_Match.close"),
        ("codecup/rules.py", "judge"),
        ("codecup/rules.py", "judge_reply"),
        ("codecup/rules.py", "replay"),
        ("codecup/bots.py", "RandomBot"),
        ("codecup/session.py", "Wire"),
        ("codecup/session.py", "RulesPlayer"),
    ],
}


class MissingFile(Exception):
    """A file the table names is not in the revision."""


def source(rev: str, path: str) -> str:
    """The file at the revision (:class:`MissingFile` if it has none)."""
    done = subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True)
    if done.returncode:
        raise MissingFile(f"revision {rev!r} has no {path}")
    return done.stdout


def revision(text: str) -> str:
    """A git revision of the repository in the current folder (an argparse type)."""
    done = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{text}^{{commit}}"], capture_output=True, text=True
    )
    if done.returncode:
        raise argparse.ArgumentTypeError(f"no git revision {text!r} in the repository of the current folder")
    return text


def _find(body: list[ast.stmt], name: str) -> ast.stmt:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == name:
            return node
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return node
    raise KeyError(name)


def _block(func: ast.stmt, kind: str) -> ast.stmt:
    """The first statement of type ``kind`` anywhere in ``func``."""
    for node in ast.walk(func):
        if type(node).__name__ == kind and node is not func:
            assert isinstance(node, ast.stmt)
            return node
    raise KeyError(kind)


def count(text: str, symbol: str) -> int:
    """Non-blank lines of the named definition (``*``: the whole file)."""
    lines = text.splitlines()
    if symbol == "*":
        return sum(1 for line in lines if line.strip())
    name, _, kind = symbol.partition("/")
    body = ast.parse(text).body
    node: ast.stmt | None = None
    for part in name.split("."):
        node = _find(body if node is None else node.body, part)  # type: ignore[attr-defined]
    assert node is not None
    if kind:
        node = _block(node, kind)
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    assert node.end_lineno is not None
    return sum(1 for line in lines[first - 1 : node.end_lineno] if line.strip())


def parser() -> argparse.ArgumentParser:
    """The bench's options; the revision is checked before anything is counted."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rev", type=revision, help="a git revision of the repository in the current folder")
    p.add_argument("table", choices=("before", "after"), help="which list of plumbing to count")
    return p


def main() -> None:
    options = parser()
    args = options.parse_args()
    table = BEFORE if args.table == "before" else AFTER
    try:
        sources = {(path, args.rev): source(args.rev, path) for items in table.values() for path, _ in items}
    except MissingFile as e:
        options.error(f"{e}: the {args.table!r} table counts another revision's files")
    commit = subprocess.run(["git", "rev-parse", args.rev], capture_output=True, text=True).stdout.strip()
    top = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True
    ).stdout.strip()
    print(f"lines at git revision {args.rev} ({commit[:12]}) of the repository at {top}")
    total = 0
    for game, items in table.items():
        n = sum(count(sources[(path, args.rev)], symbol) for path, symbol in items)
        total += n
        print(f"{game:11} {n:4}")
    print(f"{'total':11} {total:4}")


if __name__ == "__main__":
    main()
