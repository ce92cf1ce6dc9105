"""What both two-player tables add to a table: the clocks, table talk, resign, abort, cancel, and the end screen.

:class:`DuelScreen` mounts a :class:`~client.clock.ClockBar` and a
:class:`~client.chat.TableTalk` above the status line of the game's own layout, and
owns the keys every two-player table shares (``c`` chat, ``R`` resign, ``A`` abort,
``X`` cancel a waiting room, ``e`` the end screen again).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive

from client import clock
from client.chat import TableTalk, chat_line
from client.clock import ClockBar, Clocks, clocks_of
from client.messages import AbortMatch, CancelRoom, LeaveRoom, ResignMatch, SayChat
from client.screens.dialogs import ConfirmScreen
from client.screens.end import Ending, EndScreen
from client.screens.table import TableScreen

__all__ = ["DUEL_ACTIONS", "DUEL_HELP", "DuelScreen"]

DUEL_ACTIONS = frozenset({"chat", "resign", "abort", "cancel_room", "end"})
"""The actions of this class (a game screen's ``check_action`` hands them here)."""
DUEL_HELP = """
  c           chat at the table (Enter sends, Esc closes); lines show as typed
  R           resign the match (asks first): the opponent wins
  A           offer to abort before the first result (or accept the offer)
  X           cancel your room while it waits for an opponent
  e           the end screen again, once the match is over (r rematch there)
"""
"""The keys of every two-player table, for its help."""
SEATED_ACTIONS = frozenset({"resign", "abort", "cancel_room"})


class DuelScreen(TableScreen):
    """A two-player table: clocks, chat, resign/abort/cancel keys, and the end screen when the match is over."""

    # out of the footer, which the game's own keys fill at 80 columns: ? lists them
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "chat", "chat", show=False),
        Binding("R", "resign", "resign", key_display="R", show=False),
        Binding("A", "abort", "abort", key_display="A", show=False),
        Binding("X", "cancel_room", "cancel room", key_display="X", show=False),
        Binding("e", "end", "end screen", show=False),
    ]

    names: reactive[tuple[str, ...]] = reactive(())
    """The players' names, as the lobby lists them (empty strings for unknown or free seats)."""

    def __init__(self, room: str, game: str, *, spectator: bool) -> None:
        super().__init__(room, game, spectator=spectator)
        self.ending: Ending | None = None
        self.end_screen: EndScreen | None = None
        self.rematch_offers: frozenset[int] = frozenset()
        self.clocks: Clocks | None = None
        """The clocks of the last view that carried them."""
        self.frozen: float | None = None
        """When the connection went down (``time.monotonic()``): the clocks stand still from then until the next view."""
        self.away: set[int] = set()
        """Seats no connection watches (their clock runs on; they forfeit after the grace period)."""
        self.dropped: set[int] = set()
        """Seats seen to drop (a ``presence`` push saying so): only their return is news ("X is back")."""
        self.timeouts_seen: set[int] = set()
        """Seats whose time ran out at least once (a ``timeout`` event): which rule a forfeit was by."""
        self.talk = TableTalk(id="talk")
        """The chat: made with the screen, so a notice that arrives before the screen is mounted is kept."""

    def on_mount(self) -> None:
        """(The game screen's ``on_mount`` runs too.) Place the clock bar and the chat above the status line."""
        status = self.query("#status")
        before = status.first() if status else None
        bar = ClockBar(id="clocks")
        bar.clocks = self.clocks
        bar.frozen = self.frozen
        self.mount(bar, self.talk, before=before)
        self.name_clocks()

    # -- what the app feeds in ---------------------------------------------------------

    def own_seat(self) -> int | None:
        """Our seat, from the view (None: spectating, or no view yet)."""
        seat = (self.view or {}).get("seat")
        return seat if isinstance(seat, int) else None

    def set_clock(self, clock: dict[Any, Any], presence: list[bool] | None = None) -> None:
        """The ``clock`` (and ``presence``) a view message carried: restart the local countdown from it."""
        if presence is not None:
            self.away = {seat for seat, here in enumerate(presence) if not here}
        self.clocks = clocks_of(clock)
        self.frozen = None
        for bar in self.query(ClockBar):
            bar.frozen = None
            bar.clocks = self.clocks
        self.name_clocks()

    def freeze_clocks(self) -> None:
        """The connection went down: the clocks stand still (and say so) until the server sends them again."""
        if self.frozen is None:
            self.frozen = clock.monotonic()
        for bar in self.query(ClockBar):
            bar.frozen = self.frozen

    def watch_names(self) -> None:
        self.name_clocks()
        if self.ending is not None and self.names:
            self.ending = _with_names(self.ending, self.names)
            if self.end_screen is not None:
                self.end_screen.ending = self.ending

    def set_away(self, seat: int, away: bool) -> bool:
        """A ``presence`` push: mark the seat away (or back) on the clock line. Whether it is news: a drop, or the
        return of a seat seen to drop (a player sitting down or creating the room is not "back")."""
        news = away or seat in self.dropped
        if away:
            self.away.add(seat)
            self.dropped.add(seat)
        else:
            self.away.discard(seat)
            self.dropped.discard(seat)
        self.name_clocks()
        return news

    def note_events(self, events: list[dict[str, Any]]) -> None:
        """Remember the seats whose time ran out (the server decided for them)."""
        for event in events:
            if event.get("kind") == "timeout" and isinstance(event.get("seat"), int):
                self.timeouts_seen.add(int(event["seat"]))

    def forfeit_why(self, outcome: dict[str, Any]) -> str:
        """The one rule a forfeit was by, when this table can tell: a seat that was here lost on its clock; one
        that was away and never timed out, by staying away. "" when either could be."""
        winner = outcome.get("winner")
        if outcome.get("reason") != "forfeit" or not isinstance(winner, int):
            return ""
        loser = 1 - winner
        if loser not in self.away:
            return "the clock ran out 3 times in a row"
        if loser not in self.timeouts_seen:
            return "stayed away past the grace period"
        return ""

    def name_clocks(self) -> None:
        """Label the clocks: "You", the opponent's name, or the players' names for a spectator."""
        own = self.own_seat()
        seats = max(2, len(self.names))
        labels = []
        for seat in range(seats):
            name = self.names[seat] if seat < len(self.names) and self.names[seat] else f"Player {seat + 1}"
            if seat == own:
                labels.append("You")
            elif seat in self.away:
                labels.append(f"{name} (away)")
            else:
                labels.append(f"{name} (opponent)" if own is not None else name)
        for bar in self.query(ClockBar):
            bar.names = tuple(labels)

    def chat(self, name: str, seat: int | None, text: str, ts: float) -> None:
        """A chat line said at this table."""
        self.talk.write(chat_line(name, seat, text, ts, own=self.own_seat()))

    def room_notice(self, text: str, *, error: bool = False) -> None:
        """A notice in the chat log (presence, a closed room, a refused chat line)."""
        self.talk.notice(text, error=error)

    def seat_name(self, seat: int) -> str:
        """How this table names a seat: "you", the player's name, or "Player n"."""
        if seat == self.own_seat():
            return "you"
        return (self.names[seat] if seat < len(self.names) else "") or f"Player {seat + 1}"

    def show_end(self, outcome: dict[str, Any], seed: int | None, commitment: str, published: str | None,
                 reveal: dict[str, Any] | None = None) -> None:
        """The match is over: open the end screen over the table."""
        names = list(self.names) + [""] * (2 - len(self.names))
        own = self.own_seat()
        if own is not None and own < len(names) and not names[own]:
            names[own] = str(getattr(self.app, "player", "") or "")  # our own name, when the lobby has not listed it
        self.ending = Ending(self.room, self.game, dict(outcome), tuple(names), own, seed, commitment, published,
                             dict(reveal or {}), self.forfeit_why(outcome))
        self.action_end()

    def rematch_offered(self, seat: int) -> None:
        """A seat asked for a rematch: tell the end screen (and the log, when the end screen is not up)."""
        self.rematch_offers = self.rematch_offers | {seat}
        if self.end_screen is not None and self.end_screen.is_attached:
            self.end_screen.offers = self.rematch_offers
        if seat != self.own_seat():
            self.room_notice(f"{self.seat_name(seat)} asks for a rematch (e, then r to accept).")

    # -- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Spectators cannot resign, abort or cancel; the end screen exists only once the match is over."""
        if action in SEATED_ACTIONS and self.spectator:
            return False
        if action == "end":
            return self.ending is not None
        if action in DUEL_ACTIONS:
            return True
        return super().check_action(action, parameters)

    def action_chat(self) -> None:
        self.talk.open()

    @on(TableTalk.Said)
    def _said(self, event: TableTalk.Said) -> None:
        event.stop()
        self.post_message(SayChat(self.room, event.text))

    def _confirm(self, question: str, then: Message) -> None:
        """Ask ``question``; post ``then`` on yes."""
        def answered(yes: bool | None) -> None:
            if yes:
                self.post_message(then)

        self.app.push_screen(ConfirmScreen(question), answered)

    def action_resign(self) -> None:
        """Give up the match, after a confirmation."""
        if not self.playing():
            self.notify("There is no running match of yours to resign.", severity="warning")
            return
        self._confirm(f"Resign the match in room #{self.room}?\nYour opponent wins.", ResignMatch(self.room))

    def action_abort(self) -> None:
        """Offer (or accept) to abort before the first result: no winner, nothing recorded."""
        if not self.playing():
            self.notify("There is no running match of yours to abort.", severity="warning")
            return
        self._confirm("Abort this match?\nIt ends with no winner and nothing recorded once both players press A "
                      "(only before the first result).", AbortMatch(self.room))

    def action_cancel_room(self) -> None:
        """Delete our room while it still waits for an opponent."""
        if self.free_seats <= 0 or self.own_seat() is None:
            self.notify("Only a room still waiting for players can be cancelled.", severity="warning")
            return
        self._confirm(f"Cancel room #{self.room}?\nIt is deleted for everyone.", CancelRoom(self.room))

    def action_end(self) -> None:
        """Show the end screen (again)."""
        if self.ending is None:
            return
        if self.end_screen is not None and self.end_screen.is_attached:
            return
        screen = EndScreen(self.ending)
        screen.offers = self.rematch_offers
        self.end_screen = screen

        def closed(choice: str | None) -> None:
            self.end_screen = None
            if choice == "lobby":
                self.post_message(LeaveRoom(self.room))

        self.app.push_screen(screen, closed)


def _with_names(ending: Ending, names: tuple[str, ...]) -> Ending:
    return replace(ending, names=names)
