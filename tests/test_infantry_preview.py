"""A trooper's preview under the infantry rules: where it can move with the AP, the odds of its
attacks, and - the plan's "what makes moving sane" (section 3) - the enemy arcs a route enters,
with the odds of each shot (skirmbot.rules.infantry.preview)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from skirmbot.rules.dots import Dot
from skirmbot.rules.errors import RulesError
from skirmbot.rules.infantry import preview
from skirmbot.rules.infantry.arcs import target_number
from skirmbot.rules.infantry.card import Track
from skirmbot.rules.infantry.combat import odds
from skirmbot.rules.infantry.setup import deploy, new_state
from tests.infantry_boards import RIFLEMEN, arc_of, deployed
from tests.infantry_helpers import content

D = Dot.parse


def test_the_preview_reaches_every_dot_within_the_movement_ap() -> None:
    """Basic Movement ¶1-2: "a maximum of 8 AP for movement"; "obstruction between costs 2 AP"
    (Crossroads has a low wall between C3 and C4); Rossi (7 AP with basic armour) reaches no
    further than his AP."""
    state = deployed()
    shown = preview.preview(state, "Rossi")
    costs = {str(r.square): r.cost for r in shown.reach}
    assert costs["D2"] == 1 and costs["D3"] == 2
    assert costs["E3"] == 2 and costs["E4"] == 4  # E3, then over the low wall E3-E4: 2 AP
    assert max(costs.values()) <= 7
    assert "D1" not in costs and "B1" not in costs  # its own dot, and Hale's
    assert not shown.as_if and str(shown.square) == "D1"
    state.trooper("Rossi").prone = True  # Basic Movement ¶5: "Movement while prone costs double"
    prone = {str(r.square): r.cost for r in preview.preview(state, "Rossi").reach}
    assert prone["D2"] == 2 and prone["E3"] == 4 and "E4" not in prone


def test_a_route_into_an_arc_shows_each_chance_with_its_odds() -> None:
    """Firing Arcs ¶2 / Resolving Fire ¶1: "When an enemy trooper ... moves into the firing arc,
    the firing trooper may fire"; plan section 3: the preview shows the arcs a route enters,
    each chance with its hit odds, never more chances than the arc has shots."""
    state = deployed()
    arc = arc_of(state, "Varga", "D6")  # 60 degrees, 2 shots of a Laser Rifle
    shown = preview.preview(state, "Rossi", D("D4"))
    assert shown.as_if and str(shown.square) == "D4"
    assert [c.attacker for c in shown.threats] == ["Varga", "Varga"]
    first = shown.threats[0]
    assert (first.weapon, first.target, first.distance) == ("Laser Rifle", "Rossi", 10)
    rossi = state.trooper("Rossi")
    rossi.dot = D("D2")
    assert first.hit == odds(target_number(state, arc, rossi) or 99)
    assert first.hit == Fraction(26, 36)  # Laser Rifle short range 66: 6+


def test_a_route_outside_every_arc_shows_no_chance() -> None:
    state = deployed()
    arc_of(state, "Varga", "N12")  # facing along its own edge, away from the riflemen
    assert preview.preview(state, "Rossi", D("D4")).threats == ()


def test_hit_odds_apply_every_damage_roll_exactly() -> None:
    """Resolving Fire ¶6-¶7: a hit's 2D6 names the initial cell (11, 12: cell 10, our ruling)
    and lethal points cross cells rightwards; a Rifle (4X) on a clean unarmoured card loses on
    average 7 HP given a hit, and is killed by a damage roll of 2, 3 or 4 (1 in 6)."""
    hit, lost, out = preview.hit_odds(6, Track(), (4, 0))
    assert hit == Fraction(26, 36)
    assert lost == hit * 7
    assert out == hit * Fraction(1, 6)
    assert preview.hit_odds(None, Track(), (4, 0)) == (0, 0, 0)


def test_armour_takes_the_first_lethal_points_in_the_odds() -> None:
    """Body Armor ¶1: "any cells of armor are destroyed before applying lethal damage"."""
    _, bare, _ = preview.hit_odds(2, Track(), (4, 0))
    _, armoured, _ = preview.hit_odds(2, Track(armour=2), (4, 0))
    assert armoured < bare


def test_melee_odds_are_offered_at_an_adjacent_enemy() -> None:
    """Melee Combat ¶1-4: an adjacent enemy; base 4, no cover; fists, knife, and with a rifle
    the bayonet or the rifle swung as a club."""
    state = deployed()
    state.trooper("Varga").dot = D("D2")
    attacks = preview.preview(state, "Rossi").attacks
    melee = {c.weapon: c for c in attacks if c.kind == "melee" and c.target == "Varga"}
    assert set(melee) == {"Fists", "Knife", "Bayonet", "Club"}
    assert melee["Knife"].hit == odds(4)


def test_a_preview_in_set_up_or_out_of_reach_is_refused() -> None:
    state = new_state(content())
    deploy(state, 0, RIFLEMEN)
    with pytest.raises(RulesError):
        preview.preview(state, "Rossi")
    with pytest.raises(RulesError, match="cannot move to M12"):
        preview.preview(deployed(), "Rossi", D("M12"))
