"""The node serves the browser client on its own port: the page and its assets with their content types and
caching headers, 404 for anything else (``..`` included), every file packaged, websockets on the same port."""
from __future__ import annotations

import asyncio
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from urllib.parse import urlsplit

from client import Client
from client.browser import ROOT
from tests.server.test_exposure import greeted

REPO = Path(__file__).resolve().parents[2]


async def get(url: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One raw HTTP GET of ``path`` exactly as given (no client normalises a ``..`` away); status, headers, body."""
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    fields = {"Host": f"{parts.hostname}:{parts.port}", **(headers or {})}
    lines = "".join(f"{k}: {v}\r\n" for k, v in fields.items())
    writer.write(f"GET {path} HTTP/1.1\r\n{lines}\r\n".encode())
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 10)  # the node closes the connection after answering
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    fields = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in fields.items()}, body


async def test_the_page_and_its_assets_are_served_with_their_types(server_url: str) -> None:
    status, headers, body = await get(server_url, "/")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    assert body == (ROOT / "index.html").read_bytes()
    policy = headers["content-security-policy"]
    assert "default-src 'self'" in policy, "nothing loads from another site"
    host = server_url.removeprefix("ws://")
    assert f"connect-src 'self' ws://{host} wss://{host};" in policy, "its own websocket, named for every browser"
    _, odd, _ = await get(server_url, "/", {"Host": "evil.example; script-src *"})
    assert "script-src *" not in odd["content-security-policy"] and "connect-src 'self';" in odd["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff" and headers["cache-control"] == "no-cache"
    for path, kind in [("/main.js", "text/javascript; charset=utf-8"), ("/style.css", "text/css; charset=utf-8"),
                       ("/tables/creature_wars.js", "text/javascript; charset=utf-8"),
                       ("/vendor/msgpack/index.mjs", "text/javascript; charset=utf-8"),
                       ("/vendor/msgpack/LICENSE", "text/plain; charset=utf-8"), ("/icon.svg", "image/svg+xml")]:
        status, headers, body = await get(server_url, path)
        assert (status, headers["content-type"]) == (200, kind), path
        assert body == (ROOT / path[1:]).read_bytes()


async def test_an_unchanged_file_is_revalidated_with_its_etag(server_url: str) -> None:
    _, headers, _ = await get(server_url, "/main.js")
    status, again, body = await get(server_url, "/main.js", {"If-None-Match": headers["etag"]})
    assert status == 304 and body == b"" and again["etag"] == headers["etag"]
    status, _, body = await get(server_url, "/main.js", {"If-None-Match": '"something-else"'})
    assert status == 200 and body


async def test_unknown_paths_and_traversal_are_not_found(server_url: str) -> None:
    for path in ["/nope", "/nope.js", "/../pyproject.toml", "/..%2fpyproject.toml", "/%2e%2e/pyproject.toml",
                 "/vendor/../../server/cli.py", "/tables/../../__init__.py", "/__init__.py", "//etc/passwd",
                 "/index.html/..", "/tables/"]:
        status, headers, body = await get(server_url, path)
        assert status == 404, f"{path} answered {status}"
        assert headers["content-type"] == "text/plain; charset=utf-8" and body.startswith(b"no such page")


async def test_websockets_and_health_share_the_port(server_url: str) -> None:
    status, _, body = await get(server_url, "/health")
    assert status == 200 and body.startswith(b"ok")
    async with await Client.connect(server_url, name="beside") as client:
        assert await client.list_rooms() == []


def test_every_file_of_the_page_is_packaged() -> None:
    """pyproject's package data names every file the node serves, so an installed node serves the same page."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["client.browser"]
    files = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
             if p.is_file() and p.suffix != ".py" and "__pycache__" not in p.parts]
    assert files, "the page's files"
    left_out = [f for f in files if not any(fnmatch(f, pattern) and f.count("/") == pattern.count("/") for pattern in patterns)]
    assert not left_out, f"not in [tool.setuptools.package-data]: {left_out}"


SYSTEM_SYMBOLS = set("·—…±\u2039♠♥♦♣")  # \u2039: the single angle quote of the Lobby button
"""The characters beyond ASCII the page's own files may use: each is in the fonts every system ships (DejaVu,
Liberation, the phones' own), so none shows as an empty box; emoji (🔒, ⏱) are not."""


def test_the_page_uses_only_symbols_of_the_system_fonts() -> None:
    used = {char for path in ROOT.rglob("*") if path.suffix in (".js", ".html", ".css") and "vendor" not in path.parts
            for char in path.read_text(encoding="utf-8") if ord(char) > 127}
    assert used <= SYSTEM_SYMBOLS, f"characters that may show as empty boxes: {sorted(used - SYSTEM_SYMBOLS)}"


async def test_the_nodes_own_page_may_open_a_websocket_and_other_sites_may_not(server_url: str) -> None:
    """A handshake whose Origin is the node's own address (its page's) is greeted; another site's is refused."""
    own = "http" + server_url.removeprefix("ws")
    assert await greeted(server_url, own)
    assert not await greeted(server_url, own.replace("127.0.0.1", "localhost"))  # another origin than the Host asked
    assert not await greeted(server_url, own + "/path")
    assert not await greeted(server_url, "https://evil.example")
