"""``cardroom web``: the terminal client served to browsers by textual-serve.

Every browser tab gets its own ``cardroom play`` process, run by textual-serve and shown
in an xterm.js terminal in the page; that process talks to the game server like any client.
Those processes share the web host, so they play as guests: no player key and no seat
tokens are written to its disk, where every other tab could find them.
"""
from __future__ import annotations

import shlex
import sys

from textual_serve.server import Server

__all__ = ["play_command", "serve_web"]


def play_command(server_url: str, name: str) -> str:
    """The command line each browser session runs: the same client as ``cardroom play``."""
    # --guest: every tab's client runs on the web host, so none may keep an identity or seats there
    args = [sys.executable, "-m", "server.cli", "play", "--url", server_url, "--name", name, "--guest"]
    return " ".join(shlex.quote(a) for a in args)


def serve_web(*, host: str, port: int, server_url: str, public_url: str | None, name: str) -> None:
    """Serve the client on http://host:port until SIGINT/SIGTERM; ``public_url`` is the address
    browsers use when a reverse proxy stands in front (its websocket upgrades must pass)."""
    Server(play_command(server_url, name), host=host, port=port, title="cardroom", public_url=public_url).serve()
