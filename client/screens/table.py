"""What every table screen shares, whatever the game: its room, the views the app feeds in, leaving.

The app finds open tables by this class (:meth:`client.app.CardroomApp.match_screen`),
hands each one the views of its room through :meth:`TableScreen.show` and the end of
the match through :meth:`TableScreen.match_over`. Each game's screen draws the view.
"""
from __future__ import annotations

import re
from typing import Any

from textual.reactive import reactive
from textual.screen import Screen

from client.messages import LeaveRoom
from client.screens.dialogs import ConfirmScreen

__all__ = ["SPECTATOR_BANNER", "TableScreen", "decision_of", "refusal_text"]

SPECTATOR_BANNER = "spectating: you see only public information"

DISPLAY_KEYS = frozenset({"label", "loses"})
"""Keys the server adds to a legal decision for the client to show; they are not part of the decision."""


SLOT = re.compile(r"\bin slot (\d+)\b")


def refusal_text(message: str) -> str:
    """The server's reason for refusing a decision, as the player reads it: hand slots counted from 1 as the keys are
    ("Lvl.3 Giant {4} in slot 2 cannot be played…" reads "… (card 3) cannot be played…")."""
    return SLOT.sub(lambda m: f"(card {int(m.group(1)) + 1})", message.strip()).rstrip(".")


def decision_of(legal: dict[str, Any]) -> dict[str, Any]:
    """The decision to send for one entry of ``view["legal"]``: the entry without its display keys."""
    return {key: value for key, value in legal.items() if key not in DISPLAY_KEYS}


class TableScreen(Screen[None]):
    """One room's table: the latest view, its version, the match's end, and the connection notice."""

    view: reactive[dict[str, Any] | None] = reactive(None, always_update=True)
    version: reactive[int] = reactive(-1)
    free_seats: reactive[int] = reactive(0)
    over: reactive[dict[str, Any] | None] = reactive(None)
    notice: reactive[str] = reactive("")
    refusal: reactive[str] = reactive("")
    """Why the server refused our last decision (shown in the status line until the next view or key)."""
    spectators: reactive[int] = reactive(0)
    """How many watch the room without a seat (the status line ends with it)."""
    blocked: list[str | None]
    """Per card of our hand, why the server says it may not be played now (None: it may); set before each view."""

    PLAYER_ACTIONS: frozenset[str] = frozenset()
    """Actions only a seated player in a running match has: off (and out of the footer) for spectators and at the end."""

    def __init__(self, room: str, game: str, *, spectator: bool) -> None:
        super().__init__()
        self.room = room
        self.game = game
        self.spectator = spectator
        self.blocked = []
        self.result_logged = False
        """Whether the log already holds the result (the server's ``over`` event), so ``match_over`` does not repeat it."""

    def show(self, version: int, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """A new view from the server (with the events that led to it): redraw from it."""
        self.version = version
        self.view = view

    def refused(self, message: str) -> None:
        """The server refused our decision: say why in the status line (and a toast)."""
        self.refusal = refusal_text(message)
        self.notify(self.refusal, title="refused", severity="warning", markup=False)

    def with_refusal(self, status: str) -> str:
        """The status line, led by the reason of a refused decision while there is one, ended by how many watch."""
        if self.spectators:
            status += f" · {self.spectators} watching"
        return f"refused: {self.refusal} · {status}" if self.refusal else status

    def watch_refusal(self) -> None:
        refresh = getattr(self, "_refresh_status", None)
        if callable(refresh):
            refresh()

    def watch_spectators(self) -> None:
        self.watch_refusal()

    def match_over(self, outcome: dict[str, Any], seed: int | None, commitment: str) -> None:
        """The match_over message: the outcome, and the seed revealed against the commitment."""
        self.over = {"outcome": outcome}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Spectators, and everyone once the match is over, have no play keys."""
        return not (action in self.PLAYER_ACTIONS and (self.spectator or self.finished()))

    def finished(self) -> bool:
        """The match is over (the view's outcome or the match_over message)."""
        return bool((self.view or {}).get("outcome") or self.over)

    def playing(self) -> bool:
        """Seated in a match that is still running (leaving it asks first)."""
        view = self.view
        return view is not None and view.get("seat") is not None and not (view.get("outcome") or self.over)

    def action_leave(self) -> None:
        """Leave the room; a seated player in a running match is asked first."""
        if not self.playing():
            self.post_message(LeaveRoom(self.room))
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.post_message(LeaveRoom(self.room))

        self.app.push_screen(ConfirmScreen(f"Leave room #{self.room}?\nYour seat stays yours: "
                                           "Enter on it in the lobby takes it back."), answered)
