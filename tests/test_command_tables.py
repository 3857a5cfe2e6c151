"""Each ruleset owns its commands (issue 29): the kernel keeps the verbs every ruleset may use,
a ruleset parses only its own table, and the service sends a ruleset's own command by its kind
and fields, never by importing the ruleset's class."""

from __future__ import annotations

from dataclasses import fields

import pytest
from service_setup import ALICE, BOB, CHANNEL, GUILD, started

from skirmbot.rules.commands import (
    COMMON_COMMANDS,
    Command,
    EndActivation,
    Move,
    Reroll,
    command_from_json,
)
from skirmbot.rules.errors import RulesError
from skirmbot.rules.lite.commands import LITE_COMMANDS, Revive, Sentry
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.skirm.commands import SKIRM_COMMANDS, Delay, Leap, SetStandingOrders, UseSkill
from skirmbot.service import MatchService, actions
from skirmbot.service.errors import ServiceError
from skirmbot.store import Store

SKIRM = ruleset("skirm")
LITE = ruleset("lite")

# Every command's type and fields, in order, as records and buttons have written them since the
# first release: moving a class between packages must not change its JSON or compact form.
WRITTEN = {
    "deploy": ("side", "placements"),
    "infiltrate": ("side", "placements"),
    "standing_orders": ("side", "reroll_saves_above", "parry", "counter", "orders_per_attack"),
    "activate": ("side", "unit"),
    "move": ("side", "unit", "square", "orders"),
    "dash": ("side", "unit", "square", "orders"),
    "leap": ("side", "unit", "square", "orders"),
    "shoot": ("side", "unit", "target", "weapon", "orders", "also"),
    "melee": ("side", "unit", "target", "weapon", "orders", "also"),
    "skill": ("side", "unit", "skill", "target", "orders"),
    "door": ("side", "unit", "toward", "orders"),
    "pickup": ("side", "unit", "orders"),
    "drop": ("side", "unit", "orders"),
    "crate": ("side", "unit", "option", "orders"),
    "turret": ("side", "unit", "target", "orders", "also"),
    "mission": ("side", "unit", "action", "orders"),
    "end": ("side", "unit", "reason"),
    "reroll": ("side", "die"),
    "modify": ("side", "die", "delta"),
    "accept": ("side",),
    "delay": ("side",),
    "concede": ("side", "reason"),
    "draw": ("side",),
    "revive": ("side", "unit", "target"),
    "sentry": ("side", "unit", "action", "target", "weapon", "square"),
}


def _fields(cls: type[Command]) -> tuple[str, ...]:
    return tuple(found.name for found in fields(cls))


def test_every_command_keeps_its_type_and_fields() -> None:
    every = {**SKIRM_COMMANDS, **LITE_COMMANDS}
    assert {kind: _fields(cls) for kind, cls in every.items()} == WRITTEN


def test_the_tables_skirm_plays_its_own_and_lite_its_own() -> None:
    """Lite rulebook: no Leap, skills, crates, turrets, mission actions, Infiltrators or
    Delay; Revive and Sentry Actions are Lite's alone."""
    assert set(COMMON_COMMANDS) < set(SKIRM_COMMANDS) and set(COMMON_COMMANDS) < set(LITE_COMMANDS)
    assert set(SKIRM_COMMANDS) - set(LITE_COMMANDS) == {
        "infiltrate", "leap", "skill", "crate", "turret", "mission", "delay",
    }  # fmt: skip
    assert set(LITE_COMMANDS) - set(SKIRM_COMMANDS) == {"revive", "sentry"}
    assert SKIRM.command_types is SKIRM_COMMANDS and LITE.command_types is LITE_COMMANDS


def test_a_ruleset_refuses_a_command_it_does_not_have_naming_its_own() -> None:
    with pytest.raises(RulesError, match="Skirm Lite has no 'leap' command") as refused:
        LITE.parse_command({"type": "leap", "side": 0, "unit": "Ada", "square": "C5"})
    assert str(refused.value).endswith(f"a command has a 'type' of {', '.join(LITE_COMMANDS)}.")
    with pytest.raises(RulesError, match="Skirm has no 'revive' command"):
        SKIRM.parse_command({"type": "revive", "side": 0, "unit": "Remus", "target": "Vex"})


def test_a_recorded_command_reads_back_in_its_ruleset() -> None:
    for rules, command in (
        (SKIRM, Leap(1, "Vex", "C5", 1)),
        (SKIRM, SetStandingOrders(0, 2, parry=False)),
        (LITE, Sentry(1, "Bo", "dash", square="C4")),
        (LITE, SetStandingOrders(0, 0, orders_per_attack=2)),
    ):
        assert rules.parse_command(command.to_json()) == command


