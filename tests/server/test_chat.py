"""Table talk: delivery, plain text, length and rate limits, spectators kept apart, the last lines kept across a restart."""
from __future__ import annotations

import pytest

from client import Client, ClientError
from server.rooms import chat
from tests.server.servers import serving


def _lines(client: Client, room: str) -> list[dict[str, object]]:
    return [m for m in client.received() if m["t"] == "chat" and m["room"] == room]


async def _code(call: object) -> str:
    with pytest.raises(ClientError) as caught:
        await call  # type: ignore[misc]
    return caught.value.code


async def test_chat_reaches_players_and_spectators(server_url: str) -> None:
    a = await Client.connect(server_url, name="ann", record_frames=True)
    b = await Client.connect(server_url, name="bob", record_frames=True)
    w = await Client.connect(server_url, name="wes", record_frames=True)
    outsider = await Client.connect(server_url, record_frames=True)
    try:
        sa = await a.create("creature_wars", seed=4)
        assert not isinstance(sa, str)
        await b.join(sa.room)
        await w.spectate(sa.room)
        said = await a.chat(sa.room, "good luck")
        assert said["t"] == "chat" and isinstance(said["ts"], float)
        assert (said["name"], said["seat"], said["text"]) == ("ann", 0, "good luck")
        await w.chat(sa.room, "enjoy")
        for client in (a, b, w):
            await client.wait_message(lambda m: m["t"] == "chat" and m["text"] == "enjoy")
            lines = [(m["name"], m["seat"], m["text"]) for m in _lines(client, sa.room)]
            assert lines == [("ann", 0, "good luck"), ("wes", None, "enjoy")]
        assert await _code(outsider.chat(sa.room, "hello?")) == "unknown_room"
        assert _lines(a, sa.room)[-1]["text"] == "enjoy"
    finally:
        for c in (a, b, w, outsider):
            await c.close()


async def test_chat_is_plain_text(server_url: str) -> None:
    async with await Client.connect(server_url, record_frames=True) as a:
        sa = await a.create("creature_wars")
        assert not isinstance(sa, str)
        said = await a.chat(sa.room, "\x1b[31mred\u202e\u200b\nline\x00 [b]x[/b] ")
        assert said["text"] == "[31mred line [b]x[/b]"
        assert await _code(a.chat(sa.room, "\x07\u200b\n")) == "bad_field"


async def test_chat_over_the_limits_is_refused(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chat, "WINDOW", 3600.0)  # the window outlasts the test: no clock decides the outcome
    a = await Client.connect(server_url, record_frames=True)
    b = await Client.connect(server_url, record_frames=True)
    try:
        sa = await a.create("creature_wars")
        assert not isinstance(sa, str)
        await b.join(sa.room)
        too_long = "x" * (chat.LENGTH + 1)
        with pytest.raises(ClientError) as caught:
            await a.chat(sa.room, too_long)
        assert caught.value.code == "bad_field" and "'text'" in caught.value.message
        for n in range(chat.LINES):
            await a.chat(sa.room, f"line {n}")
        with pytest.raises(ClientError) as caught:
            await a.chat(sa.room, "one too many")
        assert caught.value.code == "rate_limited"
        await b.chat(sa.room, "my turn")  # the limit is per connection
        await a.wait_message(lambda m: m["t"] == "chat" and m["text"] == "my turn")
        texts = [m["text"] for m in _lines(b, sa.room)]
        assert texts == [f"line {n}" for n in range(chat.LINES)] + ["my turn"]
    finally:
        await a.close()
        await b.close()


async def test_spectator_chat_can_be_kept_from_the_players(server_url: str) -> None:
    a = await Client.connect(server_url, name="ann", record_frames=True)
    b = await Client.connect(server_url, name="bob", record_frames=True)
    w1 = await Client.connect(server_url, name="w1", record_frames=True)
    w2 = await Client.connect(server_url, name="w2", record_frames=True)
    try:
        with pytest.raises(ClientError) as caught:
            await a.create("creature_wars", spectator_chat="nobody")
        assert caught.value.code == "bad_field" and "spectator_chat" in caught.value.message
        seat_a = await a.create("creature_wars", spectator_chat="spectators")
        assert not isinstance(seat_a, str)
        room = seat_a.room
        sb = await b.join(room)
        await w1.spectate(room)
        await w2.spectate(room)
        assert {r["room"]: r["spectator_chat"] for r in await a.list_rooms()}[room] == "spectators"
        await w1.chat(room, "secret tip: bluff")
        await a.chat(room, "hello all")
        await w2.wait_message(lambda m: m["t"] == "chat" and m["text"] == "hello all")
        await w1.wait_message(lambda m: m["t"] == "chat" and m["text"] == "hello all")
        await b.wait_message(lambda m: m["t"] == "chat" and m["text"] == "hello all")
        assert [m["text"] for m in _lines(w2, room)] == ["secret tip: bluff", "hello all"]
        for player in (a, b):
            # every frame a player got, decoded: the spectator's line is in none of them
            assert not any("bluff" in str(m) for m in player.received())
            assert [m["text"] for m in _lines(player, room)] == ["hello all"]
        # a player resuming gets the past lines it may read; a new spectator gets them all
        a2 = await Client.connect(server_url, record_frames=True)
        w3 = await Client.connect(server_url, record_frames=True)
        try:
            await a2.resume(room, seat_a.token)
            await w3.spectate(room)
            await a2.wait_message(lambda m: m["t"] == "chat")
            await w3.wait_message(lambda m: m["t"] == "chat" and m["text"] == "hello all")
            assert not any("bluff" in str(m) for m in a2.received())
            assert [(m["text"], m["past"]) for m in _lines(a2, room)] == [("hello all", True)]
            assert [m["text"] for m in _lines(w3, room)] == ["secret tip: bluff", "hello all"]
        finally:
            await a2.close()
            await w3.close()
        assert sb.seat == 1
    finally:
        for c in (a, b, w1, w2):
            await c.close()


async def test_the_last_lines_are_kept_and_survive_a_restart(server_url: str, redis_url: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chat, "LINES", 100)
    async with await Client.connect(server_url, name="ann") as a:
        sa = await a.create("creature_wars")
        assert not isinstance(sa, str)
        for n in range(chat.KEEP + 5):
            await a.chat(sa.room, f"line {n}")
    async with serving(redis_url) as url, await Client.connect(url, record_frames=True) as w:
        await w.spectate(sa.room)
        last = f"line {chat.KEEP + 4}"
        await w.wait_message(lambda m: m["t"] == "chat" and m["text"] == last)
        kinds = [m["t"] for m in w.received()]
        assert kinds[-chat.KEEP - 2:] == ["spectating", "view"] + ["chat"] * chat.KEEP
        assert [m["text"] for m in _lines(w, sa.room)] == [f"line {n}" for n in range(5, chat.KEEP + 5)]
