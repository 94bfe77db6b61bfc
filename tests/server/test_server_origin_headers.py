"""The websocket's Origin check trusts the configured addresses, never the request's Host header
(a DNS-rebinding page controls that one), and every HTTP answer carries the security headers
(issue 11, items 9 and 10)."""

from __future__ import annotations

import base64
import os
import socket
import urllib.request
from pathlib import Path

import pytest
from harness import ServerThread, fast_config

from batak.server.app import SECURITY_HEADERS, allowed_origins, origin_allowed
from batak.server.config import ServerConfig


def upgrade_status(port: int, host: str, origin: str | None) -> int:
    """The HTTP status of a websocket handshake sent as raw bytes, with any Host header."""
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        "GET /ws HTTP/1.1",
        f"Host: {host}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
    ]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                break
            head += chunk
    return int(head.split(b" ", 2)[1])


def test_a_rebinding_page_is_refused_whatever_its_host_header(tmp_path: Path) -> None:
    config = fast_config(tmp_path)
    with ServerThread(config) as srv:
        port = config.port
        # a page of evil.example, whose name now resolves to this machine: the browser sends
        # the page's own name as both Host and Origin
        assert upgrade_status(port, f"evil.example:{port}", f"http://evil.example:{port}") == 403
        assert upgrade_status(port, "evil.example", "http://evil.example") == 403
        # the address the server printed at start, under the loopback names, is accepted
        for name in ("127.0.0.1", "localhost"):
            assert upgrade_status(port, f"{name}:{port}", f"http://{name}:{port}") == 101
        assert upgrade_status(port, f"127.0.0.1:{port}", None) == 101  # not a browser
        assert srv.hub.ready


def test_the_public_url_and_allowed_origins_are_what_a_browser_may_come_from(
    tmp_path: Path,
) -> None:
    config = fast_config(
        tmp_path,
        host="0.0.0.0",
        public_url="https://batak.example/",
        allowed_origins=("https://friends.example:8443",),
    )
    with ServerThread(config) as srv:
        port = config.port
        assert upgrade_status(port, "batak.example", "https://batak.example") == 101
        assert upgrade_status(port, "x", "https://friends.example:8443") == 101
        # the Host header names the public address, the page is another one
        assert upgrade_status(port, "batak.example", "https://evil.example") == 403
        assert upgrade_status(port, "batak.example", "http://batak.example") == 403
        assert upgrade_status(port, "batak.example", "null") == 403
        assert srv.hub.ready


@pytest.mark.parametrize(
    ("origin", "public_url", "allowed"),
    [
        ("http://127.0.0.1:8000", None, True),
        ("http://LOCALHOST:8000", None, True),
        ("http://[::1]:8000", None, True),
        ("http://127.0.0.1:8001", None, False),
        ("https://127.0.0.1:8000", None, False),
        ("http://evil.example:8000", None, False),
        ("https://batak.example", "https://batak.example", True),
        ("https://batak.example:443", "https://batak.example", True),
        ("https://batak.example.evil.example", "https://batak.example", False),
        ("https://user@batak.example", "https://batak.example", False),
        ("http://127.0.0.1:8000", "https://batak.example", False),
        ("", None, False),
        ("null", None, False),
    ],
)
def test_origin_allowed(origin: str, public_url: str | None, allowed: bool) -> None:
    config = ServerConfig(port=8000, public_url=public_url)
    assert origin_allowed(origin, config) is allowed, sorted(allowed_origins(config))
    assert origin_allowed(None, config)
    assert origin_allowed("https://anything.example", ServerConfig(allowed_origins=("*",)))


def test_every_http_answer_carries_the_security_headers(tmp_path: Path) -> None:
    with ServerThread(fast_config(tmp_path)) as srv:
        for path in ("/", "/table/t1", "/static/app.js", "/api/lobby", "/api/texts", "/nope"):
            try:
                with urllib.request.urlopen(srv.http + path, timeout=10) as r:
                    headers = r.headers
            except urllib.error.HTTPError as e:
                headers = e.headers
            for name, value in SECURITY_HEADERS.items():
                assert headers.get(name) == value, (path, name)
        csp = SECURITY_HEADERS["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert SECURITY_HEADERS["X-Frame-Options"] == "DENY"
        assert SECURITY_HEADERS["X-Content-Type-Options"] == "nosniff"
        assert "Referrer-Policy" in SECURITY_HEADERS
