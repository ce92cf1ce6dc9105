"""The browser client asks for view deltas and applies them as the Python client does (client/browser/delta.js
against protocol/delta.py): every seat's and a spectator's view of seeded random matches of each game rebuilt from
the one before; a delta that does not fit the view held is refused, never half applied."""
from __future__ import annotations

import re
from typing import Any

import msgpack
import pytest
from playwright.async_api import WebSocketRoute

from protocol import decode_any
from protocol.delta import apply, diff
from tests.protocol.test_delta import successive_views
from tests.web.web_client import Player, chromium_browser, desktop, page_url

MOVES = 60
"""A bound on the moves a short match takes (it ends in far fewer)."""

APPLY = """async (cases) => {
  const { applyDelta } = await import("./delta.js");
  return cases.map(([old, delta]) => applyDelta(old, delta));
}"""

REFUSED = """async (cases) => {
  const { applyDelta } = await import("./delta.js");
  return cases.map(([old, delta]) => {
    const before = JSON.stringify(old);
    try {
      applyDelta(old, delta);
      return "applied";
    } catch (error) {
      return JSON.stringify(old) === before ? String(error.message) : "the held view was changed";
    }
  });
}"""


@pytest.mark.parametrize("game", ["creature_wars", "fairy_meat", "fairy_tableau", "queens_challenge"])
async def test_the_page_applies_deltas_as_the_python_client_does(chromium: str, server_url: str, game: str) -> None:
    cases: list[tuple[dict[str, Any], dict[str, Any]]] = []
    expected: list[dict[str, Any]] = []
    for _, old, new in successive_views(game, range(8), 40, 60):
        delta = diff(old, new)
        assert apply(old, delta) == new
        cases.append((old, delta))
        expected.append(new)
    assert len(cases) > 30
    async with chromium_browser(chromium) as browser:
        page = await (await desktop(browser)).new_page()
        await page.goto(page_url(server_url))
        assert await page.evaluate(APPLY, cases) == expected


async def test_the_page_refuses_a_delta_that_does_not_fit(chromium: str, server_url: str) -> None:
    held = {"version": 7, "hp": [25, 30], "hands": [{"count": 2, "cards": ["A", "B"]}, {"count": 5}]}
    misfits = [
        (held, {"deck": [2, {"count": [0, 1]}]}),  # a map operation on a key the view lacks
        (held, {"question": [1]}),  # removes an absent key
        (held, {"hp": [3, [1, 2, []]]}),  # a splice past the list's end
        (held, {"hands": [4, [2, [0, {}]]]}),  # no item 2
        (held, {"hp": [2, {"x": [0, 1]}]}),  # a map operation on a list
        (held, {"version": [9, 1]}),  # no such operation
        (held, {"hands": [4, [0, [2, {"cards": [3, [0, 1]]}]]]}),  # a splice that is no triple, deep down
    ]
    async with chromium_browser(chromium) as browser:
        page = await (await desktop(browser)).new_page()
        await page.goto(page_url(server_url))
        refused = await page.evaluate(REFUSED, misfits)
    assert all(reason.startswith("the delta does not fit the view held") for reason in refused), refused


@pytest.mark.parametrize("refused", [False, True], ids=["answered", "first ask refused"])
async def test_a_delta_that_does_not_fit_makes_the_page_ask_for_the_whole_view(chromium: str, server_url: str,
                                                                                 refused: bool) -> None:
    """The first delta the page is sent is spoiled on the way (it removes a key no view has): the page does not apply
    it, asks for the room's whole view, and plays on from there to the match's end. With ``refused``, that first ask
    is answered with an error instead of the view: the page asks again a second later."""
    asked: list[dict[str, Any]] = []
    spoiled: list[int] = []

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            if isinstance(message, bytes):
                request = decode_any(message)
                asked.append(request)
                if refused and request.get("t") == "view" and [m.get("t") for m in asked].count("view") == 1:
                    ws.send(msgpack.packb({"t": "error", "re": request["id"], "code": "unavailable",
                                           "message": "try again"}, use_bin_type=True))
                    return
            server.send(message)

        def to_page(message: str | bytes) -> None:
            if isinstance(message, bytes) and not spoiled:
                sent = decode_any(message)
                if sent.get("t") == "view" and "delta" in sent:
                    spoiled.append(len(asked))
                    message = msgpack.packb({**sent, "delta": {"no view has this key": [1]}}, use_bin_type=True)
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    async with chromium_browser(chromium) as browser:
        context = await desktop(browser)
        await context.route_web_socket(re.compile(".*"), route)
        me = await Player.open(context, server_url, touch=False)
        await me.start("mended", ("#game-creature_wars", "#opt-hp-10", "#opp-strong", "#create"))
        for _ in range(MOVES):
            if not await me.play_turn():
                break
        assert (await me.table())["over"], "the match played on to its end"
        assert me.errors == []
        await context.close()
    assert spoiled, "a delta came"
    room = next(m["room"] for m in asked if m.get("t") == "decide")
    views = [m for m in asked[spoiled[0]:] if m.get("t") == "view"]
    assert views and all(m.get("room") == room for m in views), "the page asked for the whole view"
    assert len(views) == (2 if refused else 1), "once, and again only when the first ask was refused"
