"""``codecup.shebang``: a ``#!`` line read as the Linux kernel reads it, checked against the kernel
itself (``/bin/echo`` as the interpreter prints the argument it was given, then the script)."""

from __future__ import annotations

import subprocess

import pytest

from codecup import shebang
from codecup.shebang import Shebang

ECHO = b"#!/bin/echo"

SHAPES = [
    ECHO + b"\n",
    ECHO + b" one\n",
    ECHO + b" \t one  two \t\n",  # one argument, inner blanks kept, outer ones cut
    ECHO + b"\tone\ttwo\n",
    ECHO + b" one \x00 two\n",  # up to the NUL, the blank before it kept
    ECHO + b" one ",  # no newline in a short file: the line ends at the buffer's end
    ECHO + b" one\x0btwo\x0c\n",  # vertical tab and form feed are no blanks
    ECHO + b" one\r\n",  # nor is a carriage return
    ECHO + b" " + b"x" * 240 + b"yz",  # no newline in 256 bytes: byte 255 is dropped
    ECHO + b" " + b"x" * 250 + b"\n",  # a newline past byte 255: the same
    b"#!  " + ECHO[2:] + b"  one\n",  # blanks before the interpreter
]


@pytest.mark.parametrize("head", SHAPES)
def test_the_line_is_read_as_the_kernel_reads_it(head, tmp_path):
    script = tmp_path / "s"
    script.write_bytes(head)
    script.chmod(0o755)
    ran = subprocess.run([str(script)], capture_output=True, check=True, timeout=60)
    line = shebang.read(head)
    assert line is not None and line.interpreter == "/bin/echo"
    printed = ran.stdout.rstrip(b"\n")
    expected = b"" if line.argument is None else line.argument.encode("utf-8", "surrogateescape") + b" "
    assert printed == expected + str(script).encode()


@pytest.mark.parametrize(
    ("head", "read"),
    [
        (b"#!/usr/bin/env python3 -u\n", Shebang("/usr/bin/env", "python3 -u")),
        (b"#!/usr/bin/env\n", Shebang("/usr/bin/env", None)),
        (b"#!/usr/bin/env sh \x00\n", Shebang("/usr/bin/env", "sh ")),
        (b"#!/bin/sh\x00junk\n", Shebang("/bin/sh", None)),
        (b"#!py\xf6\n", Shebang("py\udcf6", None)),  # the file system's bytes
        (b"#!\n", None),  # no interpreter
        (b"#!" + b" " * 300, None),  # blanks only
        (b"#!/" + b"x" * 300, None),  # its path cut by the buffer's end
        (b"no #! line\n", None),
    ],
)
def test_what_the_kernel_runs(head, read):
    assert shebang.read(head) == read
