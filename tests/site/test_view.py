"""``codecup view`` serves the site's own files to this machine only: one test per attack."""

from __future__ import annotations

import http.client
import os
import socket
import struct
import threading
import time
from pathlib import Path

import pytest

from codecup.cli import view
from codecup.cli.view import BoundedWriter, DeadlineReader, host_allowed, make_server, site_file
from codecup.errors import ConfigError


@pytest.fixture
def server(tmp_path):
    """A small results folder and a running server of it: yields (folder, server)."""
    site = tmp_path / "results"
    (site / "view").mkdir(parents=True)
    (site / "games").mkdir()
    (site / "index.html").write_text("<h1>index</h1>")
    (site / "style.css").write_text("body{}")
    (site / "view" / "g1.html").write_text("<p>game</p>")
    (site / "games" / "g1.json").write_text("{}")
    (site / "results.jsonl").write_text('{"id": "secret"}\n')
    (site / ".lock").write_text("")
    (tmp_path / "outside.html").write_text("outside")
    os.symlink("/etc/passwd", site / "passwd.txt")
    os.symlink(tmp_path / "outside.html", site / "escape.html")
    os.symlink(tmp_path, site / "up")
    os.symlink(site / "style.css", site / "inside.css")  # a link that stays inside is fine
    server = make_server(site, 0)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield site, server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.fixture
def served(server):
    """The same, as (folder, port)."""
    site, running = server
    return site, running.server_address[1]


def get(port: int, path: str, host: str | None = None, method: str = "GET") -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True)
        conn.putheader("Host", host if host is not None else f"127.0.0.1:{port}")
        conn.endheaders()
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_serves_the_site_pages(served):
    _, port = served
    assert get(port, "/") == (200, b"<h1>index</h1>")
    assert get(port, "/index.html") == (200, b"<h1>index</h1>")
    assert get(port, "/view/g1.html?x=1") == (200, b"<p>game</p>")
    assert get(port, "/games/g1.json")[0] == 200
    assert get(port, "/inside.css") == (200, b"body{}")
    status, body = get(port, "/style.css", method="HEAD")
    assert (status, body) == (200, b"")


def test_a_symlink_to_etc_passwd_is_not_served(served):
    _, port = served
    status, body = get(port, "/passwd.txt")
    assert status == 404 and b"root:" not in body
    assert get(port, "/escape.html")[0] == 404
    assert get(port, "/up/outside.html")[0] == 404


def test_no_folder_listings(served):
    _, port = served
    status, body = get(port, "/view/")
    assert status == 404 and b"g1.html" not in body
    assert get(port, "/games")[0] == 404


def test_a_name_too_long_for_the_file_system_is_not_found(served, capsys):
    """A red team's 300-letter path closed the connection with no answer, and the server printed
    a traceback (ENAMETOOLONG from is_dir)."""
    _, port = served
    for path in ("/" + "a" * 300, "/view/" + "b" * 5000 + ".html"):
        assert get(port, path)[0] == 404
    assert "Traceback" not in capsys.readouterr().err


def test_the_results_log_and_lock_file_are_not_served(served):
    _, port = served
    for path in ("/results.jsonl", "/.lock", "/%2elock", "/view/../results.jsonl", "/view/%2e%2e/.lock"):
        status, body = get(port, path)
        assert status == 404, path
        assert b"secret" not in body


def test_dot_dot_cannot_climb_out(served):
    _, port = served
    for path in ("/../outside.html", "/%2e%2e/outside.html", "/view/../../outside.html", "//etc/passwd"):
        status, body = get(port, path)
        assert status == 404, path
        assert b"outside" not in body and b"root:" not in body


def test_a_foreign_host_header_is_refused(served):
    _, port = served
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example", "localhost.evil", ""):
        status, body = get(port, "/index.html", host=host)
        assert status == 421, host
        assert b"index" not in body
    for host in ("localhost", f"localhost:{port}", "127.0.0.1", f"[::1]:{port}", "LOCALHOST"):
        assert get(port, "/index.html", host=host)[0] == 200, host


def raw_head(port: int, request: bytes) -> str:
    """The status line and headers of the answer to ``request``, sent as it is."""
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = conn.recv(1024)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n\r\n", 1)[0].decode("latin-1")


