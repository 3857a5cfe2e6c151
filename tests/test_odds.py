"""/odds: exact attack odds, checked against brute force, the engine itself and a simulation."""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict
from fractions import Fraction
from typing import Any

import pytest
from builders import KNIFE, RIFLE, skirm_match, unit, weapon

from skirmbot.dice.expressions import DiceError
from skirmbot.dice.odds import (
    Attack,
    attack_damage,
    attack_odds,
    format_attack_odds,
    format_target_odds,
    percent,
    target_odds,
)
from skirmbot.rules.cards import MELEE, RANGED
from skirmbot.rules.commands import Command, Melee, Shoot
from skirmbot.rules.dice import DiceExhausted, succeeds
from skirmbot.rules.state import TAKEN_OUT

FACES = range(1, 7)


# --- brute force: every face of every die, weighted equally -------------------------------------
def attack_damage_of(faces: tuple[int, ...], attack: Attack) -> int:
    strikes = [face for face in faces if succeeds(face, attack.skill)]
    naturals = sum(1 for face in strikes if face == 1)
    return (len(strikes) + attack.support) * attack.dam + naturals


def brute_force(attack: Attack) -> dict[int, Fraction]:
    """HIT lost over all 6^ROA attack rolls and, for each, all 6^n save rolls."""
    lost: defaultdict[int, Fraction] = defaultdict(Fraction)
    for faces in itertools.product(FACES, repeat=attack.roa):
        damage = attack_damage_of(faces, attack)
        to_roll = max(0, damage - (1 if attack.cover and damage > 0 else 0))
        weight = Fraction(1, 6**attack.roa) / 6**to_roll
        for saves in itertools.product(FACES, repeat=to_roll):
            failed = sum(1 for face in saves if not succeeds(face, attack.arm))
            lost[min(attack.hit, failed)] += weight
    return {n: lost[n] for n in range(attack.hit + 1)}


SMALL_POOLS = [
    Attack(skill=3, roa=1, dam=1, arm=3, hit=1),
    Attack(skill=3, roa=2, dam=1, arm=3, hit=2, cover=True),
    Attack(skill=5, roa=2, dam=2, arm=2, hit=3),
    Attack(skill=1, roa=2, dam=1, arm=4, hit=2, support=True),
    Attack(skill=4, roa=3, dam=1, arm=1, hit=3, cover=True, support=True),
    Attack(skill=6, roa=1, dam=3, arm=6, hit=2),  # 6 still misses, 6 still fails a save
]


@pytest.mark.parametrize("attack", SMALL_POOLS, ids=lambda a: a.describe())
def test_exact_odds_match_brute_force(attack: Attack) -> None:
    odds = attack_odds(attack)
    assert odds.hit_lost == brute_force(attack)
    assert sum(odds.hit_lost.values()) == 1
    assert sum(odds.damage.values()) == 1
    assert odds.taken_out == odds.hit_lost[attack.hit]


def test_damage_counts_natural_ones_and_support() -> None:
    """One die at skill 3, DAM 2: a 1 deals 3 (natural), a 2 or 3 deals 2, else 0;
    support adds DAM once, never as a natural 1."""
    assert attack_damage(3, 1, 2) == {3: Fraction(1, 6), 2: Fraction(2, 6), 0: Fraction(3, 6)}
    assert attack_damage(3, 1, 2, support=True) == {
        5: Fraction(1, 6),
        4: Fraction(2, 6),
        2: Fraction(3, 6),
    }


def test_cover_saves_the_first_point() -> None:
    """ROA 1, DAM 1 into cover: a plain strike (1 damage) is saved automatically; only a
    natural 1 (2 damage) gets a save die through."""
    odds = attack_odds(Attack(skill=3, roa=1, dam=1, arm=3, hit=2, cover=True))
    # The natural 1 comes up 1 time in 6 and its save die fails on 4-6 (1 in 2).
    assert odds.hit_lost == {0: Fraction(11, 12), 1: Fraction(1, 12), 2: Fraction(0)}


