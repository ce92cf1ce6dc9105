"""The Fairy Meat table in the app against a real server: a seat played with the keys, and a spectator's table."""
from __future__ import annotations

import html
import re
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from client.app import CardroomApp
from client.connection import Client, Seat
from client.render import with_names
from client.screens import FairyMeatScreen
from client.screens.fairy_meat import (
    FACE_DOWN,
    band_of,
    choice_text,
    code_card,
    compact_fairy,
    fairy_meat_info,
    fairy_meat_status,
    fairy_renderable,
    heap_renderable,
)
from engine.fairy_meat import GAME
from tests.client.helpers import SIZE, Recorder, panel_text, screen_text, until

SEED = 7
"""Seed 7, default options: Player 1 acts first; her combat hand 3♥ 7♥ 7♦ A♦ against 4 cards with K♦ and Q♣."""

STEPS = 30
"""Decisions a test makes at most while playing to the first reveal."""


def table(app: CardroomApp) -> FairyMeatScreen | None:
    return next((s for s in app.screen_stack if isinstance(s, FairyMeatScreen)), None)


def on_table(app: CardroomApp) -> bool:
    screen = table(app)
    return screen is not None and screen.view is not None


def status(app: CardroomApp) -> str:
    screen = table(app)
    assert screen is not None
    return str(screen.query_one("#status").render())


def flat(text: str) -> str:
    """Screen text with runs of spaces and line breaks as single spaces (panels wrap and pad)."""
    return " ".join(text.split())


def bare(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in entry.items() if key != "label"}


def opponent_choice(view: dict[str, Any]) -> dict[str, Any]:
    """What the plain client decides: Trumps when it has some (so they may lie face down), else the first entry."""
    legal = view["legal"]
    if view["phase"] == "trumps":
        return bare(legal[-1])
    return bare(legal[0])


def faces(view: dict[str, Any]) -> list[str]:
    return [card["face"] for card in view.get("hand") or ()]


async def past(pilot: Pilot[Any], screen: FairyMeatScreen, version: int, what: str) -> None:
    """Wait until the screen shows a view newer than ``version``."""
    await until(pilot, lambda: screen.version > version, what)


async def at(client: Client, room: str, version: int) -> dict[str, Any]:
    """A plain client's view of ``room`` at ``version``."""
    return await client.wait_view(room, lambda v: v["version"] == version)


def test_drawing_helpers_read_the_view_only() -> None:
    top = {"code": "7H", "face": "7♥", "colour": "red"}
    assert heap_renderable({"spoils": 12, "spoils_top": top, "deck": 40}).plain == \
        "Spoils Heap: 12 cards, top 7♥ · Fairy Deck: 40 cards"
    assert heap_renderable({"spoils": 3, "spoils_top": None, "deck": 2}).plain == \
        "Spoils Heap: 3 cards, top face down · Fairy Deck: 2 cards"
    assert code_card("10D") == {"code": "10D", "face": "10♦", "colour": "red"}
    assert code_card("JK2") == {"code": "JK2", "face": "Joker 2", "colour": None}
    seen = [{"kind": "trumps", "cards": ["JH", "AD"], "colour": "red", "label": "J♥ A♦ (red)"}]
    assert choice_text({"kind": "trumps", "cards": ["JH", "AD"], "colour": "red"}, seen) == "J♥ A♦ (red)"
    assert choice_text({"kind": "declare", "direction": "add"}) == "ADD"
    assert choice_text({"kind": "numbered", "card": "7H"}) == "7♥"
    spectated = {"seat": None, "phase": "trumps", "waiting_for": [1], "locked": [True, False],
                 "timer": {"seat": 1, "seconds": 30}, "legal": []}
    assert fairy_meat_status(spectated, seconds=12) == \
        "spectating · choosing Trumps · waiting for Player 2 · Player 1 🔒 locked in · Player 2 has 12 s"
    mine = {**spectated, "seat": 1, "legal": [{"kind": "trumps", "cards": [], "label": "None"}]}
    assert fairy_meat_status(mine, seconds=12).endswith("· opponent 🔒 locked in · 12 s left")


