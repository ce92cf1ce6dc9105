"""The browser client's other tables, spectating, chat and "play now", in Chromium against a real server:
Fairy Meat against the computer, both solitaires from a seeded deal, a watched match whose every frame is
the spectators' view, a chat line, and a pool's wait and pairing; a solitaire's card with no move marked and its
reason told on a tap; Fairy Meat's sealed choices shown to the other seat as locks, and the reveal step by step."""
from __future__ import annotations

from typing import Any

import pytest

from client import Client
from client.connection import Seat
from engine.creature_wars import GAME
from engine.queens_challenge import GAME as QUEENS
from tests.client.test_refusals import CORNFIELD  # seat 1 holds a Cornfield Witch: no creature of its hand may be played
from tests.client.test_whole_hand import CURSED  # turn 1: a lost duel takes 4, the Cursed Witch held 1 more
from tests.server.helpers import play_to_end, projection_errors, received, replay_with_events
from tests.web.web_client import WAIT_MS, Player, answered, chromium_browser, desktop, page_url, phone, record_frames

MOVES = 6
"""Moves made at each table: enough to pass through several kinds of decision."""
SEALED_STEPS = 40
"""A bound on the decisions before the first Fairy Meat attack is revealed (weapons, an action, three sealed steps)."""


async def tap_moves(me: Player, moves: int) -> int:
    """Make up to ``moves`` moves by taps: tap a card that has a move when there is one, then the first move offered
    that does not lose the game; each must give a new view. Fewer when the match ends first: how many were made."""
    for made in range(moves):
        state = await me.table()
        if state["over"]:
            return made
        version = state["version"]
        await me.wait_table("document.querySelector('.moves button.move') || t.dataset.over === 'yes'", "a move")
        usable = me.page.locator(".pcard.usable")
        if await usable.count():
            await me.press(f"#{await usable.first.get_attribute('id')}")
        safe = ".moves button.move:not(.danger)"  # gone, too, once a view says the match is over
        await me.wait_table(f"document.querySelector('{safe}') || t.dataset.over === 'yes'", "a move that does not lose")
        if (await me.table())["over"]:
            return made
        await me.press(f"#{await me.page.locator(safe).first.get_attribute('id')}")
        await me.wait_table(f"{answered(version)} || t.dataset.over === 'yes'", "the move's view")
    return moves


async def test_fairy_meat_against_the_computer_on_a_phone(chromium: str, server_url: str) -> None:
    async with chromium_browser(chromium) as browser:
        me = await Player.open(await phone(browser), server_url, touch=True)
        await me.enter_name("fairyfan")
        for control in ("#game-fairy_meat", "#opp-strong", "#create"):
            await me.press(control)
        await me.wait_table("document.querySelector('#fairy-1')", "both fairies")
        made = await tap_moves(me, MOVES)
        assert made and (await me.table())["version"] >= made, "each move made a new view"
        await me.page.locator("#board", has_text="strong bot").wait_for(timeout=WAIT_MS)  # the fairies by their players' names
        assert me.errors == []


@pytest.mark.parametrize(("game", "first"), [("fairy_tableau", "#slot-0"), ("queens_challenge", "#card-0")])
async def test_a_solitaire_joined_from_the_lobby_is_played_by_taps(chromium: str, server_url: str, game: str, first: str) -> None:
    async with await Client.connect(server_url, name="dealer") as dealer, chromium_browser(chromium) as browser:
        room = await dealer.create(game, seed=1, sit=False)  # a known deal with moves that do not lose at once
        assert isinstance(room, str)
        me = await Player.open(await phone(browser), server_url, touch=True)
        await me.enter_name(f"solo-{game[:6]}")
        await me.join_listed(room)
        await me.wait_table(f"t.dataset.room === '{room}' && document.querySelector('{first}')", "the dealt table")
        await tap_moves(me, MOVES)
        assert (await me.table())["version"] >= MOVES
        assert me.errors == []


