"""``codecup view DIR``: serve a results site on this machine only (127.0.0.1).

Its help is :data:`DESCRIPTION`.
"""

from __future__ import annotations

import argparse
import errno
import http.server
import io
import posixpath
import re
import socket
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path

from codecup.checks import LOOP, is_loop
from codecup.cli.common import Subparsers, path_arg, port_number
from codecup.errors import ConfigError
from codecup.terminal import one_line, printable, shown_path

DESCRIPTION = """\
``codecup view DIR``: serve a results site on this machine only (127.0.0.1).

The site is static (pages draw their positions in the browser), so opening
``DIR/index.html`` as a file works too; this is for browsers that limit
``file://`` pages, or to look at a remote machine's results through a tunnel.

Only the site's own files are served (pages, scripts, style, standings and
game records); never the results log, the lock file, hidden files, folder
listings, or a file that a symbolic link places outside DIR. Requests whose
``Host`` is not localhost, 127.0.0.1 or [::1] are refused, so a web page
cannot reach the server through a DNS name re-pointed at this machine.

Every connection is bounded: a request must arrive whole within 10 seconds
(however slowly it trickles in), each 64 KiB of an answer must be taken within
10 seconds (a slow reader still gets a large file whole; a stalled one is cut),
and at most 32 connections are served at once. A request that cannot be parsed
is answered 400. A client that drops its connection (a browser cancelling a
load) is normal and is not reported.
"""
"""The command's help: not the module's docstring, which ``python -OO`` drops (a red team's
``codecup sprt --help`` lost its exit statuses there)."""

HOST = "127.0.0.1"
SERVED = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".csv": "text/csv; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}
#: Seconds for a whole request to arrive: 50 half-sent requests held 50 threads for good (a red
#: team's), and a request trickled a byte at a time would pass a timeout per read.
REQUEST_SECONDS = 10.0
#: Seconds for a client to take each part of an answer (the headers, then each SEND_CHUNK).
SEND_SECONDS = 10.0
#: Bytes of an answer sent under one SEND_SECONDS: a bound on one send of a whole 12 MB page cut it
#: at 8.27 MB for a client reading a steady 500 KB/s (a reviewer's).
SEND_CHUNK = 64 * 1024
#: Connections served at once; one more is answered 503 and closed (each holds a thread).
MAX_CONNECTIONS = 32
MAX_SAID = 300  # characters of a failed request's error said on stderr
_HOST_RE = re.compile(r"^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$", re.IGNORECASE)


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    parser = subparsers.add_parser("view", help="serve a results site on 127.0.0.1", description=DESCRIPTION)
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
    outside ``root`` are refused, and so is a file named as a folder (a trailing
    ``/``, ``/.`` or ``/..``).
    """
    try:  # a path not UTF-8 once unquoted, or an IPv6 bracket never closed ("//[x/")
        path = urllib.parse.unquote(urllib.parse.urlsplit(url_path).path, errors="strict")
    except ValueError:
        return None
    if "\x00" in path or "\\" in path:
        return None
    # normpath drops a trailing "/" or "/.": /index.html/ was served, and its page's relative links
    # then resolved under the file's name, all broken (a red team's)
    as_folder = path.endswith("/") or path.rsplit("/", 1)[-1] in (".", "..")
    parts = [p for p in posixpath.normpath("/" + path).split("/") if p]
    if any(p.startswith(".") for p in parts):
        return None
    candidate = root.joinpath(*parts)
    try:  # is_dir too: it raises for a name too long (a red team's 300-letter path was a traceback)
        if candidate.is_dir():
            candidate = candidate / "index.html"
        elif as_folder:
            return None
        real = candidate.resolve(strict=True)
        if not real.is_relative_to(root) or not real.is_file():
            return None
    except (OSError, RuntimeError):
        return None
    if real.suffix not in SERVED or real.name.startswith("."):
        return None
    return real


class DeadlineReader(io.RawIOBase):
    """A socket's reads that all end by one deadline, however the data trickles in.

    A timeout per read alone lets a client that sends a byte now and then hold its
    thread for good (slow loris); past the deadline a read raises :class:`TimeoutError`.
    """

    def __init__(self, sock: socket.socket, seconds: float, clock: Callable[[], float] = time.monotonic):
        self._sock = sock
        self._clock = clock
        self._deadline = clock() + seconds

    def readable(self) -> bool:
        """Always: it is read from."""
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        """Receive into ``buffer`` what arrives before the deadline (0 at the end of the stream)."""
        left = self._deadline - self._clock()
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        self._sock.settimeout(left)
        return self._sock.recv_into(buffer)


class BoundedWriter(io.BufferedIOBase):
    """Unbuffered writes to a socket, each ``chunk`` bytes of them taken by the client within
    ``seconds``: a client that keeps reading gets all, one that stops is cut."""

    def __init__(self, sock: socket.socket, seconds: float, chunk: int = SEND_CHUNK):
        self._sock = sock
        self._seconds = seconds
        self._chunk = chunk

    def writable(self) -> bool:
        """Always: it is written to."""
        return True

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        """Send all of ``data``, a chunk at a time, each within the timeout."""
        with memoryview(data) as view, view.cast("B") as octets:
            for start in range(0, len(octets), self._chunk):
                self._sock.settimeout(self._seconds)  # the reads may have left less than that
                self._sock.sendall(octets[start : start + self._chunk])
            return octets.nbytes


class SiteHandler(http.server.BaseHTTPRequestHandler):
    """GET and HEAD of the site's own files; nothing else."""

    root: Path  # set on a subclass per server
    server_version = "codecup-view"
    sys_version = ""
    request_seconds = REQUEST_SECONDS
    send_seconds = SEND_SECONDS

    def setup(self) -> None:
        """Bound every read by one deadline and every write by its own timeout."""
        super().setup()
        self.rfile.close()
        self.rfile = io.BufferedReader(DeadlineReader(self.connection, self.request_seconds))
        self.wfile = BoundedWriter(self.connection, self.send_seconds)

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

    def _addressed_here(self, target: urllib.parse.SplitResult) -> bool:
        """One ``Host`` header, naming the loopback; and a request target that is a path, or an
        absolute URL of the loopback (two Host headers, or ``GET http://evil.example/``, were
        served when the first named it)."""
        hosts = self.headers.get_all("Host") or []
        if len(hosts) != 1 or not host_allowed(hosts[0]):
            return False
        if self.path.startswith("/"):
            return True
        return target.scheme in ("http", "https") and host_allowed(target.netloc)

    def _serve(self, with_body: bool) -> None:
        try:
            target = urllib.parse.urlsplit(self.path)
        except ValueError:
            # "http://[x/" (an IPv6 bracket never closed) got no answer, and each such request a
            # line on the organiser's terminal (a reviewer's): a target not parsed is a bad request
            self._refuse(HTTPStatus.BAD_REQUEST)
            return
        if not self._addressed_here(target):
            self._refuse(HTTPStatus.MISDIRECTED_REQUEST)
            return
        path = site_file(self.root, self.path)
        if path is None:
            self._refuse(HTTPStatus.NOT_FOUND)
            return
        if path.name == "index.html" and not target.path.endswith(("/", "/index.html")):
            # A folder named without its slash: its page's links would resolve from its parent
            # (a newcomer's /pillars: every game's link was a 404). Sent to the folder, as servers do.
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            # One slash first: never //host, another site. No path at all (http://localhost) is the
            # root: it was sent to "//" (a reviewer's).
            folder = "/" + target.path.strip("/") + "/" if target.path.strip("/") else "/"
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