def test_a_side_from_0_to_3_for_four_seats_and_0_or_1_for_two() -> None:
    """Matches of 2 to 4 seats: a command's side is its seat."""
    data = {"type": "move", "side": 3, "unit": "Kor", "square": "C4"}
    assert command_from_json(data, COMMON_COMMANDS, seats=4) == Move(3, "Kor", "C4")
    with pytest.raises(RulesError, match="needs a 'side' of 0 to 2"):
        command_from_json(data, COMMON_COMMANDS, seats=3)
    with pytest.raises(RulesError, match="needs a 'side' of 0 or 1"):
        SKIRM.parse_command(data)


def test_the_service_sends_a_rulesets_own_command_by_kind() -> None:
    leap = actions.own_command("leap", unit="Vex", square="C5")
    assert actions.ruleset_command(leap, 1, SKIRM) == Leap(1, "Vex", "C5")
    skill = actions.own_command("skill", unit="Tek", skill="Field Dressing", target=None)
    assert actions.ruleset_command(skill, 0, SKIRM) == UseSkill(0, "Tek", "Field Dressing")
    assert actions.ruleset_command(actions.own_command("delay"), 1, SKIRM) == Delay(1)
    assert actions.ruleset_command(Move(0, "Vex", "C4"), 1, LITE) == Move(1, "Vex", "C4")


def test_a_ruleset_without_the_action_refuses_it_as_its_rules_do() -> None:
    """The words Skirm Lite's engine used when it was sent Skirm's Leap."""
    with pytest.raises(ServiceError, match=r"^There is no 'leap' action in Skirm Lite\.$"):
        actions.ruleset_command(actions.own_command("leap", unit="Ada", square="C5"), 0, LITE)
    with pytest.raises(ServiceError, match=r"^A leap in Skirm takes no wings: leave it out\.$"):
        actions.ruleset_command(actions.own_command("leap", unit="Ada", wings=2), 0, SKIRM)


def test_a_buttons_compact_form_is_unchanged_and_reads_back() -> None:
    """A button written before (or after) the move: the same compact form, and the command it
    names once the match's ruleset reads it."""
    leap = Leap(0, "Vex", "C5", 1)
    assert actions.encode(leap) == '["leap","Vex","C5",1]'
    sent = actions.decode(actions.encode(leap))
    assert isinstance(sent, actions.OwnCommand) and actions.kind_of(sent) == "leap"
    assert actions.ruleset_command(sent, 0, SKIRM) == leap
    assert actions.decode(actions.encode(leap), SKIRM) == leap
    revive = Revive(0, "Ada", "Bo")
    assert actions.decode(actions.encode(revive), LITE) == revive
    assert actions.decode('["reroll",2]') == Reroll(0, 2)
    assert actions.decode('["end","Vex","timed out"]') == EndActivation(0, "Vex", "timed out")
    for broken in ("[]", '{"type": "move"}', "[3]", "move", '["move"'):
        with pytest.raises(ValueError):
            actions.decode(broken)
    with pytest.raises(ServiceError, match=r"^There is no 'fly' action in Skirm\.$"):
        actions.ruleset_command(actions.decode('["fly","Vex"]'), 0, SKIRM)


async def test_the_service_refuses_a_command_its_matchs_ruleset_does_not_have(
    store: Store,
) -> None:
    """/leap in a Skirm Lite match: the refusal players have read since Lite came, and nothing
    is recorded."""
    service = MatchService(store, seed_source=lambda: 7)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB, rules="Skirm Lite")
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "vigil-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-stalkers")
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)
    before = await store.active_match(CHANNEL)
    assert before is not None
    leap = actions.own_command("leap", unit="Kesh", square="C5")
    with pytest.raises(ServiceError, match=r"^There is no 'leap' action in Skirm Lite\.$"):
        await service.act(CHANNEL, ALICE, leap)
    after = await store.active_match(CHANNEL)
    assert after is not None and after.record["commands"] == before.record["commands"]


async def test_standing_orders_go_to_the_record_as_before(store: Store) -> None:
    """Rulings: Tactical Orders. The service sends Skirm's standing orders by kind; the record
    holds the very command it held when the service built the class itself."""
    service = MatchService(store, seed_source=lambda: 7)
    await started(service)
    await service.standing_orders(CHANNEL, BOB, 2)
    row = await store.active_match(CHANNEL)
    assert row is not None
    assert row.record["commands"][-1] == SetStandingOrders(1, 2).to_json()
