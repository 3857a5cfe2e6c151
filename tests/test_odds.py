"""/odds: exact attack odds with special rules and Tactical Orders, checked against a brute-force
reference that follows the rulebook die by die, and against the real engine explored face by face
(every sequence of faces it asks for, on small attacks so the whole file runs in seconds)."""

from __future__ import annotations

import copy
import itertools
from collections import defaultdict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

import pytest
from builders import KNIFE, RIFLE, skirm_match, unit, weapon

from skirmbot.dice.expressions import DiceError
from skirmbot.dice.odds import (
    Attack,
    attack_odds,
    format_attack_odds,
    format_target_odds,
    parse_rules,
    percent,
)
from skirmbot.rules.commands import Accept, Command, Melee, Reroll, Shoot
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.errors import IllegalCommand
from skirmbot.rules.skirm.cards import MELEE, RANGED
from skirmbot.rules.skirm.commands import SetStandingOrders
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.odds import (
    Roll,
    Saves,
    Step,
    Table,
    resolve,
    save_outcomes,
    strike_outcomes,
    target_odds,
)
from skirmbot.rules.skirm.rolls import succeeds
from skirmbot.rules.skirm.state import TAKEN_OUT

FACES = range(1, 7)
T = TypeVar("T", bound=Hashable)


# --- brute force: every face of every die, by the rulebook's procedure --------------------------------
class _OutOfFaces(Exception):
    pass


FAIR = {face: Fraction(1, 6) for face in FACES}
# When every skill and ARM in play is 3, a 2 acts as a 3 and a 4 as a 5 (rulebook Successes and
# Failures: at or under the stat succeeds, a 1 always succeeds, a 6 always fails; a natural 1
# adds DAM, RLT re-rolls a 6): one face of each kind, weighted, explores the same outcomes with
# 4 branches a die instead of 6.
AT_THREE = {1: Fraction(1, 6), 2: Fraction(2, 6), 4: Fraction(2, 6), 6: Fraction(1, 6)}


class _Script:
    """The faces of one path of the exploration, then _OutOfFaces."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self._faces = iter(faces)

    def roll(self) -> int:
        face = next(self._faces, None)
        if face is None:
            raise _OutOfFaces
        return face


def exhaust(
    play: Callable[[Callable[[], int]], T], faces: dict[int, Fraction] = FAIR
) -> dict[T, Fraction]:
    """Run `play` for every sequence of faces it asks for, each weighing the product of its
    faces' chances. `play` rolls a die by calling its argument."""
    results: defaultdict[T, Fraction] = defaultdict(Fraction)
    waiting: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while waiting:
        prefix, weight = waiting.pop()
        try:
            outcome = play(_Script(prefix).roll)
        except _OutOfFaces:
            waiting.extend(((*prefix, face), weight * p) for face, p in faces.items())
            continue
        results[outcome] += weight
    return dict(results)


@dataclass(frozen=True)
class Spec:
    """One attack on one target, as the rulebook and the rulings describe it."""

    skill: int
    dice: int
    dam: int
    arm: int
    hit: int
    unrolled: int = 0  # AHx and support
    rnd: bool = False
    deadly: int = 0
    rlt: bool = False
    rerolls: int = 0  # PRx/BRx plus the TO the attacker spends
    parry: bool = False
    cover: bool = False
    tough: int = 0
    save_orders: int = 0  # failed saves the target's standing orders re-roll with TO


