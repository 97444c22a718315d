"""Nothing in the server, the table, the store, the command line or the lobby names a game
(issue 17): each reads what it needs from the registry and the game's ``GameSpec``, so that a
new game is one package under ``games/`` (plus its bots and its page).

A name counts wherever code could act on it: a string (not a docstring: documentation may give
examples), an identifier, an imported module. Comments are free. :data:`EXCEPTIONS` lists the
few justified ones, each with its reason; an exception no longer needed fails too, so that the
list stays true.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "parlour"
LAYERS = ("server", "table", "store", "cli")
GAME = re.compile(r"(?<![a-z])(scout|scan|snap)(?![a-z])", re.I)
"""A game's name as a word (``scan_designs`` names SCAN; ``snapshot`` does not name SNAP)."""

EXCEPTIONS = {
    ("cli/arena.py", "scout"): "policy files (parlour.rl) are trained on SCOUT only",
    ("cli/arena.py", "SCOUT"): "the same: the refusal's words",
    ("cli/main.py", "SCOUT"): "the same: the arena's help on its lineups",
}
"""(file, the name as written) → why it may stay."""


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    # A bare string after an assignment documents it (attribute docstrings).
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            for stmt in stmts if isinstance(stmts, list) else []:
                expr = stmt.value if isinstance(stmt, ast.Expr) else None
                if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
                    found.add(id(expr))
    return found


def names_in_python(source: str) -> list[tuple[int, str]]:
    """(line, name) of every game named in ``source``'s code."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found: list[tuple[int, str]] = []

    def add(node: ast.AST, text: str) -> None:
        found.extend((getattr(node, "lineno", 0), m.group(0)) for m in GAME.finditer(text))

    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            add(node, node.value)
        elif isinstance(node, ast.Name):
            add(node, node.id)
        elif isinstance(node, ast.Attribute):
            add(node, node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            add(node, node.name)
        elif isinstance(node, ast.arg):
            add(node, node.arg)
        elif isinstance(node, ast.alias):
            add(node, node.name + " " + (node.asname or ""))
        elif isinstance(node, ast.ImportFrom) and node.module:
            add(node, node.module)
    return found


def names_in_js(source: str) -> list[tuple[int, str]]:
    """(line, name) of every game named in a JavaScript module, comments left out."""
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        code = line.split("//")[0]
        if code.strip().startswith(("*", "/*")):
            continue
        found += [(number, m.group(0)) for m in GAME.finditer(code)]
    return found


def game_names() -> dict[tuple[str, str], list[int]]:
    """(file, name) → lines, for every game named in the layers and the lobby."""
    out: dict[tuple[str, str], list[int]] = {}
    files = [p for layer in LAYERS for p in sorted((SRC / layer).rglob("*.py"))]
    for path in [*files, SRC / "web" / "js" / "lobby.js"]:
        text = path.read_text(encoding="utf-8")
        found = names_in_js(text) if path.suffix == ".js" else names_in_python(text)
        for line, name in found:
            out.setdefault((str(path.relative_to(SRC)), name), []).append(line)
    return out


def test_no_game_is_named_outside_its_package() -> None:
    found = game_names()
    named = {key: lines for key, lines in found.items() if key not in EXCEPTIONS}
    assert named == {}, "name the game through the registry or its GameSpec instead"
    stale = [key for key in EXCEPTIONS if key not in found]
    assert stale == [], "these exceptions are no longer needed: remove them"


def test_the_check_finds_names_in_code_not_in_words_about_it() -> None:
    source = '''"""SCOUT's server."""
from parlour.games.scan import svg
X = 1
"""SNAP is documented here."""
def scan_designs(game="snap"):  # scout in a comment
    return snapshot
'''
    assert sorted(name for _, name in names_in_python(source)) == ["scan", "scan", "snap"]
    js = 'const A = "scout"; // snap\n * scan in a comment\nlet snapshot = 1;\n'
    assert names_in_js(js) == [(1, "scout")]
