"""The events screen (``e`` in the lobby): an event listed, registering with a key, the table the round gives
opened with ``p``, a table watched with ``w``."""
from __future__ import annotations

from client.app import CardroomApp
from client.connection import Client
from client.events import create_event, follow, register, start_event, wait_event
from client.screens.events import EventsScreen
from client.screens.solitaire import SolitaireScreen
from client.screens.table import TableScreen
from tests.client.helpers import SIZE, screen_text, until


async def test_the_events_screen_registers_and_opens_the_rounds_table(server_url: str) -> None:
    app = CardroomApp(server_url, "fay")
    async with app.run_test(size=SIZE) as pilot, \
            await Client.connect(server_url, name="org", key="org-secret-key-0123456789") as org, \
            await Client.connect(server_url, name="bob", key="bob-secret-key-0123456789") as bob:
        made = await create_event(org, "creature_wars", rounds=1, title="Friday Swiss", options={"hp": 1})
        event = made["event"]
        await register(bob, event)
        await until(pilot, lambda: app.link.client is not None and app.link.player is not None, "the connection")
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, EventsScreen) and "Friday Swiss" in screen_text(app),
                    "the event listed")
        await until(pilot, lambda: "g: register" in screen_text(app), "the event shown beside the list")
        await pilot.press("g")
        await until(pilot, lambda: "Registered" in screen_text(app), "registered")
        state = await follow(org, event)
        assert sorted(e["name"] for e in state["entrants"]) == ["bob", "fay"]
        await start_event(org, event)
        running = await wait_event(org, event, lambda s: s["status"] == "running" and bool(s["pairings"])
                                   and s["pairings"][0]["tables"][0]["room"] is not None)
        await until(pilot, lambda: "Your table" in screen_text(app), "our table shown")
        room = running["pairings"][0]["tables"][0]["room"]
        assert "bob v fay" in screen_text(app) or "fay v bob" in screen_text(app)
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.room == room,
                    "the table of our round opened")
        assert app.link.seats[room].room == room


async def test_the_events_screen_watches_a_table(server_url: str) -> None:
    app = CardroomApp(server_url, "wes")
    async with app.run_test(size=SIZE) as pilot, \
            await Client.connect(server_url, name="ann", key="ann-secret-key-0123456789") as ann, \
            await Client.connect(server_url, name="bob", key="bob-secret-key-0123456789") as bob:
        made = await create_event(ann, "creature_wars", rounds=1, options={"hp": 1})
        event = made["event"]
        for client in (ann, bob):
            await register(client, event)
        await follow(ann, event)
        await start_event(ann, event)
        running = await wait_event(ann, event, lambda s: s["status"] == "running" and bool(s["pairings"])
                                   and s["pairings"][0]["tables"][0]["room"] is not None)
        room = running["pairings"][0]["tables"][0]["room"]
        await until(pilot, lambda: app.link.client is not None, "the connection")
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, EventsScreen) and f"#{room}" in screen_text(app),
                    "the table listed")
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.room == room, "the table watched")
        assert room not in app.link.seats


async def test_the_events_screen_plays_a_solitaire_events_deal_once(server_url: str) -> None:
    app = CardroomApp(server_url, "sol")
    async with app.run_test(size=SIZE) as pilot, \
            await Client.connect(server_url, name="org", key="org-secret-key-0123456789") as org:
        made = await create_event(org, "queens_challenge", lasts=600, title="Queen's night")
        await until(pilot, lambda: app.link.client is not None and app.link.player is not None, "the connection")
        await pilot.press("e")
        await until(pilot, lambda: "p: play the event's deal" in screen_text(app), "the event shown")
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, SolitaireScreen), "the event's deal opened")
        state = await follow(org, made["event"])
        assert state["players"] == 1
        screen = app.screen
        assert isinstance(screen, SolitaireScreen)
        assert screen.room == (await follow(app.link.require(), made["event"]))["you"]["room"]