async def test_a_spectator_sees_the_public_view_only_and_chats(chromium: str, server_url: str, redis_url: str) -> None:
    frames: list[bytes] = []
    async with await Client.connect(server_url, name="ann", record_frames=True) as ann, \
            await Client.connect(server_url, name="bob") as bob, chromium_browser(chromium) as browser:
        a = await ann.create("creature_wars", {"hp": 10}, seed=7)
        assert isinstance(a, Seat)
        b = await bob.join(a.room)
        context = await desktop(browser)
        context.on("page", lambda page: page.on("websocket", record_frames(frames)))
        me = await Player.open(context, server_url, touch=False)
        await me.enter_name("onlooker")
        await me.watch_listed(a.room)
        await me.wait_table(f"t.dataset.room === '{a.room}' && document.querySelector('#empire-1')", "the watched table")
        assert await me.page.locator("#hand").count() == 0, "a spectator is shown no hand"
        assert (await me.page.locator("#status").inner_text()).startswith("watching")
        for _ in range(3):  # a few duels, followed by the page
            for client, seat in ((ann, a), (bob, b)):
                view = await client.wait_view(a.room, lambda v: bool(v["legal"]) or v["outcome"] is not None)
                if view["outcome"] is None:
                    await client.decide(seat, view["legal"][0])
        version = (await ann.wait_view(a.room, lambda v: True))["version"]
        await me.wait_table(f"Number(t.dataset.version) >= {version}", "the players' duels")

        await me.page.locator("#chat-input").fill("good luck both")
        await me.press("#chat-send")
        line = await ann.wait_message(lambda m: m["t"] == "chat" and m["text"] == "good luck both", timeout=10)
        assert line["name"] == "onlooker" and line["seat"] is None
        await me.page.locator("#chat-lines li", has_text="good luck both").wait_for(timeout=WAIT_MS)
        assert me.errors == []
        await context.close()

    states, events = await replay_with_events(redis_url, a.room, {"hp": 10}, 7)
    views = [(f, m) for f, m in zip(frames, received(frames), strict=True) if m["t"] == "view" and m["view"] is not None]
    dealt = [f for f, _ in views]
    assert len(dealt) >= 3 and projection_errors(dealt, states, events, None) == []
    for frame, message in views:
        assert all("cards" not in hand for hand in message["view"]["hands"]), "no hand's cards reach a spectator"
        for seat in (0, 1):
            for card in GAME.view(states[message["version"]], seat)["hands"][seat]["cards"]:
                assert card["text"].encode() not in frame or card["text"] in repr(message["view"]), card["text"]


async def test_play_now_shows_the_wait_cancels_and_pairs(chromium: str, server_url: str) -> None:
    async with chromium_browser(chromium) as browser, await Client.connect(server_url, name="eager", record_frames=True) as eager:
        me = await Player.open(await phone(browser), server_url, touch=True)
        await me.enter_name("waiter")
        await me.press("#play-now-computer")  # no computer: wait for a person
        await me.press("#play-now-creature_wars")
        status = me.page.locator("#queue-status")
        await status.wait_for(timeout=WAIT_MS)
        assert "Looking for a Creature Wars opponent" in await status.inner_text()
        await me.press("#play-now-cancel")
        await me.page.locator("#play-now-creature_wars").wait_for(timeout=WAIT_MS)
        assert await status.count() == 0

        await me.press("#play-now-creature_wars")
        await status.wait_for(timeout=WAIT_MS)
        await eager.queue("creature_wars")
        seat = await eager.play_paired("creature_wars")
        await me.wait_table(f"t.dataset.room === '{seat.room}' && document.querySelector('#empire-0')", "the paired table")
        await me.page.locator("#clocks", has_text="eager").wait_for(timeout=WAIT_MS)
        assert me.errors == []


async def test_an_invitation_link_seats_a_friend_and_resign_ends_the_match(chromium: str, server_url: str) -> None:
    async with await Client.connect(server_url, name="host", record_frames=True) as host, \
            chromium_browser(chromium) as browser:
        seat = await host.create("creature_wars")
        assert isinstance(seat, Seat)
        context = await phone(browser)
        page = await context.new_page()
        await page.goto(f"{page_url(server_url)}#join/{seat.room}")  # the link a waiting table shows
        me = Player(page, touch=True)
        await page.locator("#name-input").fill("friend")
        await me.press("#name-ok")
        await me.wait_table(f"t.dataset.room === '{seat.room}' && t.dataset.seat === '1' && t.dataset.version === '0'",
                            "the invited seat")
        await host.wait_view(seat.room, lambda v: v["seat"] == 0)
        async with await Client.connect(server_url, name="onlooker") as onlooker:
            await onlooker.spectate(seat.room)
            await page.locator("#watching", has_text="1 watching").wait_for(timeout=WAIT_MS)  # players see who watches
        await me.press("#resign")
        await me.press("#resign-yes")  # asked first: no single tap resigns
        await page.locator("#end-title", has_text="host won by resignation").wait_for(timeout=WAIT_MS)
        over = await host.wait_message(lambda m: m["t"] == "match_over", timeout=10)
        assert over["outcome"]["winner"] == 0 and over["outcome"]["reason"] == "resigned"
        await host.leave(seat.room)  # after the match a player gone is news too, with no clock running on
        left = page.locator("#log li", has_text="host left the table")
        await left.wait_for(state="attached", timeout=WAIT_MS)
        assert await left.last.text_content() == "host left the table."
        await context.close()


