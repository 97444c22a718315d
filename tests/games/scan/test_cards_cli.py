"""``parlour cards scan --out DIR [--colour-blind]`` writes the SCAN drawings as SVG files."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from parlour.cli.main import main, write_cards

CATEGORIES = ("shape", "pattern", "position", "colour")
EXPECTED = (
    {f"{c}-{i:02d}.svg" for c in CATEGORIES for i in range(23)}
    | {f"sheet-{c}.svg" for c in CATEGORIES}
    | {"bluffo.svg", "card-sample-tan.svg", "card-sample-blue.svg"}
    | {f"{back}-{i:02d}.svg" for back in ("tan", "blue") for i in range(23)}
)


def test_cards_scan_writes_every_drawing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "deck" / "svg"
    assert main(["cards", "scan", "--out", str(out)]) == 0
    assert {p.name for p in out.iterdir()} == EXPECTED
    for path in out.iterdir():
        root = ET.fromstring(path.read_text(encoding="utf-8"))
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "wrote 145 SVG files" in capsys.readouterr().out
    assert "<text" not in (out / "colour-00.svg").read_text(encoding="utf-8")


def test_cards_scan_colour_blind_adds_letters(tmp_path: Path) -> None:
    assert main(["cards", "scan", "--out", str(tmp_path), "--colour-blind"]) == 0
    colour = ET.fromstring((tmp_path / "colour-00.svg").read_text(encoding="utf-8"))
    texts = [t.text for t in colour.iter("{http://www.w3.org/2000/svg}text")]
    assert texts == ["B", "R", "Y"]


def test_cards_rejects_other_games_and_a_missing_out(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as unknown:
        main(["cards", "snap", "--out", str(tmp_path)])
    assert unknown.value.code == 2
    with pytest.raises(SystemExit) as missing:
        main(["cards", "scan"])
    assert missing.value.code == 2
    with pytest.raises(ValueError, match="only scan"):
        write_cards("scout", tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_cards_reports_a_folder_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["cards", "scan", "--out", str(blocker)]) == 1
    assert "cannot write" in capsys.readouterr().err
