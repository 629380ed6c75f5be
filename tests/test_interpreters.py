"""Where a common interpreter's command names its script, as the check before any game reads it."""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import attrs
import pytest

from codecup import binfmt
from codecup.checks import command_problem
from codecup.interpreters import script_of
from codecup.record import PlayerInfo


@pytest.mark.parametrize(
    ("command", "script"),
    [
        ("python3 bot.py", "bot.py"),
        ("python3 -u bot.py --fast", "bot.py"),
        ("python3 -W ignore bot.py", "bot.py"),
        ("python3 -Wignore -X dev bot.py", "bot.py"),
        ("python3 -uO -- bot.py", "bot.py"),
        ("pypy3 bot.py", "bot.py"),
        ("/usr/bin/python3.12 bot.py", "bot.py"),
        ("python3 -c 'import x' bot.py", None),
        ("python3 -uc 'import x' bot.py", None),
        ("python3 -m bot x.py", None),
        ("python3 -Q bot.py", None),  # an option not known: it may take a value
        ("java -jar bot.jar", "bot.jar"),
        ("java -Xmx1g -Dx=1 -cp lib.jar -jar bot.jar", "bot.jar"),
        ("java -cp bot.jar:lib.jar Bot", None),
        ("java -classpath .:lib.jar Bot", None),
        ("java --class-path x.jar Bot", "x.jar"),
        ("java -cp nothere.jar Bot", "nothere.jar"),  # one jar: a class run from it needs it there
        ("java -ea -cp bot.jar Bot", "bot.jar"),
        ("java -cp lib Bot", None),
        ("java -cp 'lib/*' Bot", None),
        ("java -cp a.jar -cp b.jar:c.jar Bot", None),  # the last class path counts
        ("java -cp x.jar Bot.java", "x.jar"),  # a class, or a source file run: the check looks
        ("java --module-path mods --add-modules m -cp x.jar bot.Bot", None),  # a module path: let through
        ("java -p mods -cp x.jar bot.Bot", None),
        ("java -cp x.jar --source 17 Bot", None),
        ("java @args.txt -jar bot.jar", None),
        ("java --unknown x.jar -jar bot.jar", None),
        ("sh -c 'exec python3 mybot.py'", None),
        ("bash -ec 'source venv/bin/activate && python bot.py'", None),
        ("bash -o pipefail run.sh", "run.sh"),
        ("bash +O extglob -e run.sh", "run.sh"),
        ("bash --rcfile x.sh run.sh", "run.sh"),
        ("sh -s x.sh", None),
        ("node bot.js", "bot.js"),
        ("node -r dotenv/config.js bot.js", "bot.js"),
        ("node -e 'x' bot.js", None),
        ("node --max-old-space-size=512 bot.js", "bot.js"),
        ("node --some-new-flag bot.js", None),  # an option not in node's lists: it may take a value
        ("node --test-global-setup ./setup.mjs bot.js", None),  # a reviewer's: Node 24's, it takes one
        ("node --inspect bot.js", "bot.js"),  # a flag in node --help's list
        ("node --no-warnings --expose-gc bot.js", "bot.js"),
        ("node --harmony --experimental-modules bot.mjs", None),  # V8's, or not listed: not told
        ("node --require x.js bot.js", "bot.js"),
        ("node --test-reporter spec bot.js", "bot.js"),
        ("perl -Ilib bot.pl", "bot.pl"),
        ("perl -I lib bot.pl", "bot.pl"),
        ("perl -MPOSIX -Mstrict bot.pl", "bot.pl"),
        ("perl -x bot.pl", "bot.pl"),
        ("perl -wx bot.pl", "bot.pl"),
        ("perl -M strict bot.pl", "strict"),  # perl: "Missing argument to -M" (it fails: no file to name)
        ("perl -l bot.pl", "bot.pl"),  # values joined, maybe empty: a reviewer's, each seen with perl
        ("perl -l012 -0777 bot.pl", "bot.pl"),
        ("perl -i.bak -CSDA bot.pl", "bot.pl"),
        ("perl -d:Trace -Dx bot.pl", "bot.pl"),
        ("perl -F, -wl bot.pl", "bot.pl"),
        ("ruby -rjson bot.rb", "bot.rb"),
        ("ruby -r json -I lib bot.rb", "bot.rb"),
        ("ruby -C sub sb.rb", None),  # a reviewer's: ruby changes folder before opening its script
        ("ruby -Csub sb.rb", None),
        ("ruby -xsub sb.rb", None),
        ("ruby -wC sub sb.rb", None),
        ("ruby -x bot.rb", "bot.rb"),  # no folder: it stays
        ("perl -xsub bot.pl", "bot.pl"),  # perl changes folder after opening its script
        ("php -ddisplay_errors=1 bot.php", "bot.php"),
        ("php -c/etc/php.ini bot.php", "bot.php"),
        ("ruby bot.rb", "bot.rb"),
        ("ruby -e 'x' bot.rb", None),
        ("perl -w bot.pl", "bot.pl"),
        ("perl -we 'x' bot.pl", None),
        ("perl -S bot.pl", "bot.pl"),
        ("lua5.4 bot.lua", "bot.lua"),
        ("php8.2 bot.php", "bot.php"),
        ("perl5.36 bot.pl", "bot.pl"),
        ("ruby3.1 bot.rb", "bot.rb"),
        ("node18 bot.js", "bot.js"),
        ("/usr/bin/nodejs20 bot.js", "bot.js"),
        ("luajit bot.lua", None),  # not lua, and not known
        ("php -d memory_limit=1G bot.php", "bot.php"),
        ("php -f bot.php", "bot.php"),
        ("php -r 'x;' bot.php", None),
        ("lua -e 'x=1' bot.lua", "bot.lua"),
        ("Rscript --vanilla bot.R", "bot.R"),
        ("env PYTHONUNBUFFERED=1 python3 -u bot.py", "bot.py"),
        ("env -C sub python3 bot.py", None),
        ("env -S 'python3 -u' bot.py", None),
        ("./wrapper bot.py", None),  # a program not known: what its argument is, it cannot tell
        ("timeout 5 python3 bot.py", None),
    ],
)
def test_the_script_is_where_the_interpreter_reads_it(command, script):
    program, *args = shlex.split(command)
    found = script_of(program, args)
    assert (None if found is None else args[found[0]]) == script


