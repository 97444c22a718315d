"""The layers of DESIGN.md: each package imports only what its layer may import."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "parlour"

ALLOWED = {
    "core": {"core"},
    "games": {"core", "games"},
    "bots": {"core", "games", "bots"},
    "table": {"core", "games", "table"},
    "store": {"core", "table", "store"},
    "rl": {"core", "games", "bots", "rl"},
}
"""Parlour packages each layer may import (server and cli may import everything)."""

STDLIB_ONLY = {"core", "games"}
"""Layers that may import nothing outside the standard library and Parlour."""


def imports_of(path: Path) -> list[str]:
    """The absolute module names a Python file imports (relative imports are resolved)."""
    tree = ast.parse(path.read_text())
    package = ".".join(("parlour", *path.relative_to(SRC).parent.parts))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names.append(".".join([*base, node.module] if node.module else base))
            elif node.module:
                names.append(node.module)
    return names


def violations(root: Path = SRC) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        layer = parts[0] if len(parts) > 1 else None
        if layer not in ALLOWED:
            continue
        for name in imports_of(path):
            top = name.split(".")[0]
            if top == "parlour":
                target = name.split(".")[1] if "." in name else ""
                if target not in ALLOWED[layer]:
                    found.append(f"{path.relative_to(root)}: {layer} imports {name}")
                if layer == "games" and len(parts) > 2 and name.startswith("parlour.games."):
                    other = name.split(".")[2]
                    if other not in (parts[1], "registry"):
                        found.append(f"{path.relative_to(root)}: game {parts[1]} imports {name}")
            elif (
                layer in STDLIB_ONLY and top not in sys.stdlib_module_names and top != "__future__"
            ):
                found.append(f"{path.relative_to(root)}: {layer} imports third-party {name}")
    return found


def test_no_module_imports_across_the_layers() -> None:
    assert violations() == []


@pytest.mark.parametrize(
    ("relpath", "source", "expected"),
    [
        ("core/x.py", "import parlour.games.scout\n", "core imports parlour.games.scout"),
        ("games/scout/x.py", "from parlour.games.snap import rules\n", "game scout imports"),
        ("games/scout/x.py", "import numpy\n", "games imports third-party numpy"),
        ("bots/x.py", "from parlour.table import Table\n", "bots imports parlour.table"),
        ("rl/x.py", "from parlour.server import app\n", "rl imports parlour.server"),
        ("rl/x.py", "import parlour.store.sqlite\n", "rl imports parlour.store.sqlite"),
        ("games/scout/x.py", "from ..snap import rules\n", "game scout imports parlour.games.snap"),
    ],
)
def test_the_layer_check_catches_a_crossing(
    tmp_path: Path, relpath: str, source: str, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / relpath
    target.parent.mkdir(parents=True)
    target.write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "SRC", tmp_path)
    assert any(expected in v for v in violations(tmp_path))