def test_large_pool_agrees_with_a_seeded_simulation() -> None:
    attack = Attack(skill=4, roa=8, dam=2, arm=3, hit=6, cover=True, support=True)
    odds = attack_odds(attack)
    rng = random.Random(20240607)
    trials = 20_000
    seen: Counter[int] = Counter()
    for _ in range(trials):
        faces = tuple(rng.randint(1, 6) for _ in range(attack.roa))
        damage = attack_damage_of(faces, attack)
        to_roll = max(0, damage - (1 if damage else 0))
        failed = sum(1 for _ in range(to_roll) if not succeeds(rng.randint(1, 6), attack.arm))
        seen[min(attack.hit, failed)] += 1
    for lost, exact in odds.hit_lost.items():
        # 4 standard deviations of a proportion over 20,000 trials is under 0.015.
        assert abs(seen[lost] / trials - float(exact)) < 0.015, lost
    assert sum(odds.hit_lost.values()) == 1


# --- the engine's own resolution ---------------------------------------------------------------
def engine_odds(
    placed: dict[int, list[tuple[dict[str, Any], str]]],
    command: Command,
    target: str,
    hit: int,
    **options: Any,
) -> dict[int, Fraction]:
    """Play the attack in the real engine for every sequence of faces it asks for: a run that
    runs out of scripted faces branches into the six faces of the next die."""
    lost: defaultdict[int, Fraction] = defaultdict(Fraction)

    def explore(prefix: list[int]) -> None:
        match = skirm_match(placed, faces=prefix, **options)
        try:
            match.apply(command)
        except DiceExhausted:
            for face in FACES:
                explore([*prefix, face])
            return
        victim = match.state.units[target]
        assert (victim.hit == 0) == (victim.status == TAKEN_OUT)
        lost[hit - victim.hit] += Fraction(1, 6 ** len(prefix))

    explore([])
    return {n: lost[n] for n in range(hit + 1)}


def test_odds_match_the_engine_for_a_shot_into_cover() -> None:
    rifle = weapon("Rifle", RANGED, 2, 1, "RG8")
    placed = {0: [unit("Ada", "C3", rsk=3, weapons=[rifle])], 1: [unit("Bo", "C7", arm=3, hit=2)]}
    edges = ["C6|C7: wall=1"]  # rulings: a low wall on the target's facing edge gives cover
    match = skirm_match(placed, edges=edges)
    listed = target_odds(match.state, match.state.units["Ada"])
    assert [(t.option.target, t.option.cover) for t in listed] == [("Bo", True)]
    assert listed[0].odds is not None
    assert listed[0].odds.hit_lost == engine_odds(
        placed, Shoot(0, "Ada", "Bo"), "Bo", 2, edges=edges
    )


def test_odds_match_the_engine_for_supported_melee() -> None:
    knife = weapon("Knife", MELEE, 1, 1)
    placed = {
        0: [unit("Ada", "C3", msk=3, weapons=[knife]), unit("Eve", "D5", weapons=[knife])],
        1: [unit("Bo", "C4", arm=3, hit=2, weapons=[knife])],
    }
    match = skirm_match(placed)
    listed = target_odds(match.state, match.state.units["Ada"])
    assert len(listed) == 1 and listed[0].odds is not None
    assert listed[0].odds.attack.support, "Eve stands next to Bo"
    assert listed[0].odds.hit_lost == engine_odds(placed, Melee(0, "Ada", "Bo"), "Bo", 2)


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
    bo = listed["Bo"].odds
    assert bo is not None
    assert bo.attack == Attack(4, RIFLE["roa"], RIFLE["dam"], 2, 1, cover=True, support=False)
    text = format_target_odds(match.state.units["Ada"], list(listed.values()))
    assert "Rifle → Bo (4 away, in cover)" in text and "taken out" in text


def test_barrels_show_the_chance_to_explode() -> None:
    match = skirm_match(
        {0: [unit("Ada", "C3", rsk=3, weapons=[RIFLE])], 1: [unit("Bo", "L12")]},
        items=[{"kind": "barrel", "square": "C6"}],
    )
    listed = [t for t in target_odds(match.state, match.state.units["Ada"]) if t.odds is None]
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


def test_format_shows_each_hit_lost_and_taken_out() -> None:
    text = format_attack_odds(attack_odds(Attack(3, 1, 1, 3, 1)))
    assert "HIT lost — 0: " in text and "1: " in text and "Taken out: **" in text


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
