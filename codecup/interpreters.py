"""Where a common interpreter's command line names its script (``python3 -u bot.py``,
``java -cp lib.jar -jar bot.jar``), so the check before any game can say that the file is missing.

Each interpreter's options are read as it reads them: the value of ``-cp``, the code after
``-c``, a module after ``-m`` are no script (a red team's finding: ``java -cp bot.jar:lib.jar
Bot`` and ``sh -c 'exec python3 mybot.py'`` were refused, "no file 'bot.jar:lib.jar'", though
they run). Wherever it cannot tell (an option it does not know, which may take a value; a
program it does not know), it names no script: the check then says nothing, as a command that
runs must never be refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import attrs


@attrs.frozen
class Interpreter:
    """How one interpreter reads its options, as far as the script's place goes."""

    #: Options whose value is the next argument (``-cp X``, ``-W X``).
    takes_value: frozenset[str] = frozenset()
    #: Options after which the program is given otherwise (code, a module, stdin): no script.
    inline: frozenset[str] = frozenset()
    #: Options whose value is the script (``php -f bot.php``).
    script_option: frozenset[str] = frozenset()
    #: Options that make the first argument after them that is no option the script, options
    #: between read as ever (java's ``-jar`` is a mode: a reviewer's, ``java -jar -Xmx1g bot.jar``
    #: runs bot.jar).
    script_mode: frozenset[str] = frozenset()
    #: Options known to take no value.
    flags: frozenset[str] = frozenset()
    #: Beginnings of options that carry their value joined (``-Dkey=value``, ``-Xmx1g``).
    joined: tuple[str, ...] = ()
    #: Single-letter options that combine (``python -uc CODE``): those that take no value
    #: (None: options do not combine).
    letter_flags: str | None = None
    #: Letters whose value is the rest of the word, or else the next argument (``-Wignore``, ``-o x``).
    letter_values: str = ""
    #: Letters after which the program is given otherwise (``-c CODE``).
    letter_inline: str = ""
    #: Letters whose value is the rest of the word, maybe empty, never the next argument
    #: (``perl -MPOSIX``, ``perl -x``: a reviewer's, ``perl -x missing.pl`` was let through).
    letter_rest: str = ""
    #: Letters whose value is a folder it changes into before it opens its script (``ruby -C sub
    #: bot.rb``, ``ruby -xsub bot.rb``: a reviewer's, they run and were refused): the script's
    #: place is not told (perl's ``-xsub`` changes folder after opening its script: it is told).
    folder_letters: str = ""
    #: Options may begin with ``+`` too (a shell's ``+o name``).
    plus: bool = False
    #: The first argument that is no option is the script (java's is a class name).
    positional_script: bool = True
    #: It runs a folder named as its script that holds one of these files (python's ``__main__.py``).
    runs_folder: tuple[str, ...] = ()
    #: Endings it tries after the script's name where no file has it (node's ``bot`` is ``bot.js``).
    tries: tuple[str, ...] = ()
    #: It looks for a script not in the folder on PATH (bash does).
    searches_path: bool = False
    #: Letters after which it looks for its script on PATH too (``perl -S bot.pl``).
    path_letters: str = ""
    #: Options whose value is a class path (java's ``-cp``): one entry, a ``.jar``, must be there
    #: where a class is run from it (a reviewer's: ``java -cp nothere.jar Bot`` fails for sure).
    class_path: frozenset[str] = frozenset()
    #: Options after which a class may come from elsewhere than the class path (java's module
    #: path: a reviewer's ``java --module-path mods --add-modules botmod -cp nothere.jar bot.Bot``
    #: runs, and was refused).
    class_path_not_all: frozenset[str] = frozenset()
    #: Beginnings of joined options that set the class path anew (java's ``-Djava.class.path=``:
    #: after ``-cp`` it wins; a reviewer's ``java -cp missing.jar -Djava.class.path=bot.jar Bot``
    #: runs, and was refused). The last one given counts; one not told is no jar checked.
    class_path_joined: tuple[str, ...] = ()
    #: Beginnings of joined options that may give a class from elsewhere than the class path
    #: (java's ``-Xbootclasspath/a:bot.jar``: a reviewer's, it runs, and was refused).
    class_elsewhere_joined: tuple[str, ...] = ()
    #: Variables of the environment that add options the command line does not show.
    options_from: tuple[str, ...] = ()


