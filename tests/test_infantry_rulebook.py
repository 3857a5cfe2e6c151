"""The infantry rules (rulebook 002): the two rulings no other test file holds on its own, and
docs/rulings.md's table kept honest - every row names tests that exist, none is left pending,
and every quote in it is the rulebook's own words.

The rows of the engine, arcs, views and automatic player cite the plan's test names
(docs/plans/infantry.md) while those parts are built beside this file; the rows of the modules
already landed (card, arms, terrain, sight, combat, blast, squads, maps, dots) are checked now.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from infantry_helpers import dice_left, fresh, kinds, of_kind, pass_turn, play, put

from skirmbot.rules.commands import Activate, EndActivation
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.infantry.commands import Arc, ChangeWeapon, Throw
from skirmbot.rules.infantry.export import state_json

# --- our rulings that no other file checks ------------------------------------------------------


def test_an_arc_ends_when_its_trooper_activates_again() -> None:
    """Our ruling (docs/rulings.md, how long an arc lasts): the vertex is "the dot the trooper
    is standing on", so an arc lasts until its trooper activates again; and one arc a trooper:
    a second replaces the first, the first's AP not given back."""
    match = fresh()
    okafor = put(match, "Okafor", "G2")
    play(match, Arc(0, "Okafor", 30, "G10"))
    events = play(match, Arc(0, "Okafor", 60, "G10"))
    assert kinds(events) == ["arc_removed", "arc_set"] and okafor.spent == 2 + 4
    assert [(arc.width, arc.shots_left) for arc in match.state.arcs] == [(60, 2)]
    play(match, EndActivation(0))
    pass_turn(match)
    pass_turn(match)  # round 2: seat 0 opens it again
    assert match.state.round == 2 and match.state.arcs
    events = match.apply(Activate(0, "Okafor"))
    assert kinds(events) == ["activation_started", "arc_removed"] and match.state.arcs == []


def test_a_throw_on_one_level_needs_sight_of_the_dot() -> None:
    """Our ruling (docs/rulings.md, sight is needed to throw): explosives "are resolved in the
    same way as ranged combat", so a throw on the thrower's level needs sight of the dot (the
    tree on B4 hides B6 from B2), and the cover on the line counts: F2's low wall makes a
    4-dot throw need 5."""
    match = fresh()
    put(match, "Okafor", "B2")
    play(match, ChangeWeapon(0, "Okafor", "Hand Grenade"))
    before = state_json(match.state)
    with pytest.raises(IllegalCommand, match="cannot see B6"):
        match.apply(Throw(0, "Okafor", "B6"))
    assert state_json(match.state) == before and dice_left(match) == 0
    thrown = of_kind(match.apply(Throw(0, "Okafor", "F2")), "thrown")
    assert [(t["target"], t["ap"], t["tn"]) for t in thrown] == [("F2", 4, 5)]


# --- docs/rulings.md names these tests ----------------------------------------------------------

REPO = Path(__file__).resolve().parent.parent
CITED = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
SECTION = "## The infantry rules (rulebook 002)"
# The test files of the modules on main before issue 31's engine and views were built.
LANDED = frozenset(
    f"tests/test_{name}.py"
    for name in (
        "dots",
        "infantry_card",
        "infantry_content",
        "infantry_terrain",
        "infantry_sight",
        "infantry_combat",
        "infantry_blast",
        "infantry_squads",
        "infantry_maps",
    )
)
# The rulebook sits beside the repository in the project's shared folder, not in it.
RULEBOOK = REPO.parent / "shared" / "rules" / "002_4d9a1d47f073b3fe.txt"


def infantry_section() -> str:
    text = (REPO / "docs" / "rulings.md").read_text("utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def rule_rows(section: str) -> list[str]:
    return [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]


def missing_tests(citations: list[tuple[str, str]]) -> list[str]:
    """The cited tests whose file does not define them (or does not exist)."""
    missing = []
    for path, name in citations:
        file = REPO / path
        text = file.read_text("utf-8") if file.exists() else ""
        if not re.search(rf"^(async )?def {name}\(", text, re.M):
            missing.append(f"{path}::{name}")
    return missing


def test_every_rule_row_names_tests_that_exist() -> None:
    """docs/rulings.md (the infantry rules): every rule row and ruling names tests that exist,
    none is left pending, and every test of this file is cited there."""
    section = infantry_section()
    rows = rule_rows(section)
    assert len(rows) > 100 and not [row for row in rows if "pending" in row]
    assert missing_tests(CITED.findall(section)) == []
    cited = {name for path, name in CITED.findall(section) if path.endswith("rulebook.py")}
    here = set(re.findall(r"^def (test_\w+)\(", Path(__file__).read_text("utf-8"), re.M))
    assert here - cited == set()


def test_the_rows_of_the_landed_modules_name_tests_that_exist() -> None:
    """docs/rulings.md (the infantry rules): every test it cites from the modules already on
    main exists, and every row names at least one test."""
    section = infantry_section()
    landed = [(path, name) for path, name in CITED.findall(section) if path in LANDED]
    assert len(landed) > 150
    assert missing_tests(landed) == []
    assert [row for row in rule_rows(section) if not CITED.search(row)] == [
        "| Rule (rulebook 002) | Test |"
    ]


def quoted_fragments(row: str) -> list[str]:
    """The pieces of a row's rule cell between its quotation marks, split at its ellipses."""
    rule = row.split(" | ")[0].replace("`", "")
    pieces = (re.split(r"\s*\.\.\.\s*", quote) for quote in re.findall(r'"([^"]+)"', rule))
    return [piece.strip(" .") for group in pieces for piece in group if piece.strip(" .")]


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u2019", "'"))


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the shared rulebooks are not beside the repo")
def test_every_quote_in_the_table_is_the_rulebooks_words() -> None:
    """Each rule row quotes its sentence briefly ("..." leaves words out): every quoted piece is
    found, word for word, in rulebook 002."""
    book = words(RULEBOOK.read_text("utf-8"))
    fragments = [piece for row in rule_rows(infantry_section()) for piece in quoted_fragments(row)]
    assert len(fragments) > 150
    assert [piece for piece in fragments if words(piece) not in book] == []
