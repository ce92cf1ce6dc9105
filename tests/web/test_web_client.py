"""The browser client served by the node, in a real Chromium against a real server: whole Creature Wars
matches on a phone by taps (then a rematch) and on a desktop against a terminal player (then its record
verified), no hidden card in any frame the page receives, the identity and seats kept across a reload, a
dropped connection resumed, two tabs handing a seat over, and a closed tab's waiting room closed as abandoned."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import WebSocket

from client import Client
from client.app import CardroomApp
from client.connection import ClientError
from client.screens import MatchScreen, QuestionScreen
from client.verify import verify
from engine.creature_wars import GAME
from protocol import decode_any
from server.lobby import expiry
from tests.client.helpers import settle
from tests.server.helpers import projection_errors, received, replay_with_events
from tests.web.web_client import WAIT_MS, Player, chromium_browser, desktop, page_url, phone, record_frames

QUICK = {"hp": 10}
"""The HP the page's option buttons offer for a short match."""
TURNS = 120
"""A bound on the moves of one short match (it ends in far fewer)."""
PASSES = 2000
"""A bound on the passes of the desktop match's loop (a pass makes a move or waits 50 ms for the next message)."""


async def test_a_whole_match_on_a_phone_by_taps_and_no_hidden_card_reaches_the_page(
        chromium: str, server_url: str, redis_url: str) -> None:
    frames: list[bytes] = []
    async with chromium_browser(chromium) as browser:
        context = await phone(browser)
        context.on("page", lambda page: page.on("websocket", record_frames(frames)))
        me = await Player.open(context, server_url, touch=True)
        page = me.page
        await me.start("thumbs", ("#game-creature_wars", "#opt-hp-10", "#opp-strong", "#create"))
        for _ in range(TURNS):
            if not await me.play_turn():
                break
        state = await me.table()
        assert state["over"], f"the match did not end within {TURNS} moves: {state}"
        await page.locator("#end").wait_for(state="visible", timeout=WAIT_MS)
        title = await page.locator("#end-title").inner_text()
        assert title.startswith(("you won", "strong bot won", "a draw")), title
        first_room, first_seat = state["room"], await page.evaluate("document.querySelector('.table-screen').dataset.seat")
        await me.press("#rematch")  # the computer accepts: a new room, seats swapped, a new deal
        await me.wait_table(f"t.dataset.room !== '{first_room}' && Number(t.dataset.version) >= 0", "the rematch's table")
        assert await page.evaluate("document.querySelector('.table-screen').dataset.seat") == str(1 - int(first_seat))
        assert await page.locator("#end").is_hidden()
        await page.locator("#hand .card").first.wait_for(timeout=WAIT_MS)  # its deal (no move made: one duel may end it)
        await me.press("#to-lobby")
        await page.locator("#new-game").wait_for(timeout=WAIT_MS)
        assert me.errors == []
        await context.close()

    assert any("delta" in decode_any(frame) for frame in frames), "the page asks for view deltas"
    messages = received(frames)  # deltas applied: every view message holds its whole view
    granted = next(m for m in messages if m["t"] == "seat_granted")
    over = next(m for m in messages if m["t"] == "match_over")
    frames = [f for f, m in zip(frames, messages, strict=True) if m.get("room") == granted["room"]]  # the first match
    messages = [m for m in messages if m.get("room") == granted["room"]]
    seat = granted["seat"]
    assert over["outcome"]["reason"] in ("knockout", "mayhem")

    # every view frame is exactly the engine's view for this seat, its events redacted for it
    states, events = await replay_with_events(redis_url, granted["room"], QUICK, over["seed"])
    dealt = [frame for frame, m in zip(frames, messages, strict=True) if m["t"] == "view" and m["view"] is not None]
    assert len(dealt) > 3
    assert projection_errors(dealt, states, events, seat) == []
    # and no card of the other hand is named in any frame before the duel that shows it
    other = 1 - seat
    for frame, message in zip(frames, messages, strict=True):
        if message["t"] != "view" or message["view"] is None:
            continue
        hidden = GAME.view(states[message["version"]], other)["hands"][other]["cards"]
        mine = {c["text"] for c in message["view"]["hands"][seat].get("cards", [])}
        told = [message["view"].get(field) for field in ("last_duel", "discard", "revealed")]
        public = repr(told) + repr(message["events"])  # the events are the seat's redacted ones (checked above)
        for card in hidden:
            if card["text"] not in mine and card["text"] not in public:
                assert card["text"].encode() not in frame, f"v{message['version']}: {card['text']} of the other hand"


async def terminal_move(app: CardroomApp, pilot: Any) -> bool:
    """The terminal player's move, by keys: the first option of a witch's question, else its first playable card;
    whether it had one."""
    if isinstance(app.screen, QuestionScreen):
        await settle(pilot)  # its options mounted and focused: a key pressed before that was lost, and the test
        if isinstance(app.screen, QuestionScreen):  # pressed once per view, so the question stayed unanswered
            await pilot.press("enter")
            return True
    screen = next((s for s in app.screen_stack if isinstance(s, MatchScreen)), None)
    view = screen.view if screen is not None else None
    if view is None or view.get("outcome") is not None:
        return False
    slots = sorted(d["slot"] for d in view.get("legal") or () if d.get("kind") == "play" and d["slot"] < 9)
    if slots:
        await pilot.press(str(slots[0] + 1), "enter")
    return bool(slots)


