"""Computer opponents. A bot sees only its seat's view, its legal actions and its own random
generator — never the full state (DESIGN.md, "bots")."""

from parlour.bots.base import Bot

__all__ = ["Bot"]
