"""The group rules' preview (`Ruleset.preview`) and autocomplete's labels (`CompaniesChoices`):
a Group's Move squares, the exact odds of its pool at each target (rulebook Shooting and
Attacking: 12d6, 6d6 Bloodied, hits on MI/ME, Cover re-rolls the hits, 1 R per T hits), and
each command in the rulebook's words for /act. No die is rolled."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from skirmbot.rules.commands import Melee, Shoot
from skirmbot.rules.companies import preview as previews
from skirmbot.rules.companies.choices import CompaniesChoices
from skirmbot.rules.companies.commands import (
    Cast,
    ChooseAmbition,
    EndTurn,
    Interrupt,
    Move,
    Retreat,
    Summon,
)
from skirmbot.rules.companies.preview import pool_odds, preview
from skirmbot.rules.companies.profiles import ATTACK, CAST, MOVE, RETREAT, SUMMON, Trait
from skirmbot.rules.companies.state import PendingAttack, State
from skirmbot.rules.errors import RulesError
from skirmbot.rules.squares import Square
from tests.companies_builders import profile, put, table

ARCHERS = profile("archers", mi=4, range_=18, t=2)
FIGHTER = profile(activation={MOVE: 5, ATTACK: 6, RETREAT: 6})


def two_groups() -> State:
    """Bows (MI 4+, range 18") and Spears (ME 4+) of seat 0; Foes (T 2, R 6) 10" below."""
    state = table()
    put(state, 0, "Bows", "H3 I3 J3", ARCHERS)
    put(state, 0, "Spears", "C3 D3 E3", FIGHTER)
    put(state, 1, "Foes", "C13 D13 E13", FIGHTER)
    return state


def test_a_pool_odds_are_exact() -> None:
    """Shooting: "roll 12d6 to hit", each die at or above MI hits, "lose 1 R per T hits"; Cover:
    every hit re-rolled once (our ruling), so a die hits with p squared."""
    lose, expected, out = pool_odds(12, 4, False, 2, 6)
    assert lose == 1 - Fraction(13, 4096)  # at least 2 hits of 12 at 1/2
    assert expected == sum(Fraction(comb(12, h), 4096) * min(h // 2, 6) for h in range(13))
    assert out == Fraction(1, 4096)  # all 12 hit: 6 R lost
    covered, _, _ = pool_odds(12, 4, True, 2, 6)
    assert covered < lose
    assert pool_odds(6, 7, False, 1, 3) == (0, 0, 0)  # nothing hits on a 7


def test_an_activation_tests_chance_is_two_dice_at_or_above_its_minimum() -> None:
    """Activation: "Roll 2d6, attempting to meet or exceed the Group's minimum"."""
    chance = previews.test_chance  # imported under another name: pytest would collect it
    assert (chance(2), chance(7), chance(12), chance(13)) == (
        1, Fraction(7, 12), Fraction(1, 36), 0
    )  # fmt: skip


def test_the_preview_lists_move_squares_and_the_odds_at_each_target() -> None:
    """A Group's preview: where its Move takes its first model (inches walked), and its pool's
    odds at each Group it may Shoot now, in the rulebook's words (inches, R, Routed) - none at
    a Group beyond its range."""
    state = two_groups()
    shown = preview(state, "Bows")
    assert shown.unit == "Bows" and not shown.as_if and shown.square == Square.parse("H3")
    assert shown.reach and all(r.cost <= 6 for r in shown.reach)
    (shot,) = shown.attacks
    assert (shot.weapon, shot.target, shot.distance, shot.cover) == ("Shoot", "Foes", 10, False)
    assert shot.damage == pool_odds(12, 4, False, 2, 6)[1]
    assert shot.words() == 'Shoot → Foes (10"): loses R >99%, 2.75 R expected, Routed <1%'
    assert shot.short() == ">99% · 2.8 R"
    assert preview(state, "Spears").attacks == ()  # Foes are 10" away; Spears move 6"


def test_a_preview_as_if_moved_shows_the_attacks_from_there_and_the_threats() -> None:
    """As if the Group's first model stood on a square its Move reaches: its attacks from
    there, and the enemy Groups' attacks on it there."""
    state = two_groups()
    shown = preview(state, "Spears", Square.parse("C8"))
    assert shown.as_if and shown.square == Square.parse("C8")
    assert [(c.weapon, c.target) for c in shown.attacks] == [("Attack", "Foes")]
    assert [(c.attacker, c.weapon) for c in shown.threats] == [("Foes", "Attack")]
    assert state.group("Spears").models[0] == Square.parse("C3")  # the match is untouched
    with pytest.raises(RulesError, match="cannot Move its first model to C20"):
        preview(state, "Spears", Square.parse("C20"))
    with pytest.raises(RulesError, match="no Group called 'Nobody'"):
        preview(state, "Nobody")


def test_squares_are_labelled_with_inches_and_targets_with_distance_and_r() -> None:
    """Autocomplete: /move's squares nearest first with the inches walked; /shoot's targets with
    how far, Cover, and the R expected lost."""
    state = two_groups()
    choices = CompaniesChoices(state, 0)
    squares = choices.squares("Spears", "move", "move")
    assert squares[0][1].endswith('(1")') and squares[-1][1].endswith('(6")')
    assert choices.targets("Bows", "shoot", None) == [("Foes", 'Foes (10", 2.8 R)')]
    assert choices.targets("Spears", "melee", None) == []
    assert CompaniesChoices(state, None).squares("Spears", "move", "move") == []
    assert ("Spears", "Spears (Spearmen, 3 models, R 6/6, at C3)") in choices.units(("move",))


def test_act_words_name_each_order_with_its_activation_test() -> None:
    """/act's menu in the rulebook's words: the order, the Group, what at, and its test."""
    state = two_groups()
    state.catalogue.traits["defiant"] = Trait("defiant", "Defiant", "Counter-charges.", 8)
    words = CompaniesChoices(state, 0).words
    assert words(Retreat(0, "Spears")) == "Retreat: Spears (2d6 ≥ 6)"
    assert words(Shoot(0, "Bows", "Foes")) == "Shoot: Bows at Foes (2d6 ≥ 6)"
    assert words(Melee(0, "Spears", "Foes")) == "Attack: Spears at Foes (2d6 ≥ 6)"
    assert words(Move(0, "Spears", "C5")) == "Move: Spears to C5 (2d6 ≥ 5)"
    assert words(EndTurn(0)) == "End turn"
    assert words(ChooseAmbition(0, "glory")) == "Ambition: Glory - 2 VP if glory"
    state.pending = PendingAttack("Foes", "Spears", "defiant")
    assert words(Interrupt(1, True)) == "Interrupt: test Defiant (8+)"
    assert words(Interrupt(1, False)) == "Stand (no interrupt)"
    hexers = profile("hexers", activation={CAST: 7, SUMMON: 8, MOVE: 5}, me_attack=None)
    put(state, 0, "Hexers", "J3 K3", hexers)
    assert words(Cast(0, "Hexers", "Foes")) == "Cast: Hexers at Foes (2d6 ≥ 7)"
    assert words(Summon(0, "Hexers", "K5")) == "Summon: Hexers at K5 (2d6 ≥ 8)"
