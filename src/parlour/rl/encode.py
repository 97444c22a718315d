"""Fixed-size encodings of a seat's view, per game (``parlour.rl.encode``).

- ``encode.scout``: ``observe(state, seat)`` (float32[1219]), ``action_mask(state, seat)``
  (int8[820]), ``ACTIONS`` / ``action_index`` between indices and engine actions;
- ``encode.snap(options)`` and ``encode.scan(options)``: the reveal-turn codecs of the real-time
  games (``observe(state, seat)``, ``n_actions``, ``describe(index)``, reaction times ``rts``).

Every observation is built only from what the seat may see: tests redraw every hidden card
(``GameSpec.scramble_hidden``) and require an identical observation.
"""

from __future__ import annotations

from typing import Any

from parlour.rl import scout_codec as scout
from parlour.rl.race_codec import SCAN_RTS, SNAP_RTS, ScanRaces, SnapRaces


def snap(options: dict[str, Any] | None = None) -> SnapRaces:
    """SNAP's codec for a game with these options (default 4 players)."""
    return SnapRaces(options or {})


def scan(options: dict[str, Any] | None = None) -> ScanRaces:
    """SCAN's codec for a game with these options (default 4 players)."""
    return ScanRaces(options or {})


__all__ = ["SCAN_RTS", "SNAP_RTS", "scan", "scout", "snap"]
