"""The events screen (``e`` in the lobby): Swiss tournaments and solitaire events, upcoming, running and finished;
registering, the pairings and standings of the one highlighted, taking your table, and watching any table.

It talks to the server through the app's :class:`~client.link.Link` (requests, and the ``event`` pushes of the
event it follows, kept in ``Client.events``); taking a seat or watching a table goes through the app as the lobby's
keys do (:class:`~client.messages.JoinRoom`, :class:`~client.messages.SpectateRoom`).
"""
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static
from websockets.exceptions import WebSocketException

from client.connection import ClientError, Seat
from client.link import Link
from client.messages import JoinRoom, SpectateRoom
from client.widgets import Listing

__all__ = ["FILTERS", "EventsScreen", "OpenEvents", "event_row", "standings_text"]

FILTERS: tuple[str | None, ...] = (None, "upcoming", "running", "finished")
"""What ``f`` cycles the list through: every event, then each status."""
REFRESH_EVERY = 0.5
"""Seconds between two looks at the followed event's latest pushed state (held by the client, no request)."""


class OpenEvents(Message):
    """The lobby asks the app for the events screen."""


def _when(stamp: float | None) -> str:
    if stamp is None:
        return "when its creator starts it"
    return datetime.datetime.fromtimestamp(stamp, datetime.UTC).strftime("%m-%d %H:%M UTC")


def event_row(e: Mapping[str, Any]) -> tuple[str, str, str, str, str]:
    """An event in the list: status, game, title, players, round or window."""
    if e["kind"] == "swiss":
        progress = f"round {e['round']}/{e['rounds']}" if e["round"] else f"{e['rounds']} rounds"
    else:
        progress = f"until {_when(e.get('ends'))}"
    title = str(e["title"]) + (" (invite)" if e.get("invite_only") else "")
    return str(e["status"]), str(e["game"]), title, str(e["players"]), progress


def standings_text(state: Mapping[str, Any]) -> Text:
    """The standings (Swiss) or the scores (solitaire) of an event's state."""
    out = Text()
    if state["kind"] == "solitaire":
        for s in state.get("scores") or ():
            out.append(f"{s['rank']:>3}. {str(s['name'])[:20]:<20} {s['score']:>6}  #{s['room']}\n")
        return out or Text("no scores yet", style="italic")
    for s in state.get("standings") or ():
        dropped = " (dropped)" if s["dropped"] else ""
        out.append(f"{s['rank']:>3}. {str(s['name'])[:18]:<18} {s['points']:>4g} pts  omw {s['omw']:.2f}  "
                   f"gw {s['gw']:.2f}{dropped}\n")
    return out or Text("no players yet", style="italic")


def _pairings_text(state: Mapping[str, Any]) -> Text:
    out = Text()
    rounds = state.get("pairings") or []
    if not rounds:
        return Text("not paired yet", style="italic")
    current = rounds[-1]
    out.append(f"Round {current['round']}\n", style="bold")
    for t in current["tables"]:
        result = t["result"]
        told = "playing" if result is None else " - ".join(f"{p:g}" for p in result["points"])
        out.append(f"{t['table']:>3}. {t['players'][0]} v {t['players'][1]}  #{t['room'] or '…'}  {told}\n")
    if current["bye"]:
        out.append(f"     bye: {current['bye']}\n", style="dim")
    return out


def _you_text(state: Mapping[str, Any]) -> Text:
    you = state.get("you") or {}
    if state["kind"] == "solitaire":
        if you.get("room"):
            return Text(f"You played this deal in room #{you['room']}.")
        return Text("p: play the event's deal (one attempt)" if state["status"] == "running" else "")
    if not you.get("registered"):
        return Text("g: register" if state["status"] == "upcoming" else "")
    table = you.get("table")
    if table:
        return Text(f"Your table: round {table['round']} v {table['opponent']} (#{table['room']}): p to play",
                    style="bold")
    if you.get("dropped"):
        return Text("You dropped out.")
    return Text("Registered · u: unregister" if state["status"] == "upcoming" else "Registered · x: drop")


