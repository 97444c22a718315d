"""The message catalogues are complete: every language has every key (a key with plural forms
has each form its language's plural rules use), no key is defined but unused, and no text asks
for a placeholder the code does not give. Covers every ``i18n*.js`` of ``src/parlour/web/js``."""

from __future__ import annotations

from collections import defaultdict

import pytest

from tests.web.catalogue import (
    CARDINAL,
    LANGS,
    ORDINAL,
    base_key,
    code_text,
    placeholders,
    read,
    used_keys,
)


@pytest.fixture(scope="module")
def cat():  # type: ignore[no-untyped-def]
    return read()


def _groups(messages: dict[str, str]) -> dict[str, set[str]]:
    """base key → its plural forms (empty: a plain key)."""
    out: dict[str, set[str]] = defaultdict(set)
    for key in messages:
        base = base_key(key)
        out[base]
        if base != key:
            out[base].add(key.rsplit(".", 1)[1])
    return out


def test_every_language_is_there(cat) -> None:  # type: ignore[no-untyped-def]
    assert cat.languages_seen == set(LANGS)
    assert len(cat.messages["en"]) > 400


@pytest.mark.parametrize("lang", [x for x in LANGS if x != "en"])
def test_every_key_in_every_language(cat, lang: str) -> None:  # type: ignore[no-untyped-def]
    english = _groups(cat.messages["en"])
    mine = _groups(cat.messages[lang])
    missing = sorted(set(english) - set(mine))
    extra = sorted(set(mine) - set(english))
    assert not missing, f"{lang} lacks {len(missing)} keys: {missing[:40]}"
    assert not extra, f"{lang} has keys English lacks: {extra[:40]}"


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms(cat, lang: str) -> None:  # type: ignore[no-untyped-def]
    wrong = []
    for base, forms in _groups(cat.messages[lang]).items():
        if not forms:
            continue
        need = (ORDINAL if base == "ordinal" else CARDINAL)[lang]
        if forms != need:
            wrong.append(f"{base}: has {sorted(forms)}, {lang} needs {sorted(need)}")
    assert not wrong, "\n".join(wrong)


ALTERNATIVES = {"place": "pos", "pos": "place"}
"""Placeholders the code gives together, so a language may use either: a position as a number
(``place``: "på plass 3") or as an ordinal (``pos``: "3rd", "3:e")."""


@pytest.mark.parametrize("lang", [x for x in LANGS if x != "en"])
def test_placeholders_match_english(cat, lang: str) -> None:  # type: ignore[no-untyped-def]
    english: dict[str, set[str]] = defaultdict(set)
    for key, text in cat.messages["en"].items():
        english[base_key(key)] |= placeholders(text) | ({"n"} if base_key(key) != key else set())
    wrong = []
    for key, text in cat.messages[lang].items():
        known = english[base_key(key)]
        unknown = {p for p in placeholders(text) - known if ALTERNATIVES.get(p) not in known}
        if unknown:
            wrong.append(f"{key}: {sorted(unknown)} in {text!r}")
    assert not wrong, "\n".join(wrong)


def test_no_key_unused(cat) -> None:  # type: ignore[no-untyped-def]
    bases = {base_key(k) for k in cat.messages["en"]}
    used = used_keys(bases, code_text(cat))
    unused = sorted(bases - used)
    assert not unused, f"defined but never used: {unused}"


def test_no_key_used_but_undefined(cat) -> None:  # type: ignore[no-untyped-def]
    code = code_text(cat)
    import re

    bases = {base_key(k) for k in cat.messages["en"]}
    called = set(re.findall(r"(?<![\w.])(?:t|tn|has)\(\s*\"([\w.-]+)\"", code))
    called |= set(re.findall(r"data-i18n(?:-[\w-]+)?=\"([\w.-]+)\"", code))
    assert not called - bases, sorted(called - bases)


def test_help_texts_have_the_same_shape(cat) -> None:  # type: ignore[no-untyped-def]
    wrong = []
    for name, help_by_lang in cat.helps:
        assert set(help_by_lang) == set(LANGS), f"{name}: help in {sorted(help_by_lang)}"
        en = help_by_lang["en"]
        for lang, content in help_by_lang.items():
            for part in ("sections", "keys"):
                if len(content.get(part, [])) != len(en.get(part, [])):
                    wrong.append(f"{name} {lang} {part}: {len(content.get(part, []))} vs English's")
            for section in content.get("sections", []):
                if len(section) != 2 or not all(isinstance(s, str) and s for s in section):
                    wrong.append(f"{name} {lang}: section {section!r}")
    assert not wrong, "\n".join(wrong)