def reference(spec: Spec, roll: Callable[[], int]) -> tuple[int, bool, bool]:
    """(HIT lost, anything struck, a natural 1 among the strikes), step by step."""
    faces = [roll() for _ in range(spec.dice)]
    rerolled = [False] * spec.dice
    if spec.rlt:  # RLT: every 6 re-rolled at once
        for i, face in enumerate(faces):
            if face == 6:
                faces[i], rerolled[i] = roll(), True
    left = spec.rerolls  # the attacker re-rolls failed dice as they come
    for i, face in enumerate(faces):
        if left and not rerolled[i] and not succeeds(face, spec.skill):
            faces[i], rerolled[i] = roll(), True
            left -= 1
    if spec.parry:  # PAR: the lowest successful die the attacker has not re-rolled
        choices = [i for i, f in enumerate(faces) if not rerolled[i] and succeeds(f, spec.skill)]
        if choices:
            i = min(choices, key=lambda i: (faces[i], i))
            faces[i], rerolled[i] = roll(), True
    strikes = [face for face in faces if succeeds(face, spec.skill)]
    naturals = strikes.count(1)
    count = len(strikes) + spec.unrolled
    damage = count * spec.dam + naturals * (2 if spec.rnd else 1) + (spec.deadly if count else 0)
    saves = [roll() for _ in range(max(0, damage - (1 if spec.cover and damage else 0)))]
    left = spec.tough + spec.save_orders  # TGx first, then TO: each failed save once
    for i, face in enumerate(saves):
        if left and not succeeds(face, spec.arm):
            saves[i] = roll()
            left -= 1
    failed = sum(1 for face in saves if not succeeds(face, spec.arm))
    return min(spec.hit, failed), count > 0, naturals > 0


def model(spec: Spec) -> tuple[dict[int, Fraction], Fraction, Fraction]:
    """The same attack through odds.resolve: HIT lost, any strike, any natural 1."""
    roll = Roll(
        spec.dice, spec.skill, spec.dam, spec.unrolled, 2 if spec.rnd else 1, spec.deadly,
        spec.rlt, spec.parry, spec.cover,
    )  # fmt: skip
    step = Step("target", roll, Saves(spec.arm, spec.hit, spec.tough, 1), side=1)
    table = Table(0, (0, spec.save_orders), (None, 0))
    [outcome] = resolve([step], table, spec.rerolls, 0)
    return outcome.hit_lost, outcome.struck, outcome.stunned


def brute_force(spec: Spec) -> tuple[dict[int, Fraction], Fraction, Fraction]:
    lost: defaultdict[int, Fraction] = defaultdict(Fraction)
    struck = stunned = Fraction(0)
    for (hit_lost, any_strike, natural), p in exhaust(lambda roll: reference(spec, roll)).items():
        lost[hit_lost] += p
        struck += p if any_strike else 0
        stunned += p if natural else 0
    return {n: lost[n] for n in range(spec.hit + 1)}, struck, stunned


# Small enough to enumerate every face (each path rolls at most about 7 dice).
SPECS = [
    Spec(skill=3, dice=1, dam=1, arm=3, hit=1),
    Spec(skill=3, dice=2, dam=1, arm=3, hit=2, cover=True),
    Spec(skill=4, dice=1, dam=1, arm=3, hit=2, rnd=True, deadly=1),
    Spec(skill=3, dice=2, dam=1, arm=4, hit=2, rerolls=1, cover=True),
    Spec(skill=2, dice=2, dam=1, arm=4, hit=1, rerolls=2, rlt=True, cover=True),
    Spec(skill=5, dice=1, dam=1, arm=2, hit=2, parry=True, unrolled=1),
    Spec(skill=3, dice=2, dam=1, arm=3, hit=1, parry=True, rerolls=1, rlt=True, cover=True),
    Spec(skill=3, dice=1, dam=1, arm=3, hit=3, tough=1, save_orders=1),
    Spec(skill=3, dice=1, dam=2, arm=3, hit=2, tough=1, save_orders=1, cover=True),
    Spec(skill=6, dice=1, dam=1, arm=6, hit=1, unrolled=1, deadly=1, cover=True),
    Spec(skill=1, dice=1, dam=1, arm=1, hit=2, rnd=True, tough=2),
]


@pytest.mark.parametrize("spec", SPECS, ids=repr)
def test_exact_odds_match_the_rulebook_die_by_die(spec: Spec) -> None:
    assert model(spec) == brute_force(spec)