class EventsScreen(Screen[None]):
    """The events in a list, the highlighted one's pairings and standings beside it."""

    DEFAULT_CSS = """
    EventsScreen #events { width: 1fr; height: 1fr; border: round $primary; }
    EventsScreen #detail { width: 1fr; height: 1fr; }
    EventsScreen #detail > Static { border: round $success; padding: 0 1; }
    EventsScreen #pairings { height: 1fr; }
    EventsScreen #standings { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("g", "register", "register"),
        Binding("u", "unregister", "unregister", show=False),
        Binding("x", "drop", "drop", show=False),
        Binding("p", "play", "play my table"),
        Binding("w", "watch", "watch a table"),
        Binding("f", "filter", "filter"),
        Binding("r", "refresh", "refresh"),
        Binding("escape,q,e", "back", "back"),
    ]

    def __init__(self, link: Link) -> None:
        super().__init__()
        self.link = link
        self.listed: list[dict[str, Any]] = []
        self.filter = 0
        self.current: str | None = None
        """The highlighted event (followed: its pushes keep the detail fresh)."""
        self.watched = 0
        """Which table of the current round ``w`` watches next."""
        self.following: object = None
        """The connection the highlighted event is followed on (a new one, after a reconnection, follows again)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            yield Listing(id="events", cursor_type="row")
            with Vertical(id="detail"):
                yield Static("", id="you")
                yield Static("", id="pairings")
                yield Static("", id="standings")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "cardroom · events"
        table = self.query_one("#events", DataTable)
        table.border_title = "Events (f: filter)"
        table.add_columns("status", "game", "title", "players", "rounds")
        self.query_one("#pairings", Static).border_title = "Pairings"
        self.query_one("#standings", Static).border_title = "Standings"
        self.action_refresh()
        self.set_interval(REFRESH_EVERY, self._show_current)

    # -- requests ----------------------------------------------------------------------------

    async def _ask(self, kind: str, **fields: Any) -> dict[str, Any] | None:
        """One request's reply; a refusal or a lost connection is told in a toast (None)."""
        try:
            return await self.link.require().request(kind, **fields)
        except ClientError as exc:
            self.app.notify(exc.message, title=f"{kind}: {exc.code}", severity="error", markup=False)
        except (ConnectionError, OSError, TimeoutError, WebSocketException) as exc:
            self.app.notify(str(exc) or type(exc).__name__, title=f"{kind} failed", severity="warning", markup=False)
        return None

    def action_refresh(self) -> None:
        self.run_worker(self._list(), group="events", exclusive=True, exit_on_error=False)

    async def _list(self) -> None:
        status = FILTERS[self.filter]
        reply = await self._ask("list_events", **({"status": status} if status else {}))
        if reply is None:
            return
        self.listed = list(reply["events"])
        table = self.query_one("#events", Listing)
        table.refill([(str(e["event"]), event_row(e)) for e in self.listed])
        if self.listed:
            self._select(str(self.listed[min(table.cursor_row, len(self.listed) - 1)]["event"]))
        else:
            self.query_one("#you", Static).update(Text("No events yet: `cardroom event create` makes one.",
                                                       style="italic"))

    def action_filter(self) -> None:
        self.filter = (self.filter + 1) % len(FILTERS)
        self.query_one("#events", DataTable).border_title = f"Events ({FILTERS[self.filter] or 'all'}; f: filter)"
        self.action_refresh()

    @on(DataTable.RowHighlighted, "#events")
    def _highlighted(self, message: DataTable.RowHighlighted) -> None:
        if message.row_key.value is not None:
            self._select(message.row_key.value)

    def _select(self, event: str) -> None:
        """Show ``event`` beside the list, following it so that its changes show as they come."""
        if event != self.current:
            self.current = event
            self.watched = 0
            self._follow()

    def _follow(self) -> None:
        self.following = self.link.client
        if self.current is not None:
            self.run_worker(self._ask("follow_event", event=self.current), group="follow", exit_on_error=False)

    def state(self) -> dict[str, Any] | None:
        """The highlighted event's latest state, as the server last told it."""
        client = self.link.client
        if self.current is None or client is None:
            return None
        return client.events.get(self.current)

    def _show_current(self) -> None:
        if self.link.client is not None and self.link.client is not self.following:  # reconnected: follow again
            self._follow()
        state = self.state()
        if state is None:
            return
        self.query_one("#you", Static).update(_you_text(state))
        pairings = self.query_one("#pairings", Static)
        if state["kind"] == "solitaire":
            pairings.update(Text(f"{state['title']}: one deal for everyone, {_when(state['start'])} to "
                                 f"{_when(state['ends'])}"))
        else:
            pairings.update(_pairings_text(state))
        self.query_one("#standings", Static).update(standings_text(state))

    # -- keys -------------------------------------------------------------------------------------

    def _about(self, kind: str, **fields: Any) -> None:
        if self.current is None:
            self.notify("Highlight an event first.", severity="warning")
            return
        self.run_worker(self._ask(kind, event=self.current, **fields), group="requests", exit_on_error=False)

    def action_register(self) -> None:
        self._about("register")

    def action_unregister(self) -> None:
        self._about("unregister")

    def action_drop(self) -> None:
        self._about("drop")

    def action_play(self) -> None:
        """Take your table of the round (Swiss), or play the event's deal (solitaire)."""
        state = self.state()
        if state is None:
            self.notify("Highlight an event first.", severity="warning")
            return
        if state["kind"] == "solitaire":  # the app opens the room at its seat_granted, over the lobby
            self.dismiss()
            self.app.run_worker(self._ask("play_event", event=state["event"]), group="requests", exit_on_error=False)
            return
        table = (state.get("you") or {}).get("table")
        if not table:
            self.notify("You have no table to play now.", severity="warning")
            return
        seat = Seat(str(table["room"]), int(table["seat"]), str(table["token"]), str(state["game"]))
        self.link.seats[seat.room] = seat  # a seat of ours: the app's join takes it with its token
        self.link.keep(seat)
        self.app.post_message(JoinRoom(seat.room))
        self.dismiss()

    def action_watch(self) -> None:
        """Spectate the current round's tables, one after another at each press."""
        state = self.state()
        rounds = (state or {}).get("pairings") or []
        tables = [t for t in (rounds[-1]["tables"] if rounds else []) if t["room"]]
        if not tables:
            self.notify("No table to watch yet.", severity="warning")
            return
        table = tables[self.watched % len(tables)]
        self.watched += 1
        self.app.post_message(SpectateRoom(str(table["room"])))
        self.dismiss()

    def action_back(self) -> None:
        self.dismiss()