_PYTHON = Interpreter(
    takes_value=frozenset({"--check-hash-based-pycs"}),
    inline=frozenset({"-"}),
    flags=frozenset({"--help", "--version", "--help-env", "--help-xoptions", "--help-all"}),
    letter_flags="bBdEhiIOPqRsSuvVx?",
    letter_values="WX",
    letter_inline="cm",
    runs_folder=("__main__.py",),
)

_SHELL = Interpreter(
    takes_value=frozenset({"--rcfile", "--init-file"}),
    inline=frozenset({"-"}),
    flags=frozenset(
        {
            "--norc",
            "--noprofile",
            "--login",
            "--posix",
            "--restricted",
            "--verbose",
            "--noediting",
            "--debugger",
            "--dump-strings",
            "--dump-po-strings",
        }
    ),
    letter_flags="abefhiklmnprtuvxBCEHIPT",
    letter_values="oO",
    letter_inline="cs",
    plus=True,
    searches_path=True,
)

_JAVA = Interpreter(
    takes_value=frozenset(
        {
            "-cp",
            "-classpath",
            "--class-path",
            "-p",
            "--module-path",
            "--upgrade-module-path",
            "--add-modules",
            "--limit-modules",
            "--add-reads",
            "--add-exports",
            "--add-opens",
            "--patch-module",
            "--enable-native-access",
            "--source",
        }
    ),
    inline=frozenset({"-m", "--module", "-d", "--describe-module"}),
    script_mode=frozenset({"-jar"}),
    class_path=frozenset({"-cp", "-classpath", "--class-path"}),
    class_path_not_all=frozenset(
        {"-p", "--module-path", "--upgrade-module-path", "--add-modules", "--patch-module", "--source"}
    ),
    class_path_joined=("-Djava.class.path=",),
    class_elsewhere_joined=("-Xbootclasspath",),
    options_from=("JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS"),
    flags=frozenset(
        {
            "--enable-preview",
            "--show-version",
            "--version",
            "--dry-run",
            "--validate-modules",
            "--show-module-resolution",
            "--disable-@files",
            "--help",
            "--help-extra",
        }
    ),
    joined=(
        "-D",
        "-X",
        "-ea",
        "-da",
        "-esa",
        "-dsa",
        "-enableassertions",
        "-disableassertions",
        "-enablesystemassertions",
        "-disablesystemassertions",
        "-verbose",
        "-agentlib:",
        "-agentpath:",
        "-javaagent:",
        "-splash:",
        "-version",
        "-showversion",
        "-server",
        "-client",
        "-d64",
        "-d32",
        "-help",
        "-h",
        "-?",
    ),
    positional_script=False,
)

