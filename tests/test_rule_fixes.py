"""Rule fixes: attack skills go through every check of an attack, TCH's free mission action after
the last ACT, SPR with AHx, deployment on impassable squares, readable dice in the log.

Side 0 (Red) has the initiative in every match here and Tactical Orders are 0 unless told, so
attack rolls resolve at once. Faces are scripted in the order the rules roll them: attack dice
target by target (the primary target first), each followed by its save dice.
"""

from __future__ import annotations

from typing import Any

import pytest
from builders import KNIFE, of, refused, skirm_match, unit, weapon

from skirmbot import content
from skirmbot.demo import new_demo_match
from skirmbot.rules.board import Board
from skirmbot.rules.commands import Activate, Deploy, EndActivation, Modify, Move, Reroll, Shoot
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.events import Event
from skirmbot.rules.skirm import autoplayer
from skirmbot.rules.skirm.commands import MissionAction, UseSkill
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.legal import can_still_act, legal_commands
from skirmbot.rules.skirm.squads import squad_from_json
from skirmbot.rules.skirm.state import ENDED


def text_of(events: list[Event], kind: str) -> list[str]:
    return [e.text for e in events if e.kind == kind]


def skilled(
    name: str, square: str, gun: dict[str, Any], extra: int = 1, **stats: Any
) -> tuple[dict[str, Any], str]:
    """A unit carrying `gun` with an attack skill "Volley" (1 ACT) that rolls `extra` more dice."""
    card, where = unit(name, square, weapons=[gun, KNIFE], **stats)
    card["skills"] = [
        {"name": "Volley", "act": 1, "effect": "attack", "weapon": gun["name"], "amount": extra}
    ]
    return card, where


def hits(match: Match, *names: str) -> tuple[int, ...]:
    return tuple(match.state.units[name].hit for name in names)


def dice_left(match: Match) -> int:
    return match.dice.remaining  # type: ignore[attr-defined, no-any-return]


# --- 1. attack skills are attacks like any other -----------------------------------------------
def test_skill_attack_with_blast_hits_every_adjacent_unit() -> None:
    """Rulebook BLS (Blast): "it fires against the target and any other Unit (including
    Squadmates) in Adjacent Squares Visible to the original target. Roll Attack dice for each
    affected Unit" — also when a skill makes the attack; the skill's extra die is rolled
    against each unit hit (Combat 2.1: ROA + applicable Modifiers)."""
    grenade = weapon("Grenade", "ranged", 1, 1, "RG6", "BLS")
    match = skirm_match(
        {0: [skilled("Ada", "E2", grenade)], 1: [unit("Bo", "D6"), unit("Cy", "E6")]},
        # Bo: 2 6 (one strike), save 6; Cy: 2 2 (two strikes), saves 6 6
        faces=[2, 6, 6, 2, 2, 6, 6],
    )
    events = match.apply(UseSkill(0, "Ada", "Volley", "Bo"))
    assert [len(roll["faces"]) for roll in of(events, "roll")] == [2, 2]
    assert hits(match, "Bo", "Cy") == (2, 1)
    assert dice_left(match) == 0


def test_skill_attack_with_blast_may_aim_at_an_empty_square() -> None:
    """Rulebook BLS: "this weapon can target an unoccupied Square", through a skill too."""
    grenade = weapon("Grenade", "ranged", 1, 1, "RG6", "BLS")
    match = skirm_match(
        {0: [skilled("Ada", "E2", grenade)], 1: [unit("Bo", "D6"), unit("Cy", "F6")]},
        faces=[2, 6, 6, 6, 6],  # Bo: one strike, save 6; Cy: two misses
    )
    match.apply(UseSkill(0, "Ada", "Volley", "E7"))
    assert hits(match, "Bo", "Cy") == (2, 3)
    assert dice_left(match) == 0


