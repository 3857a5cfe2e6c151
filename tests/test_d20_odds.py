"""Exact odds of the d20 rules' opposed roll (d20/odds.py) against brute-force enumeration:
"Attacker will roll to attack with a d10, plus any bonus dice and/or modifiers. Defender will
roll to defend with a d10, plus any bonus dice and/or modifiers"; ties go to the defender."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from d20_builders import d20, put

from skirmbot.rules.d20.odds import opposed
from skirmbot.rules.d20.ruleset import RULESET
from skirmbot.rules.preview import percent
from skirmbot.service.choices import Situation


def enumerated(
    attack: int, attack_mod: int, defence: int, defence_mod: int
) -> tuple[Fraction, Fraction]:
    """Every face of every die, counted: (attacker wins, tie)."""
    dice = [range(1, 11)] + [range(1, 7)] * attack + [range(1, 11)] + [range(1, 7)] * defence
    wins = ties = total = 0
    for faces in itertools.product(*dice):
        a = sum(faces[: attack + 1]) + attack_mod
        d = sum(faces[attack + 1 :]) + defence_mod
        wins += a > d
        ties += a == d
        total += 1
    return Fraction(wins, total), Fraction(ties, total)


@pytest.mark.parametrize(
    ("attack", "attack_mod", "defence", "defence_mod"),
    [
        (0, 0, 0, 0),
        (1, 0, 0, 0),
        (0, 0, 1, 1),
        (2, 1, 1, 0),
        (1, 0, 2, 1),
        (2, 0, 2, 0),
        (0, 3, 0, 0),
    ],
)
def test_the_opposed_roll_odds_match_enumeration(
    attack: int, attack_mod: int, defence: int, defence_mod: int
) -> None:
    odds = opposed(attack, attack_mod, defence, defence_mod)
    assert (odds.win, odds.tie) == enumerated(attack, attack_mod, defence, defence_mod)
    assert odds.win + odds.tie + odds.lose == 1


def test_two_plain_d10s_win_45_in_100() -> None:
    assert opposed(0, 0, 0, 0).win == Fraction(45, 100)


def test_the_preview_gives_the_exact_odds_with_cover() -> None:
    match = d20([("Ann", "Trooper")], [("Bo", "Trooper")], battle_map={
        "name": "W", "rows": [" ".join(["."] * 12)] * 12, "edges": ["F8|F9: wall=1"]})  # fmt: skip
    put(match, Ann="F5", Bo="F9")
    preview = RULESET.preview(match.state, "Ann")
    rifle = next(chance for chance in preview.attacks if chance.weapon == "Rifle")
    assert rifle.cover and rifle.hit == opposed(0, 0, 0, 1).win == Fraction(36, 100)
    assert {reach.square for reach in preview.reach} == set(
        RULESET.routes(match.state, "Ann", "move")
    )


def test_the_preview_gives_the_odds_with_n_bonus_dice_each_way() -> None:
    """ "plus any bonus dice" each way: the attacker's chance with none and with each number of
    the bonus dice it holds, against the defender's standing order ("defend with up to 1"),
    each equal to counting every face."""
    match = d20([("Ann", "Trooper")], [("Bo", "Trooper")], battle_map={
        "name": "W", "rows": [" ".join(["."] * 12)] * 12, "edges": []})  # fmt: skip
    put(match, Ann="F5", Bo="F9")
    match.state.seats[0].bonus = 2
    match.state.seats[1].bonus, match.state.seats[1].defend = 3, 1
    rifle = next(c for c in RULESET.preview(match.state, "Ann").attacks if c.weapon == "Rifle")
    assert rifle.opposed and rifle.defended == 1
    assert rifle.hit == enumerated(0, 0, 1, 0)[0]
    assert rifle.bonus == (enumerated(1, 0, 1, 0)[0], enumerated(2, 0, 1, 0)[0])
    assert rifle.words() == (
        f"Rifle → Bo (4 sq): wins {percent(rifle.hit)} against 1 bonus die; "
        f"with bonus dice +1 {percent(rifle.bonus[0])}, +2 {percent(rifle.bonus[1])}"
    )


def test_odds_in_a_d20_match_give_the_previews_exact_opposed_odds() -> None:
    """/odds in a match of the d20 rules (no Skirm attack maths): the preview's own numbers."""
    match = d20([("Ann", "Trooper")], [("Bo", "Trooper")], battle_map={
        "name": "W", "rows": [" ".join(["."] * 12)] * 12, "edges": []})  # fmt: skip
    put(match, Ann="F5", Bo="F9")
    match.state.seats[0].bonus = 1
    told = Situation(match.state, 0, RULESET).odds("Ann", "Bo", 0, False)
    rifle = next(c for c in RULESET.preview(match.state, "Ann").attacks if c.weapon == "Rifle")
    assert "the exact chance to win the opposed roll, by the bonus dice you add" in told
    assert f"- {rifle.words()}" in told.splitlines()