@pytest.mark.parametrize(
    "command",
    [
        "java -cp bot.jar:lib.jar Bot",
        "java -classpath .:lib.jar Bot",
        "sh -c 'exec python3 mybot.py'",
        "bash -c 'source venv/bin/activate && python bot.py'",
        "python3 -c 'import bot' x.py",
        "python3 -X importtime bot.py",
        "node bot2.js",  # node runs bot2.js.js, as it runs bot2 from bot2.js
        "java -cp nothere.py Bot",  # a class path of no jar: not checked
        "java --module-path mods --add-modules botmod -cp nothere.jar bot.Bot",  # a reviewer's: it runs
        "java -p mods -cp nothere.jar bot.Bot",
        "java -cp nothere.jar there.java",  # a source file run: the class path is not needed
        "node --stack-size=65500 bot.js",
        "node --test-global-setup ./setup.mjs bot.js",  # a reviewer's: Node 24's, refused without setup.mjs
        "python3 pkg.py",  # a folder python runs (its __main__.py)
        "ruby -C sub sb.rb",  # a reviewer's: ruby runs sub/sb.rb, and it was refused
        "ruby -Csub sb.rb",
        "ruby -xsub sb.rb",
        "env -C sub python3 sb.py",
        "env --chdir=sub python3 sb.py",
    ],
)
def test_a_command_that_runs_is_not_refused(command, tmp_path):
    """A red team's finding: the first argument not starting with '-' was taken for the script,
    the value of -cp or the code of -c, and "no file 'bot.jar:lib.jar'" refused a command that ran."""
    (tmp_path / "bot.py").write_text("")
    (tmp_path / "bot2.js.js").write_text("")
    (tmp_path / "bot.js").write_text("")
    (tmp_path / "there.java").write_text("")
    (tmp_path / "pkg.py").mkdir()
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "sb.rb").write_text("")
    (tmp_path / "sub" / "sb.py").write_text("")
    (tmp_path / "pkg.py" / "__main__.py").write_text("")
    player = PlayerInfo(
        "p", command=tuple(shlex.split(command)), directory=str(tmp_path), env=_stubs(tmp_path)
    )
    assert command_problem(player) is None


