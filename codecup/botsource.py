"""What a bot's Python file defines at its top level, read without running it.

A player's program ``codecup bot GAME FILE.py:NAME`` plays the bot ``NAME`` of a
stranger's Python file. Before any game is played, the file's text is parsed (never
imported, never run) to tell whether ``NAME`` is bound at its top level to something
that may make a bot; where the file could bind names in ways its text does not show
(``exec``, ``globals()``, a module ``__getattr__``, a star import), it cannot tell, and
says nothing: a command that runs is never refused.
"""

from __future__ import annotations

import ast
from pathlib import Path

from codecup.errors import ConfigError
from codecup.reading import read_file
from codecup.terminal import shortened

#: The largest Python file read to check a bot in it is defined (a program is kilobytes).
MAX_SOURCE = 16 << 20


def definition_problem(path: Path, name: str, said: str) -> str | None:
    """Whether the Python file defines ``name`` at its top level, read without running it (it is a
    stranger's program: the referee does not import it)."""
    try:  # read as every file a user names is: never waiting (/proc/kmsg), never past a cap
        tree = ast.parse(read_file(path, MAX_SOURCE, "a Python file"), str(path))
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return f"{said}: {path.name} is not Python that parses ({str(exc) or type(exc).__name__})"
    except ConfigError as exc:
        return f"{said}: {exc}"
    last: dict[str, ast.stmt] = {}  # each name's last binding at the top level: what it is at the end
    plain: set[int] = set()  # the nodes of those bindings (a name bound anywhere else: it cannot tell)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            last[node.name] = node
            plain.add(id(node))
        elif isinstance(node, ast.Assign) or (isinstance(node, ast.AnnAssign) and node.value is not None):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Name):
                    last[target.id] = node
                    plain.add(id(target))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                last[(alias.asname or alias.name).split(".")[0]] = node
                plain.add(id(alias))
    if any(isinstance(n, ast.ImportFrom) and n.names[0].name == "*" for n in ast.walk(tree)):
        return None  # a star import binds what its module holds, also under a try or an if (a reviewer's)
    if _binds_dynamically(tree):
        return None  # a module __getattr__, exec, globals()[...] =: run it to know (a red team's)
    if any(id(binding) not in plain for binding in _bindings(tree, name)):
        return None  # also bound in a try, an if, a loop, a tuple, a function's global: run it to know
    bound = last.get(name)
    value = bound.value if isinstance(bound, ast.Assign | ast.AnnAssign) else None
    if isinstance(value, _NOT_CALLABLE):  # X = 5: it passed, and every game was the program's crash
        shown = shortened(ast.unparse(value), 60)
        return f"{said}: {path.name} sets {name!r} to {shown}, not a class or function that makes the bot"
    if bound is not None:
        return None
    return f"{said}: {path.name} defines no class or function {name!r} at its top level"


_RUNS_CODE = frozenset({"exec", "eval", "compile", "globals", "__import__"})
"""Built-ins that run text as code or hand out the module's names, counted as bare names only, and
only where the file never binds the name itself: ``re.compile``, ``from re import compile``, a
``def eval(...)`` or a local ``eval = ...`` is none of them (a reviewer's: any such turned the check
off, and a misspelt NAME of an ordinary bot crashed every game)."""

_NAMESPACE_CALLS = frozenset({"vars", "locals"})
"""Built-ins that hand out the calling scope's names when called with no argument at the module's
level (``vars(self.cfg)`` is an object's own; ``locals()`` in a function its own locals)."""

_REACHES_MODULES = frozenset(
    {
        "modules",
        "import_module",
        "builtins",
        "__builtins__",
        "f_globals",
        "f_locals",
        "__globals__",
        "getmodule",
    }
)
"""What reaches a module's names or the built-ins from elsewhere: ``sys.modules[__name__]``,
``importlib.import_module``, ``inspect.getmodule``, ``builtins.exec``, a frame's ``f_globals``, a
function's ``__globals__``; as a name, an import, or a text fetched (``getattr(sys, "modules")``).
An attribute ``modules`` counts only on ``sys``, and only where it is written or passed on
(``'numpy' in sys.modules`` only reads it; ``self.modules`` is the bot's own)."""