def test_skill_attack_with_chain_reaction_chains() -> None:
    """Rulebook CRx (Chain Reaction): "Perform Attack rolls against the original target and up
    to x other targets in Adjacent Squares to the original target", through a skill too; the
    skill's target names further targets after a comma, like `also` (rulings: CRx)."""
    arc = weapon("Arc", "ranged", 1, 1, "RG8", "CR1")
    placed = {
        0: [skilled("Ada", "C3", arc)],
        1: [unit("Bo", "C7"), unit("Cy", "D7"), unit("Dee", "B8")],
    }
    auto = skirm_match(placed, faces=[2, 6, 6, 2, 6, 6])  # Bo, then Cy: a strike, a failed save
    auto.apply(UseSkill(0, "Ada", "Volley", "Bo"))
    assert hits(auto, "Bo", "Cy", "Dee") == (2, 2, 3)
    named = skirm_match(placed, faces=[2, 6, 6, 2, 6, 6])
    named.apply(UseSkill(0, "Ada", "Volley", "Bo, Dee"))
    assert hits(named, "Bo", "Cy", "Dee") == (2, 3, 2)
    assert dice_left(auto) == dice_left(named) == 0


def test_skill_attack_with_linear_hits_what_stands_on_the_line() -> None:
    """Rulebook LNR (Linear): "Roll attacks against the target and all units (including
    Squadmates and Items) that occupy a Square that is crossed by this line", through a skill."""
    lance = weapon("Lance", "ranged", 1, 1, "RG8", "LNR")
    match = skirm_match(
        {0: [skilled("Ada", "C3", lance)], 1: [unit("Bo", "C8")]},
        items=[{"kind": "barrel", "square": "C5"}],
        faces=[6, 6, 2, 6],  # Bo: two misses; the barrel on the line: a strike
    )
    events = match.apply(UseSkill(0, "Ada", "Volley", "Bo"))
    assert "explosion" in [e.kind for e in events]
    assert dice_left(match) == 0


def test_skill_attack_with_spread_shares_the_dice() -> None:
    """Rulebook SPR (Spread): "the Unit may select multiple targets as long as each selected
    target is Adjacent to another selected target ... distribute this weapon's ROA between
    these selected targets", through a skill too (its 2 extra dice are shared as well)."""
    spitter = weapon("Spitter", "ranged", 4, 1, "RG8", "SPR")
    placed = {
        0: [skilled("Ada", "C3", spitter, extra=2)],
        1: [unit("Bo", "C7"), unit("Cy", "D7"), unit("Dee", "G7")],
    }
    match = skirm_match(placed, faces=[2, 6, 6, 6, 6, 6, 6])  # Bo: 2 6 6, save 6; Cy: 6 6 6
    events = match.apply(UseSkill(0, "Ada", "Volley", "Bo, Cy"))
    assert [len(roll["faces"]) for roll in of(events, "roll")] == [3, 3]
    assert hits(match, "Bo", "Cy") == (2, 3)
    assert dice_left(match) == 0
    refused(
        skirm_match(placed),
        UseSkill(0, "Ada", "Volley", "Bo, Dee"),
        "adjacent to another target",
    )


def test_skill_attack_obeys_the_events_max_range() -> None:
    """docs/rulings.md, Missions (event `max_range`): ranged attacks reach at most `value`
    squares this turn — every ranged attack, one made by a skill too."""
    events = [
        {"roll": "1-6", "name": "Pitch Dark", "text": "Dark.", "effect": "max_range", "value": 4}
    ]
    match = skirm_match(
        {
            0: [skilled("Remus", "C1", weapon("Rifle", "ranged", 2, 1, "RG8"))],
            1: [unit("Vex", "C6")],
        },
        mission_extra={"events": events},
    )
    refused(
        match,
        UseSkill(0, "Remus", "Volley", "Vex"),
        "ranged attacks reach at most 4 squares this turn (Pitch Dark)",
    )


