"""Read the pages' message catalogues (``src/parlour/web/js/i18n*.js``) without running them.

A small parser for the JavaScript literals the catalogues are written in (objects, arrays,
strings, numbers), found where the files define them: ``const en = {…}`` (and ``nb``, ``sv``,
``sq``, ``ro``), ``help.en = […]``, ``keys.en = […]``, ``addMessages({ en: {…}, … })`` and
``setHelpContent({ en: {…}, … })``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

WEB = Path(__file__).resolve().parents[2] / "src" / "parlour" / "web"
JS = WEB / "js"
LANGS = ("en", "nb", "sv", "sq", "ro")
PLURAL_FORMS = ("zero", "one", "two", "few", "many", "other")
CARDINAL = {
    "en": {"one", "other"},
    "nb": {"one", "other"},
    "sv": {"one", "other"},
    "sq": {"one", "other"},
    "ro": {"one", "few", "other"},
}
"""Intl.PluralRules(lang).resolvedOptions().pluralCategories (CLDR)."""
ORDINAL = {
    "en": {"one", "two", "few", "other"},
    "nb": {"other"},
    "sv": {"one", "other"},
    "sq": {"one", "many", "other"},
    "ro": {"one", "other"},
}
"""The same with type "ordinal" (the catalogue's ``ordinal.*``)."""


class ParseError(ValueError):
    pass


def _skip(src: str, i: int) -> int:
    while i < len(src):
        if src[i].isspace():
            i += 1
        elif src.startswith("//", i):
            i = src.find("\n", i)
            i = len(src) if i < 0 else i
        elif src.startswith("/*", i):
            i = src.index("*/", i) + 2
        else:
            break
    return i


_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _string(src: str, i: int) -> tuple[str, int]:
    quote = src[i]
    out = []
    i += 1
    while src[i] != quote:
        if src[i] == "\\":
            nxt = src[i + 1]
            if nxt == "u":
                out.append(chr(int(src[i + 2 : i + 6], 16)))
                i += 6
                continue
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
            continue
        if quote == "`" and src.startswith("${", i):
            raise ParseError("a catalogue's template literal has no ${…}")
        out.append(src[i])
        i += 1
    return "".join(out), i + 1


def value(src: str, i: int) -> tuple[Any, int]:
    """The JavaScript literal starting at ``src[i]`` and the index after it."""
    i = _skip(src, i)
    c = src[i]
    if c == "{":
        obj: dict[str, Any] = {}
        i += 1
        while True:
            i = _skip(src, i)
            if src[i] == "}":
                return obj, i + 1
            if src[i] in "\"'":
                key, i = _string(src, i)
            else:
                m = _IDENT.match(src, i)
                if not m:
                    raise ParseError(f"a key expected at {src[i : i + 30]!r}")
                key, i = m.group(), m.end()
            i = _skip(src, i)
            if src[i] != ":":
                raise ParseError(f"':' expected at {src[i : i + 30]!r}")
            if key in obj:
                raise ParseError(f"{key!r} defined twice")
            obj[key], i = value(src, i + 1)
            i = _skip(src, i)
            if src[i] == ",":
                i += 1
    if c == "[":
        arr: list[Any] = []
        i += 1
        while True:
            i = _skip(src, i)
            if src[i] == "]":
                return arr, i + 1
            item, i = value(src, i)
            arr.append(item)
            i = _skip(src, i)
            if src[i] == ",":
                i += 1
    if c in "\"'`":
        return _string(src, i)
    m = _NUMBER.match(src, i)
    if m:
        return json.loads(m.group()), m.end()
    m = _IDENT.match(src, i)
    if m:
        return {"true": True, "false": False, "null": None}.get(m.group(), m.group()), m.end()
    raise ParseError(f"a value expected at {src[i : i + 30]!r}")


@dataclass
class Catalogues:
    messages: dict[str, dict[str, str]] = field(
        default_factory=lambda: {lang: {} for lang in LANGS}
    )
    """Every language's keys and texts, all files together (a later file's key replaces)."""
    defined_in: dict[str, set[str]] = field(default_factory=dict)
    """key → the files defining it"""
    helps: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """(file, {lang: {"sections": […], "keys": […]}}) for each help text"""
    spans: dict[Path, list[tuple[int, int]]] = field(default_factory=dict)
    """the catalogue literals in each file (not code that uses keys)"""
    languages_seen: set[str] = field(default_factory=set)


_CONST = re.compile(r"(?m)^\s*const (en|nb|sv|sq|ro) = (?=\{)")
_HELP = re.compile(r"(?m)^\s*(help|keys)\.(\w+) = (?=\[)")
_CALL = re.compile(r"(?m)^\s*(addMessages|setHelpContent)\((?=\s*\{)")


def catalogue_files() -> list[Path]:
    return sorted(JS.glob("i18n*.js"))


def read() -> Catalogues:
    cat = Catalogues()

    def add(lang: str, entries: dict[str, Any], path: Path) -> None:
        if lang not in cat.messages:
            raise ParseError(f"{path.name}: unknown language {lang!r}")
        cat.languages_seen.add(lang)
        for key, text in entries.items():
            if not isinstance(text, str):
                raise ParseError(f"{path.name}: {lang} {key!r} is not a string")
            cat.messages[lang][key] = text
            cat.defined_in.setdefault(key, set()).add(path.name)

    for path in catalogue_files():
        src = path.read_text(encoding="utf-8")
        spans = cat.spans.setdefault(path, [])
        core_help: dict[str, dict[str, Any]] = {}
        for m in _CONST.finditer(src):
            obj, end = value(src, m.end())
            spans.append((m.end(), end))
            add(m.group(1), obj, path)
        for m in _HELP.finditer(src):
            arr, end = value(src, m.end())
            spans.append((m.end(), end))
            core_help.setdefault(m.group(2), {})["sections" if m.group(1) == "help" else "keys"] = (
                arr
            )
        if core_help:
            cat.helps.append((path.name, core_help))
        for m in _CALL.finditer(src):
            obj, end = value(src, m.end())
            spans.append((m.end(), end))
            if m.group(1) == "addMessages":
                for lang, entries in obj.items():
                    add(lang, entries, path)
            else:
                cat.helps.append((path.name, obj))
    return cat


def schema_strings() -> str:
    """Every string of GET /api/games (the lobby shows each game's labels, hints and level words
    by the catalogue keys the server names there), quoted, one per line."""
    from parlour.server.schema import games_schema

    found: list[str] = []

    def walk(x: object) -> None:
        if isinstance(x, str):
            found.append(json.dumps(x))
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    walk(games_schema())
    return "\n".join(found)


def code_text(cat: Catalogues) -> str:
    """Every page's code and markup, the catalogue literals left out, and the strings of the
    games' schema (GET /api/games) that the lobby turns into words."""
    parts = [schema_strings()]
    for path in sorted(JS.glob("*.js")) + sorted(WEB.glob("*.html")):
        src = path.read_text(encoding="utf-8")
        for start, end in sorted(cat.spans.get(path, []), reverse=True):
            src = src[:start] + src[end:]
        parts.append(src)
    return "\n".join(parts)


def _templates(code: str) -> list[re.Pattern[str]]:
    """Each template literal with a ``${…}`` as a pattern of the keys it can make."""
    found = []
    i = 0
    while True:
        i = code.find("`", i)
        if i < 0:
            return found
        pieces: list[str] = []
        j = i + 1
        dynamic = False
        while j < len(code) and code[j] != "`":
            if code.startswith("${", j):
                depth, j = 1, j + 2
                while depth and j < len(code):
                    depth += {"{": 1, "}": -1}.get(code[j], 0)
                    j += 1
                pieces.append(r"[\w-]*")
                dynamic = True
            else:
                pieces.append(re.escape(code[j]))
                j += 1
        if dynamic and pieces[0] != r"[\w-]*":  # a key's namespace is written out ("log.${…}")
            found.append(re.compile("".join(pieces)))
        i = j + 1


def base_key(key: str) -> str:
    head, _, last = key.rpartition(".")
    return head if head and last in PLURAL_FORMS else key


def used_keys(keys: set[str], code: str) -> set[str]:
    """The keys (or plural bases) the code names: as a quoted string, or made by a template."""
    patterns = _templates(code)
    quoted = set(re.findall(r"[\"']([\w.-]+)[\"']", code))
    return {k for k in keys if k in quoted or any(p.fullmatch(k) for p in patterns)}


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))
