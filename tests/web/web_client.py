"""Driving the browser client in Chromium as a player does: a page at a size, taps or clicks on controls that
must be on screen, and the table's state as the page shows it."""
from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Browser, BrowserContext, FloatRect, Page, WebSocket, async_playwright
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

PHONE = {"width": 412, "height": 915}
DESKTOP = {"width": 1280, "height": 800}
WAIT_MS = 20_000
"""The longest a step waits for the page (a turn against the computer takes well under a second)."""
REDRAWN = 5
"""How many times a press looks for its control again when the table was drawn anew under it."""


def page_url(server_url: str) -> str:
    """The page of the node at ``server_url`` (ws://host:port): the same port, over http."""
    return "http" + server_url.removeprefix("ws").rstrip("/") + "/"


@contextlib.asynccontextmanager
async def chromium_browser(chromium: str) -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            await browser.close()


async def phone(browser: Browser) -> BrowserContext:
    """A touch screen of 412x915 (a phone held upright)."""
    return await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[arg-type]


async def desktop(browser: Browser) -> BrowserContext:
    return await browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]


def answered(version: int) -> str:
    """The condition (over the table ``t``) that the table moved past ``version`` and no decision of the page
    waits for its answer: a later view that came from the other seat does not make a move of ours answered."""
    return f"(Number(t.dataset.version) > {version} && t.dataset.pending === 'no')"


def record_frames(frames: list[bytes]) -> Any:
    """A page's ``websocket`` handler keeping every binary frame the page receives."""
    def opened(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(payload) if isinstance(payload, bytes) else None)
    return opened


@dataclass
class Player:
    """A page and how it presses controls: taps (a touch screen) or clicks; each control must be on screen.
    ``errors`` keeps every script error the page raised (a test ends asserting there was none)."""

    page: Page
    touch: bool
    errors: list[str] = field(default_factory=list)

    @classmethod
    async def open(cls, context: BrowserContext, server_url: str, *, touch: bool) -> Player:
        """A new tab on the node's page."""
        page = await context.new_page()
        player = cls(page, touch)
        page.on("pageerror", lambda error: player.errors.append(str(error)))
        await page.goto(page_url(server_url))
        return player

    async def press(self, selector: str) -> None:
        """Bring the control into view as a player scrolls, check it lies wholly inside the viewport, then press it.
        (A view arriving meanwhile draws the table anew: the control is then found again in the new drawing.)"""
        for attempt in range(REDRAWN):
            control = self.page.locator(selector).first
            try:
                await control.wait_for(state="visible", timeout=WAIT_MS)
                await control.scroll_into_view_if_needed(timeout=WAIT_MS)
                box = await control.bounding_box()
                if box is None and attempt < REDRAWN - 1:
                    continue  # drawn anew between finding it and measuring it: find it again
                await self.on_screen(box, selector)
                if self.touch:
                    await control.tap(timeout=WAIT_MS)
                else:
                    await control.click(timeout=WAIT_MS)
                return
            except PlaywrightError as exc:
                if "not attached" not in str(exc) or attempt == REDRAWN - 1:
                    raise

    async def on_screen(self, box: FloatRect | None, what: str) -> None:
        """Check that a control's box (measured once: a second look may find the table drawn anew) lies wholly
        inside the viewport."""
        size = self.page.viewport_size
        assert size is not None and box is not None, f"{what} has no box on the page"
        assert box["x"] >= 0 and box["y"] >= 0, f"{what} starts off screen: {box}"
        assert box["x"] + box["width"] <= size["width"] + 0.5, f"{what} runs off the right edge: {box}"
        assert box["y"] + box["height"] <= size["height"] + 0.5, f"{what} runs off the bottom: {box}"
        wide = await self.page.evaluate("document.documentElement.scrollWidth")
        assert wide <= size["width"], f"the page is {wide} px wide on a {size['width']} px screen"

    async def enter_name(self, name: str) -> None:
        """The name screen (the one thing typed: a phone shows its keyboard for it); then the lobby."""
        await self.page.locator("#name-input").fill(name)
        await self.press("#name-ok")
        await self.page.locator("#new-game").wait_for(timeout=WAIT_MS)

    async def join_listed(self, room: str) -> None:
        """Press Join on ``room``'s row of the lobby's listing."""
        await self.press(f"#room-list .room[data-room='{room}'] button:has-text('Join')")

    async def watch_listed(self, room: str) -> None:
        """Press Watch on ``room``'s row of the lobby's listing."""
        await self.press(f"#room-list .room[data-room='{room}'] button:has-text('Watch')")

    async def table(self) -> dict[str, Any]:
        """What the open table shows: its room, version, whether the match is over, and what may be pressed."""
        state: dict[str, Any] = await self.page.evaluate("""() => {
            const t = document.querySelector('.table-screen');
            if (!t) return {room: null};
            const visible = (s) => { const e = document.querySelector(s); return Boolean(e && e.checkVisibility()); };
            return {room: t.dataset.room, version: Number(t.dataset.version), over: t.dataset.over === 'yes',
                    answers: document.querySelectorAll('[id^=answer-]').length,
                    playable: [...document.querySelectorAll('.card.playable')].map((e) => e.id),
                    status: (document.querySelector('#status') || {}).textContent || '',
                    end: visible('#end')};
        }""")
        return state

    async def start(self, name: str, controls: tuple[str, ...]) -> None:
        """Enter ``name``, press the lobby's ``controls`` in turn (a game, its options, the opponent, create) and wait
        for the new room's table."""
        await self.enter_name(name)
        for control in controls:
            await self.press(control)
        await self.wait_table("Number(t.dataset.version) >= 0", "the table")

    async def wait_table(self, condition: str, what: str) -> None:
        """Wait until the JavaScript ``condition`` over the table root ``t`` holds (bounded)."""
        check = f"() => {{ const t = document.querySelector('.table-screen'); return Boolean(t && ({condition})); }}"
        try:
            await self.page.wait_for_function(check, timeout=WAIT_MS)
        except PlaywrightTimeout:
            raise AssertionError(f"the page never showed {what}: {await self.table()}") from None

    async def move(self, state: dict[str, Any]) -> bool:
        """Make the Creature Wars move ``state`` (from :meth:`table`) offers, if any (an answer, or the first playable
        card locked in), and wait until the server answered it; whether there was one."""
        if state["answers"]:
            await self.press("#answer-0")
        elif state["playable"]:
            await self.press(f"#{state['playable'][0]}")
            await self.press("#lock-in")
        else:
            return False
        await self.wait_table(f"{answered(state['version'])} || t.dataset.over === 'yes'", "the answer to the move")
        return True

    async def play_turn(self) -> bool:
        """One move of Creature Wars if one is awaited, else the next view or a move to make (a table drawn before
        its room was full offers none yet; once dealt, the version stays until our move when the other seat's play
        was sealed at the deal, a forced play); False once it is over."""
        state = await self.table()
        if state["over"]:
            return False
        if not await self.move(state):
            await self.wait_table(f"{answered(state['version'])} || t.dataset.over === 'yes' || "
                                  "document.querySelector('.card.playable, [id^=answer-]') !== null",
                                  "the next view, or a move to make")
        return True
