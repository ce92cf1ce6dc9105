"""The end of a two-player match: the result and why, both names, the seed checked against its commitment, rematch.

Opened over the table when ``match_over`` arrives (``e`` on the table opens it again).
``r`` offers a rematch (or accepts the opponent's); when both agreed the app switches
to the new room. ``v`` opens the replay viewer on the match. ``b`` goes back to the
lobby, Esc looks at the final table.
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from client.messages import OfferRematch, WatchReplay
from client.render import with_names
from client.verify import derived_seed, salted_commitment

__all__ = ["REASON_WORDS", "EndScreen", "Ending", "commitment_of", "result_line", "seed_check"]

REASON_WORDS: dict[str, str] = {
    "knockout": "knockout",
    "mayhem": "decided in the final MAYHEM",
    "won": "won",
    "lost": "lost",
    "resigned": "resigned",
    "forfeit": "forfeit: a clock ran out 3 times in a row, or a player stayed away past the grace period",
    "aborted": "aborted by both players before the first result: nothing is recorded",
}
"""Why a match ended, in words (the server's ``outcome.reason``)."""

SCORE_WORDS: dict[str, str] = {"creature_wars": "Empire HP", "fairy_meat": "duels won"}
"""What ``outcome.scores`` counts in each game."""


def commitment_of(room: str, seed: int) -> str:
    """sha256 of ``cardroom:<room>:<seed>``: what a room stored before salted commitments published."""
    return hashlib.sha256(f"cardroom:{room}:{seed}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Ending:
    """Everything the end screen shows: the outcome, the names, our seat, the seed and the commitments."""

    room: str
    game: str
    outcome: dict[str, Any]
    names: tuple[str, ...]
    seat: int | None
    seed: int | None
    commitment: str
    published: str | None = None
    """The commitment as first published (room creation, lobby, spectating); None if it was never seen."""
    reveal: Mapping[str, Any] = field(default_factory=dict)
    """The rest ``match_over`` revealed: ``server_seed``, ``salt``, ``seeding``, ``nonces``, or ``reveal_after``."""
    forfeit_why: str = ""
    """For a forfeit, the one rule that applied when the table could tell ("the clock ran out 3 times in a row")."""

    def name(self, seat: int) -> str:
        """A seat's player name, "Player n" when unknown."""
        name = self.names[seat] if 0 <= seat < len(self.names) else ""
        return name or f"Player {seat + 1}"


def result_line(ending: Ending) -> Text:
    """``You win`` / ``You lose`` / ``ada wins`` / ``Draw`` / ``Aborted``, and the reason in words."""
    outcome = ending.outcome
    reason = str(outcome.get("reason", ""))
    winner = outcome.get("winner")
    if reason == "aborted":
        head = "Aborted"
    elif winner is None:
        head = "Draw"
    elif ending.seat is None:
        head = f"{ending.name(int(winner))} wins"
    else:
        head = "You win" if winner == ending.seat else "You lose"
    line = Text(head, style="bold")
    words = REASON_WORDS.get(reason, reason)
    if reason in ("resigned", "forfeit") and isinstance(winner, int):
        loser = 1 - winner
        who = "you" if loser == ending.seat else ending.name(loser)
        if reason == "resigned":
            words = f"{who} resigned"
        elif ending.forfeit_why:
            words = f"{who} lost by forfeit: {ending.forfeit_why}"
        else:
            words = f"{who} lost by {words}"
    if words:
        line.append(f" — {words}")
    return line


def seed_check(ending: Ending) -> tuple[Text, bool | None]:
    """The seed revealed and whether it checks out against the commitment published at the start: for a salted
    commitment, the server's secret and salt, then the seed derived from them and every player's nonce (the
    same checks as ``cardroom verify``, docs/protocol.md); None when no seed was revealed."""
    reveal = ending.reveal
    if ending.seed is None:
        after = reveal.get("reveal_after")
        words = f"The seed of this daily deal is told after {after}." if after else "No seed was revealed."
        return Text(words, style="italic"), None
    against = ending.published or ending.commitment
    where = "the commitment published when the room was made" if ending.published else "the commitment sent with it"
    text = Text(f"Seed {ending.seed} revealed.\n")
    if "server_seed" in reveal:
        server_seed, salt = int(reveal["server_seed"]), str(reveal.get("salt", ""))
        digest = salted_commitment(ending.room, server_seed, salt)
        players = reveal.get("seeding") == "players"
        nonces = [str(n) for n in reveal.get("nonces") or ()]
        made = derived_seed(server_seed, salt, nonces) if players else server_seed
        ok = bool(against) and digest == against and made == ending.seed
        how = f"the server's secret and {len(nonces)} players' nonces" if players else "a fixed deal"
        text.append(f"server secret {server_seed}, salt {salt[:8]}…\n", style="dim")
        text.append(f"sha256 = {digest[:16]}… · seed from {how}\n", style="dim")
    else:
        digest = commitment_of(ending.room, ending.seed)
        ok = bool(against) and digest == against
        text.append(f'sha256("cardroom:{ending.room}:{ending.seed}") = {digest[:16]}…\n', style="dim")
    if ok:
        text.append(f"✓ matches {where}: the deal was fixed before play.", style="bold green")
    else:
        text.append(f"✗ does NOT match {where} ({against[:16]}…).", style="bold red")
    return text, ok


class EndScreen(Screen[str | None]):
    """The end of the match in one room; dismissed with "lobby" (b) or None (Esc: back to the table)."""

    DEFAULT_CSS = """
    EndScreen { align: center top; }
    EndScreen #end { width: 100%; max-width: 90; height: auto; padding: 0 1; }
    EndScreen #end > Static { height: auto; margin-top: 1; }
    EndScreen #result { border: round $accent; padding: 0 1; }
    EndScreen #fair { border: round $secondary; padding: 0 1; }
    EndScreen #rematch { color: $warning; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rematch", "rematch"),
        Binding("v", "replay", "replay"),
        Binding("b", "lobby", "back to lobby"),
        Binding("escape", "table", "see the table"),
        Binding("q", "lobby", "lobby", show=False),
    ]

    offers: reactive[frozenset[int]] = reactive(frozenset())
    """Seats that asked for a rematch."""

    def __init__(self, ending: Ending) -> None:
        super().__init__()
        self._ending = ending

    @property
    def ending(self) -> Ending:
        """What is shown; setting it (names learnt later) redraws."""
        return self._ending

    @ending.setter
    def ending(self, ending: Ending) -> None:
        self._ending = ending
        self._draw()

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="end"):
            yield Static(id="result")
            yield Static(id="fair")
            yield Static(id="rematch")
            yield Static(id="keys")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"cardroom · match over · room #{self.ending.room}"
        self.query_one("#result", Static).border_title = "Result"
        self.query_one("#fair", Static).border_title = "Fair deal"
        self._draw()

    def watch_offers(self) -> None:
        self._draw()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Spectators watch: no rematch key."""
        return not (action == "rematch" and self.ending.seat is None)

    def _draw(self) -> None:
        if not self.query("#result"):  # not composed yet: on_mount draws
            return
        ending = self.ending
        result = result_line(ending)
        detail = str(ending.outcome.get("detail") or "")
        if detail and not (ending.forfeit_why and ending.outcome.get("reason") == "forfeit"):
            result.append(f"\n{with_names(detail, [ending.name(s) for s in range(max(len(ending.names), 2))])}",
                          style="dim")
        scores: Sequence[Any] = ending.outcome.get("scores") or ()
        for seat in range(max(len(ending.names), len(scores), 2)):
            result.append("\n")
            result.append(ending.name(seat), style="bold")
            if seat == ending.seat:
                result.append(" (you)")
            if seat < len(scores):
                result.append(f" · {SCORE_WORDS.get(ending.game, 'score')} {scores[seat]}", style="dim")
        self.query_one("#result", Static).update(result)
        self.query_one("#fair", Static).update(seed_check(ending)[0])
        self.query_one("#rematch", Static).update(self.rematch_text())
        keys = "r rematch · v replay · b back to lobby · Esc see the table" if ending.seat is not None else \
            "v replay · b back to lobby · Esc see the table"
        self.query_one("#keys", Static).update(Text(keys, style="dim"))

    def rematch_text(self) -> Text:
        """Who asked for a rematch, and what r does now."""
        ending, offers = self.ending, self.offers
        own = ending.seat
        others = sorted(s for s in offers if s != own)
        if own is None:
            return Text(", ".join(f"{ending.name(s)} asks for a rematch." for s in others))
        opponent = ending.name(1 - own) if len(ending.names) > 1 or own in (0, 1) else "the opponent"
        if own in offers:
            return Text(f"You asked for a rematch; waiting for {opponent}.")
        if others:
            return Text(f"{opponent} asks for a rematch: press r to accept (seats swapped, same clock).")
        return Text("Press r to ask for a rematch (seats swapped, same clock).")

    def action_rematch(self) -> None:
        if self.ending.seat is not None:
            self.post_message(OfferRematch(self.ending.room))

    def action_replay(self) -> None:
        self.post_message(WatchReplay(self.ending.room))

    def action_lobby(self) -> None:
        self.dismiss("lobby")

    def action_table(self) -> None:
        self.dismiss(None)