#: The programs the checks here look up: stubs on a private PATH, whatever the machine has.
STUBS = (
    "python3",
    "sh",
    "bash",
    "java",
    "node",
    "perl",
    "ruby",
    "php",
    "lua5.4",
    "php8.2",
    "perl5.36",
    "node18",
    "env",
)


def _stubs(tmp_path) -> tuple[tuple[str, str], ...]:
    """A PATH of stub programs (the checks only look them up: nothing is run)."""
    folder = tmp_path / "stubs"
    folder.mkdir(exist_ok=True)
    for name in STUBS:
        (folder / name).write_text("#!/bin/sh\n")
        (folder / name).chmod(0o755)
    return (("PATH", str(folder)),)


def test_a_missing_script_is_named_where_it_is_sure(tmp_path):
    def problem(command: str) -> str | None:
        player = PlayerInfo(
            "p", command=tuple(shlex.split(command)), directory=str(tmp_path), env=_stubs(tmp_path)
        )
        return command_problem(player)

    said = problem("python3 -W ignore gone.py") or ""
    assert "cannot run python3 -W ignore gone.py: no file 'gone.py'" in said
    said = problem("java -cp x.jar -jar gone.jar") or ""
    assert "cannot run java -cp x.jar -jar gone.jar: no file" in said
    assert "no file 'gone.sh'" in (problem("bash -e gone.sh") or "")
    # A reviewer's: refused before the branch, and sure failures still
    said = problem("java -cp nothere.jar Bot") or ""
    assert "cannot run java -cp nothere.jar: no file 'nothere.jar'" in said
    for versioned in ("lua5.4 gone.lua", "php8.2 gone.php", "perl5.36 gone.pl", "node18 gone.js"):
        assert f"cannot run {versioned}: no file 'gone." in (problem(versioned) or ""), versioned
    # A reviewer's: refused before the branch, let through after it (and all fail for sure)
    for sure in (
        "perl -Ilib gone.pl",
        "perl -x gone.pl",
        "ruby -rjson gone.rb",
        "php -ddisplay_errors=1 gone.php",
        "node --inspect gone.js",
        "node --no-warnings gone.js",
    ):
        assert f"cannot run {sure}: no file 'gone." in (problem(sure) or ""), sure
    said = problem("java -cp nothere.jar gone.java") or ""
    assert "cannot run java -cp nothere.jar: no file 'nothere.jar'" in said


def test_options_from_the_environment_let_a_java_command_through(tmp_path, monkeypatch):
    """JAVA_TOOL_OPTIONS and its kin may add a module path or a class path the command does not
    show: then the class path's jar is not checked."""
    for name in ("JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS"):  # the runner's own: none
        monkeypatch.delenv(name, raising=False)
    for name in ("JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS"):
        env = (*_stubs(tmp_path), (name, "--module-path mods --add-modules botmod"))
        player = PlayerInfo(
            "p", command=("java", "-cp", "nothere.jar", "bot.Bot"), directory=str(tmp_path), env=env
        )
        assert command_problem(player) is None, name
    player = PlayerInfo(
        "p", command=("java", "-cp", "nothere.jar", "bot.Bot"), directory=str(tmp_path), env=_stubs(tmp_path)
    )
    assert command_problem(player) is not None
    # A reviewer's: the referee's own variables are never a bot's (it gets PATH and the locale).
    for name in ("JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS"):
        monkeypatch.setenv(name, "-p mods")
    assert "no file 'nothere.jar'" in (command_problem(player) or "")


def test_options_from_the_environment_never_let_a_missing_jar_jar_through(tmp_path):
    """A reviewer's: JAVA_TOOL_OPTIONS and its kin switched off the -jar check too, though no
    variable makes ``java -jar missing.jar`` run; they stop only the class path's jar's."""
    for name in ("JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS"):
        env = (*_stubs(tmp_path), (name, "-Xmx1g"))
        for command in (
            "java -jar missing.jar",
            "java -Xmx1g -jar missing.jar",
            "env X=1 java -jar missing.jar",
        ):
            player = PlayerInfo("p", command=tuple(shlex.split(command)), directory=str(tmp_path), env=env)
            assert "no file 'missing.jar'" in (command_problem(player) or ""), (name, command)
        player = PlayerInfo(
            "p", command=("java", "-cp", "missing.jar", "Bot"), directory=str(tmp_path), env=env
        )
        assert command_problem(player) is None, name
    player = PlayerInfo(
        "p", command=("env", "_JAVA_OPTIONS=-Xmx1g", "java", "-jar", "missing.jar"), directory=str(tmp_path)
    )
    assert "no file 'missing.jar'" in (command_problem(player) or "")


