"""``codecup view DIR``: serve a results site on this machine only (127.0.0.1).

The site is static (pages draw their positions in the browser), so opening
``DIR/index.html`` as a file works too; this is for browsers that limit
``file://`` pages, or to look at a remote machine's results through a tunnel.

Only the site's own files are served (pages, scripts, style, standings and
game records); never the results log, the lock file, hidden files, folder
listings, or a file that a symbolic link places outside DIR. Requests whose
``Host`` is not localhost, 127.0.0.1 or [::1] are refused, so a web page
cannot reach the server through a DNS name re-pointed at this machine.
"""

from __future__ import annotations

import argparse
import http.server
import posixpath
import re
import urllib.parse
from http import HTTPStatus
from pathlib import Path

from codecup.cli.common import Subparsers, path_arg, port_number
from codecup.errors import ConfigError

HOST = "127.0.0.1"
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")
SERVED = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".csv": "text/csv; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}
_HOST_RE = re.compile(r"^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$", re.IGNORECASE)


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    parser = subparsers.add_parser("view", help="serve a results site on 127.0.0.1", description=__doc__)
    parser.add_argument(
        "dir", type=path_arg, metavar="DIR", help="a tournament's or the demo's output folder"
    )
    parser.add_argument(
        "--port", type=port_number, default=8000, help="port (default 8000; 0 picks a free one)"
    )
    return parser


def host_allowed(host: str | None) -> bool:
    """True for a ``Host`` header naming this machine's loopback (with or without a port)."""
    return bool(host) and _HOST_RE.match(host.strip()) is not None  # type: ignore[union-attr]


def site_file(root: Path, url_path: str) -> Path | None:
    """The file ``url_path`` names inside ``root`` if it may be served, else None.

    ``root`` must be resolved. A folder stands for its ``index.html`` (never a
    listing); hidden names, unknown suffixes and anything whose real path lies
    outside ``root`` are refused.
    """
    path = urllib.parse.unquote(urllib.parse.urlsplit(url_path).path, errors="strict")
    if "\x00" in path or "\\" in path:
        return None
    parts = [p for p in posixpath.normpath("/" + path).split("/") if p]
    if any(p.startswith(".") for p in parts):
        return None
    candidate = root.joinpath(*parts)
    try:  # is_dir too: it raises for a name too long (a red team's 300-letter path was a traceback)
        if candidate.is_dir():
            candidate = candidate / "index.html"
        real = candidate.resolve(strict=True)
        if not real.is_relative_to(root) or not real.is_file():
            return None
    except (OSError, RuntimeError):
        return None
    if real.suffix not in SERVED or real.name.startswith("."):
        return None
    return real


class SiteHandler(http.server.BaseHTTPRequestHandler):
    """GET and HEAD of the site's own files; nothing else."""

    root: Path  # set on a subclass per server
    server_version = "codecup-view"
    sys_version = ""

    def log_message(self, format: str, *args: object) -> None:  # one line per request is noise here
        pass

    def _refuse(self, status: HTTPStatus) -> None:
        body = f"{status.value} {status.phrase}\n".encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _addressed_here(self) -> bool:
        """One ``Host`` header, naming the loopback; and a request target that is a path, or an
        absolute URL of the loopback (two Host headers, or ``GET http://evil.example/``, were
        served when the first named it)."""
        hosts = self.headers.get_all("Host") or []
        if len(hosts) != 1 or not host_allowed(hosts[0]):
            return False
        if self.path.startswith("/"):
            return True
        target = urllib.parse.urlsplit(self.path)
        return target.scheme in ("http", "https") and host_allowed(target.netloc)

    def _serve(self, with_body: bool) -> None:
        if not self._addressed_here():
            self._refuse(HTTPStatus.MISDIRECTED_REQUEST)
            return
        try:
            path = site_file(self.root, self.path)
        except UnicodeDecodeError:
            path = None
        if path is None:
            self._refuse(HTTPStatus.NOT_FOUND)
            return
        target = urllib.parse.urlsplit(self.path)
        if path.name == "index.html" and not target.path.endswith(("/", "/index.html")):
            # A folder named without its slash: its page's links would resolve from its parent
            # (a newcomer's /pillars: every game's link was a 404). Sent to the folder, as servers do.
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            folder = "/" + target.path.lstrip("/") + "/"  # one slash first: never //host, another site
            self.send_header("Location", folder + (f"?{target.query}" if target.query else ""))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        try:
            data = path.read_bytes()
        except OSError:
            self._refuse(HTTPStatus.NOT_FOUND)
            return
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", SERVED[path.suffix])
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")  # a live site changes under the reader
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if with_body:
            self.wfile.write(data)

    def do_GET(self) -> None:
        """Serve a file."""
        self._serve(True)

    def do_HEAD(self) -> None:
        """Serve a file's headers."""
        self._serve(False)


def make_server(directory: Path, port: int) -> http.server.ThreadingHTTPServer:
    """A server of ``directory``'s site bound to the loopback address only."""
    if not (directory / "index.html").is_file():
        raise ConfigError(f"{directory} has no index.html (is it a tournament's --out folder?)")
    handler = type("Handler", (SiteHandler,), {"root": directory.resolve()})
    try:
        return http.server.ThreadingHTTPServer((HOST, port), handler)
    except OverflowError:
        raise ConfigError(f"--port {port}: not a port number") from None
    except OSError as exc:
        raise ConfigError(f"cannot listen on {HOST}:{port}: {exc.strerror}") from None


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    server = make_server(args.dir, args.port)
    port = server.server_address[1]
    print(f"serving {args.dir} at http://{HOST}:{port}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