_NODE = Interpreter(
    # Node's options that take a value (``node --help``, v20, where they are ``--name=...``; and some
    # of later versions'): the next argument is that value. Its flags are those ``node --help``
    # (v20) lists with no value. Any other long option without ``=`` (V8's ``--harmony``, a later
    # node's ``--test-global-setup ./setup.mjs``: a reviewer's, it was taken for a flag and
    # refused) may take the next argument: the check gives up.
    takes_value=frozenset(
        {
            "-r",
            "--require",
            "--import",
            "--loader",
            "--experimental-loader",
            "-C",
            "--conditions",
            "--input-type",
            "--title",
            "--env-file",
            "--env-file-if-exists",
            "--allow-fs-read",
            "--allow-fs-write",
            "--build-snapshot-config",
            "--cpu-prof-dir",
            "--cpu-prof-interval",
            "--cpu-prof-name",
            "--debug-port",
            "--inspect-port",
            "--diagnostic-dir",
            "--disable-proto",
            "--disable-warning",
            "--dns-result-order",
            "--experimental-default-type",
            "--experimental-policy",
            "--experimental-sea-config",
            "--experimental-config-file",
            "--localstorage-file",
            "--heap-prof-dir",
            "--heap-prof-interval",
            "--heap-prof-name",
            "--heapsnapshot-near-heap-limit",
            "--heapsnapshot-signal",
            "--icu-data-dir",
            "--inspect-publish-uid",
            "--max-http-header-size",
            "--network-family-autoselection-attempt-timeout",
            "--openssl-config",
            "--policy-integrity",
            "--redirect-warnings",
            "--report-dir",
            "--report-directory",
            "--report-filename",
            "--report-signal",
            "--run",
            "--secure-heap",
            "--secure-heap-min",
            "--snapshot-blob",
            "--test-concurrency",
            "--test-name-pattern",
            "--test-skip-pattern",
            "--test-reporter",
            "--test-reporter-destination",
            "--test-shard",
            "--test-timeout",
            "--test-coverage-include",
            "--test-coverage-exclude",
            "--tls-cipher-list",
            "--tls-keylog",
            "--trace-event-categories",
            "--trace-event-file-pattern",
            "--trace-require-module",
            "--unhandled-rejections",
            "--use-largepages",
            "--v8-pool-size",
            "--watch-path",
            "--watch-kill-signal",
        }
    ),
    inline=frozenset({"-", "-e", "--eval", "-p", "--print", "-i", "--interactive"}),
    flags=frozenset(
        {
            "-c",
            "--abort-on-uncaught-exception",
            "--allow-addons",
            "--allow-child-process",
            "--allow-wasi",
            "--allow-worker",
            "--build-snapshot",
            "--check",
            "--completion-bash",
            "--cpu-prof",
            "--disable-wasm-trap-handler",
            "--disallow-code-generation-from-strings",
            "--enable-etw-stack-walking",
            "--enable-fips",
            "--enable-network-family-autoselection",
            "--enable-source-maps",
            "--experimental-eventsource",
            "--experimental-import-meta-resolve",
            "--experimental-network-imports",
            "--experimental-network-inspection",
            "--experimental-permission",
            "--experimental-print-required-tla",
            "--experimental-test-coverage",
            "--experimental-test-module-mocks",
            "--experimental-vm-modules",
            "--experimental-wasm-modules",
            "--experimental-websocket",
            "--expose-gc",
            "--force-context-aware",
            "--force-fips",
            "--force-node-api-uncaught-exceptions-policy",
            "--frozen-intrinsics",
            "--heap-prof",
            "--help",
            "--huge-max-old-generation-size",
            "--insecure-http-parser",
            "--inspect",
            "--inspect-brk",
            "--inspect-wait",
            "--interpreted-frames-native-stack",
            "--jitless",
            "--no-addons",
            "--no-deprecation",
            "--no-experimental-detect-module",
            "--no-experimental-fetch",
            "--no-experimental-global-customevent",
            "--no-experimental-global-webcrypto",
            "--no-experimental-repl-await",
            "--no-experimental-require-module",
            "--no-extra-info-on-fatal-exception",
            "--no-force-async-hooks-checks",
            "--no-global-search-paths",
            "--no-network-family-autoselection",
            "--no-warnings",
            "--node-memory-debug",
            "--openssl-legacy-provider",
            "--openssl-shared-config",
            "--pending-deprecation",
            "--preserve-symlinks",
            "--preserve-symlinks-main",
            "--prof",
            "--prof-process",
            "--report-compact",
            "--report-exclude-network",
            "--report-on-fatalerror",
            "--report-on-signal",
            "--report-uncaught-exception",
            "--test",
            "--test-force-exit",
            "--test-only",
            "--throw-deprecation",
            "--tls-max-v1.2",
            "--tls-max-v1.3",
            "--tls-min-v1.0",
            "--tls-min-v1.1",
            "--tls-min-v1.2",
            "--tls-min-v1.3",
            "--trace-atomics-wait",
            "--trace-deprecation",
            "--trace-exit",
            "--trace-promises",
            "--trace-sigint",
            "--trace-sync-io",
            "--trace-tls",
            "--trace-uncaught",
            "--trace-warnings",
            "--track-heap-objects",
            "--use-bundled-ca",
            "--use-openssl-ca",
            "--v8-options",
            "--version",
            "--watch",
            "--watch-preserve-output",
            "--zero-fill-buffers",
        }
    ),
    runs_folder=("package.json", "index.js", "index.json", "index.node"),
    tries=(".js", ".json", ".node", ".mjs", ".cjs"),
)

