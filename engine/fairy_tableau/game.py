"""Fairy Tableau as an :class:`engine.interface.Game`: one player, seven face-up cards, nothing timed."""
from __future__ import annotations

from engine.fairy_tableau import rules
from engine.fairy_tableau import state as st
from engine.fairy_tableau.view import view
from engine.rules_game import RulesGame

__all__ = ["GAME"]

GAME = RulesGame(
    name="fairy_tableau", title="Fairy Tableau", players=1, parse_options=st.Options.parse,
    setup_fn=rules.setup, legal_fn=rules.legal, apply_fn=rules.apply, view_fn=view,
    dump_fn=st.dump, load_fn=st.load, blocked_fn=rules.blocked,
)
