"""Previews (issue 21): a unit's reach and odds, for Skirm and Skirm Lite, on a copy.

The Skirm numbers are /odds' (skirmbot.dice.odds) for the same situation; Lite's are checked
against every outcome of Lite's own combat code, run face by face with a branching dice source.
The service's preview leaves the stored match byte for byte as it was.
"""

from __future__ import annotations

import copy
import sqlite3
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from builders import skirm_match, unit
from lite_builders import agent, gun, lite_match
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD, started

from skirmbot.console import _preview_words
from skirmbot.demo import new_demo_match
from skirmbot.rules.errors import RulesError
from skirmbot.rules.lite import combat as lite_combat
from skirmbot.rules.preview import DASH, LEAP, MOVE, percent
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.skirm import actions as skirm_actions
from skirmbot.rules.skirm.cards import MELEE, RANGED
from skirmbot.rules.skirm.legal import reachable_squares
from skirmbot.rules.skirm.odds import target_odds
from skirmbot.rules.skirm.state import DOWNED
from skirmbot.rules.squares import Square
from skirmbot.service import MatchService, NotAllowed, ServiceError
from skirmbot.service.matches import _choices
from skirmbot.service.preview import preview_squares, preview_text, preview_units
from skirmbot.store import Store

SKIRM, LITE = ruleset("skirm"), ruleset("lite")


# --- Skirm ------------------------------------------------------------------------------------
def test_skirm_attacks_are_the_odds_odds_shows() -> None:
    """Issue 21: each attack is labelled with /odds' numbers for the real situation (rulebook
    Combat: cover from the low wall, support from a squadmate next to the target)."""
    match = skirm_match(
        {
            0: [unit("Ada", "C3"), unit("Cy", "D5"), unit("Fay", "A5")],
            1: [unit("Bo", "C8"), unit("Dee", "C4", arm=2)],
        },
        edges=["C7|C8: wall=1"],
    )
    state = match.state
    found = SKIRM.preview(state, "Ada")
    expected = {
        (entry.weapon.name, entry.option.target): entry.primary
        for entry in target_odds(state, state.units["Ada"], None, orders=0)
    }
    assert (
        {(c.weapon, c.target) for c in found.attacks}
        == set(expected)
        == {
            ("Knife", "Dee"),
        }
    ), "Ada is next to Dee: she may not shoot (Bo) while an enemy is adjacent, only melee"
    assert target_odds(state, state.units["Ada"], "Dee", orders=0)[0].support, "Cy supports"
    for chance in found.attacks:
        odds = expected[(chance.weapon, chance.target)]
        assert (chance.hit, chance.damage, chance.out) == (
            odds.struck,
            odds.expected_hit_lost,
            odds.taken_out,
        )
        assert chance.hit == 1 and 0 < chance.out < 1, "support strikes without a roll"
    assert next(iter(expected.values())).hit == 3
    shooter = SKIRM.preview(state, "Fay")
    rifle = next(c for c in shooter.attacks if c.weapon == "Rifle" and c.target == "Bo")
    entry = next(
        e
        for e in target_odds(state, state.units["Fay"], "Bo", orders=0)
        if e.weapon.name == "Rifle"
    )
    assert rifle.cover == entry.option.cover
    assert (rifle.hit, rifle.damage) == (entry.primary.struck, entry.primary.expected_hit_lost)


def test_skirm_reach_is_labelled_by_the_shortest_action_that_gets_there() -> None:
    """Rulebook Basic Actions: a Dash/Crawl goes 1 square, a Move 3; Leap (LPx) x squares in a
    straight line. A square is labelled with the first of Dash, Move, Leap that reaches it."""
    match = skirm_match(
        {0: [unit("Ada", "F6", specials=["LP4"])], 1: [unit("Bo", "A12")]},
        rows=[" ".join(["."] * 12)] * 5 + ["# . . . . . . . . . . #"] + [" ".join(["."] * 12)] * 6,
    )
    state = match.state
    ada = state.units["Ada"]
    found = SKIRM.preview(state, "Ada")
    dash = set(reachable_squares(state, ada, DASH))
    move = set(reachable_squares(state, ada, MOVE)) - dash
    leap = set(skirm_actions.leaps(state, ada)) - dash - move - {ada.square}
    assert {r.square for r in found.reach_by(DASH)} == dash and dash
    assert {r.square for r in found.reach_by(MOVE)} == move and move
    assert {r.square for r in found.reach_by(LEAP)} == leap and Square.parse("F10") in leap
    assert len({r.square for r in found.reach}) == len(found.reach), "each square once"