def test_strike_outcomes_are_exact_distributions() -> None:
    roll = Roll(dice=4, skill=3, dam=1, relentless=True, parried=True)
    outcomes = strike_outcomes(roll, 2)
    assert sum(outcomes.values()) == 1
    assert all(used <= 2 for _, _, used in outcomes)
    # One die at skill 3: a natural 1 1/6, a 2 or 3 2/6, a miss 3/6.
    assert strike_outcomes(Roll(dice=1, skill=3, dam=1), 0) == {
        (1, 0, 0): Fraction(1, 6),
        (0, 1, 0): Fraction(2, 6),
        (0, 0, 0): Fraction(3, 6),
    }


def test_save_outcomes_reroll_failed_saves_once_each() -> None:
    """Two saves on ARM 3 with one re-roll: HIT lost 2 needs both to fail and the re-roll too."""
    table = save_outcomes(3, 2, 1, 2)
    assert sum(table.values()) == 1
    lost_two = sum((p for (lost, _), p in table.items() if lost == 2), Fraction(0))
    assert lost_two == Fraction(1, 2) ** 3
    assert save_outcomes(3, 5, 0, 0) == {(0, 0): Fraction(1)}


# --- by hand: numbers and special rules ------------------------------------------------------------
def test_by_hand_matches_the_reference() -> None:
    attack = Attack(4, 2, 1, 3, 2, cover=True, rules=("RND", "DD1", "TG1", "AH1"))
    odds = attack_odds(attack)
    spec = Spec(4, 1, 1, 3, 2, unrolled=1, rnd=True, deadly=1, cover=True, tough=1)
    assert odds.hit_lost == brute_force(spec)[0]
    assert sum(odds.damage.values()) == 1


def test_autohit_and_support_strike_unrolled() -> None:
    """AH1 on ROA 2: one die rolled, one automatic strike; support adds another."""
    odds = attack_odds(Attack(3, 2, 1, 6, 3, support=True, rules=("AH1",)))
    assert odds.any_strike == 1
    assert odds.damage == {2: Fraction(3, 6), 3: Fraction(2, 6), 4: Fraction(1, 6)}


def test_tactical_orders_reroll_misses() -> None:
    """ROA 1 at skill 3 against HIT 1, ARM 1 (only a 6 fails a save): one TO re-roll turns a
    miss (1/2) into another chance."""
    odds = attack_odds(Attack(3, 1, 1, 1, 1), orders=1)
    assert odds.spending is not None
    assert odds.without.struck == Fraction(1, 2)
    assert odds.spending.struck == Fraction(3, 4)
    assert odds.spending.taken_out > odds.without.taken_out
    # Free re-rolls (PR1) are used in both lines.
    free = attack_odds(Attack(3, 1, 1, 1, 1, rules=("PR1",)))
    assert free.any_strike == Fraction(3, 4)


def test_blast_and_no_cover_deny_cover() -> None:
    covered = attack_odds(Attack(3, 2, 1, 3, 2, cover=True))
    for rule in ("NCV", "BLS", "XPL"):
        odds = attack_odds(Attack(3, 2, 1, 3, 2, cover=True, rules=(rule,)))
        assert odds.hit_lost == attack_odds(Attack(3, 2, 1, 3, 2)).hit_lost != covered.hit_lost
        assert "cover ignored" in odds.attack.describe()


def test_special_rules_typed_by_hand() -> None:
    assert parse_rules("rnd, DD1 ah1  PAR") == ("RND", "DD1", "AH1", "PAR")
    assert parse_rules(None) == ()
    with pytest.raises(DiceError, match="use unit and target in a match"):
        parse_rules("CTR")
    with pytest.raises(DiceError, match="give the skill"):
        parse_rules("+SK")
    with pytest.raises(DiceError, match="'XYZ' is not a rule /odds takes by hand"):
        parse_rules("XYZ")
    with pytest.raises(DiceError, match="not a rule"):
        parse_rules("DD")  # DDx needs its x
    with pytest.raises(DiceError, match="from 1 to 10"):
        parse_rules("TG11")


