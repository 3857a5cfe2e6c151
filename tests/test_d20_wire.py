"""The d20 rules behind every member of the Ruleset interface, and the kernel's verbs (what
/move, /shoot, /melee and /end send in every ruleset) played as the d20 rules' own."""

from __future__ import annotations

import inspect
from dataclasses import replace
from typing import Any

import pytest
from d20_builders import content, d20, open_map, put, scenario, script, shipped, warband

from skirmbot.rules.commands import Command, Concede, EndActivation, Melee, Shoot
from skirmbot.rules.commands import Move as KernelMove
from skirmbot.rules.d20.commands import Attack, Buy, Defend, EndTurn, Move, StandingOrders
from skirmbot.rules.d20.ruleset import RULESET
from skirmbot.rules.d20.state import State
from skirmbot.rules.dice import SeededDice
from skirmbot.rules.errors import ContentError, IllegalCommand, RulesError
from skirmbot.rules.maps import map_from_json
from skirmbot.rules.record import MatchRecord, record_of, replay
from skirmbot.rules.ruleset import Ruleset, rulesets
from skirmbot.service.actions import COMMON_KINDS, decode, encode, ruleset_command
from skirmbot.service.choices import Situation


def protocol_members() -> set[str]:
    """Every member the Ruleset protocol declares: its attributes and its methods."""
    methods = {name for name, _ in inspect.getmembers(Ruleset, inspect.isfunction)}
    return (set(Ruleset.__annotations__) | methods) - set(dir(object)) - {"_is_protocol"}


@pytest.mark.parametrize("name", sorted(rulesets()))
def test_every_registered_ruleset_has_every_member_of_the_protocol(name: str) -> None:
    played = rulesets()[name]
    missing = sorted(member for member in protocol_members() if not hasattr(played, member))
    assert missing == []


def test_the_protocol_members_are_found() -> None:
    assert {"command_types", "choices", "undo_point", "buttons", "seats"} <= protocol_members()


# --- the kernel's verbs (rulebook 004 Movement and Combat; docs/rulings.md, d20) -----------
def two_troopers() -> Any:
    match = d20([("Ann", "Trooper")], [("Bo", "Trooper"), ("Cy", "Bruiser")])
    put(match, Ann="C3", Bo="C9", Cy="D4")
    return match


def test_move_from_the_kernel_is_a_d20_movement_without_bonus_dice() -> None:
    """Movement: the first movement costs 1 AP; /move sends the kernel's Move with orders 0."""
    match = two_troopers()
    match.apply(KernelMove(0, "Ann", "C5", orders=0))
    state = match.state
    assert str(state.model("Ann").square) == "C5" and state.seats[0].ap == 11
    assert match.commands[-1] == Move(0, "Ann", "C5")


def test_a_kernel_field_the_d20_rules_have_no_use_for_is_refused_unless_unused() -> None:
    match = two_troopers()
    deployed = list(match.commands)
    with pytest.raises(IllegalCommand, match="no Tactical Orders"):
        match.apply(KernelMove(0, "Ann", "C5", orders=1))
    with pytest.raises(IllegalCommand, match="one target"):
        match.apply(Shoot(0, "Ann", "Bo", also="Cy"))
    assert match.commands == deployed


def test_shoot_fires_a_ranged_weapon_and_melee_fights_with_a_melee_one() -> None:
    """Combat: ranged within the weapon's range, melee next to the target (2 AP each)."""
    match = two_troopers()
    with pytest.raises(IllegalCommand, match="Knife is not a ranged weapon"):
        match.apply(Shoot(0, "Ann", "Bo", weapon="Knife"))
    script(match, 9, 2)  # Ann's d10, Bo's d10
    match.apply(Shoot(0, "Ann", "Bo"))
    assert match.commands[-1] == Attack(0, "Ann", "Bo", "Rifle")
    with pytest.raises(IllegalCommand, match="Rifle is not a melee weapon"):
        match.apply(Melee(0, "Ann", "Cy", weapon="Rifle"))


