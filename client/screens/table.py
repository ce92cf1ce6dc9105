"""What every table screen shares, whatever the game: its room, the views the app feeds in, leaving.

The app finds open tables by this class (:meth:`client.app.CardroomApp.match_screen`),
hands each one the views of its room through :meth:`TableScreen.show` and the end of
the match through :meth:`TableScreen.match_over`. Each game's screen draws the view.
"""
from __future__ import annotations

from typing import Any

from textual.reactive import reactive
from textual.screen import Screen

from client.messages import LeaveRoom
from client.screens.dialogs import ConfirmScreen

__all__ = ["SPECTATOR_BANNER", "TableScreen", "decision_of"]

SPECTATOR_BANNER = "spectating: you see only public information"

DISPLAY_KEYS = frozenset({"label", "loses"})
"""Keys the server adds to a legal decision for the client to show; they are not part of the decision."""


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

    PLAYER_ACTIONS: frozenset[str] = frozenset()
    """Actions only a seated player in a running match has: off (and out of the footer) for spectators and at the end."""

    def __init__(self, room: str, game: str, *, spectator: bool) -> None:
        super().__init__()
        self.room = room
        self.game = game
        self.spectator = spectator
        self.result_logged = False
        """Whether the log already holds the result (the server's ``over`` event), so ``match_over`` does not repeat it."""

    def show(self, version: int, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """A new view from the server (with the events that led to it): redraw from it."""
        self.version = version
        self.view = view

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
