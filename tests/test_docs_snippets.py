"""Every code block in docs/*.md is tested, so the guides cannot drift from the code.

A marker on the line before a block (an HTML comment, invisible when rendered) says what it is:

- ``<!-- example: PATH -->``: copied from ``examples/connect_four/PATH``; it must appear there verbatim;
- ``<!-- output -->``: what the Python block before it prints, exactly;
- ``<!-- illustrative -->``: not run (a fragment, a signature, a sketch).

Every other ``python`` block runs: a page's blocks in order in one namespace (as a reader types
them), with the example game importable, in a temporary folder; but a block that is one bare
``def`` line (a signature, as docs/hooks.md gives each hook's) only has to compile as a stub.
``toml`` blocks must parse.
"""

from __future__ import annotations

import contextlib
import io
import re
import tomllib
from pathlib import Path

import attrs
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
EXAMPLE = ROOT / "examples" / "connect_four"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
SIGNATURE = re.compile(r"\Adef \w+\(.*\)( -> [^:\n]+)?\n?\Z")
MARKER = re.compile(r"^<!--\s*(example:\s*(?P<path>\S+)|output|illustrative)\s*-->$")


@attrs.frozen
class Block:
    """One fenced block of a page, with the marker before it (if any)."""

    page: Path
    line: int
    lang: str
    text: str
    marker: str | None = None
    path: str | None = None

    @property
    def where(self) -> str:
        """``docs/PAGE.md:LINE``, for messages and test ids."""
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of a Markdown page, in order."""
    text = page.read_text("utf-8")
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rpartition("\n")[2].strip()
        marker = MARKER.match(before)
        kind = None if marker is None else marker.group(1).split(":")[0]
        found.append(
            Block(
                page,
                text.count("\n", 0, match.start()) + 1,
                match.group(1),
                match.group(2),
                kind,
                None if marker is None else marker.group("path"),
            )
        )
    return found


PAGES = sorted(DOCS.glob("*.md"))
BLOCKS = [block for page in PAGES for block in blocks(page)]
QUOTES = [block for block in BLOCKS if block.marker == "example"]
RUN_PAGES = [page for page in PAGES if any(b.lang == "python" and b.marker is None for b in blocks(page))]


@pytest.mark.parametrize("block", QUOTES, ids=lambda b: b.where)
def test_a_quoted_block_matches_the_example(block):
    assert block.path is not None
    source = EXAMPLE / block.path
    assert source.is_file(), f"{block.where}: no file {source.relative_to(ROOT)}"
    assert block.text in source.read_text("utf-8"), (
        f"{block.where}: the block is no longer a copy of part of {source.relative_to(ROOT)}"
    )


@pytest.mark.parametrize("page", RUN_PAGES, ids=lambda p: p.name)
def test_the_python_blocks_of_a_page_run(page, monkeypatch, tmp_path):
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem.replace('-', '_')}"}
    printed = None
    for block in blocks(page):
        if block.marker == "output":
            assert printed is not None, f"{block.where}: an output block after no block that ran"
            assert printed == block.text, f"{block.where}: the block before it prints\n{printed}"
        if block.lang != "python" or block.marker is not None:
            continue
        if SIGNATURE.match(block.text):
            compile(block.text.rstrip() + ": ...", block.where, "exec")
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block.text, block.where, "exec"), namespace)
        printed = out.getvalue()


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.lang == "toml"], ids=lambda b: b.where)
def test_a_toml_block_parses(block):
    tomllib.loads(block.text)


def test_a_signature_block_is_one_bare_def_line():
    assert SIGNATURE.match("def codecup_move(match: MatchInfo, seat: int) -> None\n")
    assert not SIGNATURE.match("def f(x):\n    return x\n")
    assert not SIGNATURE.match("def f(x) -> None:\n")


def test_markers_stand_before_blocks_they_fit():
    for block in BLOCKS:
        if block.marker == "output":
            assert block.lang in ("text", ""), f"{block.where}: output is shown as a text block"
        if block.marker == "example":
            assert block.lang in ("python", "toml"), f"{block.where}: quote Python or TOML"


def test_the_guide_walks_through_every_module_of_the_example():
    guide = [b for b in QUOTES if b.page.name == "adding-a-game.md"]
    quoted = {b.path for b in guide}
    modules = {f"connect_four/{p.name}" for p in (EXAMPLE / "connect_four").glob("*.py")}
    assert modules - {"connect_four/__init__.py"} <= quoted
    assert "pyproject.toml" in quoted
    assert any(b.lang == "python" and b.marker is None for b in blocks(DOCS / "adding-a-game.md"))
