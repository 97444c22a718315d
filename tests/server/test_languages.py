"""The served pages say their language in ``<html lang>``: the browser's first language if
Parlour speaks it, else the link's ``?lang=``, else another language of the browser, else
English (the page's script then also weighs a choice remembered in the browser)."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from parlour.server.languages import page_language


@pytest.mark.parametrize(
    ("link", "header", "lang"),
    [
        (None, None, "en"),
        (None, "sv-SE,sv;q=0.9,en;q=0.5", "sv"),
        ("ro", "sv", "sv"),  # the guest's browser chose Swedish
        ("ro", "de-DE,en;q=0.5", "ro"),  # the browser speaks none first: the inviter's language
        (None, "de,nn;q=0.8", "nb"),  # Nynorsk or "no": Bokmål
        ("xx", "fr", "en"),
        ("SQ", "", "sq"),
    ],
)
def test_page_language(link: str | None, header: str | None, lang: str) -> None:
    assert page_language(link, header) == lang


def test_pages_carry_html_lang(client: TestClient) -> None:
    page = client.get("/?lang=sq", headers={"accept-language": "de"})
    assert page.status_code == 200
    assert '<html lang="sq">' in page.text
    assert page.headers["content-language"] == "sq"
    assert "Accept-Language" in page.headers["vary"]
    page = client.get("/replay/nothing", headers={"accept-language": "nb-NO"})
    assert '<html lang="nb">' in page.text
    page = client.get("/t/nothing")
    assert '<html lang="en">' in page.text
