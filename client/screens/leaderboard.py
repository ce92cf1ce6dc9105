"""The leaderboard (``l`` in the lobby): each two-player game's Glicko-2 rating table, and your last matches.

Like the high scores, it asks the app for what it shows (:class:`~client.messages.RequestStandings`);
the app sends the ``ratings`` and ``history`` requests and hands the replies back through
:meth:`LeaderboardScreen.put`. Enter on one of your matches opens its replay.
"""
from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from client.messages import RequestStandings, WatchReplay

__all__ = ["RATED_GAMES", "LeaderboardScreen", "history_row", "ratings_text"]

RATED_GAMES: tuple[tuple[str, str], ...] = (("creature_wars", "Creature Wars"), ("fairy_meat", "Fairy Meat"))
"""The two-player games with rated rooms: wire name, title."""

TITLES = dict(RATED_GAMES) | {"fairy_tableau": "Fairy Tableau", "queens_challenge": "Queen's Challenge"}


def ratings_text(reply: Mapping[str, Any]) -> Text:
    """A rating table in a narrow box: rank, rating ± twice the deviation, name, games."""
    entries = list(reply.get("entries") or ())
    if not entries:
        return Text("no rated matches yet", style="italic")
    out = Text()
    for e in entries:
        if out:
            out.append("\n")
        out.append(f"{e['rank']:>3}. ")
        out.append(f"{e['rating']:>6.0f}", style="bold")
        out.append(f" ±{2 * e['rd']:<4.0f} ", style="dim")
        out.append(f"{str(e.get('name') or '?')[:16]:<16} {e['games']}g")
    return out


def history_row(entry: Mapping[str, Any]) -> Text:
    """One of your matches: when, room, game, the players, won/lost/draw and why, the rating change."""
    when = datetime.datetime.fromtimestamp(float(entry["ended"]), datetime.UTC).strftime("%m-%d %H:%M")
    outcome = entry.get("outcome") or {}
    winner = outcome.get("winner")
    result = "draw" if winner is None else "won" if winner == entry.get("seat") else "lost"
    line = Text(f"{when} #{entry['room']} {TITLES.get(str(entry['game']), str(entry['game']))} ")
    line.append(" v ".join(str(n or "?") for n in entry.get("names") or ()))
    line.append(f" · {result}", style="bold")
    line.append(f" ({outcome.get('reason', '')})", style="dim")
    if "rating" in entry:
        before, after = entry["rating"]
        line.append(f" {before:.0f}→{after:.0f}")
    return line


class LeaderboardScreen(Screen[None]):
    """Two rating tables side by side, your matches below; r refreshes, Enter replays a match, Esc goes back."""

    DEFAULT_CSS = """
    LeaderboardScreen Grid { grid-size: 2; grid-gutter: 0 1; padding: 0 1; height: 1fr; }
    LeaderboardScreen Grid > Static { border: round $primary; padding: 0 1; height: 100%; }
    LeaderboardScreen #history { height: 1fr; border: round $success; margin: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "refresh"),
        Binding("escape,q,l", "back", "back"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Grid():
            for game, title in RATED_GAMES:
                box = Static("loading…", id=f"ratings-{game}")
                box.border_title = f"{title} · ratings"
                yield box
        yield OptionList(id="history")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "cardroom · leaderboard"
        self.query_one("#history", OptionList).border_title = "Your matches (Enter: replay)"
        self.action_refresh()

    def put(self, kind: str, game: str, reply: Mapping[str, Any] | None, error: str = "") -> None:
        """A rating table or your history arrived (or could not be had: ``error`` says why)."""
        if kind == "ratings":
            text = ratings_text(reply) if reply is not None else Text(f"unavailable: {error}", style="italic")
            self.query_one(f"#ratings-{game}", Static).update(text)
            return
        history = self.query_one("#history", OptionList)
        history.clear_options()
        if reply is None:
            history.add_option(Option(Text(f"unavailable: {error}", style="italic"), disabled=True))
            return
        entries = list(reply.get("entries") or ())
        if not entries:
            history.add_option(Option(Text("no finished matches yet", style="italic"), disabled=True))
        history.add_options([Option(history_row(e), id=str(e["room"])) for e in entries])

    @on(OptionList.OptionSelected, "#history")
    def _replay(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(WatchReplay(event.option.id))

    def action_refresh(self) -> None:
        self.post_message(RequestStandings())

    def action_back(self) -> None:
        self.dismiss()
