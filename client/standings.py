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


async def ratings_command(url: str, game: str, limit: int) -> int:
    async with await Client.connect(url) as client:
        try:
            reply = await client.request("ratings", game=game, limit=limit)
        except ClientError as exc:
            print(f"cardroom ratings: {exc.message}", file=sys.stderr)
            return 1
    print(format_ratings(reply))
    return 0


async def history_command(url: str, player: str, limit: int) -> int:
    async with await Client.connect(url) as client:
        try:
            reply = await client.request("history", player=player, limit=limit)
        except ClientError as exc:
            print(f"cardroom history: {exc.message}", file=sys.stderr)
            return 1
    print(format_history(reply))
    return 0