async def test_a_waiting_room_is_cancelled_from_its_table(chromium: str, server_url: str) -> None:
    async with chromium_browser(chromium) as browser, await Client.connect(server_url, name="looker") as looker:
        me = await Player.open(await phone(browser), server_url, touch=True)
        await me.enter_name("changed-mind")
        await me.press("#create")
        await me.wait_table("t.dataset.room", "the waiting table")
        room = (await me.table())["room"]
        assert room in {r["room"] for r in await looker.list_rooms()}
        await me.press("#cancel-room")
        await me.page.locator("#status", has_text="the room was closed (cancelled)").wait_for(timeout=WAIT_MS)
        assert room not in {r["room"] for r in await looker.list_rooms()}
        assert me.errors == []


async def test_the_lobby_shows_the_rating_table(chromium: str, server_url: str) -> None:
    async with await Client.connect(server_url, name="rated-ann", key="ann-key-of-sixteen-chars") as ann, \
            await Client.connect(server_url, name="rated-bob", key="bob-key-of-sixteen-chars") as bob, \
            chromium_browser(chromium) as browser:
        a = await ann.create("creature_wars", {"hp": 1}, ranked=True)
        assert isinstance(a, Seat)
        b = await bob.join(a.room)
        await play_to_end([(ann, a), (bob, b)], seed=3)
        me = await Player.open(await desktop(browser), server_url, touch=False)
        await me.enter_name("curious")
        await me.press("#leaders-creature_wars")
        listed = me.page.locator("#leaders-list")
        await listed.wait_for(timeout=WAIT_MS)
        for _ in range(40):  # the ratings are written in the match's last step; a moment later at most (bounded)
            if "rated-ann" in await listed.inner_text():
                break
            await me.press("#leaders-creature_wars")
        text = await listed.inner_text()
        assert "rated-ann" in text and "rated-bob" in text and "1 match" in text, text
        assert me.errors == []




async def cornfield_table(host: Client, me: Player, name: str) -> Seat:
    """``me`` sits, as ``name``, in seat 1 of a room ``host`` made holding a Cornfield Witch (the host sits in seat 0)."""
    seat = await host.create("creature_wars", CORNFIELD, seed=3)
    assert isinstance(seat, Seat)
    await me.enter_name(name)
    await me.join_listed(seat.room)
    await me.wait_table("document.querySelector('.card.playable')", "the hand")
    return seat


async def test_a_blocked_card_is_marked_with_its_reason_and_a_tap_asks_why(chromium: str, server_url: str) -> None:
    async with await Client.connect(server_url, name="blocker") as host, chromium_browser(chromium) as browser:
        me = await Player.open(await phone(browser), server_url, touch=True)
        await cornfield_table(host, me, "blocked")
        dragon = me.page.locator(".card", has_text="Dragon")
        assert "unplayable" in (await dragon.get_attribute("class") or "")
        assert "not playable now: may not be played while the Cornfield Witch is in your hand" in await dragon.inner_text(), \
            "the server's reason, on the card before any tap"
        await me.press(f"#{await dragon.get_attribute('id')}")
        await me.press("#why")
        status = me.page.locator("#status", has_text="refused")
        await status.wait_for(timeout=WAIT_MS)
        refused = await status.inner_text()
        assert "may not be played while the Cornfield Witch is in your hand" in refused and "slot" not in refused, refused
        assert (await me.table())["version"] == 0, "nothing was played"
        await me.press(f"#{await me.page.locator('.card.witch', has_text='Cornfield Witch').get_attribute('id')}")
        assert "refused" not in await me.page.locator("#status").inner_text(), "a new tap clears the refusal"
        await me.press("#lock-in")
        await me.wait_table(f"{answered(0)}", "the witch locked in")
        assert me.errors == []