def test_java_jar_is_a_mode_and_its_jar_the_first_argument_no_option(tmp_path):
    """A reviewer's: ``java -jar -Xmx1g bot.jar`` runs bot.jar (-jar is a mode: its jar is the
    first argument after it that is no option): -Xmx1g was taken for its jar, so a missing jar
    after it was let through."""
    (tmp_path / "bot.jar").write_text("")
    env = _stubs(tmp_path)

    def problem(command: str) -> str:
        player = PlayerInfo("p", command=tuple(shlex.split(command)), directory=str(tmp_path), env=env)
        return command_problem(player) or ""

    for command in ("java -jar -Xmx1g bot.jar", "java -Xmx1g -jar bot.jar"):
        assert problem(command) == "", command
    for command in ("java -jar -Xmx1g gone.jar", "java -jar -cp lib.jar gone.jar -jar bot.jar"):
        assert "no file 'gone.jar'" in problem(command), command
    assert problem("java -jar --unknown-option gone.jar") == ""  # it may take a value: not told


def test_a_class_path_set_or_added_to_by_a_joined_option_is_not_checked(tmp_path):
    """A reviewer's: ``java -Xbootclasspath/a:bot.jar -cp missing.jar Bot`` and ``java -cp
    missing.jar -Djava.class.path=bot.jar Bot`` run (the class is found elsewhere; the later class
    path wins), and were refused; a -cp given after -Djava.class.path= wins, and is checked."""
    (tmp_path / "bot.jar").write_text("")
    env = _stubs(tmp_path)

    def problem(command: str) -> str:
        player = PlayerInfo("p", command=tuple(shlex.split(command)), directory=str(tmp_path), env=env)
        return command_problem(player) or ""

    assert problem("java -Xbootclasspath/a:bot.jar -cp missing.jar Bot") == ""
    assert problem("java -cp missing.jar -Djava.class.path=bot.jar Bot") == ""
    assert "no file 'missing.jar'" in problem("java -Djava.class.path=bot.jar -cp missing.jar Bot")
    assert "no file 'missing.jar'" in problem("java -Dx=1 -cp missing.jar Bot")


def test_a_perl_script_found_on_path_with_its_s_option_is_not_refused(tmp_path):
    """A reviewer's: perl -S looks for its script on PATH, as ruby's -S does; it was refused."""
    env = _stubs(tmp_path)
    (tmp_path / "stubs" / "pathbot.pl").write_text("")
    for command in ("perl -S pathbot.pl", "perl -wS pathbot.pl"):
        player = PlayerInfo("p", command=tuple(shlex.split(command)), directory=str(tmp_path), env=env)
        assert command_problem(player) is None, command
    player = PlayerInfo("p", command=("perl", "pathbot.pl"), directory=str(tmp_path), env=env)
    assert "no file 'pathbot.pl'" in (command_problem(player) or "")


def test_a_shell_script_found_on_path_is_not_refused(tmp_path):
    """bash looks for a script it does not find in the folder on PATH."""
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "onpath.sh").write_text("")
    env = (("PATH", f"{bin_folder}:/usr/bin:/bin"),)
    player = PlayerInfo("p", command=("bash", "onpath.sh"), directory=str(tmp_path), env=env)
    assert command_problem(player) is None