def test_spread_targets_obey_the_events_max_range() -> None:
    """docs/rulings.md, Missions (`max_range`) and rulings SPR ("each a valid target on its
    own"): a further Spread target beyond the event's range is refused."""
    events = [
        {"roll": "1-6", "name": "Pitch Dark", "text": "Dark.", "effect": "max_range", "value": 4}
    ]
    spitter = weapon("Spitter", "ranged", 4, 1, "RG8", "SPR")
    match = skirm_match(
        {0: [unit("Ada", "C3", weapons=[spitter])], 1: [unit("Bo", "C7"), unit("Cy", "D8")]},
        mission_extra={"events": events},
    )
    refused(match, Shoot(0, "Ada", "Bo", also="Cy"), "ranged attacks reach at most 4 squares")


# --- 2. TCH's free mission action after the last ACT -----------------------------------------
STRIP = {"name": "Strip the Crate", "effect": "salvage", "cost": 1, "text": "Strip it."}


def test_tch_free_mission_action_is_still_there_at_zero_act() -> None:
    """Rulebook TCH ("During each of its Activations, this Unit may perform one Mission action
    for 1 less ACT"): a 1-ACT mission action costs nothing, so the activation does not end by
    itself at 0 ACT and 0 TO while that action is still possible (rulings: An activation)."""
    match = skirm_match(
        {0: [unit("Tek", "C3", specials=["TCH"])], 1: [unit("Vex", "J10")]},
        items=[{"kind": "crate", "square": "C5"}],
        mission_extra={"actions": [STRIP]},
    )
    events = match.apply(Move(0, "Tek", "C4")) + match.apply(Move(0, "Tek", "C5"))
    assert of(events, "activation_ended") == []
    activation = match.state.activation
    assert activation is not None and activation.act_left == 0
    assert MissionAction(0, "Tek", "Strip the Crate", 0) in legal_commands(match.state, 0)
    events = match.apply(MissionAction(0, "Tek", "Strip the Crate"))
    assert of(events, "cost_paid")[0]["act"] == 0
    assert of(events, "activation_ended") == [
        {"unit": "Tek", "side": 0, "reason": "no ACT or Tactical Orders left"}
    ]
    assert match.state.to_act == 1


def test_without_tch_the_activation_ends_at_zero_act_and_zero_orders() -> None:
    """Rulings: An activation: when nothing can be paid for, the activation ends by itself."""
    match = skirm_match(
        {0: [unit("Ann", "C3")], 1: [unit("Vex", "J10")]},
        items=[{"kind": "crate", "square": "C5"}],
        mission_extra={"actions": [STRIP]},
    )
    events = match.apply(Move(0, "Ann", "C4")) + match.apply(Move(0, "Ann", "C5"))
    assert of(events, "activation_ended") == [
        {"unit": "Ann", "side": 0, "reason": "no ACT or Tactical Orders left"}
    ]


def test_activation_ends_when_nothing_legal_is_left_even_with_act() -> None:
    """Rulings: An activation ends by itself when nothing the unit could still do is left: a
    unit walled in by impassable squares, with nothing in reach, has nothing to spend ACT on."""
    rows = [" ".join(["."] * 12)] * 12
    rows[1] = "# # # . . . . . . . . ."
    rows[2] = "# . # . . . . . . . . ."
    rows[3] = "# # # . . . . . . . . ."
    match = skirm_match(
        {0: [unit("Ann", "B3", weapons=[KNIFE])], 1: [unit("Vex", "J10")]}, rows=rows
    )
    events = match.apply(Activate(0, "Ann"))
    assert of(events, "activation_ended") == [
        {"unit": "Ann", "side": 0, "reason": "nothing more it can do"}
    ]
    assert match.state.to_act == 1


def test_an_open_activation_always_has_a_legal_action_left() -> None:
    """Rulings: An activation: whenever an activation is open and no roll waits, the unit has
    a legal action besides ending it (or the engine would have ended it), and the quick
    answer agrees with the full list of legal commands."""
    for seed in (1, 2):
        match, _ = new_demo_match(seed)
        state = match.state
        while state.phase != ENDED:
            activation = state.activation
            if activation is not None and activation.pending is None:
                unit = state.units[activation.unit]
                listed = [
                    c for c in legal_commands(state, unit.side) if not isinstance(c, EndActivation)
                ]
                assert listed and can_still_act(state, unit, activation)
            side = state.waiting_for()
            assert side is not None
            match.apply(autoplayer.choose(state, side))