def raw_status(port: int, request: bytes) -> int:
    """The status line's code of the answer to ``request``, sent as it is."""
    return int(raw_head(port, request).split(" ", 2)[1])


def test_a_second_host_header_or_a_foreign_absolute_url_is_refused(served):
    """Both were served when the first Host header named the loopback."""
    _, port = served
    two_hosts = (
        b"GET /index.html HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
    )
    assert raw_status(port, two_hosts) == 421
    absolute = b"GET http://evil.example/index.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    assert raw_status(port, absolute) == 421
    here = b"GET http://localhost/index.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    assert raw_status(port, here) == 200


def test_host_allowed():
    assert host_allowed("localhost:8000") and host_allowed("[::1]") and host_allowed("127.0.0.1:1")
    assert not host_allowed(None) and not host_allowed("127.0.0.2") and not host_allowed("::1")


def test_view_binds_loopback_and_needs_a_site(tmp_path):
    with pytest.raises(ConfigError, match=r"no index\.html"):
        make_server(tmp_path, 0)
    (tmp_path / "index.html").write_text("x")
    server = make_server(Path(tmp_path), 0)
    try:
        assert server.server_address[0] == "127.0.0.1"
    finally:
        server.server_close()


def test_a_folder_that_is_not_there_or_a_busy_port_is_said_so(tmp_path):
    """A red team's: `codecup view nothere` said "has no index.html", and a busy port gave no hint."""
    with pytest.raises(ConfigError, match=r"nothere does not exist \(give a tournament's"):
        make_server(tmp_path / "nothere", 0)
    (tmp_path / "file").write_text("")
    with pytest.raises(ConfigError, match=r"file is not a folder"):
        make_server(tmp_path / "file", 0)
    (tmp_path / "index.html").write_text("x")
    server = make_server(tmp_path, 0)
    try:
        port = server.server_address[1]
        with pytest.raises(
            ConfigError, match=rf"cannot listen on 127\.0\.0\.1:{port}: .*\(--port 0 picks a free one\)$"
        ):
            make_server(tmp_path, port)
    finally:
        server.server_close()


def test_a_folder_named_without_its_slash_is_sent_to_the_folder(served):
    """``/pillars`` was served as ``/pillars/index.html``, and its page's relative links resolved
    from ``/``: every game's link was a 404 (a newcomer's). It is redirected, as servers do."""
    site, port = served
    (site / "pillars").mkdir()
    (site / "pillars" / "index.html").write_text("<a href='view/g.html'>g</a>")
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/pillars?x=1", headers={"Host": f"127.0.0.1:{port}"})
        response = conn.getresponse()
        response.read()
    finally:
        conn.close()
    assert response.status == 301 and response.getheader("Location") == "/pillars/?x=1"
    assert get(port, "/pillars/")[0] == 200 and get(port, "/pillars/index.html")[0] == 200


def test_the_redirect_to_a_folder_stays_on_this_site(served):
    """An absolute-form request for ``//evil.example/..`` was sent to ``//evil.example/../``, which a
    client reads as another host (a reviewer's)."""
    site, port = served
    (site / "pillars").mkdir()
    (site / "pillars" / "index.html").write_text("p")
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", f"http://127.0.0.1:{port}//pillars", headers={"Host": f"127.0.0.1:{port}"})
        response = conn.getresponse()
        response.read()
    finally:
        conn.close()
    assert response.status == 301 and response.getheader("Location") == "/pillars/"


def test_a_file_named_as_a_folder_is_not_found(served):
    """``/index.html/`` and ``/standings.txt/.`` were served, and the page's relative links then
    resolved under the file's name: all broken (a red team's)."""
    site, port = served
    for path in ("/index.html/", "/style.css/.", "/view/g1.html/", "/view/g1.html/./", "/style.css%2f"):
        assert get(port, path)[0] == 404, path
    assert site_file(site.resolve(), "/view/g1.html/.") is None
    assert site_file(site.resolve(), "/view/g1.html/..") is None  # /view: a folder without a page
    assert site_file(site.resolve(), "/") == site.resolve() / "index.html"
    assert site_file(site.resolve(), "/view/g1.html") == site.resolve() / "view" / "g1.html"


