"""A request body sent chunked (Transfer-Encoding: chunked, no Content-Length) is refused with 411
Length Required, never read as empty (issue 44). Under WSGI (gunicorn, runserver) Django reads
exactly CONTENT_LENGTH bytes of a body, 0 when there is none: a game server's chunked limit check
was answered as if it had sent nothing ("player: This field is required"), and a chunked round as an
empty body.

Sent over a socket to real servers, as an HTTP client that streams its body sends it: Django's live
server (a WSGI server on loopback, the test database behind it), and gunicorn serving config.wsgi as
deployed (README "Production settings"), which reads a chunked body itself and hands it on without
a length.
"""

import http.client
import json
import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from accounts.services import token_create
from tests.api_support import make_player, make_table, user
from tests.benchmarks.support import free_port, wait_for_port

BODY = json.dumps({"player": "P1001", "table": "DLX1", "kind": "main", "amount": "10.00"}).encode()


def send(base_url: str, path: str, body: bytes, *, chunked: bool, headers: dict) -> tuple[int, dict, bytes]:
    """POST `body` over a socket: with its Content-Length, or chunked (two chunks and the last, empty
    one), the whole request written at once so that a server answering before it reads the body
    does not cut the client off mid-request."""
    address = urlsplit(base_url)
    lines = [f"POST {path} HTTP/1.1", f"Host: {address.hostname}:{address.port}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if chunked:
        lines.append("Transfer-Encoding: chunked")
        halves = [body[:20], body[20:]]
        payload = b"".join(b"%x\r\n%s\r\n" % (len(half), half) for half in halves if half) + b"0\r\n\r\n"
    else:
        lines.append(f"Content-Length: {len(body)}")
        payload = body
    with socket.create_connection((address.hostname, address.port), timeout=30) as connection:
        connection.sendall("\r\n".join(lines).encode() + b"\r\n\r\n" + payload)
        response = http.client.HTTPResponse(connection)
        response.begin()
        return response.status, dict(response.getheaders()), response.read()


@pytest.fixture
def game_server_headers(transactional_db):
    make_table("DLX1", limits={"main": ("5.00", "500.00")})
    make_player("P1001")
    key = token_create(user=user("game_server"))[1]
    return {"Authorization": f"Token {key}", "Content-Type": "application/json"}


def test_a_chunked_api_body_is_411_naming_content_length(live_server, game_server_headers):
    status, headers, body = send(
        live_server.url, "/api/limits/check", BODY, chunked=True, headers=game_server_headers
    )
    assert status == 411, body[:300]
    assert headers["Content-Type"] == "application/json"
    # The refusal comes after the security and no-store middleware, so it carries their headers.
    assert "no-store" in headers["Cache-Control"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "Content-Length" in json.loads(body)["detail"]


def test_the_same_body_with_its_length_is_read(live_server, game_server_headers):
    status, _, body = send(
        live_server.url, "/api/limits/check", BODY, chunked=False, headers=game_server_headers
    )
    assert status == 200, body[:300]
    assert json.loads(body)["allowed"] is True


def test_a_chunked_form_post_is_411_too(live_server, transactional_db):
    form = b"username=someone&password=secret"
    status, headers, body = send(
        live_server.url,
        "/accounts/login/",
        form,
        chunked=True,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert status == 411, body[:300]
    assert headers["Content-Type"].startswith("text/plain")
    assert b"Content-Length" in body


@pytest.fixture(scope="module")
def gunicorn_url():
    """gunicorn serving config.wsgi on loopback, DEBUG off. The requests below are answered before
    any query, so it needs no database of the test's."""
    port = free_port()
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    command = [
        str(Path(sys.executable).parent / "gunicorn"),
        "config.wsgi",
        "-w",
        "1",
        "-b",
        f"127.0.0.1:{port}",
    ]
    server = subprocess.Popen(command, env=environment, cwd=Path(__file__).resolve().parent.parent)
    try:
        wait_for_port(port)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_gunicorn_answers_a_chunked_api_body_411(gunicorn_url):
    status, headers, body = send(gunicorn_url, "/api/rounds/", b'{"rounds": []}', chunked=True, headers={})
    assert status == 411, body[:300]
    assert "Content-Length" in json.loads(body)["detail"]
    # The same body with its length goes on to the view's checks: here, no credentials.
    status, _, body = send(gunicorn_url, "/api/rounds/", b'{"rounds": []}', chunked=False, headers={})
    assert status == 401, body[:300]