# --- 3. SPR with AHx ----------------------------------------------------------------------------
def test_spread_autohit_comes_out_of_each_targets_share() -> None:
    """Rulebook AHx ("x of this Weapon's Attack dice is an automatic Strike") and SPR
    ("distribute this weapon's ROA between these selected targets and perform attacks
    accordingly"): each target's automatic strikes come out of its share, so ROA 4 AH3 spread
    over two targets strikes 2 + 2 times, never more than the weapon's 4 dice."""
    spitter = weapon("Spitter", "ranged", 4, 1, "RG8", "SPR", "AH3")
    match = skirm_match(
        {0: [unit("Ada", "C3", weapons=[spitter])], 1: [unit("Bo", "C7"), unit("Cy", "D7")]},
        faces=[6, 6, 6, 6],  # no attack die to roll: two failed saves each
    )
    events = match.apply(Shoot(0, "Ada", "Bo", also="Cy"))
    assert [attack["strikes"] for attack in of(events, "attack")] == [2, 2]
    assert [roll["faces"] for roll in of(events, "roll")] == [[], []]
    assert hits(match, "Bo", "Cy") == (1, 1)
    assert dice_left(match) == 0


def test_spread_autohit_and_rolled_dice_add_up_to_the_share() -> None:
    """AHx and SPR: ROA 5 AH1 over two targets (3 + 2 dice): each target has 1 automatic strike
    and rolls the rest of its share."""
    spitter = weapon("Spitter", "ranged", 5, 1, "RG8", "SPR", "AH1")
    match = skirm_match(
        {0: [unit("Ada", "C3", weapons=[spitter])], 1: [unit("Bo", "C7"), unit("Cy", "D7")]},
        faces=[6, 6, 6, 6, 6],  # Bo: 6 6 rolled, save 6; Cy: 6 rolled, save 6
    )
    events = match.apply(Shoot(0, "Ada", "Bo", also="Cy"))
    assert [len(roll["faces"]) for roll in of(events, "roll")] == [2, 1]
    assert [attack["strikes"] for attack in of(events, "attack")] == [1, 1]
    assert dice_left(match) == 0


def test_blast_autohit_strikes_at_every_target_it_rolls_for() -> None:
    """Rulebook BLS ("Roll Attack dice for each affected Unit") and AHx: each unit the blast
    catches is attacked with the weapon's ROA, so each gets its x automatic strikes."""
    grenade = weapon("Grenade", "ranged", 2, 1, "RG6", "BLS", "AH1")
    match = skirm_match(
        {0: [unit("Ada", "E2", weapons=[grenade])], 1: [unit("Bo", "D6"), unit("Cy", "E6")]},
        faces=[6, 6, 6, 6],  # Bo: one die rolled (6), save 6; Cy: the same
    )
    events = match.apply(Shoot(0, "Ada", "Bo"))
    assert [attack["strikes"] for attack in of(events, "attack")] == [1, 1]
    assert hits(match, "Bo", "Cy") == (2, 2)
    assert dice_left(match) == 0


# --- 4. find_target does not hide bugs --------------------------------------------------------
def test_a_bug_while_reading_a_target_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a player's mistake (a RulesError) becomes a message; a bug in the core stays a bug."""
    match = skirm_match({0: [unit("Ada", "C3")], 1: [unit("Bo", "C7")]})

    def broken(self: Board, text: str) -> None:
        raise ZeroDivisionError("a bug")

    refused(match, Shoot(0, "Ada", "Q99"), "is not a unit on the map or a square")
    monkeypatch.setattr(Board, "parse_square", broken)
    with pytest.raises(ZeroDivisionError):
        match.apply(Shoot(0, "Ada", "nobody"))


