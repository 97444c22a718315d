"""The language of a served page, for its ``<html lang>`` before any script runs.

The page's script (``web/js/lang.js``) makes the final choice, with the same order less the
choice a person remembered in the browser: the browser's first language (``Accept-Language``)
if Parlour speaks it, else the link's ``?lang=``, else any later language of the browser that
Parlour speaks, else English.
"""

from __future__ import annotations

import functools
from pathlib import Path

LANGUAGES = ("en", "nb", "sv", "sq", "ro")
"""English, Norwegian Bokmål, Swedish, Albanian, Romanian."""


def supported(tag: str | None) -> str | None:
    """The language Parlour speaks for a BCP 47 tag (``sv-FI`` → ``sv``, ``no``/``nn`` → ``nb``).

    >>> supported("sv-FI"), supported("nn"), supported("de"), supported(None)
    ('sv', 'nb', None, None)
    """
    base = (tag or "").strip().lower().replace("_", "-").split("-")[0]
    if base in ("no", "nn"):
        return "nb"
    return base if base in LANGUAGES else None


def accepted(header: str | None) -> list[str]:
    """The languages of an ``Accept-Language`` header, most wanted first (q=0 left out).

    >>> accepted("en-GB;q=0.8, sv, de;q=0.9, fr;q=0")
    ['sv', 'de', 'en-GB']
    """
    found: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")):
        tag, _, rest = part.strip().partition(";")
        q = 1.0
        if rest.strip().startswith("q="):
            try:
                q = float(rest.strip()[2:])
            except ValueError:
                q = 0.0
        if tag and tag != "*" and q > 0:
            found.append((-q, i, tag))
    return [tag for _, _, tag in sorted(found)]


def page_language(link: str | None, accept_language: str | None) -> str:
    """The language to serve a page in (see the module's docstring).

    >>> page_language("sv", "de,en;q=0.5"), page_language("sv", "ro"), page_language(None, "")
    ('sv', 'ro', 'en')
    """
    browser = accepted(accept_language)
    if browser and supported(browser[0]):
        return supported(browser[0]) or "en"
    if supported(link):
        return supported(link) or "en"
    for tag in browser:
        if supported(tag):
            return supported(tag) or "en"
    return "en"


@functools.lru_cache(maxsize=32)
def _html(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def html_in(path: Path, lang: str) -> str:
    """The page at ``path`` with ``<html lang="…">`` set to ``lang``."""
    return _html(path).replace('<html lang="en">', f'<html lang="{lang}">', 1)