class SiteServer(http.server.ThreadingHTTPServer):
    """A thread per connection, at most ``max_connections`` at once; quiet about dropped clients.

    socketserver printed a 20-line traceback on the organiser's terminal for every connection a
    browser reset while it was answered (a red team's): a client gone or too slow is normal and
    not reported; any other failure is one line.
    """

    def __init__(self, address: tuple[str, int], handler: type[SiteHandler], max_connections: int):
        self._slots = threading.BoundedSemaphore(max_connections)
        super().__init__(address, handler)

    def process_request(self, request: socket.socket, client_address: tuple[str, int]) -> None:  # type: ignore[override]
        """Serve the connection in a thread of its own, or refuse it when all are taken."""
        if not self._slots.acquire(blocking=False):
            try:  # never waits: a short answer into an empty socket buffer, or nothing
                request.setblocking(False)
                request.send(b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: socket.socket, client_address: tuple[str, int]) -> None:  # type: ignore[override]
        """Serve the connection, then free its slot."""
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def handle_error(self, request: object, client_address: object) -> None:
        """Say nothing of a client gone or too slow; one line of anything else, never a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError | TimeoutError):
            return
        # A request's own bytes can be in the error's text: shown as the terminal shows a bot's.
        said = printable(one_line(f"{type(error).__name__}: {error}", MAX_SAID))
        print(f"codecup view: a request failed: {said}", file=sys.stderr, flush=True)


def make_server(directory: Path, port: int, *, max_connections: int = MAX_CONNECTIONS) -> SiteServer:
    """A server of ``directory``'s site bound to the loopback address only."""
    if is_loop(directory):
        raise ConfigError(f"{directory} leads into {LOOP} (give a tournament's or the demo's --out folder)")
    if not directory.exists():  # "has no index.html" sent a user looking in a folder that is not there
        raise ConfigError(f"{directory} does not exist (give a tournament's or the demo's --out folder)")
    if not directory.is_dir():
        raise ConfigError(f"{directory} is not a folder (give a tournament's or the demo's --out folder)")
    if is_loop(
        directory / "index.html"
    ):  # "has no index.html" sent the user looking for a file that is there
        raise ConfigError(f"{directory}: its index.html leads into {LOOP}")
    if not (directory / "index.html").is_file():
        raise ConfigError(f"{directory} has no index.html (is it a tournament's --out folder?)")
    handler = type("Handler", (SiteHandler,), {"root": directory.resolve()})
    try:
        return SiteServer((HOST, port), handler, max_connections)
    except OverflowError:
        raise ConfigError(f"--port {port}: not a port number") from None
    except OSError as exc:
        busy = " (--port 0 picks a free one)" if exc.errno == errno.EADDRINUSE and port else ""
        raise ConfigError(f"cannot listen on {HOST}:{port}: {exc.strerror}{busy}") from None


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    server = make_server(args.dir, args.port)
    port = server.server_address[1]
    # The folder's name as the terminal shows any text it did not choose: an ESC or a newline in it
    # reached the organiser's terminal raw (a red team's).
    print(f"serving {shown_path(args.dir)} at http://{HOST}:{port}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