def test_every_fairy_of_a_band_is_drawn() -> None:
    """A band of three a side: each side's panel draws its three fairies; the info line names them in order."""
    state = GAME.setup({"band": 3, "fairies": [{"weapon": "claws"}, {"weapon": "moon_dagger"}]}, SEED)
    view = GAME.view(state, 1)
    assert band_of(view, 0) == [0, 2, 4] and band_of(view, 1) == [1, 3, 5]
    assert [fairy_renderable(view, fid).plain.split(" ─ ")[0].lstrip("▶⚔ ") for fid in band_of(view, 1)] == [
        "You (Player 2) fairy A", "You (Player 2) fairy B", "You (Player 2) fairy C"]
    assert [compact_fairy(view, fid).plain.split(" Live")[0].lstrip("▶⚔ ") for fid in band_of(view, 0)] == [
        "Them A", "Them B", "Them C"]
    turn = view["turn_fairy"]
    assert compact_fairy(view, turn).plain.startswith("▶ ")
    order = ", ".join(("You" if f % 2 == 1 else "Them") + " " + "ABC"[f // 2] for f in view["order"])
    assert f"order: {order}" in fairy_meat_info(view, compact=True).plain
    assert "Moon Dagger" in fairy_renderable(view, 3).plain


async def test_fairy_meat_played_with_the_keys_to_a_sealed_reveal(server_url: str) -> None:
    hook = Recorder()
    async with await Client.connect(server_url, name="host") as host, \
            await Client.connect(server_url, name="bramble") as other:
        room = await host.create("fairy_meat", {}, seed=SEED, sit=False)
        assert isinstance(room, str)
        app = CardroomApp(server_url, "thistle", join=room)
        async with app.run_test(size=SIZE, message_hook=hook) as pilot:
            await until(pilot, lambda: on_table(app), "the table")
            screen = table(app)
            assert screen is not None and screen.view is not None and screen.view["seat"] == 0
            opponent = await other.join(room)
            assert opponent.seat == 1
            await until(pilot, lambda: status(app).startswith("your move: choose your weapon"), "the opponent")

            view = screen.view
            text = screen_text(app)
            assert "Fairy Meat · room #" in text
            await until(pilot, lambda: flat(panel_text(app, "#them")).startswith("Opponent (bramble) ─ "), "the names")
            them, me = flat(panel_text(app, "#them")), flat(panel_text(app, "#me"))
            assert them.startswith("Opponent (bramble) ─ Live ●●● 3 Kill ●●● 3 Twinkle ✦ 1 ─ no weapon yet")
            assert me.startswith("You (thistle) ─ Live ●●● 3 Kill ●●● 3 Twinkle ✦ 1 ─ no weapon yet")
            assert "mushrooms 🍄🍄 2" in text and "Fairy Deck: 54 cards" in flat(panel_text(app, "#heap"))
            moves = flat(panel_text(app, "#moves"))
            assert [m["label"] for m in view["legal"]] == ["Claws", "Moon Dagger", "Vibro-Master"]
            assert all(f"{n} {m['label']}" in moves for n, m in enumerate(view["legal"], 1))

            # the first decision, with the keys: it reaches the server, sealed
            before = screen.version
            await pilot.press("2", "enter")
            await until(pilot, lambda: screen.version > before, "the weapon to be locked in")
            assert hook.decisions() == [{"kind": "weapon", "weapon": "moon_dagger"}]
            theirs = await other.wait_view(room, lambda v: v["locked"][0])
            assert theirs["locked"] == [True, False] and theirs["fairies"][0]["weapon"] is None, "sealed: no detail"
            assert "🔒 you locked in: Moon Dagger" in flat(panel_text(app, "#me"))
            assert status(app).startswith("you locked in Moon Dagger — waiting for the opponent · the opponent has ")

            # both play on to the first reveal: the opponent by its client, the app by its keys
            face_down_seen = False
            for _ in range(STEPS):
                view = screen.view
                assert view is not None
                if view["last"] is not None:
                    break
                combat = view["combat"]
                theirs = other.views[room]
                if combat and theirs["version"] == view["version"]:
                    text = screen_text(app)
                    hidden = [f for f in faces(theirs) if f not in faces(view)]
                    assert hidden and not any(face in text for face in hidden), "the opponent's hand is never shown"
                    assert f"combat hand: {combat['sides'][1]['hand_count']} card" in panel_text(app, "#them")
                    if combat["sides"][1]["face_down"]:
                        face_down_seen = True
                        assert f"Their trumps: {FACE_DOWN} (face down)" in flat(panel_text(app, "#combat"))
                if view["legal"]:
                    if view["phase"] == "action":
                        assert " s left" in status(app), "a timed decision shows its countdown"
                    before = screen.version
                    await pilot.press("1", "enter")
                    await past(pilot, screen, before, f"the app's {view['phase']} decision")
                    assert hook.decisions()[-1] == bare(view["legal"][0])
                else:
                    theirs = await at(other, room, view["version"])
                    assert theirs["legal"], f"someone must be asked in {view['phase']}"
                    before = screen.version
                    await other.decide(opponent, opponent_choice(theirs))
                    await past(pilot, screen, before, f"the opponent's {theirs['phase']} decision")
            view = screen.view
            assert view is not None and view["last"] is not None, "no reveal within the bounded loop"
            assert face_down_seen, "with seed 7 the opponent's Trumps lie face down while the app said None"

            # the reveal: every step of the sum the server sent, one line each
            last = view["last"]
            reveal = panel_text(app, "#reveal")
            assert flat(reveal).startswith("─ reveal ─ round 1: You attack the opponent")
            assert len(last["steps"]) >= 3
            steps = [with_names(step, screen.names) for step in last["steps"]]
            for step in steps:
                assert step in flat(reveal), step
            lines = [flat(line) for line in reveal.splitlines()]
            assert lines.index(flat(steps[0])) < lines.index(flat(steps[1])), "one line a step"
            mine = code_card(last["sides"][0]["card"])
            assert mine is not None and f"You: {mine['face']}" in flat(reveal)
            assert f"final value {last['sides'][1]['value']}" in flat(reveal)
            assert steps[-1] in flat(panel_text(app, "#log")), "the steps are in the log too"

            # the Spoils Heap is face down: its size and top card, never a list of what lies in it
            assert isinstance(view["spoils"], int) and "spoils_face_down" not in view
            assert f"Spoils Heap: {view['spoils']} cards" in flat(panel_text(app, "#heap"))
            await pilot.press("t")
            await pilot.pause(0.1)
            assert app.screen is screen, "there is no browsing the Spoils Heap"


async def test_spectating_fairy_meat_shows_both_fairies_and_no_hand(server_url: str) -> None:
    async with await Client.connect(server_url, name="p1") as p1, await Client.connect(server_url, name="p2") as p2:
        first = await p1.create("fairy_meat", {}, seed=SEED)
        assert isinstance(first, Seat)
        room = first.room
        second = await p2.join(room)
        seats = {0: (p1, first), 1: (p2, second)}
        app = CardroomApp(server_url, "watcher", spectate=room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_table(app), "the table")
            screen = table(app)
            assert screen is not None and screen.spectator
            assert "spectating: you see only public information" in screen_text(app)
            assert not screen.query_one("#moves-pane").display
            hands_checked = 0
            for _ in range(STEPS):
                version = max(p1.versions[room], p2.versions[room])
                await past(pilot, screen, version - 1, "the spectator's view")
                assert screen.version == version
                view = screen.view
                assert view is not None and view["hand"] is None and view["legal"] == []
                views = [await at(client, room, version) for client, _ in seats.values()]
                text = screen_text(app)
                for seat, seen in enumerate(views):
                    held = faces(seen)
                    assert not any(face in text for face in held), f"Player {seat + 1}'s hand {held} on screen"
                    for face in held:
                        assert face not in str(view), "nor in the spectator's view"
                    hands_checked += bool(held)
                if view["combat"]:
                    for widget_id, side in zip(("#them", "#me"), view["combat"]["sides"], strict=True):
                        assert f"combat hand: {side['hand_count']} card" in panel_text(app, widget_id)
                if view["last"] is not None:
                    break
                asked = [seat for seat, seen in enumerate(views) if seen["legal"]]
                assert asked, f"someone must be asked in {view['phase']}"
                client, held_seat = seats[asked[0]]
                await client.decide(held_seat, opponent_choice(views[asked[0]]))
            view = screen.view
            assert view is not None and view["last"] is not None, "no reveal within the bounded loop"
            assert hands_checked >= 6
            await until(pilot, lambda: flat(panel_text(app, "#them")).startswith("p1 ─ Live"), "the players' names")
            them, me = flat(panel_text(app, "#them")), flat(panel_text(app, "#me"))
            assert them.startswith("p1 ─ Live") and me.startswith("p2 ─ Live")
            assert "─ Claws" in them and "─ Claws" in me
            reveal = flat(panel_text(app, "#reveal"))
            assert reveal.startswith("─ reveal ─ round 1: p1 attacks p2")
            assert all(with_names(step, ("p1", "p2")) in reveal for step in view["last"]["steps"])
            assert "Player 1" not in screen_text(app) and "Player 2" not in screen_text(app), "names, never seats"
            assert status(app).startswith("spectating · ")
            # a spectator's keys send nothing
            before = screen.version
            await pilot.press("1", "enter")
            await pilot.pause(0.2)
            assert screen.version == before


async def test_the_lobby_creates_a_fairy_meat_room(server_url: str) -> None:
    app = CardroomApp(server_url, "fay", seed=SEED)
    async with app.run_test(size=SIZE) as pilot, await Client.connect(server_url, name="looker") as looker:
        await until(pilot, lambda: app.link.client is not None, "the connection")
        await pilot.press("g", "g", "g")
        assert app.lobby.chosen_game() == "fairy_meat"
        await pilot.press("c")
        await until(pilot, lambda: on_table(app), "the new table")
        screen = table(app)
        assert screen is not None and screen.view is not None and screen.view["seat"] == 0
        await until(pilot, lambda: status(app) == "waiting for an opponent to join", "the empty seat")
        rooms = await looker.list_rooms()
        assert [(r["room"], r["game"], r["taken"]) for r in rooms] == [(screen.room, "fairy_meat", 1)]


def screenshot_text(app: App[Any]) -> str:
    """The screen as text, read from the app's public SVG screenshot: one line a terminal row."""
    rows: dict[int, list[tuple[float, str]]] = {}
    for attrs, body in re.findall(r"<text ([^>]*)>(.*?)</text>", app.export_screenshot()):
        line = re.search(r"-line-(\d+)\)", attrs)
        x = re.search(r'\bx="([\d.]+)"', attrs)
        if line and x:
            rows.setdefault(int(line.group(1)), []).append((float(x.group(1)), html.unescape(body)))
    return "\n".join("".join(text for _, text in sorted(rows[n])) for n in sorted(rows))


def packed(text: str) -> str:
    """Text without any whitespace: the screenshot drops the spaces between differently styled runs."""
    return "".join(text.split())


@pytest.mark.parametrize("band", [1, 3])
async def test_the_table_fits_80x24(server_url: str, band: int) -> None:
    """At 80x24 the table turns compact: every fairy, your hand, the combat, the reveal, the heap, the moves and
    the status line are all on the screen, and the table needs no scrolling."""
    async with await Client.connect(server_url, name="host") as host, \
            await Client.connect(server_url, name="bramble") as other:
        room = await host.create("fairy_meat", {"band": band}, seed=SEED, sit=False)
        assert isinstance(room, str)
        app = CardroomApp(server_url, "thistle", join=room)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: on_table(app), "the table")
            screen = table(app)
            assert screen is not None
            opponent = await other.join(room)
            for _ in range(STEPS * 2):
                view = screen.view
                assert view is not None
                if view["last"] is not None:
                    break
                if view["legal"]:
                    before = screen.version
                    await pilot.press("1", "enter")
                    await past(pilot, screen, before, f"the app's {view['phase']} decision")
                else:
                    theirs = await at(other, room, view["version"])
                    before = screen.version
                    await other.decide(opponent, opponent_choice(theirs))
                    await past(pilot, screen, before, f"the opponent's {theirs['phase']} decision")
            view = screen.view
            assert view is not None and view["last"] is not None, "no reveal within the bounded loop"
            assert screen.has_class("-compact") and len(view["fairies"]) == 2 * band

            whole = app.screen.region
            for widget_id in ("#info", "#them", "#combat", "#reveal", "#me", "#heap", "#moves", "#status"):
                region = app.screen.query_one(widget_id).region
                assert region.area > 0 and whole.contains_region(region), f"{widget_id} is off the screen"
            panels = app.screen.query_one("#table")
            assert panels.max_scroll_y == 0, "the table does not fit: it scrolls"
            for widget_id in ("#them", "#combat", "#reveal", "#me", "#heap"):
                assert panels.region.contains_region(app.screen.query_one(widget_id).region), widget_id

            text = packed(screenshot_text(app))
            for fid in range(2 * band):
                assert packed(compact_fairy(view, fid).plain) in text, f"fairy {fid} is not shown whole"
            assert packed("".join(faces(view))) in text, "your hand"
            assert packed(f"round {view['round']}") in text and packed("─ reveal ─") in text
            result = with_names(str(view["last"]["steps"][-1]), screen.names).split(" (")[0]
            assert packed(result) in text, "the reveal's result"
            assert packed(status(app)) in text, "the status line is whole"
            for entry in view["legal"][:2]:
                assert packed(str(entry["label"]).split()[0]) in text
