"""The client in a real headless Chromium, served by ``cardroom web``: a room made in the page, joined and played."""
from __future__ import annotations

import asyncio
import contextlib
import random
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from playwright.async_api import Page, Route, async_playwright

from client import Client
from client.web import play_command
from server.store.redis_process import free_port

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def web_url(server_url: str, tmp_path: Path) -> Iterator[str]:
    """``cardroom web`` on a free loopback port, pointed at the test's game server; stopped afterwards."""
    port = free_port()
    log = (tmp_path / "web.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "web", "--host", "127.0.0.1", "--port", str(port),
         "--url", server_url, "--name", "webplayer"],
        cwd=REPO, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
    )
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        log.close()


async def _screen_reader_terminal(route: Route) -> None:
    """Serve textual-serve's script with xterm's screen-reader mode on, so the screen's text is in the DOM."""
    response = await route.fetch()
    script = await response.text()
    assert "screenReaderMode:!1" in script, "textual-serve's script changed: the browser test cannot read the screen"
    await route.fulfill(response=response, body=script.replace("screenReaderMode:!1", "screenReaderMode:!0"))


@contextlib.asynccontextmanager
async def browser_page(chromium: str) -> AsyncIterator[Page]:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = await browser.new_page(viewport={"width": 1200, "height": 800})
            await page.route("**/textual.js", _screen_reader_terminal)
            yield page
        finally:
            await browser.close()


async def screen_text(page: Page) -> str:
    tree = page.locator(".xterm-accessibility-tree")
    return await tree.inner_text() if await tree.count() else ""


async def wait_for_screen(page: Page, wanted: Callable[[str], bool], what: str, timeout: float = 30) -> str:
    """The page's screen text once ``wanted`` holds of it; fails naming ``what`` after ``timeout``."""
    text = ""
    for _ in range(int(timeout * 4)):
        text = await screen_text(page)
        if wanted(text):
            return text
        await asyncio.sleep(0.25)
    raise AssertionError(f"the page never showed {what}; it showed:\n{text}")


async def eventually(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 30) -> None:
    for _ in range(int(timeout * 4)):
        if await check():
            return
        await asyncio.sleep(0.25)
    raise AssertionError(f"{what} did not happen within {timeout:.0f} s")


@pytest.mark.slow  # long: in the slow suite, a step of its own in CI
async def test_a_match_in_the_browser(chromium: str, web_url: str, server_url: str) -> None:
    """The page creates a Creature Wars room; a second client joins; both lock in plays; the page shows the duels."""
    async with browser_page(chromium) as page:
        await page.goto(web_url)
        await wait_for_screen(page, lambda t: "Rooms" in t and "Create (c)" in t, "the lobby")
        await page.locator(".textual-terminal").click()
        await page.keyboard.press("c")
        async with await Client.connect(server_url, name="opponent") as opponent:
            rooms: list[dict[str, object]] = []

            async def room_is_waiting() -> bool:
                rooms[:] = [r for r in await opponent.list_rooms() if r["taken"] == 1]
                return bool(rooms)

            await eventually(room_is_waiting, "the page's room creation")
            assert rooms[0]["players"] == ["webplayer", ""]
            seat = await opponent.join(str(rooms[0]["room"]))
            # (a page slow to start may find its first move already taken by its clock: locked in by time-out)
            await wait_for_screen(page, lambda t: "your move" in t or "you locked in" in t,
                                  "the match, once both seats were taken")
            rng = random.Random(5)
            for _ in range(40):  # bounded: each round trip is one lock-in from each side, or an answer
                view = opponent.views[seat.room]
                if view["turn"] >= 4 or view["outcome"] is not None:
                    break
                version = view["version"]
                if view["legal"]:
                    await opponent.decide(seat, rng.choice(view["legal"]))
                await page.keyboard.press("1")
                await page.keyboard.press("Enter")
                with contextlib.suppress(TimeoutError):
                    await opponent.wait_view(seat.room, lambda v, old=version: v["version"] > old, timeout=5)
            assert opponent.views[seat.room]["turn"] >= 4, "the page's player did not lock in its plays"
            # keys pressed late on a loaded machine may lock in once more: the fourth turn or a later one
            await wait_for_screen(page, lambda t: any(int(n) >= 4 for n in re.findall(r"\bturn (\d+)", t)),
                                  "the fourth turn (or a later one) of the match it played")


def test_browser_sessions_keep_no_identity_on_the_web_host() -> None:
    """Every tab runs on the same host: a stored identity would hand one visitor another's seats."""
    assert play_command("ws://127.0.0.1:1", "guest").split()[-1] == "--guest"
