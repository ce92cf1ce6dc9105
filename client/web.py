"""``cardroom web``: the terminal client served to browsers by textual-serve.

Every browser tab gets its own ``cardroom play`` process, run by textual-serve and shown
in an xterm.js terminal in the page; that process talks to the game server like any client.
"""
from __future__ import annotations

import shlex
import sys

from textual_serve.server import Server

__all__ = ["play_command", "serve_web"]


def play_command(server_url: str, name: str) -> str:
    """The command line each browser session runs: the same client as ``cardroom play``."""
    args = [sys.executable, "-m", "server.cli", "play", "--url", server_url, "--name", name]
    return " ".join(shlex.quote(a) for a in args)


def serve_web(*, host: str, port: int, server_url: str, public_url: str | None, name: str) -> None:
    """Serve the client on http://host:port until SIGINT/SIGTERM; ``public_url`` is the address
    browsers use when a reverse proxy stands in front (its websocket upgrades must pass)."""
    Server(play_command(server_url, name), host=host, port=port, title="cardroom", public_url=public_url).serve()
