"""The optional compiled parts of the SCOUT bots (``_ccodec``: the research encoding; ``_cheur``:
the bots' hand arithmetic), built by ``setup.py`` when a C compiler is there. Each gives exactly
what its pure-Python functions give; this finds one that is built and current.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType


def load(name: str, abi: int) -> ModuleType | None:
    """The compiled module ``parlour.bots.scout.<name>`` if it is built and its ``ABI_VERSION``
    is ``abi`` (a stale build is not used); None if not, or if ``PARLOUR_PURE_PYTHON=1`` is in
    the environment (the pure-Python functions are then used)."""
    if os.environ.get("PARLOUR_PURE_PYTHON") == "1":
        return None
    try:
        module = importlib.import_module(f"parlour.bots.scout.{name}")
    except ImportError:
        return None
    return module if getattr(module, "ABI_VERSION", None) == abi else None
