"""Map files from outside the package (issue 33): read and checked as the shipped maps are, with
plain-words errors (`skirmbot.mapfiles`), drawn empty with a mission's deployment zones and
objectives, and `skirmbot map check FILE` offline; the README's example passes it."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from skirmbot import content
from skirmbot.cli import main
from skirmbot.mapfiles import MAP_FILE_LIMIT, check_map, empty_map, empty_view, read_map_file
from skirmbot.render.battlemap import layout_of
from skirmbot.render.layout import MapLayout
from skirmbot.render.palette import COLOURS
from skirmbot.rules.errors import ContentError
from skirmbot.rules.squares import Square

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_map() -> dict[str, Any]:
    """The map file the README's Map files shows."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### Map files") :]
    block = section[section.index("```json") + len("```json") : section.index("```\n\n")]
    data: dict[str, Any] = json.loads(block)
    return data


def small_map(**changes: Any) -> dict[str, Any]:
    return {**readme_map(), **changes}


def test_the_readmes_example_passes_map_check_and_is_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old-mill.json"
    path.write_text(json.dumps(readme_map()), encoding="utf-8")
    out = tmp_path / "pictures" / "mill.png"
    assert main(["map", "check", str(path), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "Old Mill: a map of 10 x 10 squares." in said
    assert "Skirm Lite: Crossfire, Supply Run, Take and Hold." in said
    assert f"wrote {out}" in said
    assert Image.open(out).format == "PNG"


def test_map_check_names_what_is_wrong_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(small_map(objectives=["D3"])), encoding="utf-8")
    assert main(["map", "check", str(path), "--out", str(tmp_path / "x.png")]) == 2
    assert "D3 is impassable; nothing can stand there." in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_map_check_for_a_ruleset_of_another_kind_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mill.json"
    path.write_text(json.dumps(readme_map()), encoding="utf-8")
    assert main(["map", "check", str(path), "--ruleset", "infantry"]) == 2
    assert "Skirmishers plays on boards of dots; Old Mill is a map of squares." in (
        capsys.readouterr().err
    )


def test_map_check_draws_the_mission_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mill.json"
    path.write_text(json.dumps(readme_map()), encoding="utf-8")
    out = tmp_path / "m.png"
    assert (
        main(
            [
                "map",
                "check",
                str(path),
                "--ruleset",
                "d20",
                "--mission",
                "Last Stand",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    said = capsys.readouterr().out
    assert "for Last Stand" in said and "d20 Skirmish: Attrition" in said and "Skirm:" not in said


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"\xff\xfe\x00", "is not a text file; a map file is JSON"),
        (b'{"name": "x",', "is not valid JSON: Expecting property name"),
        (b"[1, 2]", "must hold one JSON object"),
        (b" " * (MAP_FILE_LIMIT + 1), f"a map file is at most {MAP_FILE_LIMIT:,}"),
    ],
)
def test_a_file_that_is_not_a_map_is_refused_in_words(raw: bytes, words: str) -> None:
    with pytest.raises(ContentError, match=words):
        read_map_file(raw, "upload.json")


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"name": "   "}, "the map's name has no visible characters"),
        ({"name": "M" * 40}, "is 40 characters long; a map's name has 1 to 32"),
        ({"name": "Old\nMill"}, "holds a line break"),
        ({"name": "Old\u200bMill"}, "holds an invisible character \\(U\\+200B\\)"),
        ({"name": 7}, "the map's name must be a text"),
        ({"description": "x" * 301}, "a description has 1 to 300 visible characters"),
        ({"board": "hexes"}, "'board' is \"squares\""),
        ({"rows": ["# # # # # #"] * 6, "objectives": [], "items": [], "edges": []},
         "No shipped mission of Skirm or Skirm Lite or d20 Skirmish or Companies fits on Old Mill"),
        ({"edges": ["A1|C1: wall=2"]}, "Map Old Mill"),
    ],
)  # fmt: skip
def test_a_bad_map_is_refused_in_words(changes: dict[str, Any], words: str) -> None:
    with pytest.raises(ContentError, match=words):
        check_map(small_map(**changes))


def test_a_good_map_says_which_missions_fit_for_each_ruleset_of_its_kind() -> None:
    checked = check_map(small_map(name="  Old Mill "))
    assert checked.name == "Old Mill" and checked.data["name"] == "Old Mill"
    assert checked.key == "old mill" and checked.size == "10 x 10 squares"
    assert set(checked.fits) == {"skirm", "lite", "d20", "companies"}
    assert checked.fits["lite"] == tuple(content.names("missions", "lite"))


def test_a_board_of_dots_is_checked_for_the_infantry_rules() -> None:
    checked = check_map(content.raw("maps", "ruins", "infantry"))
    assert set(checked.fits) == {"infantry"} and checked.size == "22 x 16 dots"


def _pixel(png: bytes, layout: MapLayout, square: Square) -> tuple[int, int, int]:
    x0, y0, _, _ = layout.box(square)
    rgb: tuple[int, int, int] = (
        Image.open(io.BytesIO(png)).convert("RGB").getpixel((x0 + 1, y0 + 8))
    )
    return rgb


def test_the_empty_map_outlines_each_seats_zone_in_its_colour() -> None:
    """Skirm's Bloody Crossroads deploys on the left and right edges, two squares deep."""
    png, alt = empty_map(readme_map(), "skirm", "Bloody Crossroads")
    _, view, zones = empty_view(readme_map(), "skirm", "Bloody Crossroads")
    assert [len(zone) for zone in zones] == [20, 20]
    layout = layout_of(view)
    assert _pixel(png, layout, Square(0, 0)) == COLOURS["side0"]
    assert _pixel(png, layout, Square(9, 9)) == COLOURS["side1"]
    assert _pixel(png, layout, Square(3, 0)) != COLOURS["side0"]  # D1: no one deploys there
    assert alt == (
        "Empty map: Old Mill, 10 x 10 squares, for Bloody Crossroads. Seat 1 deploys on 20 "
        "places, A1 to B10; seat 2 deploys on 20 places, I1 to J10. Objectives: B5, I6, E3, F8."
    )


def test_the_empty_map_refuses_a_mission_that_does_not_fit() -> None:
    with pytest.raises(ContentError, match="no mission called 'Firefight'"):
        empty_map(readme_map(), "skirm", "Firefight")


def test_demo_plays_on_a_map_file_and_its_record_keeps_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mill.json"
    path.write_text(json.dumps(readme_map()), encoding="utf-8")
    out = tmp_path / "demo"
    assert (
        main(
            ["demo", "--ruleset", "lite", "--seed", "4", "--map-file", str(path), "--out", str(out)]
        )
        == 0
    )
    assert "on Old Mill" in capsys.readouterr().out
    record = json.loads((out / "match.json").read_text(encoding="utf-8"))
    assert record["content"]["map"] == readme_map()
    assert main(["replay", str(out / "match.json")]) == 0


def test_console_and_demo_refuse_a_map_file_their_ruleset_cannot_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mill.json"
    path.write_text(json.dumps(readme_map()), encoding="utf-8")
    for command in ("demo", "console"):
        args = [command, "--ruleset", "infantry", "--map-file", str(path), "--out", str(tmp_path)]
        assert main(args) == 2
        assert "Skirmishers plays on boards of dots; Old Mill" in capsys.readouterr().err
