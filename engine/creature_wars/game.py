"""Creature Wars as an :class:`engine.interface.Game`: two empires, sealed simultaneous plays, the deck shared."""
from __future__ import annotations

from engine.creature_wars import rules
from engine.creature_wars import state as st
from engine.creature_wars.view import view
from engine.rules_game import RulesGame

__all__ = ["GAME"]

GAME = RulesGame(
    name="creature_wars", title="Creature Wars", players=2, parse_options=st.Options.parse,
    setup_fn=rules.setup, legal_fn=rules.legal, apply_fn=rules.apply, view_fn=view,
    dump_fn=st.dump, load_fn=st.load, timer_fn=rules.timer, blocked_fn=rules.blocked, sealed=True,
    abortable_fn=lambda s: s.last_duel is None and s.pending is None,
)
