"""``cardroom ratings`` and ``cardroom history``: where players stand, as tables."""
from __future__ import annotations

import datetime
import sys
from typing import Any

from client.connection import Client, ClientError

__all__ = ["format_history", "format_ratings", "history_command", "ratings_command"]


def format_ratings(reply: dict[str, Any]) -> str:
    lines = [f"{reply['game']}: ratings (Glicko-2)", ""]
    if not reply["entries"]:
        lines.append("  no rated matches yet")
    for e in reply["entries"]:
        lines.append(f"{e['rank']:>4}. {e['rating']:>7.1f} ±{2 * e['rd']:<6.0f} {e['name'] or '?':<24} {e['games']} games")
    return "\n".join(lines)


def format_history(reply: dict[str, Any]) -> str:
    lines = [f"matches of player {reply['player']}", ""]
    if not reply["entries"]:
        lines.append("  none yet")
    for e in reply["entries"]:
        when = datetime.datetime.fromtimestamp(e["ended"], datetime.UTC).strftime("%Y-%m-%d %H:%M")
        winner = e["outcome"]["winner"]
        result = "draw" if winner is None else "won" if winner == e["seat"] else "lost"
        change = f"  {e['rating'][0]:.1f} → {e['rating'][1]:.1f}" if "rating" in e else ""
        names = " v ".join(n or "?" for n in e["names"])
        lines.append(f"{when}  #{e['room']}  {e['game']:<16} {names:<30} {result} ({e['outcome']['reason']}){change}")
    return "\n".join(lines)


async def _ask(url: str, command: str, kind: str, **fields: Any) -> dict[str, Any] | None:
    """One request's reply, or None after printing the server's error."""
    async with await Client.connect(url) as client:
        try:
            return await client.request(kind, **fields)
        except ClientError as exc:
            print(f"cardroom {command}: {exc.message}", file=sys.stderr)
            return None


async def ratings_command(url: str, game: str, limit: int) -> int:
    reply = await _ask(url, "ratings", "ratings", game=game, limit=limit)
    if reply is not None:
        print(format_ratings(reply))
    return 0 if reply is not None else 1


async def history_command(url: str, player: str, limit: int) -> int:
    reply = await _ask(url, "history", "history", player=player, limit=limit)
    if reply is not None:
        print(format_history(reply))
    return 0 if reply is not None else 1