def test_a_record_of_kernel_verbs_replays_to_the_same_match() -> None:
    match = two_troopers()
    script(match, 9, 2)
    sent = [KernelMove(0, "Ann", "C5"), Shoot(0, "Ann", "Bo"), EndActivation(0, "Ann")]
    for command in sent:
        match.apply(command)
    data = {"type": "move", "side": 0, "unit": "Ann", "square": "C5", "orders": 0}
    assert RULESET.parse_command(data) == KernelMove(0, "Ann", "C5")
    assert RULESET.parse_command(Shoot(0, "Ann", "Bo").to_json()) == Shoot(0, "Ann", "Bo")
    assert RULESET.parse_command(Move(0, "Ann", "C5").to_json()) == Move(0, "Ann", "C5")


def test_the_service_sends_the_kernel_verbs_and_d20_own_actions_by_kind() -> None:
    """/act's compact form of a d20 action (`encode`) is made the d20 command again."""
    assert ruleset_command(KernelMove(0, "Ann", "C5"), 2, RULESET) == KernelMove(2, "Ann", "C5")
    for command in (Buy(0, 2), EndTurn(0), Defend(0, 1), Attack(0, "Ann", "Bo", "Rifle", 2)):
        assert decode(encode(command), RULESET) == command
    assert RULESET.command_types["standing_orders"] is StandingOrders


def test_a_whole_match_of_kernel_verbs_replays_as_the_service_records_it() -> None:
    """The service records what the player sent (the kernel's verbs); the match keeps what it
    played (d20's own): both replay to the same events."""
    bands = [warband("Red", *[(f"R{n}", "Trooper") for n in range(3)])]
    bands.append(warband("Blue", *[(f"B{n}", "Bruiser") for n in range(3)]))
    data = content(bands)
    match = RULESET.new_match(data, SeededDice(5))
    sent: list[Command] = []
    for seat in range(2):
        sent.append(RULESET.automatic_placement(match.state, seat))
        match.apply(sent[-1])
    while deciding := RULESET.deciding(match.state):
        command = RULESET.automatic_command(match.state, deciding[0].side)
        sent.append(_as_kernel(match.state, command))
        match.apply(sent[-1])
    assert {c.type for c in sent} >= {"move", "shoot", "melee"}
    played = record_of(match, data, ["A", "B"], ruleset="d20")
    as_sent = replace(played, commands=[c.to_json() for c in sent])
    for record in (played, as_sent):
        again = replay(MatchRecord.loads(record.dumps()))
        assert [e.to_json() for e in again.log] == [e.to_json() for e in match.log]


def _as_kernel(state: State, command: Command) -> Command:
    """The command as the common slash commands send it, where one does."""
    if isinstance(command, Move) and not command.bonus and command.facing is None:
        return KernelMove(command.side, command.unit, command.square)
    if isinstance(command, Attack) and not command.bonus:
        weapon = state.model(command.unit).profile.weapon(command.weapon)
        verb: type[Shoot | Melee] = Melee if weapon is not None and weapon.melee else Shoot
        return verb(command.side, command.unit, command.target, command.weapon)
    return command


# --- the members ------------------------------------------------------------------------------
def test_autocomplete_offers_squares_with_their_cost_in_action_points() -> None:
    """Movement: 1, 3 and 5 AP for the first, second and third movement."""
    match = two_troopers()
    choices = RULESET.choices(match.state, 0)
    squares = dict(choices.squares("Ann", "move", "move"))
    assert squares["C5"] == "C5 (1 AP, 2 sq)"
    match.apply(KernelMove(0, "Ann", "C5"))
    choices = RULESET.choices(match.state, 0)
    assert dict(choices.squares("Ann", "move", "move"))["C6"] == "C6 (3 AP, 1 sq)"
    assert RULESET.choices(match.state, None).squares("Ann", "move", "move") == []


