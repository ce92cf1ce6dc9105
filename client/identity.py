"""The player's identity and held seats, kept on disk so they outlive the client.

One JSON file (``identity.json``, mode 0600, in the user's state directory from
``platformdirs`` or ``$CARDROOM_STATE_DIR``) holds the player's name and, per server
address, a secret player key (made with :mod:`secrets` the first time that server is
used) and every seat token held there. A key per server means a server never learns
the key that binds the player's name on another one. Every change re-reads the file
and replaces it atomically, so two terminals sharing it lose nothing but a race.
"""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

__all__ = ["FILE_NAME", "KEY_BYTES", "STATE_DIR_ENV", "IdentityStore", "StoredSeat", "default_state_dir"]

STATE_DIR_ENV = "CARDROOM_STATE_DIR"
"""Environment variable naming the state directory (tests, several identities on one machine)."""
FILE_NAME = "identity.json"
KEY_BYTES = 32
"""Random bytes in a player key (``token_urlsafe`` makes 43 characters of them: within the server's 16..128)."""
FORMAT = 1


def default_state_dir() -> Path:
    """``$CARDROOM_STATE_DIR``, else the platform's user state directory for cardroom."""
    override = os.environ.get(STATE_DIR_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_state_dir("cardroom", appauthor=False))


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """A seat held on one server: the room, the seat number, the game and the token that resumes it."""

    room: str
    seat: int
    game: str
    token: str

    def data(self) -> dict[str, Any]:
        return {"room": self.room, "seat": self.seat, "game": self.game, "token": self.token}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> StoredSeat:
        return cls(str(data["room"]), int(data["seat"]), str(data.get("game", "")), str(data["token"]))


class IdentityStore:
    """The identity file of one state directory; every method reads it fresh and writes it atomically."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_state_dir()
        self.path = self.directory / FILE_NAME

    # -- reading ---------------------------------------------------------------------

    def _read(self) -> dict[str, Any]:
        """The file's content; a missing or unreadable file is an empty identity (a broken one is kept aside)."""
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {"format": FORMAT, "name": "", "servers": {}}
        try:
            data = json.loads(raw)
            if not isinstance(data, dict) or not isinstance(data.get("servers", {}), dict):
                raise ValueError("not an identity file")
        except ValueError:
            with contextlib.suppress(OSError):
                self.path.replace(self.path.with_suffix(".broken"))
            return {"format": FORMAT, "name": "", "servers": {}}
        data.setdefault("servers", {})
        data.setdefault("name", "")
        return data

    def name(self) -> str:
        """The name last played under ("" if none yet)."""
        return str(self._read().get("name") or "")

    def seats(self, server: str) -> list[StoredSeat]:
        """Every seat token held on ``server`` (an address such as ``host:port``), oldest first."""
        entry = self._read()["servers"].get(server) or {}
        seats: list[StoredSeat] = []
        for item in entry.get("seats") or ():
            with contextlib.suppress(KeyError, TypeError, ValueError):
                seats.append(StoredSeat.from_data(item))
        return seats

    # -- changing ----------------------------------------------------------------------

    def key(self, server: str) -> str:
        """The secret player key for ``server``, made (and saved) the first time it is asked for."""
        kept = (self._read()["servers"].get(server) or {}).get("key")
        if isinstance(kept, str) and 16 <= len(kept) <= 128:
            return kept
        with self._change() as data:
            entry = data["servers"].setdefault(server, {})
            key = entry.get("key")
            if not isinstance(key, str) or not 16 <= len(key) <= 128:
                key = entry["key"] = secrets.token_urlsafe(KEY_BYTES)
            return key

    def set_name(self, name: str) -> None:
        """Remember the name played under (the default next time)."""
        if self.name() == name:
            return
        with self._change() as data:
            data["name"] = name

    def add_seat(self, server: str, seat: StoredSeat) -> None:
        """Keep a granted seat's token (replacing any older token of the same room)."""
        with self._change() as data:
            entry = data["servers"].setdefault(server, {})
            kept = [s for s in entry.get("seats") or () if isinstance(s, dict) and s.get("room") != seat.room]
            entry["seats"] = [*kept, seat.data()]

    def drop_seat(self, server: str, room: str) -> bool:
        """Forget the token of ``room`` (its match is over and was seen, or the server no longer knows it)."""
        with self._change() as data:
            entry = data["servers"].setdefault(server, {})
            seats = [s for s in entry.get("seats") or () if isinstance(s, dict)]
            kept = [s for s in seats if s.get("room") != room]
            entry["seats"] = kept
            return len(kept) != len(seats)

    @contextlib.contextmanager
    def _change(self) -> Iterator[dict[str, Any]]:
        """Read, let the caller change, write back atomically with mode 0600."""
        data = self._read()
        data["format"] = FORMAT
        yield data
        self._write(data)

    def _write(self, data: dict[str, Any]) -> None:
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, temp = tempfile.mkstemp(prefix=".identity-", suffix=".tmp", dir=self.directory)
        try:
            with contextlib.suppress(OSError, AttributeError):  # mkstemp already made it 0600 where modes exist
                os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=1, sort_keys=True)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
