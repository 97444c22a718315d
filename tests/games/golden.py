"""The golden-file comparison every game's golden playthrough test uses, and writing a golden file
only on purpose (``make golden`` compares, ``--write`` overwrites)."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path


def assert_golden(path: Path, actual: str, game: str) -> None:
    """Raise ``AssertionError`` with a readable diff if ``actual`` differs from the file."""
    expected = path.read_text()
    if actual == expected:
        return
    diff = "".join(
        list(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                "golden",
                "now",
                n=1,
            )
        )[:60]
    )
    raise AssertionError(
        f"the {game.upper()} rules changed the golden playthrough; if that is deliberate, review "
        f"the diff and overwrite it with 'make golden GOLDEN_ARGS=\"--write\"':\n"
        f"{diff}"
    )


def write_or_check(path: Path, text: str, argv: list[str]) -> int:
    """Compare ``text`` with the golden file at ``path``; overwrite it only when ``argv`` holds
    ``--write``. Returns the exit status: 0 when the file holds ``text`` (or was written), 1
    when it differs (the first lines of the difference are printed)."""
    old = path.read_text() if path.exists() else ""
    if old == text:
        print(f"{path.name}: unchanged", file=sys.stderr)
        return 0
    if "--write" in argv:
        path.write_text(text)
        print(f"wrote {path} ({path.stat().st_size} bytes)", file=sys.stderr)
        return 0
    diff = difflib.unified_diff(
        old.splitlines(), text.splitlines(), "golden", "engine", lineterm=""
    )
    for line in list(diff)[:40]:
        print(line[:200], file=sys.stderr)
    print(
        f"{path.name} differs from what the engine plays now; after a deliberate rules change, "
        'overwrite it with: make golden GOLDEN_ARGS="--write"',
        file=sys.stderr,
    )
    return 1