def test_a_client_that_drops_its_connection_is_not_reported(served, capsys):
    """A browser cancelling a load reset the connection, and the viewer printed a 20-line
    traceback (ConnectionResetError from socketserver) on the organiser's terminal (a red team's)."""
    _, port = served
    for _ in range(5):
        conn = socket.create_connection(("127.0.0.1", port), timeout=10)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # RST on close
        conn.sendall(b"GET /index.html HTTP/1.1\r\nHost: localhost\r\n\r\n")
        conn.close()
    assert get(port, "/index.html")[0] == 200  # and it still serves
    time.sleep(0.2)  # the reset connections' threads have ended by now
    assert capsys.readouterr().err == ""


def test_a_failed_request_is_one_line_and_a_gone_client_none(server, capsys):
    _, running = server
    for error in (ConnectionResetError(104, "reset"), BrokenPipeError(32, "pipe"), TimeoutError("slow")):
        try:
            raise error
        except OSError:
            running.handle_error(None, ("127.0.0.1", 1))
    assert capsys.readouterr().err == ""
    try:
        raise ValueError("odd")
    except ValueError:
        running.handle_error(None, ("127.0.0.1", 1))
    assert capsys.readouterr().err == "codecup view: a request failed: ValueError: odd\n"


def closed_within(conn: socket.socket, seconds: float) -> bool:
    """True if the server closes ``conn`` (with or without an answer) within ``seconds``."""
    conn.settimeout(seconds)
    try:
        while conn.recv(1024):
            pass
    except TimeoutError:
        return False
    except ConnectionError:
        pass
    return True


def test_a_half_sent_request_is_dropped_in_time(server):
    """50 connections that sent ``GET / HTTP/1.1`` and stopped held 50 threads for good (a red
    team's); a request trickled a byte at a time would pass a timeout per read too."""
    _, running = server
    running.RequestHandlerClass.request_seconds = 0.3  # type: ignore[attr-defined]
    port = running.server_address[1]
    # Its 0.3 s, and a hang guard past it: closed at all is the point, the waits end when it is.
    with socket.create_connection(("127.0.0.1", port), timeout=10) as idle:
        idle.sendall(b"GET / HTTP/1.1\r\n")
        assert closed_within(idle, 60.0)
    request = b"GET / HTTP/1.1\r\nX-Slow: " + b"a" * 200
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as trickle:
        try:
            for byte in request:
                trickle.sendall(bytes([byte]))
                sent += 1
                time.sleep(0.02)  # at least: a loaded machine slows the trickle as it does the server
        except ConnectionError:  # closed while it trickled: the point
            pass
        # Closed before the trickle ended (4 s of it at the least; 0.3 s at a time per read would have
        # let it through), counted in bytes: a wall-clock bound (4 s) failed a loaded machine's run.
        assert closed_within(trickle, 60.0) and sent < len(request), sent


def test_reads_end_by_one_deadline():
    """Each read waits at most what is left of the request's time, so trickled data cannot extend it."""
    ticks = iter([0.0, 0.4, 0.9, 1.0])
    mine, theirs = socket.socketpair()
    with mine, theirs:
        reader = DeadlineReader(mine, 1.0, clock=lambda: next(ticks))
        theirs.sendall(b"ab")
        buffer = bytearray(1)
        assert reader.readinto(buffer) == 1 and mine.gettimeout() == pytest.approx(0.6)
        assert reader.readinto(buffer) == 1 and mine.gettimeout() == pytest.approx(0.1)
        theirs.sendall(b"c")  # there is data, but the time is up
        with pytest.raises(TimeoutError):
            reader.readinto(buffer)


def test_connections_past_the_cap_are_refused_not_queued(tmp_path):
    (tmp_path / "index.html").write_text("i")
    running = make_server(tmp_path, 0, max_connections=2)
    running.RequestHandlerClass.request_seconds = 30.0  # type: ignore[attr-defined]
    thread = threading.Thread(target=running.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    port = running.server_address[1]
    try:
        held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(2)]
        for conn in held:
            conn.sendall(b"GET / HTTP/1.1\r\n")
        with socket.create_connection(("127.0.0.1", port), timeout=10) as extra:
            extra.sendall(b"GET / HTTP/1.0\r\nHost: localhost\r\n\r\n")
            answer = extra.recv(1024)
            assert answer.startswith(b"HTTP/1.0 503 ")
        for conn in held:
            conn.close()
        deadline = time.monotonic() + 5
        while get(port, "/")[0] != 200:  # the slots come back as the held connections end
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        running.shutdown()
        running.server_close()
        thread.join(5)


