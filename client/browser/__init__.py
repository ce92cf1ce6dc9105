"""The browser client: static HTML, CSS and JavaScript modules (no build step), served by every game node on its port."""
from __future__ import annotations

from pathlib import Path

__all__ = ["ROOT"]

ROOT = Path(__file__).resolve().parent
"""The folder of the page and its assets."""