def test_a_script_on_a_path_that_env_sets_is_not_refused(tmp_path):
    """A reviewer's: ``env PATH=elsewhere:/usr/bin bash onpath.sh`` runs (bash looks on env's PATH,
    as perl -S does), and was refused; a script env's PATH cannot change is still named."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "onpath.sh").write_text("")
    (elsewhere / "onpath.pl").write_text("")
    env = _stubs(tmp_path)
    for command in (
        f"env PATH={elsewhere}:/usr/bin:/bin bash onpath.sh",
        f"env PATH={elsewhere}:/usr/bin:/bin sh onpath.sh",
        f"env PATH={elsewhere}:/usr/bin:/bin perl -S onpath.pl",
        "env -u PATH bash onpath.sh",
        "env -i bash onpath.sh",
    ):
        player = PlayerInfo("p", command=tuple(shlex.split(command)), directory=str(tmp_path), env=env)
        assert command_problem(player) is None, command
    for command in (f"env PATH={elsewhere} perl onpath.pl", "env LANG=C bash onpath.sh"):
        player = PlayerInfo("p", command=tuple(shlex.split(command)), directory=str(tmp_path), env=env)
        assert "no file 'onpath." in (command_problem(player) or ""), command


def _problem(tmp_path, *command: str, game: str | None = "pillars") -> str:
    return command_problem(PlayerInfo("p", command=command, directory=str(tmp_path)), game) or ""


def test_a_program_not_on_path_that_is_here_is_named(tmp_path):
    """A red team's: `exe.py`, there and executable, was "not found on PATH", with no word of ./exe.py;
    another's read "'exe.py' in DIR is run as ./exe.py" as what had happened: said as what to write."""
    (tmp_path / "exe.py").write_text("#!/bin/sh\n")
    (tmp_path / "exe.py").chmod(0o755)
    (tmp_path / "plain.py").write_text("")
    assert _problem(tmp_path, "exe.py").endswith(
        f"not found on PATH; to run 'exe.py' in {tmp_path}, write ./exe.py"
    )
    assert "'plain.py' in " in _problem(tmp_path, "plain.py")
    assert "is not executable: run it with its interpreter" in _problem(tmp_path, "plain.py")
    assert _problem(tmp_path, "nothing-here-xyz").endswith("not found on PATH")


def test_a_bot_in_a_python_file_given_as_a_program_or_a_bot_points_to_codecup_bot(tmp_path):
    from codecup.errors import UnknownBotError
    from codecup.plugins import load_games

    said = _problem(tmp_path, "strategy.py:MyBot")
    assert said.endswith(
        'a bot in a Python file is played by the program "codecup bot pillars strategy.py:MyBot"'
    )
    with pytest.raises(
        UnknownBotError, match=re.escape('played by the program "codecup bot pillars strategy.py:MyBot"')
    ):
        load_games().get("pillars").info.check_bot("strategy.py:MyBot")


def test_codecup_bot_of_a_python_file_without_a_name_is_told_as_codecup_bot_tells_it(tmp_path):
    (tmp_path / "strategy.py").write_text("class MyBot: pass\n")
    said = _problem(tmp_path, "codecup", "bot", "pillars", "strategy.py")
    assert said.endswith("name what in it makes the bot, strategy.py:NAME")


@pytest.mark.parametrize(
    ("first", "refused"),
    [
        (b"#!/usr/bin/env python3\r\n", True),
        (b"#!/bin/sh\r\n", True),
        (b"#!/usr/bin/env python3\n", False),
        (b"#!/usr/bin/python3 -u\r\n", False),  # what python makes of '-u\r' is its own: not sure
    ],
)
def test_a_shebang_line_with_a_carriage_return_is_named(first, refused, tmp_path):
    """A red team's: a #! line in Windows line ends passed the check; every game was then a crash,
    env saying "'python3\\r': No such file or directory"."""
    (tmp_path / "bot.py").write_bytes(first + b"print()\r\n")
    (tmp_path / "bot.py").chmod(0o755)
    said = _problem(tmp_path, "./bot.py")
    assert ("its #! line ends in a carriage return (Windows line ends)" in said) == refused, said
    assert ("dos2unix" in said) == refused