async def test_the_duel_says_what_the_empire_took_and_why(chromium: str, server_url: str) -> None:
    async with await Client.connect(server_url, name="dragon") as host, chromium_browser(chromium) as browser:
        room = await host.create("creature_wars", CURSED, seed=1, sit=False)
        assert isinstance(room, str)
        me = await Player.open(await phone(browser), server_url, touch=True)
        await me.enter_name("cursed")
        await me.join_listed(room)
        await me.wait_table(f"t.dataset.room === '{room}' && t.dataset.seat === '0'", "seat 0")
        seat = await host.join(room)
        await me.wait_table("document.querySelector('.card.playable')", "the deal")
        await me.press("#card-1")  # the Giant
        await me.press("#lock-in")
        await host.wait_view(room, lambda v: v["locked"][0])
        await host.decide(seat, {"kind": "play", "slot": 0})
        duel = me.page.locator("#duel", has_text="Turn 1 duel")
        await duel.wait_for(timeout=WAIT_MS)
        text = await duel.inner_text()
        assert "You take 5: 4 from the duel + 1 Cursed Witch in hand" in text, text
        assert "5/30" not in text and "25/30" in await me.page.locator("#hp-0").inner_text()
        assert me.errors == []


async def test_names_and_chat_are_plain_text(chromium: str, server_url: str) -> None:
    markup = "<b>bold</b>"
    async with await Client.connect(server_url, name=markup) as host, chromium_browser(chromium) as browser:
        seat = await host.create("creature_wars")
        assert isinstance(seat, Seat)
        me = await Player.open(await desktop(browser), server_url, touch=False)
        await me.enter_name("reader")
        row = me.page.locator(f"#room-list .room[data-room='{seat.room}']")
        await row.wait_for(timeout=WAIT_MS)
        assert markup in await row.inner_text() and await row.locator("b").count() == 0
        await me.watch_listed(seat.room)
        await me.wait_table(f"t.dataset.room === '{seat.room}'", "the watched table")
        await host.chat(seat.room, "<img src=x onerror=alert(1)> hi")
        line = me.page.locator("#chat-lines li", has_text="hi")
        await line.wait_for(timeout=WAIT_MS)
        assert "<img src=x onerror=alert(1)> hi" in await line.inner_text()
        assert await me.page.locator("#chat-lines img").count() == 0
        assert me.errors == []


async def test_keys_play_on_a_desktop_as_in_the_terminal(chromium: str, server_url: str) -> None:
    async with await Client.connect(server_url, name="keyhost") as host, chromium_browser(chromium) as browser:
        me = await Player.open(await desktop(browser), server_url, touch=False)
        seat = await cornfield_table(host, me, "typer")
        await me.page.keyboard.press("1")  # the Dragon, blocked by the Cornfield Witch: Enter says why
        await me.page.keyboard.press("Enter")
        await me.page.locator("#status", has_text="may not be played while the Cornfield Witch").wait_for(timeout=WAIT_MS)
        await me.page.keyboard.press("2")
        assert "Lock in Lvl.1 Cornfield Witch" in await me.page.locator("#lock-in").inner_text()
        await me.page.keyboard.press("Enter")
        view = await host.wait_view(seat.room, lambda v: v["locked"][1])
        assert view["version"] == 1
        await me.page.locator("#status", has_text="you locked in Lvl.1 Cornfield Witch").wait_for(timeout=WAIT_MS)
        assert me.errors == []


async def test_an_abort_offered_from_the_page_and_accepted_ends_the_match_without_result(
        chromium: str, server_url: str) -> None:
    async with await Client.connect(server_url, name="agreeable", record_frames=True) as host, \
            chromium_browser(chromium) as browser:
        # seeded: about one deal in a hundred springs a Premature Witch of seat 1 at the deal, with no card left to play
        seat = await host.create("creature_wars", seed=1)
        assert isinstance(seat, Seat)
        me = await Player.open(await phone(browser), server_url, touch=True)
        await me.enter_name("quitter")
        await me.join_listed(seat.room)
        await me.wait_table("document.querySelector('.card.playable')", "the deal")
        await me.press("#abort")
        offered = await host.wait_message(lambda m: m["t"] == "abort_offered", timeout=10)
        assert offered["seat"] == 1
        await me.page.locator("#log li", has_text="You offered to abort").wait_for(timeout=WAIT_MS)
        await host.abort(seat)
        await me.page.locator("#end-title", has_text="the match was aborted").wait_for(timeout=WAIT_MS)
        assert me.errors == []