# -I's directory is joined or the next argument; -M's and -m's module and -x's folder are joined
# (``perl -M strict`` is "Missing argument to -M"; ``perl -x bot.pl`` runs bot.pl), and so are
# the values of -l, -0, -i, -C, -d, -D and -F, maybe empty (``perl -l012 bot.pl``, ``perl -i.bak
# bot.pl``: a reviewer's, each was let through with its script missing).
_PERL = Interpreter(
    inline=frozenset({"-"}),
    letter_flags="acnpsStTuUwWX",
    letter_values="I",
    letter_inline="eE",
    letter_rest="Mmxl0iCdDF",
    path_letters="S",
)
# -I's folder, -r's library and -C's folder are joined or the next argument; -x's folder is joined.
# -C and -x with a folder change into it before the script is opened: its place is not told.
_RUBY = Interpreter(
    inline=frozenset({"-"}),
    letter_flags="acdlnpvwy",
    letter_values="IrC",
    letter_inline="e",
    letter_rest="x",
    folder_letters="Cx",
)
# Its options do not combine: -d, -c, -z take their value joined (``-ddisplay_errors=1``) or next.
_PHP = Interpreter(
    takes_value=frozenset({"-d", "-c", "-z"}),
    joined=("-d", "-c", "-z"),
    inline=frozenset({"-r", "-a", "-R", "-B", "-E", "-F", "-s", "-w", "-S", "-t", "-l", "-i", "-m", "-v"}),
    script_option=frozenset({"-f"}),
    flags=frozenset({"-n", "-q", "-e", "-H", "-C"}),
)
_LUA = Interpreter(
    takes_value=frozenset({"-e", "-l"}),
    inline=frozenset({"-", "-v"}),
    flags=frozenset({"-i", "-E", "-W"}),
)
_RSCRIPT = Interpreter(
    inline=frozenset({"-e"}),
    flags=frozenset(
        {
            "--vanilla",
            "--verbose",
            "--no-save",
            "--no-restore",
            "--no-environ",
            "--no-site-file",
            "--no-init-file",
            "--slave",
            "--quiet",
            "--silent",
        }
    ),
)

#: The interpreters known, by the program's file name.
_BY_NAME: dict[str, Interpreter] = {
    **dict.fromkeys(("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash"), _SHELL),
    "java": _JAVA,
    "node": _NODE,
    "nodejs": _NODE,
    "perl": _PERL,
    "ruby": _RUBY,
    "php": _PHP,
    "lua": _LUA,
    "Rscript": _RSCRIPT,
}
_PYTHON_NAME = re.compile(r"^(python|pypy)(\d+(\.\d+)*)?t?$")
#: A name with its version after it (``lua5.4``, ``php8.2``, ``perl5.36``, ``node18``), as python's.
_VERSIONED = re.compile(r"^(.*[A-Za-z])\d+(\.\d+)*$")

