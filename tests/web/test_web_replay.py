"""Replays in the browser, in Chromium against a real server: a match finished on a phone replayed from its end
screen and from the lobby's finished matches by taps, every step once; a finished Fairy Meat match replayed on a
desktop by keys, its full view showing both hands and a sealed choice as a lock, each seat's view its own hand."""
from __future__ import annotations

import asyncio

from client import Client
from client.connection import Seat
from client.replay import Replay
from tests.server.helpers import play_to_end
from tests.web.web_client import WAIT_MS, Player, chromium_browser, desktop, phone

QUICK = {"hp": 1}
"""One duel ends the match."""
TURNS = 40
"""A bound on the moves of the phone's match."""


def at_step(n: int) -> str:
    """The condition (over the document) that the replay shows step ``n``."""
    return f"() => (document.querySelector('.replay-screen') || {{dataset: {{}}}}).dataset.step === '{n}'"


async def host_plays(host: Client, seat: Seat) -> None:
    """The host's seat takes the first legal decision each time one is awaited of it, until the match is over."""
    while True:
        view = await host.wait_view(seat.room, lambda v: bool(v["legal"]) or v["outcome"] is not None, timeout=30)
        if view["outcome"] is not None:
            return
        await host.decide(seat, view["legal"][0])
        await host.wait_view(seat.room, lambda v, n=view["version"]: v["version"] > n, timeout=30)  # type: ignore[misc]


async def test_a_match_finished_on_a_phone_replays_by_taps_from_its_end_and_from_the_lobby(
        chromium: str, server_url: str) -> None:
    async with await Client.connect(server_url, name="rival") as host, chromium_browser(chromium) as browser:
        seat = await host.create("creature_wars", QUICK, seed=5)
        assert isinstance(seat, Seat)
        me = await Player.open(await phone(browser), server_url, touch=True)
        await me.enter_name("replayer")
        await me.join_listed(seat.room)
        await me.wait_table(f"t.dataset.room === '{seat.room}' && t.dataset.version === '0'", "the dealt table")
        rival = asyncio.create_task(host_plays(host, seat))
        for _ in range(TURNS):
            if not await me.play_turn():
                break
        await asyncio.wait_for(rival, 30)
        await me.page.locator("#end").wait_for(state="visible", timeout=WAIT_MS)
        record = (await host.request("export", room=seat.room))["record"]
        replay = Replay(record)
        last = replay.last

        await me.press("#replay")  # on the end screen
        page = me.page
        await page.wait_for_function(at_step(0), timeout=WAIT_MS)
        assert (await page.locator("#replay-where").inner_text()).startswith(f"Decision 0/{last}")
        assert await page.locator("#replay-hand-0").count() == 1 and await page.locator("#replay-hand-1").count() == 1, \
            "the full view shows every hand"
        for n in range(1, last + 1):  # every step, one tap each
            await me.press("#replay-next")
            await page.wait_for_function(at_step(n), timeout=WAIT_MS)
            step = replay.steps[n]
            assert step.label in await page.locator("#replay-decision").inner_text()
        assert await page.locator("#replay-next").is_disabled()
        outcome = await page.locator("#replay-outcome").inner_text()
        assert "won" in outcome or "draw" in outcome, outcome
        await me.press("#replay-view")  # the seat's own view: its hand, the other's decision hidden
        await page.locator("#replay-view", has_text="View: rival").wait_for(timeout=WAIT_MS)
        assert await page.locator("#replay-hand-0").count() == 0
        await me.press("#replay-view")
        await page.locator("#board #hand").wait_for(timeout=WAIT_MS)  # replayer's view: their hand on the table
        await me.press("#replay-first")
        await page.wait_for_function(at_step(0), timeout=WAIT_MS)
        assert "The deal." in await page.locator("#replay-decision").inner_text()

        await me.press("#replay-back")  # to the finished table (its end screen), then the lobby's finished matches
        await me.wait_table(f"t.dataset.room === '{seat.room}' && t.dataset.over === 'yes'", "the finished table")
        await page.locator("#end").wait_for(state="visible", timeout=WAIT_MS)
        await me.press("#end-lobby")
        await me.press(f"#your-finished .room[data-room='{seat.room}'] button:has-text('Replay')")
        await page.wait_for_function(at_step(0), timeout=WAIT_MS)
        await me.press("#replay-last")
        await page.wait_for_function(at_step(last), timeout=WAIT_MS)
        await me.press("#replay-prev")
        await page.wait_for_function(at_step(last - 1), timeout=WAIT_MS)
        assert me.errors == []


async def test_a_finished_fairy_meat_match_replays_on_a_desktop_by_keys(chromium: str, server_url: str) -> None:
    async with await Client.connect(server_url, name="ann") as a, await Client.connect(server_url, name="bob") as b, \
            chromium_browser(chromium) as browser:
        sa = await a.create("fairy_meat", seed=3)
        assert isinstance(sa, Seat)
        sb = await b.join(sa.room)
        await play_to_end([(a, sa), (b, sb)], seed=2)
        replay = Replay((await a.request("export", room=sa.room))["record"])
        me = await Player.open(await desktop(browser), server_url, touch=False)
        await me.enter_name("historian")
        page = me.page
        await me.press(f"#room-list .room[data-room='{sa.room}'] button:has-text('Replay')")
        await page.wait_for_function(at_step(0), timeout=WAIT_MS)
        await page.wait_for_function("() => document.querySelector('.replay-screen').dataset.loaded === 'yes'",
                                     timeout=WAIT_MS)
        # a combat's step where one seat has locked in a sealed choice and the other not: the full view shows the lock
        sealed = next(s.number for s in replay.steps if (view := replay.view(s.number, None))["combat"] is not None
                      and view["locked"][0] != view["locked"][1])
        for n in range(1, sealed + 1):
            await page.keyboard.press("ArrowRight")
            await page.wait_for_function(at_step(n), timeout=WAIT_MS)
        text = await page.locator("#combat").inner_text()
        assert "locked in" in text, text
        await page.keyboard.press("End")
        await page.wait_for_function(at_step(replay.last), timeout=WAIT_MS)
        assert replay.view(replay.last, None)["last"] is None or \
            "Last" in await page.locator("#last").inner_text(), "the last attack's reveal"
        attack = next((s.number for s in replay.steps if s.mark), None)
        if attack is not None:
            await page.keyboard.press("Home")
            await page.wait_for_function(at_step(0), timeout=WAIT_MS)
            await page.keyboard.press("n")  # the next attack
            await page.wait_for_function(at_step(attack), timeout=WAIT_MS)
            assert "an attack resolved" in await page.locator("#replay-where").inner_text()
            assert "final value" in await page.locator("#last").inner_text(), "each side's final value"
        await page.keyboard.press("v")  # ann's view
        await page.locator("#replay-view", has_text="View: ann").wait_for(timeout=WAIT_MS)
        await page.keyboard.press("Escape")
        await page.locator("#new-game").wait_for(timeout=WAIT_MS)
        assert me.errors == []
