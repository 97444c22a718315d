"""The public history of a table, as one seat may see it (the game's own view functions)."""

from __future__ import annotations

from typing import Any

from parlour.table import Table


def history(table: Table, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
    """Every event of the game so far, every round included, as ``seat`` may see it
    (``None``: a spectator); with ``since``, only those after the first ``since``. Views carry
    only the current round's log; this is the whole game, filtered by the same rules (another
    seat's flip choice is never in it)."""
    if table.spec.history is not None:
        return table.spec.history(table.state, seat, since)
    return list(table.view(seat).get("log", []))[since:]
