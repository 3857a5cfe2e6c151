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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lite_builders import agent, gun, lite_match
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD, started

from skirmbot.console import _preview_words
from skirmbot.demo import new_demo_match
from skirmbot.rules.errors import RulesError
from skirmbot.rules.lite import combat as lite_combat
from skirmbot.rules.preview import DASH, LEAP, MOVE, percent
from skirmbot.rules.ruleset import PlayedMatch, ruleset
from skirmbot.rules.skirm import actions as skirm_actions
from skirmbot.rules.skirm.cards import MELEE, RANGED
from skirmbot.rules.skirm.legal import reachable_squares
from skirmbot.rules.skirm.odds import target_odds
from skirmbot.rules.skirm.state import DOWNED, UnitState
from skirmbot.rules.squares import Square
from skirmbot.service import MatchService, Member, NotAllowed, ServiceError
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
        # Standing orders with TO per attack (Lite rulebook Tactical Orders: -1, -2 for 2 TO,
        # re-rolls): 3 TO, none kept, at most 2 per attack; then only 1 TO above the reserve.
        ({"weapons": [gun("Carbine", "ranged", 1, 4, 1, "RG8")]},
         {"arm": 4, "hit": 2}, "C8", (3, 0, 2)),
        ({"weapons": [gun("Blade", "melee", 1, 4, 2)]},
         {"arm": 5, "specials": ["DOD"]}, "C4", (3, 2, 3)),
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
        squad.orders, squad.reroll_saves_above, *per_attack = standing
        squad.orders_per_attack = per_attack[0] if per_attack else None
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


async def whose_turn(service: MatchService) -> tuple[Member, PlayedMatch, UnitState]:
    """A match `started` between Alice and Bob: the player to act, the live match and the first
    of their units ready to act (at the start, also the first of their units on the map)."""
    await started(service)
    row, match = await service.view(CHANNEL)
    assert match is not None and match.state.to_act is not None
    side = match.state.to_act
    member = ALICE if row.players[side] == ALICE.id else BOB
    return member, match, match.state.ready_units(side)[0]


async def test_a_preview_leaves_the_stored_match_byte_identical(
    store: Store, store_url: str
) -> None:
    """Issue 21: a preview costs the match nothing: the stored row (record, set-up, version,
    snapshot, deadline) and every other row are the same bytes afterwards."""
    path = Path(store_url)  # the `store` fixture's SQLite file
    service = MatchService(store, seed_source=lambda: 1234)
    member, _, mover = await whose_turn(service)
    side = mover.side
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


def _end_of(side: int, name: str) -> Any:
    from skirmbot.rules.commands import EndActivation

    return EndActivation(side, name)


async def test_only_a_player_previews_and_only_their_own_units(store: Store) -> None:
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


async def test_the_activation_offers_a_preview_and_autocomplete_offers_units_and_squares(
    store: Store,
) -> None:
    service = MatchService(store, seed_source=lambda: 1234)
    member, _, ready = await whose_turn(service)
    side, name = ready.side, ready.id
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


