"""Every witch's effect, by rarity; importing this package registers them all."""
from __future__ import annotations

from engine.creature_wars.witches import common, lesser, sacred_a, sacred_b, sacred_c, sinful

__all__ = ["common", "lesser", "sacred_a", "sacred_b", "sacred_c", "sinful"]