def test_large_pools_answer_quickly_and_sum_to_one() -> None:
    attack = Attack(5, 20, 10, 2, 20, True, True, ("RND", "DD10", "RLT", "PR3", "TG5", "PAR"))
    odds = attack_odds(attack, orders=10)
    assert odds.spending is not None
    assert sum(odds.hit_lost.values()) == 1 == sum(odds.spending.hit_lost.values())


# --- the engine's own resolution, explored face by face -----------------------------------------------
Placed = dict[int, list[tuple[dict[str, Any], str]]]


def play(match: Match, command: Command, budget: int) -> None:
    """The attack with the odds' policy: free re-rolls, then up to `budget` TO, on failed dice
    as they come; then accept."""
    match.apply(command)
    while (activation := match.state.activation) is not None and activation.pending is not None:
        pending = activation.pending
        failed = [
            i
            for i, die in enumerate(pending.dice, start=1)
            if not die.rerolled and not succeeds(die.value, pending.skill)
        ]
        free = int(pending.attack.get("free_rerolls", 0))
        if failed and (free or budget):
            budget -= 0 if free else 1
            match.apply(Reroll(command.side, failed[0]))
        else:
            match.apply(Accept(command.side))


def engine_odds(
    base: Match, command: Command, budget: int, watch: list[str]
) -> dict[tuple[int, ...], Fraction]:
    """Every run of the attack through the engine: the joint HIT lost of the watched units.
    Every skill and ARM in these matches is 3, so the faces explored are AT_THREE's."""
    start = {name: base.state.units[name].hit for name in watch}

    def run(roll: Callable[[], int]) -> tuple[int, ...]:
        match = copy.deepcopy(base)
        match.dice = _Asking(roll)
        play(match, command, budget)
        for name in watch:
            victim = match.state.units[name]
            assert (victim.hit == 0) == (victim.status == TAKEN_OUT)
        return tuple(start[name] - match.state.units[name].hit for name in watch)

    return exhaust(run, AT_THREE)


class _Asking(ScriptedDice):
    """Engine dice that ask the explorer for each face."""

    def __init__(self, roll: Callable[[], int]) -> None:
        super().__init__([])
        self._ask = roll

    def roll(self, sides: int = 6) -> int:
        assert sides == 6
        return self._ask()


def marginal(joint: dict[tuple[int, ...], Fraction], index: int, hit: int) -> dict[int, Fraction]:
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for lost, p in joint.items():
        out[lost[index]] += p
    return {n: out[n] for n in range(hit + 1)}


def test_odds_match_the_engine_for_a_shot_into_cover() -> None:
    """Rulebook Combat 2-3 and Ranged Combat Modifiers (Cover: one automatic save)."""
    rifle = weapon("Rifle", RANGED, 2, 1, "RG8")
    placed = {0: [unit("Ada", "C3", rsk=3, weapons=[rifle])], 1: [unit("Bo", "C7", arm=3, hit=2)]}
    edges = ["C6|C7: wall=1"]  # rulings: a low wall on the target's facing edge gives cover
    match = skirm_match(placed, edges=edges)
    listed = target_odds(match.state, match.state.units["Ada"])
    assert [(t.option.target, t.option.cover) for t in listed] == [("Bo", True)]
    joint = engine_odds(match, Shoot(0, "Ada", "Bo"), 0, ["Bo"])
    assert listed[0].primary.hit_lost == marginal(joint, 0, 2)


def test_odds_match_the_engine_with_rending_deadly_and_a_tactical_order() -> None:
    """Special Rules RND and DDx; Tactical Orders: re-roll any one die."""
    gun = weapon("Scattergun", RANGED, 1, 1, "RG8", "RND", "DD1")
    placed = {0: [unit("Ada", "C3", rsk=3, weapons=[gun])], 1: [unit("Bo", "C6", arm=3, hit=2)]}
    match = skirm_match(placed, orders=(2, 0))
    [entry] = target_odds(match.state, match.state.units["Ada"], "Bo", orders=1)
    assert entry.orders == 1 and entry.spending is not None
    roll = entry.steps[0].roll
    assert roll.natural_bonus == 2 and roll.deadly == 1
    assert entry.without[0].hit_lost == marginal(
        engine_odds(match, Shoot(0, "Ada", "Bo"), 0, ["Bo"]), 0, 2
    )
    assert entry.spending[0].hit_lost == marginal(
        engine_odds(match, Shoot(0, "Ada", "Bo"), 1, ["Bo"]), 0, 2
    )