def test_autocomplete_offers_targets_with_their_odds_and_weapons_by_kind() -> None:
    match = two_troopers()
    choices = RULESET.choices(match.state, 0)
    shots = dict(choices.targets("Ann", "shoot", None))
    assert "Bo" in shots and "wins" in shots["Bo"] and "6 sq" in shots["Bo"]
    assert [w for w, _ in choices.weapons("Ann", "shoot", "Bo")] == ["Rifle"]
    assert [w for w, _ in choices.weapons("Ann", "melee", "Cy")] == ["Knife"]
    assert ("Ann" in dict(choices.units(("shoot",)))) and choices.units(("shoot",))[0][0] == "Ann"


def test_undo_takes_back_the_last_action_of_the_turn_and_never_before_it() -> None:
    match = two_troopers()
    state = match.state
    with pytest.raises(RulesError, match="Nothing to take back"):
        RULESET.undo_point(state, [], 0)
    match.apply(KernelMove(0, "Ann", "C5"))
    recorded = [c.to_json() for c in match.commands]
    assert RULESET.undo_point(match.state, recorded, 0) == len(recorded) - 1
    with pytest.raises(RulesError, match="your turn"):
        RULESET.undo_point(match.state, recorded, 1)


def test_buttons_end_and_preview_during_an_activation_only() -> None:
    match = two_troopers()
    assert RULESET.buttons(match.state) == ()
    match.apply(KernelMove(0, "Ann", "C5"))
    assert RULESET.buttons(match.state) == ("end", "preview")


def test_nothing_is_secret_and_campaigns_and_hand_dice_are_refused_in_words() -> None:
    match = two_troopers()
    state = match.state
    assert RULESET.held_in_secret(state) == () and not RULESET.keeps_secret(state, 0)
    with pytest.raises(RulesError, match="nothing secret"):
        RULESET.secret_note(state, 0)
    with pytest.raises(RulesError, match="Campaigns are played with Skirm"):
        RULESET.campaign()
    with pytest.raises(RulesError, match="by hand"):
        RULESET.hand_dice()


def test_content_members_read_scenarios_and_warbands() -> None:
    assert RULESET.points_limit(scenario()) == 200
    band = RULESET.load_squad(shipped("squads", "red-lancers"), 0)
    assert band.name
    board = map_from_json(open_map()).board
    RULESET.check_mission(scenario(), board, (3, 3, 3, 3))
    with pytest.raises(ContentError, match="2, 3 or 4 warbands"):
        RULESET.check_mission(scenario(), board, (3,) * 5)


def test_state_json_and_the_recorded_result() -> None:
    match = two_troopers()
    data = RULESET.state_json(match.state)
    assert data["round"] == 1 and data["models"][0]["id"] == "Ann"
    assert RULESET.recorded_result(match.state) is None
    match.apply(Concede(1))
    result = RULESET.recorded_result(match.state)
    assert result is not None and result["winner"] == 0 and result["placings"] == [1, 2]


# --- the record (rulings: a record replays as it was played) ----------------------------------
def test_a_new_match_keeps_the_armory_so_a_later_armory_never_changes_it() -> None:
    data = content([warband("Red", ("A", "Trooper")), warband("Blue", ("B", "Trooper"))])
    kept = RULESET.match_content(data)
    assert kept["armory"]["profiles"][0]["name"] == "Trooper" and "armory" not in data
    kept["armory"]["profiles"][0]["points"] = 99
    assert RULESET.match_content(kept) is kept  # a record's own armory stays its own
    assert rulesets()["skirm"].match_content(data) is data


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_record_lists_one_player_per_seat(players: int) -> None:
    record = record_of(d20(*[[("A", "Trooper")]] * players), {}, ["P"] * players, "d20")
    assert len(MatchRecord.from_json(record.to_json()).players) == players
    too_many = {**record.to_json(), "players": ["P"] * 5}
    with pytest.raises(RulesError, match="2 to 4 players"):
        MatchRecord.from_json(too_many)