async def test_a_solitaire_card_with_no_move_is_marked_and_a_tap_says_why(chromium: str, server_url: str) -> None:
    deal = QUEENS.setup({}, 1)
    # the first gather that leaves another card of the hand with no move, and that card's reason
    for gathered in deal.hand:
        after, _ = QUEENS.apply(deal, 0, {"kind": "gather", "card": gathered.code})
        stuck = next(((i, why) for i, why in enumerate(QUEENS.blocked(after, 0)) if why), None)
        if stuck is not None:
            break
    assert stuck is not None, "the deal has a gather that blocks another card"
    index, reason = stuck
    async with await Client.connect(server_url, name="dealer") as dealer, chromium_browser(chromium) as browser:
        room = await dealer.create("queens_challenge", seed=1, sit=False)
        assert isinstance(room, str)
        me = await Player.open(await phone(browser), server_url, touch=True)
        await me.enter_name("gatherer")
        await me.join_listed(room)
        await me.wait_table(f"t.dataset.room === '{room}' && document.querySelector('#card-0')", "the dealt hand")
        assert await me.page.locator("#hand .pcard .face").all_inner_texts() == [c.face for c in deal.hand]
        assert await me.page.locator("#hand .pcard.unplayable").count() == 0, "every card of the deal has a move"
        await me.press(f"#card-{deal.hand.index(gathered)}")
        await me.press(f".moves button.move:has-text('Gather {gathered.face}')")
        await me.wait_table(answered(0), "the gather")
        await me.page.locator(f"#pile-{gathered.suit.value}", has_text=f"top {gathered.face}").wait_for(timeout=WAIT_MS)
        card = me.page.locator(f"#card-{index}")
        assert "unplayable" in (await card.get_attribute("class") or "") and "no move" in await card.inner_text()
        await me.press(f"#card-{index}")
        why = me.page.locator("#card-reason")
        await why.wait_for(timeout=WAIT_MS)
        assert await why.inner_text() == f"Not playable now: {reason}"
        assert me.errors == []


def host_choice(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The host's decision: an attack when it may act, else the first legal one."""
    return next((d for d in legal if d.get("action") == "attack"), legal[0])


async def test_fairy_meat_shows_each_sealed_choice_as_a_lock_and_the_reveal_step_by_step(
        chromium: str, server_url: str) -> None:
    async with await Client.connect(server_url, name="sealer") as host, chromium_browser(chromium) as browser:
        seat = await host.create("fairy_meat", seed=3)
        assert isinstance(seat, Seat)
        me = await Player.open(await phone(browser), server_url, touch=True)
        await me.enter_name("peeker")
        await me.join_listed(seat.room)
        await me.wait_table(f"t.dataset.room === '{seat.room}' && document.querySelector('#fairy-1')", "both fairies")
        locks: set[str] = set()
        version = 0
        for _ in range(SEALED_STEPS):
            view = await host.wait_view(seat.room, lambda v, n=version: v["version"] >= n)  # type: ignore[misc]
            if view["last"] is not None or view["outcome"] is not None:
                break
            if 0 in view["waiting_for"] and view["legal"]:
                await host.decide(seat, host_choice(view["legal"]))
                mine = await host.wait_view(seat.room, lambda v, n=view["version"]: v["version"] > n)  # type: ignore[misc]
                version = mine["version"]
                if 1 in mine["waiting_for"] and mine["locked"][0]:  # sealed: the page sees the lock, not the choice
                    await me.wait_table(f"Number(t.dataset.version) >= {version}", "the host's lock-in")
                    assert "opponent locked in" in await me.page.locator("#status").inner_text()
                    if mine["combat"] is not None:
                        side = await me.page.locator("#combat-0").inner_text()
                        assert "locked in" in side and "sealed" not in side, side
                    locks.add(mine["phase"])
            elif 1 in view["waiting_for"]:
                await tap_moves(me, 1)
                version = (await me.table())["version"]
        assert {"setup", "declare"} <= locks, f"the locks seen: {locks}"
        last = me.page.locator("#last", has_text="Last")
        await last.wait_for(timeout=WAIT_MS)
        text = await last.inner_text()
        assert "final value" in text and ("won" in text or "no winner" in text), text
        assert await me.page.locator("#last-steps li").count() >= 1, "every step of the sum"
        assert "round" in await me.page.locator("#fm-info").inner_text()
        assert me.errors == []