def _binds_dynamically(tree: ast.Module) -> bool:
    """Whether the module could bind names at run time, in a way its text does not show: it runs
    text as code, hands out a namespace (``globals()``, ``vars()``, ``sys.modules``, a frame's
    ``f_globals``, a function's ``__globals__``, the built-ins), or defines or imports a module
    ``__getattr__`` (PEP 562), which answers any name asked for. Working bots made so were refused
    before any game (a red team's); what cannot reach the module's names (``getattr(self, ...)``,
    ``self.__class__``, ``vars(self.cfg)``, ``re.compile``) does not count."""
    sys_names = {"sys"} | {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name == "sys"
    }
    own = _names_bound(tree)  # a name the file binds anywhere is its own, not the built-in
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    module_level = {id(node) for node in _module_scope(tree)}
    for node in ast.walk(tree):
        match node:
            case ast.Name(id=name) if name in _RUNS_CODE and name not in own:
                return True
            case ast.Name(id=name) if name in _REACHES_MODULES - {"modules"}:
                return True
            case ast.Call(func=ast.Name(id=name), args=[], keywords=[]) if name in _NAMESPACE_CALLS:
                if name not in own and id(node) in module_level:
                    return True
            case ast.Attribute(attr="modules", value=ast.Name(id=name)) if name in sys_names:
                if not _only_read(node, parents):
                    return True
            case ast.Attribute(attr=name) if name in _REACHES_MODULES - {"modules"}:
                return True
            case ast.Call(args=args) if any(
                isinstance(arg, ast.Constant) and arg.value in _REACHES_MODULES for arg in args
            ):
                return True  # getattr(sys, "modules"); a text 'builtins' merely held is nothing
            case ast.alias(name=name, asname=asname) if {name.split(".")[0], name, asname} & (
                _REACHES_MODULES - {"modules"}
            ):
                return True
            case ast.ImportFrom(module=module, names=names) if module == "sys" or module in _REACHES_MODULES:
                if module != "sys" or any(alias.name in ("modules", "*") for alias in names):
                    return True
            case ast.Global(names=names) if "__getattr__" in names:
                return True
    return any(_binds(node, "__getattr__") for node in _module_scope(tree))


def _names_bound(tree: ast.Module) -> set[str]:
    """Every name the file binds in any scope: stored to, a def or class, an import, a parameter, an
    ``except ... as`` name, a pattern's capture."""
    names: set[str] = set()
    for node in ast.walk(tree):
        match node:
            case ast.Name(id=name, ctx=ast.Store() | ast.Del()):
                names.add(name)
            case ast.FunctionDef(name=name) | ast.AsyncFunctionDef(name=name) | ast.ClassDef(name=name):
                names.add(name)
            case ast.alias(name=name, asname=asname):
                names.add((asname or name).split(".")[0])
            case ast.arg(arg=name):
                names.add(name)
            case (
                ast.ExceptHandler(name=str(name))
                | ast.MatchAs(name=str(name))
                | ast.MatchStar(name=str(name))
            ):
                names.add(name)
    return names


def _only_read(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Whether ``sys.modules`` at ``node`` is only asked about, neither written nor handed on: a
    test of membership, its length, a walk over its names, or its ``keys()`` (``get`` hands a
    module on: not only read)."""
    parent = parents.get(id(node))
    match parent:
        case ast.Compare(ops=ops, comparators=comparators) if node in comparators:
            return all(isinstance(op, ast.In | ast.NotIn) for op in ops)
        case ast.Call(func=ast.Name(id="len"), args=[arg]) if arg is node:
            return True
        case ast.For(iter=it) | ast.comprehension(iter=it) if it is node:
            return True
        case ast.Attribute(attr="keys" | "__contains__" | "__len__"):
            return True
    return False


def _module_scope(tree: ast.Module) -> list[ast.AST]:
    """The nodes of the module's own scope: not those inside a function's or a class's body (a
    class's ``__getattr__`` is its instances' own)."""
    found: list[ast.AST] = []
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        found.append(node)
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))
    return found


def _bindings(tree: ast.Module, name: str) -> list[ast.AST]:
    """Every node of ``tree`` that may bind ``name`` at the module's level (or anywhere: a nested
    one is counted too, which only makes the check say less)."""
    annotated = {id(n.target) for n in ast.walk(tree) if isinstance(n, ast.AnnAssign) and n.value is None}
    return [node for node in ast.walk(tree) if _binds(node, name) and id(node) not in annotated]


def _binds(node: ast.AST, name: str) -> bool:
    """Whether ``node`` binds ``name``: a def or class, a name stored to, an import, a global."""
    match node:
        case ast.FunctionDef() | ast.AsyncFunctionDef() | ast.ClassDef() | ast.MatchAs() | ast.MatchStar():
            return node.name == name
        case ast.Name(ctx=ast.Store()):
            return node.id == name
        case ast.alias():
            return (node.asname or node.name).split(".")[0] == name
        case ast.Global() | ast.Nonlocal():
            return name in node.names
    return False


# Expressions whose value is never callable: a literal, a display, a comprehension, a formatted text.
_NOT_CALLABLE = (
    ast.Constant,
    ast.JoinedStr,
    ast.List,
    ast.Tuple,
    ast.Dict,
    ast.Set,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)