# --- review: nothing shared with the live match is changed ------------------------------------
def played_to(rules: str, map_name: str, seed: int, steps: int) -> Any:
    """A demo match on the map, `steps` automatic commands in (fewer if it ends first)."""
    from skirmbot.demo import default_content
    from skirmbot.rules.skirm.state import ENDED

    match, _ = new_demo_match(seed, default_content(map_name, rules=rules), rules=rules)
    played = ruleset(rules)
    for _ in range(steps):
        if match.state.phase == ENDED:
            break
        side = match.state.waiting_for()
        assert side is not None
        match.apply(played.automatic_command(match.state, side))
    return match


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(["skirm", "lite"]),
    map_name=st.sampled_from(["foundry", "ruined-chapel"]),
    seed=st.integers(0, 1000),
    steps=st.integers(4, 60),
    pick=st.integers(0, 10**6),
)
def test_previewing_any_own_unit_on_any_square_changes_nothing(
    rules: str, map_name: str, seed: int, steps: int, pick: int
) -> None:
    """Issue 21 (rulings: Previews, nothing hidden, nothing spent): for any moment of any demo
    match, previewing any unit on the map on any square (and drawing it) leaves the state, the
    board's doors and its dice as they were, and the next command does exactly what it would
    have done without the preview."""
    from skirmbot.render.preview import PreviewRenderer
    from skirmbot.rules.skirm.state import ENDED

    match = played_to(rules, map_name, seed, steps)
    state = match.state
    units = state.on_map()
    if not units or state.phase == ENDED:
        return
    squares = list(state.board.squares())
    chosen = units[pick % len(units)]
    square = squares[pick // len(units) % len(squares)]
    untouched = copy.deepcopy(match)
    before, doors = state.to_json(), dict(state.board.doors)
    for where in (None, square):
        try:
            found = ruleset(rules).preview(state, chosen.id, where)
        except RulesError:  # a secret set-up, a Downed Agent, an occupied or closed square
            continue
        PreviewRenderer().png(ruleset(rules).view(state), found)
    assert state.to_json() == before and dict(state.board.doors) == doors
    side = state.waiting_for()
    assert side is not None
    command = ruleset(rules).automatic_command(untouched.state, side)
    expected = [event.text for event in untouched.apply(command)]
    assert [event.text for event in match.apply(command)] == expected
    assert state.to_json() == untouched.state.to_json()


def test_the_services_copy_has_a_board_of_its_own() -> None:
    """A preview is worked out in a thread while the live match plays on: the service's copy
    has its own doors (a door the match opens meanwhile does not change it half-way) and its
    own memory of what the board worked out (nothing worked out for the old doors lands in the
    live board, which forgot its memory when the door moved), as quick as the live one."""
    from skirmbot.rules.preview import copy_for_preview

    match = played_to("skirm", "foundry", 3, 6)
    live = match.state.board
    assert live.doors, "the foundry has doors"
    remembered = set(live._memo)
    seen = copy_for_preview(match.state, own_board=True)
    assert seen.board is not live and set(seen.board._memo) == remembered
    mine = seen.on_map()[0]
    far = next(s for s in seen.board.squares() if seen.board.is_open(s) and not seen.unit_at(s))
    SKIRM.preview(seen, mine.id, far)
    assert set(live._memo) == remembered, "the preview wrote into the live board's memory"
    door = next(iter(live.doors))
    live.doors[door] = not live.doors[door]  # the live match opens or closes a door
    assert seen.board.doors[door] != live.doors[door] and seen.board._memo


async def test_a_service_preview_writes_nothing_into_the_live_board(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 1234)
    member, match, mine = await whose_turn(service)
    board = match.state.board
    remembered = set(board._memo)
    free = [s for s in board.squares() if board.is_open(s) and match.state.unit_at(s) is None]
    await service.preview(CHANNEL, member, mine.id, str(free[-1]))
    assert (await service.view(CHANNEL))[1] is match, "the same live match"
    assert set(board._memo) == remembered


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("Ｃ５", "as if on C5"),  # full-width, as a phone keyboard may type it
        ("C\u200b5", "as if on C5"),  # a zero-width space pasted along
        ("  c5 (dash) ", "as if on C5"),
        ("(dash)", "is not a square"),
        ("Z40", "off the map"),
    ],
)
async def test_a_square_typed_oddly_reads_or_is_refused_in_words(
    store: Store, typed: str, words: str
) -> None:
    """Issue 21, `square:`: read as one-line orders read squares (compatibility forms are the
    plain ones, invisible characters none, the first word only)."""
    service = MatchService(store, seed_source=lambda: 1234)
    member, match, mine = await whose_turn(service)
    side = mine.side
    assert match.state.unit_at(Square.parse("C5")) is None
    if words.startswith("as if"):
        reply = await service.preview(CHANNEL, member, mine.id, typed)
        assert words in reply.text
    else:
        with pytest.raises(ServiceError, match=words):
            await service.preview(CHANNEL, member, mine.id, typed)
    with pytest.raises(ServiceError, match="units: ") as refused:
        await service.preview(CHANNEL, member, "Nobody")
    others = {u.id for u in match.state.on_map(1 - side)}
    assert not any(name in str(refused.value) for name in others), "only the asker's units"


