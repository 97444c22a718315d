"""A game's card art is served from the presentation (parlour.art), found by the game's name."""

from __future__ import annotations

from starlette.testclient import TestClient

from parlour.art.scan import sprite_svg


def test_the_scan_page_gets_its_drawings_and_a_game_without_art_gets_none(
    client: TestClient,
) -> None:
    answer = client.get("/scan/designs.svg")
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml"
    assert answer.text == sprite_svg(False)
    blind = client.get("/scan/designs.svg?colour_blind=1")
    assert blind.text == sprite_svg(True) != answer.text
    for game in ("scout", "snap", "nosuchgame"):
        assert client.get(f"/{game}/designs.svg").status_code == 404