async def test_a_whole_match_on_a_desktop_against_a_terminal_player(
        chromium: str, server_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDROOM_STATE_DIR", str(tmp_path / "terminal"))
    async with chromium_browser(chromium) as browser:
        context = await desktop(browser)
        me = await Player.open(context, server_url, touch=False)
        page = me.page
        await me.enter_name("clicker")
        for control in ("#game-creature_wars", "#opt-hp-10", "#opp-person", "#rated-off", "#create"):
            await me.press(control)
        await me.wait_table("t.dataset.room", "the table")
        room = (await me.table())["room"]
        await page.locator("#invite").wait_for(timeout=WAIT_MS)

        app = CardroomApp(server_url, "typist", join=room)
        async with app.run_test(size=(120, 40)) as pilot:
            await me.wait_table("t.dataset.version !== '-1' && document.querySelector('#empire-1')", "the deal")
            await page.locator("#clocks", has_text="typist").wait_for(timeout=WAIT_MS)  # the terminal player's name
            pressed = -1  # the terminal's version it last moved at: one press per view
            for _ in range(PASSES):  # bounded: each pass makes a move or lets the messages in flight arrive
                state = await me.table()
                if state["over"]:
                    break
                if await me.move(state):
                    continue
                screen = next(s for s in app.screen_stack if isinstance(s, MatchScreen))
                seen = screen.version  # read before the keys: the reply to them may arrive while they are pressed
                if seen != pressed and await terminal_move(app, pilot):
                    pressed = seen
                else:
                    await pilot.pause(0.05)
            state = await me.table()
            assert state["over"], f"the match did not end within {PASSES} passes: {state}"
            screen = next(s for s in app.screen_stack if isinstance(s, MatchScreen))
            for _ in range(100):  # the terminal gets the same end (bounded)
                if screen.view is not None and screen.view.get("outcome") is not None:
                    break
                await pilot.pause(0.1)
            assert screen.view is not None and screen.view["outcome"] is not None
            title = await page.locator("#end-title").inner_text()
            winner = screen.view["outcome"]["winner"]
            expected = "a draw" if winner is None else ("you won" if winner == 0 else "typist won")
            assert title.startswith(expected), (title, screen.view["outcome"])

        # the match record the end screen saves is the one `cardroom verify` and `cardroom replay` read
        async with page.expect_download(timeout=WAIT_MS) as saving:
            await me.press("#export")
        saved = tmp_path / "record.json"
        await (await saving.value).save_as(saved)
        record = json.loads(saved.read_text())
        assert record["room"] == room and isinstance(record["seed"], int)
        verdict = verify(record)  # 64-bit seeds written out exactly, or the seed chain would not check
        assert verdict.ok, verdict.message
        assert me.errors == []
        await context.close()


async def test_the_identity_outlives_a_reload_and_never_shows_its_key(chromium: str, server_url: str) -> None:
    logged: list[str] = []
    sent: list[bytes] = []

    def sending(ws: WebSocket) -> None:
        ws.on("framesent", lambda payload: sent.append(payload) if isinstance(payload, bytes) else None)

    async with chromium_browser(chromium) as browser:
        context = await desktop(browser)
        context.on("page", lambda page: page.on("console", lambda message: logged.append(message.text)))
        context.on("page", lambda page: page.on("websocket", sending))
        me = await Player.open(context, server_url, touch=False)
        page = me.page

        # a name the server refuses gets a prompt saying why, and the name screen again
        await page.locator("#name-input").fill("a-name-of-thirty-characters-x")
        await me.press("#name-ok")
        await page.locator("#name-problem").wait_for(timeout=WAIT_MS)
        assert "24" in await page.locator("#name-problem").inner_text()

        await me.enter_name("keeper")
        await me.press("#create")  # a rated Creature Wars room: the seat's token is kept too
        await me.wait_table("t.dataset.room", "the table")
        room = (await me.table())["room"]
        key = await page.evaluate("JSON.parse(localStorage.getItem('cardroom.identity')).key")
        assert isinstance(key, str) and len(key) >= 16

        await page.reload()  # at the table: the same seat, taken back with the kept token, no name asked
        await me.wait_table(f"t.dataset.room === '{room}' && t.dataset.seat === '0'", "the seat after a reload")
        await page.locator("#table-title", has_text="you are keeper").wait_for(timeout=WAIT_MS)

        await page.goto(page_url(server_url))  # the lobby's address
        await page.locator("#new-game").wait_for(timeout=WAIT_MS)
        assert await page.locator("#who .me").inner_text() == "keeper", "no name asked again"
        assert await page.evaluate("JSON.parse(localStorage.getItem('cardroom.identity')).key") == key
        resume = page.locator(f"#your-rooms .room[data-room='{room}'] button", has_text="Resume")
        await resume.wait_for(timeout=WAIT_MS)
        await resume.click()
        await me.wait_table(f"t.dataset.room === '{room}'", "the resumed seat")
        await page.locator("#table-title", has_text="you are keeper").wait_for(timeout=WAIT_MS)

        with pytest.raises(ClientError) as refused:  # the name is bound to this browser's key, and no other
            await Client.connect(server_url, name="keeper", key="another-key-of-sixteen-or-more")
        assert refused.value.code == "name_taken"
        assert key not in await page.content()
        assert not any(key in line for line in logged)
        carrying = [decode_any(frame)["t"] for frame in sent if key.encode() in frame]
        assert carrying and set(carrying) == {"hello"}, f"the key went out in {carrying}, not in hello alone"
        assert me.errors == []
        await context.close()


@pytest.fixture
def quick_sweeps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rooms swept every 20 ms and abandoned after 0.3 s away (a minute and 15 s in play)."""
    monkeypatch.setattr(expiry, "SWEEP_EVERY", 0.02)
    monkeypatch.setattr(expiry, "ABANDONED_AFTER", 0.3)


async def test_a_closed_tab_leaves_no_waiting_room(quick_sweeps: None, chromium: str, server_url: str) -> None:
    async with chromium_browser(chromium) as browser, \
            await Client.connect(server_url, name="watcher", record_frames=True) as watcher:
        context = await phone(browser)
        me = await Player.open(context, server_url, touch=True)
        page = me.page
        await me.enter_name("leaver")
        await me.press("#rated-off")
        await me.press("#create")
        await me.wait_table("t.dataset.room", "the table")
        room = (await me.table())["room"]
        await watcher.spectate(room)
        await page.close()  # the tab closes: its websocket with it
        closed = await watcher.wait_message(lambda m: m["t"] == "room_closed", timeout=10)
        assert closed["room"] == room and closed["reason"] == "abandoned"
        assert room not in {r["room"] for r in await watcher.list_rooms()}
        await context.close()


async def test_a_dropped_connection_is_reconnected_and_the_seat_resumed(
        chromium: str, server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDROOM_ADMIN_SECRET", "operator-secret-for-the-test")
    async with chromium_browser(chromium) as browser, await Client.connect(server_url, name="operator") as operator:
        me = await Player.open(await desktop(browser), server_url, touch=False)
        await me.enter_name("dropped")
        for control in ("#opp-strong", "#create"):  # 30 HP: at 10, the first duel can end the match before the drop
            await me.press(control)
        await me.wait_table("Number(t.dataset.version) >= 0", "the table")
        assert await me.play_turn()
        state = await me.table()
        assert not state["over"], "the match must still be on when the connection is dropped"
        seat = int(await me.page.evaluate("document.querySelector('.table-screen').dataset.seat"))
        kicked = await operator.request("admin", op="kick", secret="operator-secret-for-the-test", room=state["room"], seat=seat)
        assert kicked["result"]["kicked"] == 1, "the page's connection is dropped"
        await me.page.locator("#banner", has_text="reconnecting").wait_for(timeout=WAIT_MS)
        await me.page.locator("#banner").wait_for(state="hidden", timeout=WAIT_MS)
        await me.wait_table(f"t.dataset.room === '{state['room']}' && Number(t.dataset.version) >= {state['version']}",
                            "the resumed seat's view")
        for _ in range(3):  # the match goes on from the resumed seat
            assert await me.play_turn() or (await me.table())["over"]
        assert (await me.table())["version"] > state["version"]
        assert me.errors == []


@pytest.mark.slow  # long: in the slow suite, a step of its own in CI
async def test_two_tabs_of_one_browser_hand_the_seat_back_and_forth(chromium: str, server_url: str) -> None:
    async with chromium_browser(chromium) as browser:
        context = await desktop(browser)  # one browser: both tabs share its storage, so its identity and seats
        first = await Player.open(context, server_url, touch=False)
        await first.enter_name("two-tabs")
        for control in ("#opt-hp-10", "#opp-strong", "#create"):
            await first.press(control)
        await first.wait_table("Number(t.dataset.version) >= 0", "the table")
        room = (await first.table())["room"]
        second = await Player.open(context, server_url, touch=False)
        await second.press(f"#your-rooms .room[data-room='{room}'] button:has-text('Resume')")
        await second.wait_table(f"t.dataset.room === '{room}' && t.dataset.seat === '0'", "the seat in the second tab")
        await first.page.locator("#status", has_text="played from another connection").wait_for(timeout=WAIT_MS)
        assert await first.page.locator("#lock-in").count() == 0, "the tab that lost the seat offers no move"
        await first.press("#play-here")
        await second.page.locator("#status", has_text="played from another connection").wait_for(timeout=WAIT_MS)
        assert await first.play_turn(), "the first tab plays again"
        assert first.errors == [] and second.errors == []
        await context.close()
