"""The app's screens: the lobby, each game's table, the high scores, and small dialogs."""
from __future__ import annotations

from client.screens.dialogs import ConfirmScreen, HelpScreen
from client.screens.duel import DuelScreen
from client.screens.end import EndScreen
from client.screens.fairy_meat import FairyMeatScreen
from client.screens.high_scores import ScoresScreen
from client.screens.lobby import LobbyScreen
from client.screens.match import MatchScreen
from client.screens.queens import QueensScreen
from client.screens.question import QuestionScreen
from client.screens.solitaire import SolitaireScreen
from client.screens.table import SPECTATOR_BANNER, TableScreen
from client.screens.tableau import TableauScreen

__all__ = [
    "SPECTATOR_BANNER",
    "ConfirmScreen",
    "DuelScreen",
    "EndScreen",
    "FairyMeatScreen",
    "HelpScreen",
    "LobbyScreen",
    "MatchScreen",
    "QueensScreen",
    "QuestionScreen",
    "ScoresScreen",
    "SolitaireScreen",
    "TableScreen",
    "TableauScreen",
]
