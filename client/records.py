"""``cardroom export`` and ``cardroom verify``: fetch a finished match's record, check it."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from client.connection import Client, ClientError
from client.verify import verify

__all__ = ["export_command", "fetch_record", "verify_command"]


async def fetch_record(url: str, room: str, *, key: str | None = None, token: str | None = None) -> dict[str, Any]:
    """The record of a finished room, asked of the server (``export``); a players-only room's needs the ``key``
    its seat was held with, or a seat ``token`` of the room (docs/protocol.md, "Replays")."""
    async with await Client.connect(url, name="", key=key) as client:
        fields: dict[str, Any] = {"room": room, "token": token} if token else {"room": room}
        reply = await client.request("export", **fields)
    record: dict[str, Any] = reply["record"]
    return record


async def export_command(url: str, room: str) -> int:
    try:
        record = await fetch_record(url, room)
    except ClientError as exc:
        print(f"cardroom export: {exc.message}", file=sys.stderr)
        return 1
    print(json.dumps(record, indent=1))
    return 0


async def verify_command(source: str, url: str | None) -> int:
    """Print OK or the first difference; exit status 0 or 1."""
    try:
        if url is not None:
            record = await fetch_record(url, source)
        else:
            text = sys.stdin.read() if source == "-" else Path(source).read_text()
            record = json.loads(text)
    except ClientError as exc:
        print(f"cardroom verify: {exc.message}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print(f"cardroom verify: cannot read {source}: {exc}", file=sys.stderr)
        return 1
    verdict = verify(record)
    print(verdict.message if verdict.ok else f"FAILED: {verdict.message}")
    return 0 if verdict.ok else 1