def test_act_offers_purchases_end_turn_and_attacks_with_bonus_dice_first() -> None:
    """Spend Action Points on Bonus Dice: /act sends what no other slash command does, the
    purchases and the end of the turn first, then attacks adding the bonus dice held."""
    match = two_troopers()
    match.apply(Buy(0, 2))
    offered = Situation(match.state, 0, RULESET).own_actions(COMMON_KINDS)
    kinds = [decode(value, RULESET).type for value, _ in offered]
    assert kinds[:4] == ["buy", "buy", "buy", "end_turn"]
    first_attack = decode(offered[4][0], RULESET)
    assert isinstance(first_attack, Attack) and first_attack.bonus == 1
    script(match, 9, 1, 2)  # Ann's d10 and bonus die, Bo's d10
    match.apply(ruleset_command(decode(offered[4][0]), 0, RULESET))
    assert match.commands[-1] == Attack(0, "Ann", "Bo", "Rifle", 1)
    assert match.state.seats[0].bonus == 1


def test_act_names_each_action_in_the_rulebooks_words_with_its_cost() -> None:
    """ "Bonus dice are ... purchased with Action Points" (our price: the table is what the dice
    held cost): /act says how many dice, how many held after, and the AP it costs now."""
    match = two_troopers()
    match.apply(Buy(0, 2))
    words = [label for _, label in Situation(match.state, 0, RULESET).own_actions(COMMON_KINDS)]
    assert words[:4] == [
        "Purchase Bonus Dice: 1 die, 3 held (2 AP)",
        "Purchase Bonus Dice: 2 dice, 4 held (5 AP)",
        "Purchase Bonus Dice: 3 dice, 5 held (10 AP)",
        "End turn (action points left are lost)",
    ]
    assert words[4] == "Combat: Ann at Bo with Rifle, +1 bonus die (2 AP)"


def test_the_d20_ruleset_is_a_ruleset_as_mypy_checks_it() -> None:
    """mypy --strict checks every member's signature against the Protocol here."""
    checked: Ruleset = RULESET
    assert checked.name == "d20"


def test_an_activation_is_told_as_it_starts_and_as_it_ends() -> None:
    """Activations (ours): a model's activation ends when another of its seat activates, its
    player ends it or the turn ends; each start and end is an event the pictures follow."""
    match = two_troopers()
    started = match.apply(KernelMove(0, "Ann", "C5"))
    assert [e.kind for e in started] == ["activation_started", "moved"]
    assert started[0].text == "Ann activates (12 AP, 0 bonus dice)."
    switched = match.apply(KernelMove(0, "Extra00", "D3"))
    assert [e.kind for e in switched][:2] == ["activation_ended", "activation_started"]
    assert switched[0].data == {"unit": "Ann", "side": 0, "reason": "Extra00 activates"}
    script(match, 7)  # the next seat's action points
    ended = match.apply(EndTurn(0))
    assert [e.data["unit"] for e in ended if e.kind == "activation_ended"] == ["Extra00", None]


def test_a_finished_match_says_who_won_on_the_picture_and_every_seat_in_its_reason() -> None:
    """Rounds and winning (ours): the last seat left wins; the others' scores are told."""
    match = two_troopers()
    match.apply(Concede(1))
    outcome = RULESET.outcome(match.state)
    assert RULESET.view(match.state).outcome == "Band 1 wins"
    assert outcome is not None and outcome.reason == (
        "Band 1 wins (Band 2 conceded): Band 1 0 VP, Band 2 out"
    )


def test_every_action_a_player_may_be_offered_has_its_title_in_the_rules() -> None:
    """/act and /match rules name an action by its ActionRule ("Free move", not "shift"): every
    d20 command a turn may offer has one (set-up, standing orders and conceding aside, which
    have commands of their own, and the kernel's /shoot and /melee, played as Combat)."""
    offered = set(RULESET.command_types) - {
        "deploy",
        "standing_orders",
        "concede",
        "shoot",
        "melee",
    }
    titled = {rule.name for rule in RULESET.action_rules()}
    assert offered - titled == set()