@pytest.mark.parametrize(
    ("first", "said"),
    [
        (b"#!/no/such/interp\n", "the interpreter its #! line names, '/no/such/interp', does not exist"),
        (b"#!/no/such/interp -u\n", "the interpreter its #! line names, '/no/such/interp', does not exist"),
        (b"#!/usr/bin/env no-such-interpreter\n", "by env, 'no-such-interpreter', is not found on its PATH"),
        (b"#!/usr/bin/env ./no-such-interpreter\n", "'./no-such-interpreter', is not found from its folder"),
        # the kernel passes env the rest of the line as one name (a contestant's every game a crash)
        (b"#!/usr/bin/env python3 -u\n", "by env, 'python3 -u', is not found on its PATH"),
        (b"#!/usr/bin/env  sh\t-e \n", "as one name; to pass options, begin it #!/usr/bin/env -S sh\t-e"),
        (b"#!/usr/bin/env ./bin/interp -x\n", "'./bin/interp -x', is not found from its folder"),
        # env given no program, or a variable setting, runs the program itself again, for ever
        (b"#!/usr/bin/env\n", "names env and no program for it, so env runs the program itself again"),
        (b"#!/usr/bin/env A=1 sh\n", "env 'A=1 sh', which env takes for a variable setting"),
        (b"#!/usr/bin/env node --max-old-space-size=4096\n", "begin it #!/usr/bin/env -S node --max-old"),
        # blanks are spaces and tabs only: a form feed is part of a name (it was a traceback)
        (b"#!/usr/bin/env \f\n", "by env, '\\x0c', is not found on its PATH"),
        (b"#!/usr/bin/env \xc2\xa0\n", "by env, '\\xa0', is not found on its PATH"),
        (b"#!/usr/bin/env\vsh\n", "names, '/usr/bin/env\\x0bsh', does not exist"),
        # blanks before a NUL stay (the kernel cuts them at the line's end only)
        (b"#!/usr/bin/env sh \x00\n", "by env, 'sh ', is not found"),
        # no newline in a short file: its end is the buffer's, NULs, so the tab is not cut
        (b"#!/usr/bin/env sh\t", "by env, 'sh\\t', is not found"),
        (b"#!/usr/bin/env python3 -u\r\n", "ends in a carriage return"),
        (b"#!/usr/bin/env -i sh\n", ""),  # env's options: left to the start
        (b"#!/usr/bin/env sh" + b" " * 238 + b"-e\n", ""),  # byte 255, '-', is dropped: 'sh' runs
        (b"#!/usr/bin/env sh" + b" " * 237 + b"-e\n", "begin it #!/usr/bin/env -S sh "),
        # the kernel gives EACCES for these (a reviewer's: the check said only "no file")
        (b"#!/usr/bin\n", "the interpreter its #! line names, '/usr/bin', is a folder, not a program"),
        (b"#!TMP/plain\n", "/plain', is not executable"),
        (b"#!/bin/sh\n", ""),
        (b"#! /bin/sh\n", ""),
        (b"#!/usr/bin/env sh\n", ""),
        (b"#!/usr/bin/env -S sh -e\n", ""),  # env's options: left to the start
        (b"#!relative/interp\n", ""),  # read from the program's working folder: left to the start
        (b"#!/usr/bin/env ./bin/interp\n", ""),  # env runs it from the program's folder
        (b"#!/usr/bin/env interp\n", ""),  # found on a PATH entry relative to that folder
        (b"#!/bin/sh\x00junk\n", ""),  # the kernel reads up to the NUL
        (b"#!LINK\n", ""),  # a name that is no UTF-8, as the file system has it
    ],
)
def test_a_shebang_line_naming_no_interpreter_is_refused_before_play(first, said, tmp_path):
    """A red team's: ``#!/no/such/interp`` passed the check; every game was then a crash. A reviewer's:
    the program's own relative PATH entries, and names with a ``/`` given to ``env``, were looked up in
    the referee's folder, and an honest program refused."""
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "interp").symlink_to("/bin/sh")
    link = os.fsencode(tmp_path) + b"/py\xf6"
    os.symlink(b"/bin/sh", link)
    (tmp_path / "plain").write_bytes(b"text\n")
    (tmp_path / "plain").chmod(0o644)
    first = first.replace(b"LINK", link).replace(b"TMP", os.fsencode(tmp_path))
    (tmp_path / "bot").write_bytes(first + (b"echo\n" if first.endswith(b"\n") else b""))
    (tmp_path / "bot").chmod(0o755)
    env = (("PATH", "bin:/usr/bin:/bin"),)
    player = PlayerInfo("p", command=("./bot",), directory=str(tmp_path), env=env)
    with contextlib.chdir("/"):  # the referee's folder is not the program's
        problem = command_problem(player, "pillars") or ""
    assert (said in problem) if said else problem == "", problem


def test_a_program_on_a_path_entry_relative_to_its_folder_is_found(tmp_path):
    """``PATH: bin:...`` is read in the program's folder, where it runs (a reviewer's)."""
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "mybot").write_bytes(b"#!/bin/sh\necho\n")
    (tmp_path / "bin" / "mybot").chmod(0o755)
    player = PlayerInfo("p", command=("mybot",), directory=str(tmp_path), env=(("PATH", "bin:/usr/bin"),))
    with contextlib.chdir("/"):
        assert command_problem(player, "pillars") is None
        assert "program not found on PATH" in (
            command_problem(attrs.evolve(player, command=("nobot",))) or ""
        )