def test_lite_odds_match_the_engine_from_high_ground_past_a_squadmate() -> None:
    """Lite rulebook Ranged Combat Modifiers (High Ground: SKL +1; Friendly Fire: ROA -1 with a
    squadmate next to the target), CRx, APx and TFx on a target with 1 HIT left (no more than
    its HIT is lost): the preview's odds equal the engine's over every sequence of dice."""
    rows = [" ".join(["."] * 12)] * 12
    rows[2] = ". . 2 . . . . . . . . ."
    carbine = gun("Carbine", "ranged", 2, 3, 1, "RG8", "CR2", "AP1")
    match = lite_match(
        {
            0: [agent("Ada", "C3", weapons=[carbine]), agent("Cy", "D7")],
            1: [agent("Bo", "C7", hit=1, specials=["TF3"])],
        },
        rows=rows,
    )
    state = match.state
    aim = lite_combat.declare(state, state.units["Ada"], RANGED, state.units[
        "Ada"].card.weapon("Carbine"), "Bo")[0]  # fmt: skip
    assert "High Ground: SKL +1" in aim.notes and "Friendly Fire: ROA -1" in aim.notes
    kind, odds = lite_odds(match, "Ada", "Carbine", "Bo")
    hit, lost = engine_odds(match, "Ada", kind, "Carbine", "Bo")
    assert odds.hit == hit and odds.lost == lost and set(lost) == {0, 1}
    found = LITE.preview(state, "Ada")
    chance = next(c for c in found.attacks if c.target == "Bo")
    assert (chance.hit, chance.damage, chance.out) == (hit, lost[1], lost[1])


def test_lite_odds_keep_cover_against_high_ground() -> None:
    """Lite rulebook Ranged Combat Modifiers: High Ground gives "Attacker SKL +1" and Cover
    "Target ARM +1", both at once (Lite has no "Target does not benefit from Cover"): the preview
    shows Bo in cover and its odds equal the engine's over every sequence of dice."""
    rows = [". . 2 . . . . . . . . ."] + [" ".join(["."] * 12)] * 11
    carbine = gun("Carbine", "ranged", 1, 3, 1, "RG8")
    match = lite_match(
        {0: [agent("Ada", "C1", weapons=[carbine])], 1: [agent("Bo", "C8")]},
        rows=rows,
        edges=["C7|C8: wall=1"],
    )
    state = match.state
    aim = lite_combat.declare(state, state.units["Ada"], RANGED, state.units[
        "Ada"].card.weapon("Carbine"), "Bo")[0]  # fmt: skip
    assert aim.cover and "High Ground: SKL +1" in aim.notes
    kind, odds = lite_odds(match, "Ada", "Carbine", "Bo")
    assert (odds.hit, odds.lost) == engine_odds(match, "Ada", kind, "Carbine", "Bo")
    [chance] = LITE.preview(state, "Ada").attacks
    assert chance.cover and chance.hit == odds.hit


@pytest.mark.parametrize("name", ["skirm", "lite"])
def test_a_preview_while_a_roll_waits_for_its_decision(name: str) -> None:
    """Rulings: Previews, who and when: a roll waiting for Accept or a re-roll does not stop a
    preview (it shows the unit's options, as a player studies the board), and the roll still
    waits afterwards with the same dice; the next command does what it would have done."""
    from skirmbot.rules.skirm.state import ENDED

    match, _ = new_demo_match(2, rules=name)
    rules, state = ruleset(name), match.state
    while state.phase != ENDED and (state.activation is None or state.activation.pending is None):
        side = state.waiting_for()
        assert side is not None
        match.apply(rules.automatic_command(state, side))
    assert state.activation is not None and state.activation.pending is not None
    untouched = copy.deepcopy(match)
    before = state.to_json()
    found = rules.preview(state, state.activation.unit)
    assert found.unit == state.activation.unit and found.reach
    assert state.to_json() == before and state.activation.pending is not None
    side = state.waiting_for()
    assert side is not None
    command = rules.automatic_command(untouched.state, side)
    assert [e.text for e in match.apply(command)] == [e.text for e in untouched.apply(command)]