#: ``env``'s options that take a value, and those that take none (any other: it cannot tell).
_ENV_VALUES = frozenset({"-u", "--unset"})
_ENV_FLAGS = frozenset({"-i", "--ignore-environment", "-", "--"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def interpreter(program: str) -> Interpreter | None:
    """The interpreter ``program`` (a name or a path) is, or None for one not known."""
    name = program.rsplit("/", 1)[-1]
    if _PYTHON_NAME.match(name):
        return _PYTHON
    versioned = _VERSIONED.match(name)
    return _BY_NAME.get(name) or (_BY_NAME.get(versioned[1]) if versioned else None)


def script_of(program: str, args: Sequence[str], env: Iterable[str] = ()) -> tuple[int, Interpreter] | None:
    """The index in ``args`` of the script ``program`` runs, and the interpreter that runs it; or
    None where it runs none, or where that cannot be told for sure (a program or an option not
    known, options from the names in ``env``, its environment's, that it reads)."""
    if program.rsplit("/", 1)[-1] == "env":  # env [-i] [-u NAME] [NAME=VALUE]... PROGRAM ARGS...
        at = _after_env(args)
        if at is None or at >= len(args):
            return None
        named = [*env, *(arg.split("=", 1)[0] for arg in args[:at] if _ASSIGNMENT.match(arg))]
        inner = script_of(args[at], args[at + 1 :], named)
        if inner is None or (inner[1].searches_path and _changes_path(args[:at])):
            # A reviewer's: ``env PATH=elsewhere:/usr/bin bash onpath.sh`` runs, and was refused,
            # PATH searched being the player's: where env sets PATH, the check gives up.
            return None
        return at + 1 + inner[0], inner[1]
    known = interpreter(program)
    if known is None:
        return None
    # Options from the environment may give a class otherwise (a module path), never make a missing
    # -jar jar run (a reviewer's: they switched off the -jar check too).
    return _script_index(known, args, any(name in known.options_from for name in env))


def _changes_path(env_args: Sequence[str]) -> bool:
    """Whether ``env``'s options and assignments ``env_args`` change the PATH its program gets."""
    return any(
        arg.startswith("PATH=")
        or arg in ("-i", "--ignore-environment", "-")
        or (arg in _ENV_VALUES and env_args[i + 1 : i + 2] == ["PATH"])
        for i, arg in enumerate(env_args)
    )


def _after_env(args: Sequence[str]) -> int | None:
    """Where ``env``'s program is in ``args``, or None where an option changes what it runs."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in _ENV_VALUES:
            i += 2
        elif arg in _ENV_FLAGS or _ASSIGNMENT.match(arg):
            i += 1
        elif arg.startswith("-"):
            return None  # -C DIR, -S 'split string', or one it does not know
        else:
            return i
    return None


def _script_index(
    known: Interpreter, args: Sequence[str], elsewhere: bool = False
) -> tuple[int, Interpreter] | None:
    """As :func:`script_of`, for the interpreter ``known``: its options may make it look on PATH.
    ``elsewhere``: options from the environment may give a class otherwise than its class path."""
    i = 0
    class_path = None  # the index of the class path's value (the last one given counts)
    mode = False  # a script_mode option given: the next argument that is no option is the script
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return (i + 1, known) if known.positional_script and i + 1 < len(args) else None
        if arg in known.script_option:
            return (i + 1, known) if i + 1 < len(args) else None
        if arg in known.script_mode:
            mode = True
            i += 1
            continue
        if arg in known.inline:
            return None
        if arg in known.takes_value:
            class_path = i + 1 if arg in known.class_path else class_path
            elsewhere = elsewhere or arg in known.class_path_not_all  # a module path
            i += 2
            continue
        if arg.startswith("@"):  # java's argument file: what it holds is not known here
            return None
        is_option = arg.startswith("-") or (known.plus and arg.startswith("+"))
        if not is_option or len(arg) == 1:
            if known.positional_script or mode:
                return i, known
            # A .java file there is run as a source file (its class path may be missing: the
            # check looks); one not there is a class name, from the class path.
            return None if elsewhere else _class_jar(args, class_path, known)
        if arg in known.flags or arg.startswith(known.joined):
            if arg.startswith(known.class_path_joined):
                class_path = None  # the class path is this value now, not told here
            elsewhere = elsewhere or arg.startswith(known.class_elsewhere_joined)
            i += 1
        elif arg.startswith("--"):
            if "=" not in arg:
                return None  # a long option not known: it may take the next argument
            # --opt=value as --opt value: java --class-path=bot.jar sets the class path anew (its
            # value not told here), --module-path=mods gives classes from elsewhere (a reviewer's
            # java --module-path=mods --add-modules=botmod -cp missing.jar bot.Bot ran, refused)
            name = arg.partition("=")[0]
            if name in known.class_path:
                class_path = None
            elsewhere = elsewhere or name in known.class_path_not_all
            i += 1
        elif known.letter_flags is None:
            return None
        else:
            step = _letters(known, arg[1:])
            if step is None:
                return None
            if any(letter in known.path_letters for letter in arg[1:]):
                known = attrs.evolve(known, searches_path=True)
            i += step
    return None


def _class_jar(
    args: Sequence[str], class_path: int | None, known: Interpreter
) -> tuple[int, Interpreter] | None:
    """Where a class is run from a class path of one ``.jar`` (``java -cp bot.jar Bot``), that jar:
    one not there fails for sure. A class path of several entries, a folder, a wildcard: None."""
    if class_path is None or class_path >= len(args):
        return None
    entry = args[class_path]
    if ":" in entry or "*" in entry or not entry.endswith(".jar"):
        return None
    return class_path, known


def _letters(known: Interpreter, letters: str) -> int | None:
    """How many arguments a word of combined single-letter options takes up (1, or 2 where its
    last letter takes the next as value), or None where one is not known or gives the program."""
    assert known.letter_flags is not None
    for at, letter in enumerate(letters):
        if letter in known.letter_inline:
            return None
        if letter in known.folder_letters and (letter in known.letter_values or at + 1 < len(letters)):
            return None  # it changes folder before it opens its script
        if letter in known.letter_rest:
            return 1
        if letter in known.letter_values:
            return 1 if at + 1 < len(letters) else 2
        if letter not in known.letter_flags:
            return None
    return 1


def python_module(args: Sequence[str]) -> tuple[str, int] | None:
    """The module a Python run with ``args`` runs by ``-m`` (``python -u -X dev -m codecup``,
    ``python -um codecup``), and the index in ``args`` of its first argument; None where it runs
    none or its options are not known."""
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("-") or arg in ("-", "--"):
            return None
        if arg in _PYTHON.takes_value:
            i += 2
            continue
        if arg.startswith("--"):
            return None
        letters = arg[1:]
        for at, letter in enumerate(letters):
            if letter == "m":
                rest = letters[at + 1 :]
                if rest:
                    return rest, i + 1
                return (args[i + 1], i + 2) if i + 1 < len(args) else None
            if letter in _PYTHON.letter_values:
                i += 0 if at + 1 < len(letters) else 1  # its value is the next argument
                break
            if letter not in (_PYTHON.letter_flags or ""):
                return None
        i += 1
    return None


def env_program(args: Sequence[str]) -> tuple[tuple[str, ...], int] | None:
    """For ``env``'s arguments ``args``: the names it assigns (``NAME=VALUE``) and the index of the
    program it runs; None where an option changes what it runs."""
    at = _after_env(args)
    if at is None or at >= len(args):
        return None
    return tuple(arg.split("=", 1)[0] for arg in args[:at] if _ASSIGNMENT.match(arg)), at
