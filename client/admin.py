"""``cardroom admin``: the operator's requests to a server, authenticated by the admin secret."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from client.connection import Client, ClientError

__all__ = ["admin_command", "read_secret"]


def read_secret(secret_file: str | None) -> str:
    """The admin secret: from ``secret_file``, else the ``CARDROOM_ADMIN_SECRET`` variable."""
    if secret_file:
        return Path(secret_file).read_text().strip()
    return os.environ.get("CARDROOM_ADMIN_SECRET", "")


async def admin_command(url: str, op: str, room: str | None, seat: int | None, secret: str) -> int:
    """Send one admin request and print its result as JSON; exit status 1 with the server's message."""
    fields: dict[str, Any] = {"op": op, "secret": secret}
    if room is not None:
        fields["room"] = room
    if seat is not None:
        fields["seat"] = seat
    try:
        async with await Client.connect(url) as client:
            reply = await client.request("admin", **fields)
    except ClientError as exc:
        print(f"cardroom admin: {exc.code}: {exc.message}", file=sys.stderr)
        return 1
    print(json.dumps(reply["result"], indent=1, default=str))
    return 0
