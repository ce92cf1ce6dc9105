"""``cardroom scores``: fetch high-score tables from a server and print them."""
from __future__ import annotations

from typing import Any

from client.connection import Client, ClientError

__all__ = ["GAME_TITLES", "SOLITAIRES", "format_table", "game_title", "show_scores"]

SOLITAIRES = ("fairy_tableau", "queens_challenge")
GAME_TITLES: dict[str, str] = {"fairy_tableau": "Fairy Tableau", "queens_challenge": "Queen's Challenge",
                               "creature_wars": "Creature Wars", "fairy_meat": "Fairy Meat"}
"""Each game's title, as the lobby lists it, by its wire name."""


def game_title(game: str) -> str:
    """A game's title ("Fairy Tableau"), or its wire name for a game this client does not know."""
    return GAME_TITLES.get(game, game)


def format_table(table: dict[str, Any]) -> str:
    """A table as aligned text: rank, score, name, room."""
    when = f"today ({table['table'][6:]})" if table["table"].startswith("daily:") else "all time"
    title = f"{game_title(str(table['game']))} — {when}"
    lines = [title, "-" * len(title)]
    if not table["entries"]:
        lines.append("  no scores yet")
    for entry in table["entries"]:
        lines.append(f"{entry['rank']:>4}. {entry['score']:>6}  {entry['name'] or 'anonymous':<20} #{entry['room']}")
    return "\n".join(lines)


async def show_scores(url: str, game: str | None, *, daily: bool, limit: int) -> int:
    """Print the tables; exit status 1 with the server's message on an error."""
    async with await Client.connect(url, name="scores") as client:
        for name in (game,) if game else SOLITAIRES:
            try:
                table = await client.request("scores", game=name, daily=daily, limit=limit)
            except ClientError as exc:
                print(f"cardroom scores: {exc.message}")
                return 1
            print(format_table(table))
            print()
    return 0
