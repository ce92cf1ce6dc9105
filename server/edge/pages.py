"""The browser client's files, served by the node on its own port: ``GET /`` is the page, the rest its assets.

Every file is read once, when the node starts, into a table keyed by its URL path; a request is answered from
that table alone, so no path a client sends ever reaches the file system (``..`` included). Websocket upgrades
on any path go on to the handshake as before.
"""
from __future__ import annotations

import email.utils
import hashlib
import re
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from urllib.parse import unquote, urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

__all__ = ["CONTENT_TYPES", "Asset", "Pages"]

CONTENT_TYPES: dict[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
    "": "text/plain; charset=utf-8",  # LICENSE
}
"""What each served file is, by its suffix; a file of any other suffix is not served."""
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'{sockets}; "
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
"""The page's Content-Security-Policy: nothing loads from anywhere but this node (no third-party font or script);
its websocket is named outright too, for browsers whose 'self' does not cover ws: and wss:."""
HOST = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")
"""A ``Host`` header fit to be named in the policy (anything else names no websocket beyond 'self')."""


@dataclass(frozen=True, slots=True)
class Asset:
    """One served file: its bytes, its content type and the entity tag a browser revalidates it with."""

    body: bytes
    content_type: str
    etag: str


class Pages:
    """The files under ``root`` by URL path (``/`` is ``index.html``), and the HTTP answer to a plain GET."""

    def __init__(self, root: Path) -> None:
        self.assets: dict[str, Asset] = {}
        for path in sorted(root.rglob("*")):
            kind = CONTENT_TYPES.get(path.suffix)
            if not path.is_file() or kind is None or "__pycache__" in path.parts or path.suffix == ".py":
                continue
            body = path.read_bytes()
            tag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
            self.assets["/" + path.relative_to(root).as_posix()] = Asset(body, kind, tag)
        if "/index.html" in self.assets:
            self.assets["/"] = self.assets["/index.html"]

    def respond(self, request: Request) -> Response | None:
        """The answer to a request that is not a websocket upgrade; None for an upgrade (the handshake goes on)."""
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        path = unquote(urlsplit(request.path).path)
        asset = self.assets.get(path) if ".." not in path.split("/") else None
        if asset is None:
            return _plain(HTTPStatus.NOT_FOUND, f"no such page: {path[:200]}\n")
        host = request.headers.get("Host", "")
        sockets = f" ws://{host} wss://{host}" if HOST.fullmatch(host) else ""
        if asset.etag in request.headers.get("If-None-Match", ""):
            return _answer(HTTPStatus.NOT_MODIFIED, b"", asset, sockets)
        return _answer(HTTPStatus.OK, asset.body, asset, sockets)


def _answer(status: HTTPStatus, body: bytes, asset: Asset, sockets: str) -> Response:
    headers = _headers(body, asset.content_type)
    headers["ETag"] = asset.etag
    headers["Cache-Control"] = "no-cache"  # no hashed names (no build step): revalidate each time, 304 when unchanged
    headers["Referrer-Policy"] = "no-referrer"
    if asset.content_type.startswith("text/html"):
        headers["Content-Security-Policy"] = POLICY.format(sockets=sockets)
        headers["X-Frame-Options"] = "DENY"
    return Response(status.value, status.phrase, headers, body)


def _plain(status: HTTPStatus, text: str) -> Response:
    body = text.encode()
    return Response(status.value, status.phrase, _headers(body, "text/plain; charset=utf-8"), body)


def _headers(body: bytes, content_type: str) -> Headers:
    """What every answer carries (the connection closes after it, as websockets' own answers do)."""
    return Headers([
        ("Date", email.utils.formatdate(usegmt=True)),
        ("Connection", "close"),
        ("Content-Length", str(len(body))),
        ("Content-Type", content_type),
        ("X-Content-Type-Options", "nosniff"),
    ])