def test_odds_match_the_engine_for_supported_melee_against_a_parry() -> None:
    """Melee Combat Modifiers (Support: one automatic strike); Special Rules PAR and RLT."""
    blade = weapon("Blade", MELEE, 1, 1, "RLT")
    placed = {
        0: [unit("Ada", "C3", msk=3, weapons=[blade]), unit("Eve", "D5", weapons=[KNIFE])],
        1: [unit("Bo", "C4", arm=3, hit=2, specials=["PAR"], weapons=[KNIFE])],
    }
    match = skirm_match(placed)
    [entry] = target_odds(match.state, match.state.units["Ada"])
    assert entry.support and entry.steps[0].roll.parried and entry.steps[0].roll.relentless
    assert entry.primary.hit_lost == marginal(
        engine_odds(match, Melee(0, "Ada", "Bo"), 0, ["Bo"]), 0, 2
    )


def test_odds_match_the_engine_for_free_rerolls_tough_and_standing_orders() -> None:
    """Special Rules BRx and TGx; the target's standing orders spend its TO on saves."""
    axe = weapon("Axe", MELEE, 1, 2, "BR1")
    placed = {
        0: [unit("Ada", "C3", msk=3, weapons=[axe])],
        1: [unit("Bo", "C4", arm=3, hit=2, specials=["TG1"], weapons=[KNIFE])],
    }
    match = skirm_match(placed, orders=(0, 2))
    match.apply(SetStandingOrders(1, reroll_saves_above=1))  # Blue re-rolls one save with TO
    [entry] = target_odds(match.state, match.state.units["Ada"])
    assert entry.free_rerolls == 1 and entry.steps[0].saves == Saves(3, 2, 1, 1)
    assert entry.primary.hit_lost == marginal(
        engine_odds(match, Melee(0, "Ada", "Bo"), 0, ["Bo"]), 0, 2
    )


def test_odds_match_the_engine_for_a_counter_attack() -> None:
    """Special Rules CTR: Bo strikes back when it survives; Ada's HIT lost is shown given that
    it does."""
    knife = weapon("Knife", MELEE, 1, 1)
    placed = {
        0: [unit("Ada", "C3", msk=3, arm=3, hit=1, weapons=[knife])],
        1: [unit("Bo", "C4", arm=3, hit=1, specials=["CTR"], weapons=[knife])],
    }
    match = skirm_match(placed)
    [entry] = target_odds(match.state, match.state.units["Ada"])
    counter = entry.primary.counter
    assert counter is not None and counter.unit == "Bo" and counter.weapon == "Knife"
    joint = engine_odds(match, Melee(0, "Ada", "Bo"), 0, ["Bo", "Ada"])
    survives = sum((p for (bo, _), p in joint.items() if bo == 0), Fraction(0))
    assert counter.happens == survives
    ada_taken_out = sum((p for (bo, ada), p in joint.items() if bo == 0 and ada == 1), Fraction(0))
    assert counter.taken_out == ada_taken_out / survives
    assert entry.primary.hit_lost == marginal(joint, 0, 1)


