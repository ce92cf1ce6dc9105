"""Per-address caps that see the real client: a trusted proxy's PROXY protocol header (v1, v2) or X-Forwarded-For
names it; anyone else's is ignored; the room quotas are one count in Redis for every node, kept across a restart."""
from __future__ import annotations

import asyncio
import ipaddress
import socket
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidMessage, InvalidStatus

import server.lobby.quota
from client import Client, ClientError
from client.connection import Seat
from protocol import PROTOCOL_VERSION
from server.edge import forwarded
from tests.server.nodes import Start
from tests.server.servers import serving

V2 = b"\r\n\r\n\x00\r\nQUIT\n"


def v1(client: str) -> bytes:
    family = "TCP6" if ":" in client else "TCP4"
    server = "::1" if family == "TCP6" else "127.0.0.1"
    return f"PROXY {family} {client} {server} 40000 8765\r\n".encode()


def v2(client: str, command: int = 1, tlv: bytes = b"") -> bytes:
    ip = ipaddress.ip_address(client)
    if ip.version == 4:
        body = ip.packed + bytes([127, 0, 0, 1]) + struct.pack("!HH", 40000, 8765)
        family = 0x11
    else:
        body = ip.packed + ipaddress.ip_address("::1").packed + struct.pack("!HH", 40000, 8765)
        family = 0x21
    body += tlv
    return V2 + bytes([0x20 | command, family]) + struct.pack("!H", len(body)) + body


@asynccontextmanager
async def through(url: str, header: bytes = b"", forwarded_for: str = "") -> AsyncIterator[Client]:
    """A client whose TCP stream begins with ``header`` (as a proxy's would), with ``X-Forwarded-For`` if given."""
    host, port = url.removeprefix("ws://").rsplit(":", 1)
    sock = socket.create_connection((host, int(port)))
    sock.sendall(header)
    sock.setblocking(False)
    extra = {"X-Forwarded-For": forwarded_for} if forwarded_for else None
    ws = await connect(url, sock=sock, additional_headers=extra, compression=None, open_timeout=10)
    client = Client(ws)
    try:
        await client.request("hello", v=PROTOCOL_VERSION)
        yield client
    finally:
        await client.close()


def test_headers_parse() -> None:
    """v1 and v2 (IPv4, IPv6, LOCAL, UNKNOWN, TLVs), read incrementally; malformed ones refused."""
    for header in (v1("203.0.113.9"), v2("203.0.113.9"), v2("203.0.113.9", tlv=b"\x04\x00\x02ab")):
        for cut in range(1, len(header)):
            assert forwarded.begins_header(header[:cut]) is not False
            if forwarded.begins_header(header[:cut]):
                assert forwarded.parse_header(header[:cut]) is None
        assert forwarded.parse_header(header + b"GET / HTTP/1.1") == ("203.0.113.9", len(header))
    assert forwarded.parse_header(v1("2001:db8::7")) == ("2001:db8::7", len(v1("2001:db8::7")))
    assert forwarded.parse_header(v2("2001:db8::7")) == ("2001:db8::7", len(v2("2001:db8::7")))
    assert forwarded.parse_header(v2("::ffff:198.51.100.4"))[0] == "198.51.100.4"  # type: ignore[index]
    assert forwarded.parse_header(v2("203.0.113.9", command=0)) == (None, len(v2("203.0.113.9")))  # LOCAL: a check
    assert forwarded.parse_header(b"PROXY UNKNOWN\r\n") == (None, 15)
    assert forwarded.begins_header(b"GET / HTTP/1.1\r\n") is False
    for bad in (b"PROXY TCP4 1.2.3.4\r\n", b"PROXY TCP4 1.2.3 4.3.2.1 1 2\r\n", b"PROXY TCP6 1.2.3.4 ::1 1 2\r\n",
                b"PROXY TCP4 1.2.3.4 4.3.2.1 1 99999\r\n", b"PROXY " + b"x" * 120,
                V2 + b"\x31\x11\x00\x0c" + bytes(12), V2 + b"\x21\x11\x00\x04" + bytes(4), V2 + b"\x21\x11\xff\xff"):
        with pytest.raises(forwarded.BadHeader):
            forwarded.parse_header(bad)


def test_forwarded_for_takes_the_last_untrusted_hop() -> None:
    trusted = forwarded.Trusted(["10.0.0.0/8", "127.0.0.1"])
    assert "10.1.2.3" in trusted and "::ffff:127.0.0.1" in trusted and "192.0.2.1" not in trusted
    assert forwarded.forwarded_for(["192.0.2.1"], trusted) == "192.0.2.1"
    assert forwarded.forwarded_for(["6.6.6.6, 192.0.2.1", "10.0.0.2"], trusted) == "192.0.2.1"  # the left is the client's
    assert forwarded.forwarded_for(["192.0.2.1:5555"], trusted) == "192.0.2.1"
    assert forwarded.forwarded_for(["[2001:db8::1]:5555"], trusted) == "2001:db8::1"
    assert forwarded.forwarded_for(["nonsense"], trusted) is None
    with pytest.raises(ValueError):
        forwarded.Trusted(["proxy.example"])