def test_a_big_squads_odds_fit_one_message_with_the_attacks_on_the_unit() -> None:
    """Issue 21 (the text fits Discord's 2,000 characters): twelve enemies (a squad's most)
    with three weapons each, all in reach both ways: the text fits, written short, and keeps
    both the attacks and the attacks on the unit, saying how many more the picture shows."""
    from skirmbot.rules.preview import Chance, Preview, Reach

    def chance(attacker: str, weapon: str, target: str) -> Chance:
        return Chance(attacker, weapon, "ranged", target, 5, True, Fraction(5, 8),
                      Fraction(11, 8), Fraction(1, 9))  # fmt: skip

    enemies = [f"Enemy Marksman {n}" for n in range(12)]
    weapons = ["Long Rifle", "Frag Grenade", "Combat Knife"]
    found = Preview(
        "Ada",
        0,
        Square.parse("F6"),
        True,
        tuple(Reach(Square(x, y), MOVE, 3) for x in range(12) for y in range(4)),
        tuple(chance("Ada", w, e) for e in enemies for w in weapons),
        tuple(chance(e, w, "Ada") for e in enemies for w in weapons),
    )
    text = preview_text(found)
    assert len(text) <= 2000
    assert "Attacks (" in text and "Could attack Ada on F6:" in text
    assert "- Long Rifle → Enemy Marksman 0: 62% · 1.4 dmg" in text
    assert "- Enemy Marksman 0's Long Rifle → Ada: 62% · 1.4 dmg" in text
    assert text.count("more (see the picture)") == 2
    few = Preview("Ada", 0, Square.parse("F6"), True, found.reach, found.attacks[:6], ())
    assert "hits 62%, 1.38 HIT expected" in preview_text(few), "the long form when it fits"


def test_a_downed_agent_is_not_offered_for_a_preview() -> None:
    """Lite rulebook: a Downed Agent takes no action, and the preview refuses it; so the
    autocomplete and the refusals' lists of the asker's units leave it out."""
    from skirmbot.service.choices import Situation
    from skirmbot.service.preview import _own_units

    match = lite_match({0: [agent("Ada", "C3"), agent("Cy", "D3")], 1: [agent("Bo", "C8")]})
    match.state.units["Cy"].status = DOWNED
    found = Situation(match.state, 0, LITE)
    assert [value for value, _ in preview_units(found)] == ["Ada"]
    assert _own_units(LITE.view(match.state), 0) == "Ada"
    with pytest.raises(RulesError, match="not Standing"):
        LITE.preview(match.state, "Cy")


def test_nothing_is_previewed_while_infiltrators_are_placed_in_secret() -> None:
    """Rulebook Unit Special Rules, INF, and rulings: Deployment: the infiltrators are placed
    after both deployments, in secret; until all are in, no unit is previewed (a preview of
    another unit would show where the enemy's infiltrator is not, or, as if on a square,
    attacks and threats that give it away)."""
    from skirmbot.demo import default_content
    from skirmbot.rules.record import MatchRecord, start_match

    data = default_content()
    squads: Any = data["squads"]
    sneak = squads[1]["units"][1]
    sneak["specials"] = [*sneak.get("specials", []), "INF"]
    match = start_match(MatchRecord(content=data, dice={"seed": 3}, ruleset="skirm"))
    for side in (0, 1):
        match.apply(SKIRM.automatic_placement(match.state, side))
    state = match.state
    assert state.infiltrators == [sneak["name"]]
    placed = next(u for u in state.units.values() if u.on_map)
    with pytest.raises(RulesError, match="in secret"):
        SKIRM.preview(state, placed.id)
    match.apply(SKIRM.automatic_placement(state, 1))  # the infiltrator goes in
    assert not state.infiltrators and SKIRM.preview(state, placed.id).reach
