"""The browser client's events view in Chromium against a real server: a one-round Creature Wars Swiss event,
registered for by a tap on a phone and by a client-library player, started by its organiser; the page takes its
table from the event's "Play your table", the view shows the pairing; played out, the list shows the event
finished and its standings."""
from __future__ import annotations

import asyncio

from bots.players import make
from client import Client
from client.events import create_event, follow, register, start_event, wait_event
from tests.server.test_events import play_seat
from tests.web.web_client import WAIT_MS, Player, chromium_browser, phone

QUICK = {"hp": 1}
"""Creature Wars options that end a match at the first damage."""


def key_of(name: str) -> str:
    return f"{name}-secret-key-0123456789"


async def registered_and_started(me: Player, organiser: Client, bob: Client, title: str) -> dict[str, object]:
    """An event made by ``organiser``; the page opens it from the lobby's Events and taps Register; ``bob`` registers;
    the organiser starts it. Bob's state once his table is told."""
    event = (await create_event(organiser, "creature_wars", rounds=1, options=QUICK, title=title))["event"]
    await me.press("#open-events")
    await me.press(f"#event-list .event-row[data-event='{event}'] button")
    await me.page.locator("#event-detail #event-title", has_text=title).wait_for(timeout=WAIT_MS)
    await me.press("#event-register")
    await me.page.locator("#event-unregister").wait_for(timeout=WAIT_MS)  # the page is registered
    await register(bob, event)
    await follow(organiser, event)
    await wait_event(organiser, event, lambda s: s["players"] == 2, timeout=10)
    await start_event(organiser, event)
    return await wait_event(bob, event, lambda s: s["you"]["table"] is not None, timeout=20)


async def test_a_phone_registers_for_a_swiss_event_and_plays_its_table(chromium: str, server_url: str) -> None:
    async with await Client.connect(server_url, name="org", key=key_of("org")) as organiser, \
            await Client.connect(server_url, name="bob", key=key_of("bob")) as bob, chromium_browser(chromium) as browser:
        me = await Player.open(await phone(browser), server_url, touch=True)
        await me.enter_name("pagey")
        state = await registered_and_started(me, organiser, bob, "phone cup")
        table = state["you"]["table"]  # type: ignore[index]
        room = table["room"]
        pairing = me.page.locator(f"#event-pairings .pairing[data-room='{room}']")
        await pairing.wait_for(timeout=WAIT_MS)
        text = await pairing.inner_text()
        assert "pagey" in text and "bob" in text and f"#{room}" in text and "playing" in text
        await me.page.locator("#event-you", has_text="against bob").wait_for(timeout=WAIT_MS)
        await me.press("#event-play-table")
        await me.wait_table(f"t.dataset.room === '{room}' && document.querySelector('#empire-0')", "the event's table")
        assert me.errors == []


async def test_a_finished_event_shows_in_the_list_with_its_standings(chromium: str, server_url: str) -> None:
    async with await Client.connect(server_url, name="org2", key=key_of("org2")) as organiser, \
            await Client.connect(server_url, name="cat", key=key_of("cat")) as cat, chromium_browser(chromium) as browser:
        me = await Player.open(await phone(browser), server_url, touch=True)
        await me.enter_name("pagez")
        state = await registered_and_started(me, organiser, cat, "finals")
        event = str(state["event"])
        table = state["you"]["table"]  # type: ignore[index]
        seat = await cat.resume(table["room"], table["token"])
        await me.press("#event-play-table")
        await me.wait_table(f"t.dataset.room === '{seat.room}'", "the event's table")
        opponent = asyncio.create_task(play_seat(cat, seat, make("creature_wars", "random", "cat")))
        try:
            for _ in range(60):  # hp 1: the first damage ends the match
                if not await me.play_turn():
                    break
            await asyncio.wait_for(opponent, timeout=30)
        finally:
            opponent.cancel()
        finished = await wait_event(organiser, event, lambda s: s["status"] == "finished", timeout=30)
        winner = finished["standings"][0]["name"]

        await me.page.goto(me.page.url.split("#")[0])  # back to the lobby, then the events view
        await me.page.locator("#new-game").wait_for(timeout=WAIT_MS)
        await me.press("#open-events")
        await me.press("#events-filter-finished")
        row = me.page.locator(f"#event-list .event-row[data-event='{event}']")
        await row.wait_for(timeout=WAIT_MS)
        assert "finished" in await row.inner_text()
        await me.press(f"#event-list .event-row[data-event='{event}'] button")
        first = me.page.locator("#event-standings-list li[data-rank='1']")
        await first.wait_for(timeout=WAIT_MS)
        assert winner in await first.inner_text() and "1 pts" in await first.inner_text()
        assert me.errors == []
