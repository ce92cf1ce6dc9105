"""Fairy Meat as an :class:`engine.interface.Game`: a two-fairy duel with sealed Trumps and Numbered cards."""
from __future__ import annotations

from engine.fairy_meat import rules
from engine.fairy_meat import state as st
from engine.fairy_meat.view import blocked, view
from engine.rules_game import RulesGame

__all__ = ["GAME"]

GAME = RulesGame(
    name="fairy_meat", title="Fairy Meat", players=2, parse_options=st.Options.parse,
    setup_fn=rules.setup, legal_fn=rules.legal, apply_fn=rules.apply, view_fn=view,
    dump_fn=st.dump, load_fn=st.load, timer_fn=rules.timer, blocked_fn=blocked, sealed=True,
    abortable_fn=lambda s: s.last is None and s.wins == [0, 0] and s.draws == 0,
)