def test_skirm_preview_as_if_on_a_square_shows_what_could_attack_it_there() -> None:
    """Issue 21, `square:`: the unit as if it stood there: its own attacks from there, and
    each enemy's odds against it there; the live match is not changed."""
    match = skirm_match({0: [unit("Ada", "A1")], 1: [unit("Bo", "A12")]})
    state = match.state
    before = state.to_json()
    here = SKIRM.preview(state, "Ada")
    assert here.attacks == () and not here.as_if, "Bo is 11 squares away: out of RG8"
    there = SKIRM.preview(state, "Ada", Square.parse("A6"))
    assert there.as_if and there.square == Square.parse("A6")
    assert [(c.weapon, c.target) for c in there.attacks] == [("Rifle", "Bo")]
    assert [(c.attacker, c.weapon, c.target) for c in there.threats] == [("Bo", "Rifle", "Ada")]
    moved = copy.deepcopy(state)
    moved.units["Ada"].square = Square.parse("A6")
    odds = target_odds(moved, moved.units["Bo"], "Ada", orders=0)[0].primary
    assert (there.threats[0].hit, there.threats[0].damage) == (odds.struck, odds.expected_hit_lost)
    assert state.to_json() == before and state.units["Ada"].square == Square.parse("A1")


@pytest.mark.parametrize(
    ("square", "words"),
    [("A12", "Bo stands on A12"), ("F6", "impassable"), ("M3", "not on the map")],
)
def test_a_square_no_unit_could_stand_on_is_refused_in_words(square: str, words: str) -> None:
    match = skirm_match(
        {0: [unit("Ada", "A1")], 1: [unit("Bo", "A12")]},
        rows=[" ".join(["."] * 12)] * 5 + ["# . . . . # . . . . . #"] + [" ".join(["."] * 12)] * 6,
    )
    with pytest.raises(RulesError, match=words):
        SKIRM.preview(match.state, "Ada", Square.parse(square))


def test_a_preview_rolls_no_die_and_changes_nothing() -> None:
    """Issue 21: a preview costs the match nothing. The scripted dice have faces left and the
    state is the same afterwards and no scripted face is used."""
    match = skirm_match({0: [unit("Ada", "C3")], 1: [unit("Bo", "C8")]}, faces=[1, 2, 3])
    before, left = match.state.to_json(), match.dice.remaining
    SKIRM.preview(match.state, "Ada")
    SKIRM.preview(match.state, "Ada", Square.parse("C6"))
    assert match.state.to_json() == before and match.dice.remaining == left == 3


@pytest.mark.parametrize("name", ["skirm", "lite"])
def test_nothing_is_previewed_during_the_secret_deployment(name: str) -> None:
    """Rulings: Deployment: placements are secret until revealed, so a preview is refused."""
    match, _ = new_demo_match(1, rules=name)
    first = next(iter(match.state.units))
    with pytest.raises(RulesError, match="in secret"):
        ruleset(name).preview(match.state, first)


def test_percent_never_rounds_a_possibility_away() -> None:
    assert [percent(Fraction(n, 1000)) for n in (0, 3, 620, 996, 1000)] == [
        "0%",
        "<1%",
        "62%",
        ">99%",
        "100%",
    ]


# --- Skirm Lite: the odds against every outcome of the engine ----------------------------------
class NeedMore(Exception):
    pass


