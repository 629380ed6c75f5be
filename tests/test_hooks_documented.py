"""Every hook is documented in docs/hooks.md, with its arguments (datasette's habit)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from codecup import hookspecs

DOCS = Path(__file__).resolve().parents[1] / "docs" / "hooks.md"


def _hookspecs() -> list[str]:
    return sorted(
        name
        for name, value in vars(hookspecs).items()
        if callable(value) and hasattr(value, f"{hookspecs.hookspec.project_name}_spec")
    )


def _sections() -> dict[str, str]:
    parts = re.split(r"^## `(\w+)`\n", DOCS.read_text(), flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_there_are_hooks_and_no_stray_sections():
    assert len(_hookspecs()) >= 6
    assert sorted(_sections()) == _hookspecs()


@pytest.mark.parametrize("name", _hookspecs())
def test_each_hook_has_its_section_with_signature_arguments_and_example(name):
    section = _sections().get(name)
    assert section is not None, f"docs/hooks.md has no section ## `{name}`"
    spec = getattr(hookspecs, name)
    arguments = list(inspect.signature(spec).parameters)
    typed = ", ".join(f"{a}: {spec.__annotations__[a]}" for a in arguments)
    assert f"def {name}({typed}) -> None" in section, f"{name}: the signature is not the hookspec's"
    for argument in arguments:
        assert f"- `{argument}`" in section, f"{name}: argument {argument!r} is not described"
    for heading in ("**What for:**", "**When:**", "**Arguments:**", "**Example"):
        assert heading in section, f"{name}: no {heading}"
    assert "@hookimpl" in section, f"{name}: the example does not implement the hook"


def test_each_hookspec_is_documented_in_its_docstring():
    """pytest's style: a summary line and ``:param:`` for each argument."""
    for name in _hookspecs():
        spec = getattr(hookspecs, name)
        doc = inspect.getdoc(spec) or ""
        assert doc.splitlines() and doc.splitlines()[0].endswith("."), name
        for argument in inspect.signature(spec).parameters:
            assert f":param {argument}:" in doc, f"{name}: no :param {argument}:"


def test_the_examples_run():
    """Each Python snippet runs, in order, as one session; the register hooks register what they should."""
    from codecup.extensions import Command, GameOption

    namespace: dict[str, object] = {}
    snippets = re.findall(r"```python\n(.*?)```", DOCS.read_text(), flags=re.DOTALL)
    assert len(snippets) > len(_hookspecs())
    for snippet in snippets:
        exec(compile("from __future__ import annotations\n" + snippet, str(DOCS), "exec"), namespace)
        for hook, kind in (("codecup_register_options", GameOption), ("codecup_register_commands", Command)):
            function = namespace.pop(hook, None)
            if callable(function) and "@hookimpl" in snippet:
                registered: list[object] = []
                function(registered.append)
                assert registered and all(isinstance(x, kind) for x in registered), snippet