async def refused(url: str, header: bytes = b"", forwarded_for: str = "") -> int:
    """The status a handshake is refused with (0: accepted, then closed)."""
    try:
        async with through(url, header, forwarded_for):
            return 0
    except InvalidStatus as exc:
        return exc.response.status_code


@pytest.mark.parametrize("kind", ["v1", "v2", "x-forwarded-for"])
async def test_clients_behind_a_trusted_proxy_each_get_their_own_cap(redis_url: str, kind: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Behind a trusted proxy, two clients have a connection cap and a room quota each (not one between them)."""
    monkeypatch.setattr(server.lobby.quota, "PER_MINUTE", 2)

    def via(client: str) -> tuple[bytes, str]:
        """What the proxy tells of ``client``: a PROXY header, or X-Forwarded-For."""
        if kind == "x-forwarded-for":
            return b"", client
        return (v1(client) if kind == "v1" else v2(client)), ""

    async with serving(redis_url, per_address=2, trusted_proxies=["127.0.0.1"]) as url:
        async with through(url, *via("203.0.113.1")) as a1, through(url, *via("203.0.113.1")) as a2:
            assert await refused(url, *via("203.0.113.1")) == 429
            async with through(url, *via("203.0.113.2")) as b:
                for _ in range(2):
                    assert isinstance(await a1.create("creature_wars", sit=False), str)
                with pytest.raises(ClientError) as quota:
                    await a2.create("creature_wars", sit=False)
                assert quota.value.code == "too_many_rooms"
                assert isinstance(await b.create("creature_wars", sit=False), str)  # the other client's own quota


async def test_an_untrusted_peers_forwarding_is_ignored(redis_url: str) -> None:
    """From a peer that is not a trusted proxy, PROXY headers and X-Forwarded-For count for nothing: every such
    connection is the peer's, under the peer's one cap."""
    async with serving(redis_url, per_address=2, trusted_proxies=["10.9.9.9"]) as url:
        async with through(url, v2("203.0.113.1")) as c1, through(url, forwarded_for="203.0.113.2") as c2:
            assert await c1.list_rooms() == [] and await c2.list_rooms() == []
            assert await refused(url, v1("203.0.113.3")) == 429
            assert await refused(url, forwarded_for="203.0.113.4") == 429
            assert await refused(url) == 429


async def test_a_malformed_header_from_a_trusted_proxy_is_refused(redis_url: str) -> None:
    async with serving(redis_url, trusted_proxies=["127.0.0.1"]) as url:
        with pytest.raises(InvalidMessage):  # the connection is closed before any HTTP
            async with through(url, b"PROXY TCP4 203.0.113.1\r\n"):
                pass
        async with through(url, v2("203.0.113.1")) as fine:  # the server goes on
            assert await fine.list_rooms() == []


async def create_many(url: str, count: int) -> list[str]:
    client = await Client.connect(url)
    try:
        return [str(await client.create("creature_wars", sit=False)) for _ in range(count)]
    finally:
        await client.close()


async def test_nodes_share_one_room_quota_per_address(node: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two nodes on one Redis: an address's rooms per minute are one count, not one per node."""
    monkeypatch.setenv("CARDROOM_ROOMS_PER_MINUTE", "3")
    monkeypatch.setenv("CARDROOM_WAITING_ROOMS", "100")
    (_, url_a), (_, url_b) = await asyncio.gather(node("A"), node("B"))
    await create_many(url_a, 2)
    await create_many(url_b, 1)
    for url in (url_a, url_b):
        with pytest.raises(ClientError) as quota:
            await create_many(url, 1)
        assert quota.value.code == "too_many_rooms" and "a minute" in quota.value.message


async def test_nodes_share_one_waiting_room_quota(node: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    """Waiting rooms held on one node count on another; a cancelled one frees its place there too."""
    monkeypatch.setenv("CARDROOM_ROOMS_PER_MINUTE", "100")
    monkeypatch.setenv("CARDROOM_WAITING_ROOMS", "2")
    (_, url_a), (_, url_b) = await asyncio.gather(node("A"), node("B"))
    async with await Client.connect(url_a, name="ann") as ann:
        first = await ann.create("creature_wars")
        assert isinstance(first, Seat)
        await create_many(url_a, 1)
        with pytest.raises(ClientError) as quota:
            await create_many(url_b, 1)
        assert quota.value.code == "too_many_rooms" and "waiting" in quota.value.message
        await ann.cancel(first)
    for _ in range(50):  # B learns the room is gone (its directory, or the open set)
        try:
            await create_many(url_b, 1)
            break
        except ClientError:
            await asyncio.sleep(0.1)
    else:
        raise AssertionError("a cancelled room still held a waiting place on the other node")


async def test_a_restarted_server_keeps_the_count(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server.lobby.quota, "PER_MINUTE", 3)
    async with serving(redis_url) as url:
        await create_many(url, 3)
    async with serving(redis_url) as url:
        with pytest.raises(ClientError) as quota:
            await create_many(url, 1)
        assert quota.value.code == "too_many_rooms"


async def test_a_failed_creation_gives_its_place_back(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server.lobby.quota, "PER_MINUTE", 1)
    async with await Client.connect(server_url) as client:
        with pytest.raises(ClientError):
            await client.create("no_such_game", sit=False)
        assert isinstance(await client.create("creature_wars", sit=False), str)
