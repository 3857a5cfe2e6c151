"""The picture's words: the caption saying what the last activation did, and the header's squad
lines with the units Taken Out by name."""

from __future__ import annotations

from typing import Any

from builders import skirm_match, unit
from infantry_helpers import fresh, put

from skirmbot.demo import play_demo
from skirmbot.render.caption import caption, captions, fit, squad_lines
from skirmbot.render.palette import font
from skirmbot.render.replay import activation_steps
from skirmbot.rules.commands import EndActivation, Melee, Move, Shoot
from skirmbot.rules.infantry.commands import Arc, ChangeWeapon, Throw
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.view import MatchView


def view(state: Any, rules: str = "skirm") -> MatchView:
    """The match as the pictures see it (the ruleset's view of its state)."""
    return ruleset(rules).view(state)


def test_a_move_and_a_shot_that_takes_out_its_target() -> None:
    match = skirm_match(
        {0: [unit("Ada", "C3")], 1: [unit("Bo", "C9", arm=1, hit=1), unit("Cy", "H9")]},
        faces=[1, 1, 6, 6, 6, 6],
    )
    events = match.apply(Move(0, "Ada", "C4")) + match.apply(Shoot(0, "Ada", "Bo"))
    assert (
        caption(events, view(match.state))
        == "Ada moves C3 to C4 and shoots Bo (4 damage, Taken Out)"
    )
    # Shorter wordings leave out where the move began and the damage, then the move itself.
    assert captions(events, view(match.state))[1:] == [
        "Ada moves to C4 and shoots Bo (Taken Out)",
        "Ada shoots Bo (Taken Out)",
    ]


def test_a_second_attack_on_the_same_target_says_again() -> None:
    match = skirm_match({0: [unit("Ada", "C3")], 1: [unit("Bo", "C9")]}, faces=[2, 5, 6, 6, 6])
    events = match.apply(Shoot(0, "Ada", "Bo")) + match.apply(Shoot(0, "Ada", "Bo"))
    assert (
        caption(events, view(match.state))
        == "Ada shoots Bo (1 damage, 1 HIT lost) and again (miss)"
    )


def test_a_barrel_shot_says_it_exploded_and_whom_it_took_out() -> None:
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "F6", hit=2), unit("Bo", "L12")]},
        items=[{"kind": "barrel", "square": "F6"}],
        faces=[3, 6, 6, 6],
    )
    events = match.apply(Shoot(0, "Remus", "barrel@F6"))
    assert (
        caption(events, view(match.state))
        == "Remus shoots the barrel on F6 (it explodes, Vex Taken Out)"
    )


def test_a_counter_attack_names_the_unit_striking_back() -> None:
    match = skirm_match(
        {0: [unit("Ada", "C3")], 1: [unit("Bo", "C4", specials=["CTR"])]},
        faces=[2, 6, 6, 1, 6, 6, 6],
    )
    events = match.apply(Melee(0, "Ada", "Bo"))
    assert caption(events, view(match.state)) == (
        "Ada attacks Bo (1 damage, 1 HIT lost) and Bo strikes back (2 damage, 2 HIT lost)"
    )


def test_an_activation_without_an_action_and_the_deployment() -> None:
    match = skirm_match({0: [unit("Ada", "C3")], 1: [unit("Bo", "C9")]})
    events = match.apply(EndActivation(0, "Ada"))
    assert caption(events, view(match.state)) == "Ada ends its activation without acting"
    _, record = play_demo(1)
    state, deployment = next(iter(activation_steps(record)))
    first = state.sides[state.to_act or 0].name
    assert caption(deployment, state) == (
        f"Both squads deployed; Turn 1 begins: {first} has the initiative"
    )


def test_only_the_last_activation_is_told() -> None:
    match = skirm_match({0: [unit("Ada", "C3"), unit("Cy", "D3")], 1: [unit("Bo", "C9")]})
    events = match.apply(Move(0, "Ada", "C4")) + match.apply(EndActivation(0))
    events += match.apply(Move(1, "Bo", "C8")) + match.apply(EndActivation(1))
    assert caption(events, view(match.state)) == "Bo moves C9 to C8"


def test_the_header_names_the_units_taken_out_beside_their_squad() -> None:
    match = skirm_match(
        {0: [unit("Ada", "C3")], 1: [unit("Bo", "C9", arm=1, hit=1), unit("Cy", "H9")]},
        faces=[1, 1, 6, 6, 6, 6],
    )
    match.apply(Shoot(0, "Ada", "Bo"))
    assert squad_lines(view(match.state), 0) == ["Red: 0 MP · 0 TO · 1 up"]
    assert squad_lines(view(match.state), 1)[0] == "Blue: 0 MP · 0 TO · 1 up · Taken Out: Bo"


def test_fit_takes_the_longest_wording_that_fits_and_cuts_the_last_one() -> None:
    face = font(18)
    match = skirm_match(
        {0: [unit("Ada", "C3")], 1: [unit("Bo", "C9", arm=1, hit=1), unit("Cy", "H9")]},
        faces=[1, 1, 6, 6, 6, 6],
    )
    events = match.apply(Move(0, "Ada", "C4")) + match.apply(Shoot(0, "Ada", "Bo"))
    wordings = captions(events, view(match.state))
    assert fit(wordings, 1000, face) == wordings[0]
    narrow = face.getlength(wordings[1]) + 1
    assert fit(wordings, narrow, face) == wordings[1]
    cut = fit(wordings, 80, face)
    assert cut.endswith("…") and face.getlength(cut) <= 80
    # Many units Taken Out: as many names as fit, then how many more.
    lines = ["Blue: 0 MP · out: Ada, Bo, Cy +2", "Blue: 0 MP · 5 out"]
    assert fit(lines, face.getlength(lines[1]) + 2, face) == lines[1]


def test_a_skirmisher_that_set_an_arc_or_threw_a_grenade_acted() -> None:
    """The infantry rules' acts are captioned: Firing Arcs ¶1 "a trooper may set up a firing
    arc" and Explosives ¶1 (a throw) are actions, not an activation "without acting"."""
    match = fresh()
    put(match, "Hale", "E5")
    put(match, "Rossi", "C3")
    put(match, "Varga", "E8")
    events = match.apply(Arc(0, "Hale", 60, "E8")) + match.apply(EndActivation(0, "Hale"))
    assert caption(events, view(match.state, "infantry")) == "Hale sets a 60° firing arc"
    events = match.apply(ChangeWeapon(0, "Rossi", "Hand Grenade"))
    events += match.apply(Throw(0, "Rossi", "C5")) + match.apply(EndActivation(0, "Rossi"))
    assert caption(events, view(match.state, "infantry")) == (
        "Rossi readies its Hand Grenade and throws a Hand Grenade at C5"
    )
