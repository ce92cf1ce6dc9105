"""The app's screens: the lobby, the Creature Wars table, and small dialogs."""
from __future__ import annotations

from client.screens.dialogs import ConfirmScreen, HelpScreen
from client.screens.lobby import LobbyScreen
from client.screens.match import SPECTATOR_BANNER, MatchScreen

__all__ = ["SPECTATOR_BANNER", "ConfirmScreen", "HelpScreen", "LobbyScreen", "MatchScreen"]