class Branching:
    """Scripted faces that ask for one more when they run out (the enumeration branches)."""

    def __init__(self, faces: list[int]) -> None:
        self.faces, self.used = faces, 0

    def roll(self, sides: int = 6) -> int:
        assert sides == 6
        if self.used == len(self.faces):
            raise NeedMore
        self.used += 1
        return self.faces[self.used - 1]

    def to_json(self) -> dict[str, object]:
        return {}


def engine_odds(
    match: Any, attacker: str, kind: str, weapon: str, target: str
) -> tuple[Fraction, dict[int, Fraction]]:
    """Lite's own combat code run for every sequence of faces: the chance of a hit and of each
    number of HIT lost by the target."""
    hit, lost = Fraction(0), defaultdict(Fraction)
    stack: list[list[int]] = [[]]
    while stack:
        faces = stack.pop()
        state = copy.deepcopy(match.state)
        shooter, victim = state.units[attacker], state.units[target]
        arm = shooter.card.weapon(weapon)
        assert arm is not None
        aims = lite_combat.declare(state, shooter, kind, arm, target)[:1]
        dice, before = Branching(faces), victim.hit
        try:
            _, pending = lite_combat.open_fire(state, shooter, kind, arm, aims, dice)
            assert pending is not None
            total, _ = lite_combat.hits(pending, arm)
            lite_combat.resolve(state, pending, dice)
        except NeedMore:
            stack += [[*faces, face] for face in range(1, 7)]
            continue
        chance = Fraction(1, 6 ** len(faces))
        hit += chance if total else 0
        lost[before - victim.hit] += chance
    return hit, {n: p for n, p in sorted(lost.items()) if p}


def lite_odds(match: Any, attacker: str, weapon: str, target: str) -> Any:
    from skirmbot.rules.lite.preview import attack_odds

    state = match.state
    shooter, victim = state.units[attacker], state.units[target]
    arm = shooter.card.weapon(weapon)
    assert arm is not None
    kind = MELEE if arm.kind == MELEE else RANGED
    aim = lite_combat.declare(state, shooter, kind, arm, target)[0]
    return kind, attack_odds(state, shooter, kind, arm, aim, victim)


@pytest.mark.parametrize(
    ("red", "blue", "blue_square", "standing"),
    [
        # Lite rulebook CRx, RRx (re-roll misses), APx (not saved), TFx (keep a lost HIT).
        ({"weapons": [gun("Carbine", "ranged", 1, 3, 1, "RG8", "CR2", "RR1", "AP1")]},
         {"hit": 2, "specials": ["TF2"]}, "C8", None),
        # Melee Support (a squadmate next to the target: ROA +1), DOD, a standing order that
        # re-rolls a failed save with the squad's TO (rulings: Tactical Orders in play-by-post).
        ({"weapons": [gun("Blade", "melee", 1, 4, 2)]},
         {"arm": 4, "specials": ["DOD"]}, "C4", (1, 0)),
        # Cover (ARM +1), CAM beyond 3 squares (one automatic save), High Ground out of play.
        ({"weapons": [gun("Rifle", "ranged", 2, 3, 1, "RG8")]},
         {"hit": 2, "specials": ["CAM"]}, "C8", None),
    ],
)  # fmt: skip
def test_lite_odds_match_every_outcome_of_lites_combat(
    red: dict[str, Any], blue: dict[str, Any], blue_square: str, standing: Any
) -> None:
    """Lite rulebook Combat, Damage and the weapon and Agent rules: the preview's exact chance
    to hit and HIT lost equal what Lite's combat code gives over every sequence of dice."""
    mates = [agent("Cy", "D4")] if blue_square == "C4" else []
    match = lite_match(
        {0: [agent("Ada", "C3", **red), *mates], 1: [agent("Bo", blue_square, **blue)]},
        edges=["C7|C8: wall=1"],
    )
    if standing is not None:
        squad = match.state.squads[1]
        squad.orders, squad.reroll_saves_above = standing
    weapon_name = red["weapons"][0]["name"]
    kind, odds = lite_odds(match, "Ada", weapon_name, "Bo")
    hit, lost = engine_odds(match, "Ada", kind, weapon_name, "Bo")
    assert odds.hit == hit and odds.lost == lost
    assert 0 < hit < 1 and len(lost) > 1, "the case must be able to go either way"


