"""Queen's Challenge as an :class:`engine.interface.Game`: one player against the Queen's deck, nothing timed."""
from __future__ import annotations

from engine.queens_challenge import rules
from engine.queens_challenge import state as st
from engine.queens_challenge.view import view
from engine.rules_game import RulesGame

__all__ = ["GAME"]

GAME = RulesGame(
    name="queens_challenge", title="Queen's Challenge", players=1, parse_options=st.Options.parse,
    setup_fn=rules.setup, legal_fn=rules.legal, apply_fn=rules.apply, view_fn=view,
    dump_fn=st.dump, load_fn=st.load, blocked_fn=rules.blocked,
)