@pytest.fixture
def no_binfmt(monkeypatch, tmp_path_factory):
    """binfmt_misc mounted with no format registered."""
    folder = tmp_path_factory.mktemp("binfmt_misc")
    (folder / "status").write_text("enabled\n")
    (folder / "register").write_text("")
    monkeypatch.setattr(binfmt, "BINFMT_MISC", folder)
    return folder


@pytest.mark.parametrize("mounted", [True, False])
def test_a_script_with_a_byte_order_mark_before_its_shebang_is_refused_naming_it(
    tmp_path, no_binfmt, mounted, monkeypatch
):
    """A red team's: a script saved with a UTF-8 BOM before ``#!`` passed the check, then crashed
    in every game ("Exec format error ... a script without a #! line?")."""
    if not mounted:
        monkeypatch.setattr(binfmt, "BINFMT_MISC", tmp_path / "not-mounted")
    (tmp_path / "bot.py").write_bytes(b"\xef\xbb\xbf#!/usr/bin/env python3\nprint()\n")
    (tmp_path / "bot.py").chmod(0o755)
    said = _problem(tmp_path, "./bot.py")
    assert said.startswith("cannot run './bot.py': it starts with a byte order mark (UTF-8 BOM"), said
    assert "\n" not in said and "sed -i" in said


@pytest.mark.parametrize("mounted", [True, False])
def test_a_script_without_a_shebang_is_refused(tmp_path, no_binfmt, mounted, monkeypatch):
    """A red team's: a Python script with no #! line passed the check, then crashed in every game."""
    if not mounted:  # formats not seen: a text file is still no program
        monkeypatch.setattr(binfmt, "BINFMT_MISC", tmp_path / "not-mounted")
    (tmp_path / "bot.py").write_text('"""My bot."""\nprint("é")\n')
    (tmp_path / "bot.py").chmod(0o755)
    said = _problem(tmp_path, "./bot.py")
    assert said == (
        "cannot run './bot.py': it is a script without a #! line, so this system cannot start it:"
        " begin it with one (#!/usr/bin/env python3), or run it by its interpreter"
        f" (python3 {tmp_path}/bot.py)"
    )
    (tmp_path / "other").write_bytes(b"echo hi\n")
    (tmp_path / "other").chmod(0o755)
    assert "(#!/usr/bin/env INTERPRETER)" in _problem(tmp_path, "./other")


@pytest.mark.parametrize("mounted", [True, False])
@pytest.mark.parametrize(
    ("content", "link", "said"),
    [
        (b"", False, "it is empty, so this system cannot start it: write the program into it"),
        (
            b"print()\n",
            True,
            "begin it with one (#!/usr/bin/env python3), or run it by its interpreter (python3 ",
        ),
        ('print("café")\n'.encode("latin-1"), False, "it is a script without a #! line, so"),
    ],
    ids=["empty", "link-to-bot.py", "latin-1"],
)
def test_what_a_refusal_says_fits_the_file(tmp_path, no_binfmt, monkeypatch, mounted, content, link, said):
    """A reviewer's three: an empty file was "a script without a #! line"; a link ``bot`` to
    bot.py was told ``#!/usr/bin/env INTERPRETER``; a Latin-1 script (not UTF-8), where
    binfmt_misc is seen, was "built for another?"."""
    if not mounted:
        monkeypatch.setattr(binfmt, "BINFMT_MISC", tmp_path / "not-mounted")
    (tmp_path / "bot.py").write_bytes(content)
    (tmp_path / "bot.py").chmod(0o755)
    if link:
        (tmp_path / "bot").symlink_to("bot.py")
    problem = _problem(tmp_path, "./bot" if link else "./bot.py")
    assert said in problem and "another?" not in problem and "\n" not in problem, problem