@pytest.mark.parametrize("specials", [("BLS",), ("BLS", "AH1")])
def test_odds_match_the_engine_for_a_blast(specials: tuple[str, ...]) -> None:
    """Special Rules BLS (Blast: the target and every unit adjacent to it, no cover) and AHx
    (its automatic strike at every target, as the engine rolls each one)."""
    grenade = weapon("Grenade", RANGED, 1, 1, "RG6", *specials)
    placed = {
        0: [unit("Ada", "C3", rsk=3, weapons=[grenade]), unit("Eve", "H7", arm=3, hit=1)],
        1: [unit("Cy", "F7", arm=3, hit=1), unit("Bo", "G7", arm=3, hit=1)],
    }
    match = skirm_match(placed, edges=["F6|F7: wall=1"])  # cover a Blast ignores
    [entry] = target_odds(match.state, match.state.units["Ada"], "Cy")
    labels = [step.label for step in entry.steps]
    assert labels == ["Cy", "Bo"]  # Eve is not next to Cy
    assert all(not step.roll.cover for step in entry.steps)
    automatic = 1 if "AH1" in specials else 0
    assert [step.roll.unrolled for step in entry.steps] == [automatic, automatic]
    joint = engine_odds(match, Shoot(0, "Ada", "Cy"), 0, labels)
    for index, (step, outcome) in enumerate(zip(entry.steps, entry.without, strict=True)):
        assert step.saves is not None
        assert outcome.hit_lost == marginal(joint, index, step.saves.hit), step.label
    text = format_target_odds(match.state.units["Ada"], [entry], detail=True)
    assert "Also hit, without TO: Bo taken out " in text


def test_odds_match_the_engine_for_autohits_shared_by_a_spread() -> None:
    """Special Rules SPR (ROA shared between adjacent targets) and AHx: each target's automatic
    strikes come out of its own share (specials.automatic_strikes(weapon, share)), as the
    engine rolls them; ROA 2 with AH2 over two targets is one automatic strike each."""
    spray = weapon("Spray", RANGED, 2, 1, "RG8", "SPR", "AH2")
    placed = {
        0: [unit("Ada", "C3", rsk=3, weapons=[spray])],
        1: [unit("Bo", "C7", arm=3, hit=2), unit("Cy", "D7", arm=3, hit=2)],
    }
    match = skirm_match(placed)
    [entry] = target_odds(match.state, match.state.units["Ada"], "Bo, Cy")
    assert [(s.label, s.roll.dice, s.roll.unrolled) for s in entry.steps] == [
        ("Bo", 0, 1),
        ("Cy", 0, 1),
    ]
    joint = engine_odds(match, Shoot(0, "Ada", "Bo", also="Cy"), 0, ["Bo", "Cy"])
    assert entry.without[0].hit_lost == marginal(joint, 0, 2)
    assert entry.without[1].hit_lost == marginal(joint, 1, 2)
    with pytest.raises(IllegalCommand, match="pick at most 2 targets|adjacent"):
        target_odds(match.state, match.state.units["Ada"], "Bo, Cy, Ada")


# --- in a match ---------------------------------------------------------------------------------
def test_target_odds_use_the_match_state() -> None:
    """Skill, weapon, the target's ARM and current HIT, and cover come from the match."""
    match = skirm_match(
        {0: [unit("Ada", "C3", rsk=4)], 1: [unit("Bo", "C7", arm=2, hit=3), unit("Cy", "H3")]},
        edges=["C6|C7: wall=1"],
    )
    match.state.units["Bo"].hit = 1  # wounded earlier
    listed = {t.option.target: t for t in target_odds(match.state, match.state.units["Ada"])}
    assert set(listed) == {"Bo", "Cy"}
    bo = listed["Bo"]
    assert bo.steps[0].roll == Roll(RIFLE["roa"], 4, RIFLE["dam"], cover=True)
    assert bo.steps[0].saves == Saves(2, 1, 0, 1)
    assert bo.spending is None, "Red has no TO"
    text = format_target_odds(match.state.units["Ada"], list(listed.values()))
    assert "Rifle → Bo (4 away, in cover): taken out **" in text


def test_orders_are_capped_by_the_squads_tactical_orders() -> None:
    match = skirm_match({0: [unit("Ada", "C3")], 1: [unit("Bo", "C7")]}, orders=(1, 0))
    [entry] = target_odds(match.state, match.state.units["Ada"], "Bo", orders=5)
    assert entry.orders == 1 and entry.spending is not None
    text = format_target_odds(match.state.units["Ada"], [entry])
    assert "in brackets: re-rolling failed attack dice with up to 1 TO" in text


