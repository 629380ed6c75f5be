"""``codecup view DIR``: serve a results folder on this machine only (127.0.0.1).

The site is static (every position is drawn into the pages), so opening
``DIR/index.html`` as a file works too; this is for browsers that limit
``file://`` pages, or to look at a remote machine's results through a tunnel.
"""

from __future__ import annotations

import argparse
import functools
import http.server
from pathlib import Path

from codecup.cli.common import port_number
from codecup.errors import ConfigError

HOST = "127.0.0.1"


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    parser = subparsers.add_parser("view", help="serve a results site on 127.0.0.1", description=__doc__)
    parser.add_argument("dir", type=Path, metavar="DIR", help="a tournament's or the demo's output folder")
    parser.add_argument(
        "--port", type=port_number, default=8000, help="port (default 8000; 0 picks a free one)"
    )
    return parser


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:  # one line per request is noise here
        pass


def make_server(directory: Path, port: int) -> http.server.ThreadingHTTPServer:
    """A server of ``directory`` bound to the loopback address only."""
    if not (directory / "index.html").is_file():
        raise ConfigError(f"{directory} has no index.html (is it a tournament's --out folder?)")
    handler = functools.partial(_QuietHandler, directory=str(directory))
    try:
        return http.server.ThreadingHTTPServer((HOST, port), handler)
    except OSError as exc:
        raise ConfigError(f"cannot listen on {HOST}:{port}: {exc.strerror}") from None


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    server = make_server(args.dir, args.port)
    host, port = server.server_address[:2]
    print(f"serving {args.dir} at http://{host}:{port}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
