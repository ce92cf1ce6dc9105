"""The store's connections to one Redis pack commands with hiredis' packer (in C), into the bytes redis-py's own
packer (in Python, several times slower for a room's many fields) writes; its links, with theirs (server/store/resp.py
where it runs compiled, else hiredis'), which tests/server/test_resp.py checks writes the same bytes."""
from __future__ import annotations

from typing import Any

import pytest
import redis.asyncio
from redis.exceptions import DataError

from server.lobby.lobby import Lobby
from server.store import group, link
from server.store.store import Store

COMMANDS: list[tuple[Any, ...]] = [
    ("EVALSHA", "0" * 40, 2, "cardroom:room:{abc123}", b"k2", "node", 3000, 1795776737.25, b"\x00\x81\xa1v\x01", ""),
    ("SET", "room:\u00e9", "x" * 70_000, "EX", 600),
    ("CONFIG GET", "maxmemory"),
    (b"CLIENT SETNAME", b"n"),
    ("ZADD", "k", 1.5e300, memoryview(b"m")),
]


def test_commands_are_packed_as_redis_py_packs_them() -> None:
    ours = Store("redis://127.0.0.1:1").redis.connection_pool.make_connection()
    theirs = redis.asyncio.Redis().connection_pool.make_connection()
    for command in COMMANDS:
        assert b"".join(ours.pack_command(*command)) == b"".join(bytes(b) for b in theirs.pack_command(*command))
    with pytest.raises(DataError):  # what hiredis refuses gets redis-py's own error
        ours.pack_command("SET", "k", True)


async def test_a_rooms_making_is_packed_by_the_links_packer(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    packed: list[tuple[Any, ...]] = []
    pack = link.pack

    def counted(commands: list[tuple[Any, ...]]) -> bytes:
        packed.extend(commands)
        return pack(commands)

    monkeypatch.setattr(link, "pack", counted)
    monkeypatch.setattr(group, "pack", counted)
    store = Store(redis_url)
    try:
        room = await Lobby(store).create("creature_wars", {}, None)
        assert any(command[0] == "EVALSHA" and room.id in command for command in packed)
        assert await store.redis.config_get("appendonly")  # a command name of two words still works
    finally:
        await store.close()