def test_what_the_kernel_runs_without_a_shebang_is_not_refused(tmp_path, no_binfmt, monkeypatch):
    """An ELF binary, and a file a binfmt_misc format takes (Mono's .exe by its magic, a jar by its
    extension), run; a binary none takes is refused where the formats are seen, and let be where
    they are not (a container's kernel may have formats its /proc does not show)."""
    (no_binfmt / "CLR").write_text("enabled\ninterpreter /usr/bin/mono\nflags: \noffset 0\nmagic 4d5a\n")
    (no_binfmt / "jar").write_text("enabled\ninterpreter /usr/bin/jexec\nflags: \nextension .jar\n")
    (no_binfmt / "off").write_text("disabled\ninterpreter /bin/x\nflags: \noffset 2\nmagic 0102\nmask ff0f\n")
    files = {
        "elf": b"\x7fELF\x02\x01\x01" + b"\0" * 40,
        "bot.exe": b"MZ\x90\0\x03\0",
        "bot.jar": b"PK\x03\x04\0\0",
        "masked": b"\0\0\x01\x12\0",
    }
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
        (tmp_path / name).chmod(0o755)
    for name in ("elf", "bot.exe", "bot.jar"):
        assert _problem(tmp_path, f"./{name}") == "", name
    refused = "it is neither an ELF binary nor a script with a #! line, and no binfmt_misc format takes it"
    assert refused in _problem(tmp_path, "./masked")  # its format is disabled
    (no_binfmt / "off").write_text("enabled\ninterpreter /bin/x\nflags: \noffset 2\nmagic 0102\nmask ff0f\n")
    assert _problem(tmp_path, "./masked") == ""  # 0x12 & 0x0f == 0x02
    (no_binfmt / "status").write_text("disabled\n")
    assert refused in _problem(tmp_path, "./bot.exe")
    monkeypatch.setattr(binfmt, "BINFMT_MISC", tmp_path / "not-mounted")
    assert _problem(tmp_path, "./bot.exe") == ""
    assert "a script without a #! line" not in _problem(tmp_path, "./elf")


def test_javas_long_options_with_their_value_after_an_equals_sign_are_read_as_split(tmp_path):
    """A reviewer's: ``java --module-path=mods --add-modules=botmod -cp missing.jar bot.Bot`` and
    ``java -cp missing.jar --class-path=bot.jar Bot`` run, and were refused (the = forms were
    skipped, not read as their split forms, which were let through)."""
    (tmp_path / "bot.jar").write_text("")
    env = _stubs(tmp_path)

    def problem(command: str) -> str:
        player = PlayerInfo("p", command=tuple(shlex.split(command)), directory=str(tmp_path), env=env)
        return command_problem(player) or ""

    for command in (
        "java --module-path=mods --add-modules=botmod -cp missing.jar bot.Bot",
        "java -cp missing.jar --class-path=bot.jar Bot",
    ):
        assert problem(command) == "", command
    assert "no file 'missing.jar'" in problem("java --class-path=bot.jar -cp missing.jar Bot")


JAVA_READS = ("JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS")


def test_the_docs_give_java_its_options_by_a_variable_java_reads():
    """A red team's: docs/tournaments.md's example ``env: {JAVA_OPTS: -Xmx48m}`` did nothing (the
    ``java`` launcher does not read ``JAVA_OPTS``: the bot's heap was the machine's 6 GiB)."""
    docs = Path(__file__).parent.parent / "docs"
    examples = [
        (doc.name, name)
        for doc in sorted(docs.glob("**/*.md"))
        for name in re.findall(r"\b([A-Z_]+):\s*-X", doc.read_text())
    ]
    assert examples, "no example left to check"
    assert [(doc, name) for doc, name in examples if name not in JAVA_READS] == []
    java = shutil.which("java")
    if java is None:
        return
    env = {**os.environ, examples[0][1]: "-Xmx48m"}
    flags = subprocess.run(
        [java, "-XX:+PrintFlagsFinal", "-version"], env=env, capture_output=True, text=True, timeout=60
    ).stdout
    assert re.search(r"MaxHeapSize\s+=\s+50331648\b", flags), flags[:2000]


def test_the_referee_finds_a_program_on_a_path_entry_relative_to_its_folder(tmp_path):
    """The referee's own check before it starts a program reads ``PATH`` as ``execvp`` does in the
    program's folder (it looked relative entries up in the referee's folder)."""
    from codecup.errors import ConfigError
    from codecup.players.subprocess import _check_program

    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "mybot").write_bytes(b"#!/bin/sh\necho\n")
    (tmp_path / "bin" / "mybot").chmod(0o755)
    with contextlib.chdir("/"):
        _check_program("mybot", tmp_path, {"PATH": "bin:/usr/bin"})
        with pytest.raises(ConfigError, match="program not found on PATH"):
            _check_program("nobot", tmp_path, {"PATH": "bin:/usr/bin"})
