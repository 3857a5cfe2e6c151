"""Weapons that hit more than one target (issue 6; rulebook Weapon/Gear Special Rules: BLS
Blast, CRx Chain Reaction, LNR Linear, SPR Spread; unit BLS Blast Shield; rulings: Items,
the Rocket Launcher Turret's XPL treated as BLS)."""

from __future__ import annotations

from builders import refused, skirm_match, unit, weapon

from skirmbot.rules.commands import Accept, Shoot
from skirmbot.rules.skirm.area import crossed_squares
from skirmbot.rules.skirm.commands import UseTurret
from skirmbot.rules.squares import Square

GRENADE = weapon("Grenade", "ranged", 1, 1, "RG6", "BLS")


def test_a_blast_on_an_empty_square_rolls_for_each_unit_it_catches() -> None:
    """BLS: it may target an unoccupied square; every unit in an adjacent square visible to the
    target is attacked, with no cover; a unit with Blast Shield (BLS) is never hit."""
    match = skirm_match(
        {
            0: [unit("Ada", "E2", weapons=[GRENADE])],
            1: [unit("Bo", "D6"), unit("Cy", "F6"), unit("Ed", "D7", specials=["BLS"])],
        },
        faces=[2, 6, 6],  # Bo: strike, failed save; Cy: miss
    )
    events = match.apply(Shoot(0, "Ada", "E7"))
    assert "blast" in [e.kind for e in events]
    units = match.state.units
    assert (units["Bo"].hit, units["Cy"].hit, units["Ed"].hit) == (2, 3, 3)
    assert match.dice.remaining == 0  # type: ignore[attr-defined]  # no die for the empty square


def test_without_blast_an_empty_square_is_no_target() -> None:
    match = skirm_match({0: [unit("Ada", "E2")], 1: [unit("Bo", "D9")]})
    refused(match, Shoot(0, "Ada", "E7"), "nothing to attack on E7")


def test_chain_reaction_picks_adjacent_enemies_or_the_named_ones() -> None:
    """CRx: the original target and up to x other targets adjacent to it."""
    chain = weapon("Arc", "ranged", 1, 1, "RG8", "CR1")
    placed = {
        0: [unit("Ada", "C3", weapons=[chain])],
        1: [unit("Bo", "C7"), unit("Cy", "D7"), unit("Dee", "B8")],
    }
    auto = skirm_match(placed, faces=[2, 6, 2, 6])
    auto.apply(Shoot(0, "Ada", "Bo"))
    units = auto.state.units
    assert (units["Bo"].hit, units["Cy"].hit, units["Dee"].hit) == (2, 2, 3)
    named = skirm_match(placed, faces=[2, 6, 2, 6])
    named.apply(Shoot(0, "Ada", "Bo", also="Dee"))
    units = named.state.units
    assert (units["Bo"].hit, units["Cy"].hit, units["Dee"].hit) == (2, 3, 2)
    refused(
        skirm_match(placed, faces=[]),
        Shoot(0, "Ada", "Bo", also="Cy, Dee"),
        "at most 1 more target",
    )


def test_linear_hits_what_stands_on_the_line() -> None:
    """LNR: attacker and target on the same level: everything on a square the line crosses is
    attacked too, items included (a barrel on the line explodes on a strike)."""
    lance = weapon("Lance", "ranged", 1, 1, "RG8", "LNR")
    match = skirm_match(
        {0: [unit("Ada", "C3", weapons=[lance])], 1: [unit("Bo", "C8")]},
        items=[{"kind": "barrel", "square": "C5"}],
        faces=[6, 2],  # Bo: miss; the barrel: a strike
    )
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert "explosion" in [e.kind for e in events]
    raised = [" ".join(["."] * 12)] * 12
    raised[2] = ". . 1 . . . . . . . . ."
    high = skirm_match(
        {0: [unit("Ada", "C3", weapons=[lance])], 1: [unit("Bo", "C8")]},
        rows=raised,
        items=[{"kind": "barrel", "square": "C5"}],
        faces=[6],
    )
    assert "explosion" not in [e.kind for e in high.apply(Shoot(0, "Ada", "Bo"))]


def test_spread_shares_the_dice_between_adjacent_targets() -> None:
    """SPR: several targets, each adjacent to another selected one; the ROA is shared out."""
    spitter = weapon("Spitter", "ranged", 4, 1, "RG8", "SPR")
    placed = {
        0: [unit("Ada", "C3", weapons=[spitter])],
        1: [unit("Bo", "C7"), unit("Cy", "D7"), unit("Dee", "G7")],
    }
    match = skirm_match(placed, faces=[2, 6, 6, 6, 6])
    events = match.apply(Shoot(0, "Ada", "Bo", also="Cy"))
    rolls = [e for e in events if e.kind == "roll"]
    assert [len(e.data["faces"]) for e in rolls] == [2, 2]
    assert (match.state.units["Bo"].hit, match.state.units["Cy"].hit) == (2, 3)
    refused(
        skirm_match(placed, faces=[]),
        Shoot(0, "Ada", "Bo", also="Dee"),
        "adjacent to another target",
    )


def test_the_rocket_turret_blasts() -> None:
    """Rulings Items: the Rocket Launcher Turret's XPL is treated as a Blast."""
    match = skirm_match(
        {0: [unit("Ada", "C3")], 1: [unit("Bo", "C7"), unit("Cy", "D7")]},
        items=[{"kind": "turret", "type": "rocket_launcher", "square": "C3"}],
        faces=[2, 6, 6, 6, 6],  # Bo: strike (3 DAM), 3 failed saves; Cy: miss
    )
    match.apply(UseTurret(0, "Ada", "Bo"))
    assert not match.state.units["Bo"].on_map and match.state.units["Cy"].hit == 3


def test_each_target_of_a_blast_is_its_own_roll_to_decide_on() -> None:
    """Rulings, Tactical Orders in play-by-post: the active player decides after each roll."""
    match = skirm_match(
        {0: [unit("Ada", "E2", weapons=[GRENADE])], 1: [unit("Bo", "D6"), unit("Cy", "F6")]},
        orders=(1, 0),
        faces=[6, 6],
    )
    match.apply(Shoot(0, "Ada", "E7"))
    assert match.state.activation is not None and match.state.activation.pending is not None
    match.apply(Accept(0))  # Bo's roll accepted: Cy's roll comes and waits too
    assert match.state.activation is not None and match.state.activation.pending is not None
    match.apply(Accept(0))
    assert match.state.activation is None or match.state.activation.pending is None


def test_the_line_between_centres_crosses_these_squares() -> None:
    """LNR geometry: a straight line crosses C4, C5; a shallow one passes a corner exactly."""
    assert crossed_squares(Square.parse("C3"), Square.parse("C6")) == [
        Square.parse("C4"),
        Square.parse("C5"),
    ]
    assert crossed_squares(Square.parse("B2"), Square.parse("E3")) == [
        Square.parse("C2"),
        Square.parse("D3"),
    ]