def test_lite_preview_lists_standing_enemies_with_those_odds() -> None:
    """Lite rulebook: a Downed Agent is no target; the preview's label is the same odds."""
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C8"), agent("Dot", "F8")]},
    )
    match.state.units["Dot"].status = DOWNED
    found = LITE.preview(match.state, "Ada")
    assert {(c.weapon, c.target) for c in found.attacks} == {("Rifle", "Bo")}
    _, odds = lite_odds(match, "Ada", "Rifle", "Bo")
    assert (found.attacks[0].hit, found.attacks[0].damage) == (odds.hit, odds.expected_lost)
    assert {r.action for r in found.reach} == {DASH, MOVE}, "Lite has no Leap"
    assert max(r.cost for r in found.reach_by(DASH)) <= 2 < max(r.cost for r in found.reach)


def test_lite_preview_as_if_lists_the_enemies_that_could_attack_it() -> None:
    match = lite_match({0: [agent("Ada", "A1")], 1: [agent("Bo", "A12")]})
    there = LITE.preview(match.state, "Ada", Square.parse("A9"))
    assert {(c.attacker, c.weapon) for c in there.threats} == {("Bo", "Rifle")}
    assert match.state.units["Ada"].square == Square.parse("A1")


# --- the service: nothing stored changes --------------------------------------------------------
def dump(path: Path) -> list[str]:
    """Every row of every table of the SQLite database, as SQL text."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
        return list(connection.iterdump())


async def test_a_preview_leaves_the_stored_match_byte_identical(tmp_path: Path) -> None:
    """Issue 21: a preview costs the match nothing: the stored row (record, set-up, version,
    snapshot, deadline) and every other row are the same bytes afterwards."""
    path = tmp_path / "skirm.db"
    store = await Store.open(str(path))
    try:
        service = MatchService(store, seed_source=lambda: 1234)
        await started(service)
        row, match = await service.view(CHANNEL)
        assert match is not None and match.state.to_act is not None
        side = match.state.to_act
        member = ALICE if row.players[side] == ALICE.id else BOB
        mover = match.state.ready_units(side)[0]
        await service.act(CHANNEL, member, _end_of(side, mover.id))
        before = dump(path)
        row, match = await service.view(CHANNEL)
        assert match is not None
        mine = match.state.on_map(side)[0]
        square = SKIRM.preview(match.state, mine.id).reach[0].square
        plain = await service.preview(CHANNEL, member, mine.id)
        as_if = await service.preview(CHANNEL, member, mine.id, str(square))
        assert dump(path) == before
        for reply in (plain, as_if):
            assert reply.private and reply.picture and reply.picture.startswith(b"\x89PNG")
            assert reply.picture_name == "preview.png"
        assert f"as if on {square}" in as_if.text and "Could attack" in as_if.text
    finally:
        await store.close()


def _end_of(side: int, name: str) -> Any:
    from skirmbot.rules.commands import EndActivation

    return EndActivation(side, name)


async def test_only_a_player_previews_and_only_their_own_units(tmp_path: Path) -> None:
    store = await Store.open(str(tmp_path / "skirm.db"))
    try:
        service = MatchService(store, seed_source=lambda: 1234)
        await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
        await service.join(CHANNEL, BOB)
        await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
        await service.choose_squad(CHANNEL, BOB, "ash-runners")
        with pytest.raises(ServiceError, match="in secret"):
            await service.preview(CHANNEL, ALICE, "Halden")
        await service.deploy(CHANNEL, ALICE)
        await service.deploy(CHANNEL, BOB)
        _, match = await service.view(CHANNEL)
        assert match is not None
        bobs = match.state.on_map(1)[0].id
        with pytest.raises(NotAllowed):
            await service.preview(CHANNEL, EVE, bobs)
        with pytest.raises(NotAllowed, match="not in your squad"):
            await service.preview(CHANNEL, ALICE, bobs)
        with pytest.raises(ServiceError, match="name the one to preview"):
            await service.preview(CHANNEL, ALICE)
        with pytest.raises(ServiceError, match="off the map"):
            await service.preview(CHANNEL, BOB, bobs, "Z40")
    finally:
        await store.close()


async def test_the_activation_offers_a_preview_and_autocomplete_offers_units_and_squares(
    tmp_path: Path,
) -> None:
    store = await Store.open(str(tmp_path / "skirm.db"))
    try:
        service = MatchService(store, seed_source=lambda: 1234)
        await started(service)
        row, match = await service.view(CHANNEL)
        assert match is not None and match.state.to_act is not None
        side = match.state.to_act
        member = ALICE if row.players[side] == ALICE.id else BOB
        name = match.state.ready_units(side)[0].id
        from skirmbot.rules.commands import Activate

        reply = await service.act(CHANNEL, member, Activate(side, name))
        assert "preview" in reply.choices
        _, match = await service.view(CHANNEL)
        assert match is not None
        assert _choices(match.state, SKIRM) == ["end", "preview"]
        button = await service.preview(CHANNEL, member)  # the Preview button: no unit named
        assert button.text.startswith(f"**Preview: {name}**")
        other = ALICE if member is BOB else BOB
        with pytest.raises(NotAllowed, match="activating for your opponent"):
            await service.preview(CHANNEL, other)
        found = await service.situation(CHANNEL, member)
        assert preview_units(found)[0][0] == name, "the activating unit first"
        squares = preview_squares(found, name)
        assert squares and squares[0][1].endswith("(dash)")
    finally:
        await store.close()


def test_the_text_lists_the_pictures_numbers() -> None:
    match = skirm_match({0: [unit("Ada", "A1")], 1: [unit("Bo", "A12")]})
    found = SKIRM.preview(match.state, "Ada", Square.parse("A6"))
    text = preview_text(found)
    assert "Dash (" in text and "Move (" in text
    assert f"Rifle → Bo (6 sq): hits {percent(found.attacks[0].hit)}" in text
    assert "Bo's Rifle → Ada" in text
    short = preview_text(found, limit=len(text) - 1)
    assert "Dash (" in short and "(see the picture)" in short and "Bo's Rifle → Ada" in short
    assert len(short) < len(text)


def test_the_console_word_reads_a_lone_square_as_the_square() -> None:
    assert _preview_words([]) == (None, None)
    assert _preview_words(["C5"]) == (None, "C5")
    assert _preview_words(["Brann"]) == ("Brann", None)
    assert _preview_words(["Brann", "C5"]) == ("Brann", "C5")


# --- the console --------------------------------------------------------------------------------
def console_lines(name: str) -> tuple[list[str], str, str]:
    """What the player to act types after `auto`, `auto` in the console's match (seed 3):
    a preview of their unit, and one as if on a square it can reach; the unit and square."""
    match, _ = new_demo_match(3, rules=name)
    rules = ruleset(name)
    for side in (0, 1):
        match.apply(rules.automatic_placement(match.state, side))
    state = match.state
    assert state.to_act is not None
    mine = state.ready_units(state.to_act)[0].id
    square = str(rules.preview(state, mine).reach[0].square)
    return (
        ["auto", "auto", f'preview "{mine}"', f'preview "{mine}" {square}', "concede"],
        mine,
        square,
    )


@pytest.mark.parametrize("name", ["skirm", "lite"])
async def test_the_console_writes_the_preview_picture(tmp_path: Path, name: str) -> None:
    from skirmbot.console import run_console

    lines, mine, square = console_lines(name)
    feed = iter(lines)
    said: list[str] = []

    def ask(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    code = await run_console(False, tmp_path, ask=ask, say=said.append, seed=3, rules=name)
    text = "\n".join(said)
    assert code == 0
    assert f"Preview: {mine}** on" in text or f"Preview: {mine} on" in text, text
    assert f"as if on {square}" in text
    pictures = sorted(p.name for p in tmp_path.glob("preview-*.png"))
    assert len(pictures) == 2, pictures
