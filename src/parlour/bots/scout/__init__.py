"""SCOUT computer opponents."""

from parlour.bots.scout.heuristic import GreedyBot, HeuristicBot

__all__ = ["GreedyBot", "HeuristicBot"]