def test_barrels_show_the_chance_to_explode() -> None:
    match = skirm_match(
        {0: [unit("Ada", "C3", rsk=3, weapons=[RIFLE])], 1: [unit("Bo", "L12")]},
        items=[{"kind": "barrel", "square": "C6"}],
    )
    listed = [t for t in target_odds(match.state, match.state.units["Ada"]) if t.explodes]
    assert len(listed) == 1
    # Two dice at skill 3: a strike on 1-3, so no strike at all is (1/2)^2.
    assert listed[0].explodes == Fraction(3, 4)


def test_long_target_lists_are_cut_short() -> None:
    match = skirm_match(
        {
            0: [unit("Ada", "F6", weapons=[RIFLE, KNIFE])],
            1: [unit(f"Foe{i}", square) for i, square in enumerate(["A12", "C12", "E12", "L1"])],
        }
    )
    ada = match.state.units["Ada"]
    listed = target_odds(match.state, ada)
    text = format_target_odds(ada, listed, limit=150)
    assert len(text) <= 150 and "more." in text


# --- presentation and limits ---------------------------------------------------------------------
def test_percentages_never_round_a_possibility_away() -> None:
    assert percent(Fraction(0)) == "0%" and percent(Fraction(1)) == "100%"
    assert percent(Fraction(1, 3)) == "33.3%" and percent(Fraction(3, 4)) == "75%"
    assert percent(Fraction(1, 10**6)) == "<0.1%"
    assert percent(1 - Fraction(1, 10**6)) == ">99.9%"


def test_format_shows_both_lines_and_the_assumption() -> None:
    text = format_attack_odds(attack_odds(Attack(3, 1, 1, 3, 1, rules=("STN",)), orders=1))
    lines = text.splitlines()
    assert lines[1].startswith("Without TO: taken out **")
    assert lines[2].startswith("Re-rolling failed attack dice with up to 1 TO: taken out **")
    assert "At least one strike: 50% · stuns (STN): 16.7% (without TO)." in text
    assert "+/-1 changes are not counted" in text
    assert "Re-rolling" not in format_attack_odds(attack_odds(Attack(3, 1, 1, 3, 1)))


@pytest.mark.parametrize(
    ("attack", "field"),
    [
        (Attack(skill=0, roa=2, dam=1, arm=3, hit=2), "SKILL"),
        (Attack(skill=3, roa=21, dam=1, arm=3, hit=2), "ROA"),
        (Attack(skill=3, roa=2, dam=0, arm=3, hit=2), "DAM"),
        (Attack(skill=3, roa=2, dam=1, arm=7, hit=2), "ARM"),
        (Attack(skill=3, roa=2, dam=1, arm=3, hit=0), "HIT"),
    ],
)
def test_out_of_range_stats_are_refused_in_words(attack: Attack, field: str) -> None:
    with pytest.raises(DiceError, match=f"{field} must be from"):
        attack_odds(attack)


def test_orders_out_of_range_are_refused() -> None:
    with pytest.raises(DiceError, match="Tactical Orders must be from 0 to 10"):
        attack_odds(Attack(3, 2, 1, 3, 2), orders=11)


def test_brute_force_explorer_weighs_sequences() -> None:
    """The explorer itself: two dice summed, the familiar 1/36 .. 6/36 .. 1/36."""
    sums = exhaust(lambda roll: roll() + roll())
    assert sums[7] == Fraction(6, 36) and sum(sums.values()) == 1
    assert sums == {
        total: Fraction(sum(1 for a, b in itertools.product(FACES, FACES) if a + b == total), 36)
        for total in range(2, 13)
    }


def test_counts_take_the_right_noun() -> None:
    """Messages say "1 free re-roll" and "2 free re-rolls" (skirmbot.words.plural)."""
    one = format_attack_odds(attack_odds(Attack(3, 2, 1, 3, 2, rules=("PR1",))))
    two = format_attack_odds(attack_odds(Attack(3, 2, 1, 3, 2, rules=("PR2",))))
    assert "1 free re-roll (PR/BR) taken" in one and "2 free re-rolls (PR/BR) taken" in two