@pytest.mark.parametrize("target", [b"http://[x/", b"//[x/", b"http://[::1/index.html", b"/%ff%fe"])
def test_a_target_that_cannot_be_parsed_is_answered_400_and_not_reported(served, capsys, target):
    """``GET http://[x/`` got no answer, and each a line on the organiser's terminal (a reviewer's)."""
    site, port = served
    request = b"GET " + target + b" HTTP/1.0\r\nHost: localhost\r\n\r\n"
    assert raw_status(port, request) in (400, 404)
    assert raw_status(port, b"GET http://[x/ HTTP/1.0\r\nHost: localhost\r\n\r\n") == 400
    assert site_file(site.resolve(), "//[x/") is None
    time.sleep(0.1)  # the handler threads have ended by now
    assert capsys.readouterr().err == ""


class _RecordingSocket:
    """A socket's sends as a list: each send's size and the timeout it was given."""

    def __init__(self) -> None:
        self.timeout: float | None = None
        self.sends: list[tuple[int, float | None]] = []

    def settimeout(self, seconds: float | None) -> None:
        self.timeout = seconds

    def sendall(self, data: bytes) -> None:
        self.sends.append((len(data), self.timeout))
        self.timeout = None  # the next send must be given its own time


def test_each_chunk_of_an_answer_has_its_own_time():
    """One bound on a single send of a 12 MB page cut it at 8.27 MB for a client reading a steady
    500 KB/s (a reviewer's): each chunk gets the whole time, so a slow reader gets the file."""
    sock = _RecordingSocket()
    writer = BoundedWriter(sock, 10.0)  # type: ignore[arg-type]
    data = bytes(3 * view.SEND_CHUNK + 5)
    assert writer.write(data) == len(data)
    assert sock.sends == [(view.SEND_CHUNK, 10.0)] * 3 + [(5, 10.0)]
    assert writer.write(memoryview(b"ab")) == 2 and sock.sends[-1] == (2, 10.0)


def test_the_help_says_the_bounds_in_words():
    """The help text (:data:`~codecup.cli.view.DESCRIPTION`) gives the numbers the code uses."""
    doc = " ".join(view.DESCRIPTION.split())
    assert f"within {view.REQUEST_SECONDS:g} seconds" in doc
    assert (
        f"each {view.SEND_CHUNK // 1024} KiB of an answer must be taken within {view.SEND_SECONDS:g} seconds"
        in doc
    )
    assert f"at most {view.MAX_CONNECTIONS} connections" in doc


def test_a_target_with_no_path_is_sent_to_the_root(served):
    """``GET http://localhost HTTP/1.0``, a target of a host and no path, was sent to ``//``, a
    broken redirect (a reviewer's)."""
    _, port = served
    head = raw_head(port, f"GET http://127.0.0.1:{port} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    assert head.split(" ", 2)[1] == "301", head
    assert "\r\nLocation: /\r\n" in head + "\r\n", head


def test_the_folder_and_a_failed_requests_error_are_printed_escaped(tmp_path, capsys, monkeypatch):
    """The folder's name reached the terminal raw: an ESC in it could retitle or rewrite the
    organiser's terminal, a newline start a line of its own (a red team's); a byte that is not
    UTF-8 (a lone surrogate in Python) reached it raw too (a reviewer's)."""
    import argparse

    site = tmp_path / "a\x1b]0;owned\x07\nb\udcff"
    site.mkdir()
    (site / "index.html").write_text("<h1>index</h1>")

    def stopped() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(view.SiteServer, "serve_forever", lambda self, *a: stopped())
    assert view.run(argparse.Namespace(dir=site, port=0)) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and out.count("\n") == 1
    assert "a\\x1b]0;owned\\x07\\x0ab\\udcff" in out
    server = make_server(site, 0)
    try:
        try:
            raise ValueError("odd\x1b[2J\nline")
        except ValueError:
            server.handle_error(None, ("127.0.0.1", 1))
    finally:
        server.server_close()
    assert capsys.readouterr().err == "codecup view: a request failed: ValueError: odd\\x1b[2J line\n"
