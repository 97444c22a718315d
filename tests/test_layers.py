"""The layers of DESIGN.md: each package imports only what its layer may import."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "parlour"

ALLOWED = {
    "core": {"core"},
    "games": {"core", "games"},
    "art": {"core", "games", "art"},
    "bots": {"core", "games", "bots"},
    "table": {"core", "games", "table"},
    "store": {"core", "table", "store"},
    "rl": {"core", "games", "bots", "rl"},
    "server": {"core", "games", "art", "bots", "table", "store", "server"},
    "cli": {"core", "games", "art", "bots", "table", "store", "server", "rl", "cli"},
}
"""Parlour packages each layer may import (the web folder holds no Python)."""

STDLIB_ONLY = {"core", "games", "art"}
"""Layers that may import nothing outside the standard library and Parlour."""

THIRD_PARTY = {
    "bots": {"numpy"},  # the SCOUT network's inference (parlour.bots.scout.net)
    "table": set(),
    "store": {"psycopg", "psycopg_pool"},  # PostgreSQL (the pg extra), store/postgres.py only
    "server": {"starlette", "uvicorn", "websockets", "anyio", "h11", "redis", "orjson"},
}
"""The third-party packages a layer may import: the server a web framework and its server, not
the arena's ``rich`` or ``openskill`` (an optional extra) nor the research libraries; ``redis`` (the
``cluster`` extra) only for many processes (imported only with ``--redis``); ``orjson`` to encode
outgoing messages (server/protocol.py); the bots numpy alone
(the SCOUT network's inference; no training framework at play time)."""


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
            elif top in sys.stdlib_module_names or top == "__future__":
                continue
            elif layer in STDLIB_ONLY or top not in THIRD_PARTY.get(layer, {top}):
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
        ("bots/x.py", "import torch\n", "bots imports third-party torch"),
        ("rl/x.py", "from parlour.server import app\n", "rl imports parlour.server"),
        ("rl/x.py", "import parlour.store.sqlite\n", "rl imports parlour.store.sqlite"),
        ("games/scout/x.py", "from ..snap import rules\n", "game scout imports parlour.games.snap"),
        ("server/x.py", "from parlour.rl import scout_v0\n", "server imports parlour.rl"),
        ("server/x.py", "import rich.console\n", "server imports third-party rich.console"),
        ("server/x.py", "from openskill.models import X\n", "server imports third-party openskill"),
        ("table/x.py", "from parlour.server import app\n", "table imports parlour.server"),
        ("store/x.py", "from parlour.cli import main\n", "store imports parlour.cli"),
        ("games/scan/x.py", "from parlour.art import scan\n", "games imports parlour.art"),
        ("games/scan/x.py", "from parlour.art.scan import card_svg\n", "games imports parlour.art"),
        ("art/x.py", "from parlour.table import Table\n", "art imports parlour.table"),
        ("art/x.py", "import numpy\n", "art imports third-party numpy"),
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


def module_of(path: Path, root: Path = SRC) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(("parlour", *(parts[:-1] if parts[-1] == "__init__" else parts)))


def import_cycles(root: Path = SRC) -> list[list[str]]:
    """Cycles of Parlour modules importing each other (imports inside functions count: they
    only hide a cycle; ``if TYPE_CHECKING`` imports do not run and do not count; a package's
    ``__init__`` re-exporting its modules does not count)."""
    graph: dict[str, set[str]] = {}
    modules = {module_of(p, root): p for p in root.rglob("*.py")}
    for name, path in modules.items():
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text())
        typing_only = {
            id(n) for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for n in ast.walk(node)
        }  # fmt: skip
        found = set()
        for node in ast.walk(tree):
            if id(node) in typing_only or not isinstance(node, ast.ImportFrom | ast.Import):
                continue
            targets = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                node.module or "", *(f"{node.module}.{a.name}" for a in node.names)
            ]  # fmt: skip
            found |= {t for t in targets if t in modules and t != name}
        graph[name] = {t for t in found if modules[t].name != "__init__.py"}
    cycles, seen = [], set()
    for start in sorted(graph):
        stack = [(start, [start])]
        while stack:
            node, trail = stack.pop()
            for nxt in sorted(graph.get(node, ())):
                if nxt == start and frozenset(trail) not in seen:
                    seen.add(frozenset(trail))
                    cycles.append(trail)
                elif nxt not in trail and nxt > start:
                    stack.append((nxt, [*trail, nxt]))
    return cycles


def test_no_module_imports_itself_round_about() -> None:
    assert import_cycles() == []


def test_the_cycle_check_finds_a_cycle(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text("def f():\n    from parlour.pkg.b import g\n")
    (package / "b.py").write_text("from parlour.pkg.a import f\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from parlour.pkg.a import f\n")  # fmt: skip
    assert import_cycles(tmp_path) == [["parlour.pkg.a", "parlour.pkg.b"]]


def test_the_server_and_the_command_line_start_without_the_arena_extra() -> None:
    # rich and openskill are the arena's (an optional extra): blocked, the server and the
    # parlour command still import, and `parlour arena` says what to install.
    code = (
        "import sys\n"
        "sys.modules.update(rich=None, openskill=None)\n"
        "import parlour.server, parlour.server.app, parlour.cli.main\n"
        "from parlour.server import create_app\n"
        "status = parlour.cli.main.main(['arena', '--bots', 'random,random', '--games', '1'])\n"
        "print('status', status)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert "status 2" in done.stdout, done.stdout + done.stderr
    assert "parlour[arena]" in done.stderr, done.stderr


def test_the_rules_layer_draws_nothing() -> None:
    # Card art lives in parlour.art (the presentation): no engine module builds SVG or imports
    # the art (the layer check above forbids games -> art; this catches a drawing moved back).
    drawing = [
        str(p.relative_to(SRC))
        for p in sorted((SRC / "games").rglob("*.py"))
        if "<svg" in p.read_text() or "parlour.art" in "".join(imports_of(p))
    ]
    assert drawing == []
