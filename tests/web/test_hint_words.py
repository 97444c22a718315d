"""Every reason and move SCOUT's coach can send has words in every language, with exactly the
placeholders the coach fills in (issue 11)."""

from __future__ import annotations

import pytest

from parlour.bots.scout.coach import MOVES, REASONS
from tests.web.catalogue import LANGS, base_key, placeholders, read


@pytest.mark.parametrize("lang", LANGS)
def test_every_reason_and_move_has_words_with_its_placeholders(lang: str) -> None:
    messages = read().messages[lang]
    texts: dict[str, set[str]] = {}
    for key, text in messages.items():
        texts.setdefault(base_key(key), set()).update(placeholders(text))
    wanted = {f"hint.reason.{k}": set(p) for k, p in REASONS.items()}
    wanted |= {f"hint.move.{k}": set(p) for k, p in MOVES.items()}
    wrong = [f"{key}: {texts.get(key)} != {params}" for key, params in wanted.items()
             if texts.get(key) is None or not texts[key] <= params]  # fmt: skip
    assert not wrong, "\n".join(wrong)
    unknown = {k for k in texts if k.startswith(("hint.reason.", "hint.move."))} - set(wanted)
    assert not unknown, f"words for reasons the coach never gives: {sorted(unknown)}"