# --- 5. deployment on an impassable square --------------------------------------------------
def chapel_match() -> Match:
    """Ruined Chapel with Bloody Crossroads: side 0 deploys in the two left columns."""

    def card(name: str, specials: list[str]) -> dict[str, object]:
        return {"name": name, "ep": 5, "act": 3, "msk": 3, "rsk": 3, "arm": 3, "hit": 3,
                "specials": specials, "weapons": [{"name": "Knife", "type": "melee", "roa": 1, "dam": 1}]}  # fmt: skip

    red = squad_from_json({"name": "Red", "units": [card("Ada", ["LD1"])]})
    blue = squad_from_json({"name": "Blue", "units": [card("Bo", ["LD1"])]})
    return Match(
        content.load_map("ruined-chapel"),
        content.load_mission("bloody-crossroads"),
        (red, blue),
        ScriptedDice([]),
    )


def test_deploying_on_an_impassable_square_of_your_zone_says_it_is_impassable() -> None:
    """Rulebook Occupied Squares / rulings Deployment: a unit deploys on a square of its zone it
    can stand on. A7 on Ruined Chapel is in the left deployment zone but impassable: the
    refusal says so, not that A7 is outside the zone."""
    match = chapel_match()
    assert match.state.mission.zones[0].contains(
        match.state.board, match.state.board.parse_square("A7")
    )
    refused(match, Deploy(0, {"Ada": "A7"}), "A7 is impassable")
    refused(match, Deploy(0, {"Ada": "E7"}), "E7 is not in it")


# --- 6. dice marked hit or miss ----------------------------------------------------------------
def test_attack_and_save_dice_are_marked_hit_or_miss() -> None:
    """Rulebook Successes and Failures: each attack die at or under the skill is a strike (✓),
    others miss (✗); each save at or under ARM saves. Marked like /roll marks a pool."""
    match = skirm_match({0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]}, faces=[2, 5, 4])
    events = match.apply(Shoot(0, "Remus", "Vex"))
    assert text_of(events, "roll") == ["Remus shoots Vex with Rifle (RSK 3): 2✓ 5✗."]
    assert text_of(events, "saves") == [
        "Vex rolls 1 save (ARM 3): 4✗: 0 saved, loses 1 HIT (2 left)."
    ]


def test_changed_dice_say_what_their_marker_means() -> None:
    """Rulebook Using Tactical Orders (re-roll a die; change it by +/- 1): after each decision
    the dice are shown marked hit or miss, and a re-rolled or changed die says so."""
    match = skirm_match(
        {0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]}, orders=(2, 0), faces=[5, 5, 3, 6]
    )
    match.apply(Shoot(0, "Remus", "Vex"))
    reroll = match.apply(Reroll(0, 1))
    assert (
        reroll[0].text == "Red spends 1 TO to re-roll die 1: 5 → 3. Dice now: 3✓* 5✗ (* re-rolled)."
    )
    modify = match.apply(Modify(0, 2, -1))
    assert modify[0].text == (
        "Red spends 1 TO to change die 2: 5 → 4. "
        "Dice now: 3✓* 4✗± (* re-rolled, ± changed with TO)."
    )
    assert match.state.activation is None or match.state.activation.pending is None
    assert text_of(modify, "saves") == [
        "Vex rolls 1 save (ARM 3): 6✗: 0 saved, loses 1 HIT (2 left)."
    ]


def test_tactical_order_dice_are_marked() -> None:
    """Rulebook Tactical Orders: "For each die result of 1-3, you will have one Tactical Order"."""
    match = skirm_match({0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]}, orders=(2, 0))
    rolled = text_of(match.log, "orders_rolled")
    assert (
        rolled[0] == "Red rolls 4 dice for Tactical Orders (each 1-3 is one): 1✓ 1✓ 6✗ 6✗ = 2 TO."
    )
