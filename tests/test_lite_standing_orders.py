"""A Skirm Lite defender's Tactical Orders on its own save dice, spent by its standing orders
(Lite rulebook Tactical Orders; docs/rulings.md, Skirm Lite: "Standing orders on saves").

Red (side 0) shoots or strikes and has no TO, so its roll never waits; Blue defends. Default
Agents: ARM 3, HIT 3; Rifle and Knife ROA 2, SKL 3, DAM 1: a save die of 1-2 saves (ARM 3 - DAM
1 = 2), a 3 is one above, a 4 two above.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from builders import refused, skirm_match, unit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lite_builders import agent, gun, lite_match

from skirmbot.rules.commands import Melee, Modify, Reroll, Shoot, command_from_json
from skirmbot.rules.events import Event
from skirmbot.rules.lite.commands import LITE_COMMANDS
from skirmbot.rules.lite.engine import LiteMatch
from skirmbot.rules.skirm.commands import SetStandingOrders


def saves(events: list[Event]) -> dict[str, Any]:
    [found] = [e for e in events if e.kind == "saves"]
    return {**found.data, "text": found.text}


def defended(
    blue_orders: int,
    per_attack: int | None,
    faces: list[int],
    *,
    keep: int | None = 0,
    blue_square: str = "C8",
) -> LiteMatch:
    """Ada (Red, C3) against Bo (Blue), Blue with `blue_orders` TO and its standing orders."""
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", blue_square)]},
        orders=(0, blue_orders),
        faces=faces,
    )
    match.apply(SetStandingOrders(1, keep, orders_per_attack=per_attack))
    return match


def blue_orders(match: LiteMatch) -> int:
    return match.state.squads[1].orders


def test_a_save_one_above_is_lowered_by_one_for_one_to() -> None:
    """Lite rulebook Tactical Orders: "Change the result of one of your rolled dice by +/- 1";
    a save saves at or under ARM - DAM, so the standing orders lower a 3 to a 2 (1 TO), in
    Red's activation, and Bo keeps its HIT."""
    match = defended(2, 2, faces=[2, 6, 3])  # a hit, a miss; the save: 3
    found = saves(match.apply(Shoot(0, "Ada", "Bo")))
    assert (found["first_faces"], found["faces"], found["lowered"]) == ([3], [2], [1])
    assert found["failed"] == 0 and found["orders_spent"] == 1
    assert "standing orders, 1 TO: die 1: 3 → 2" in found["text"]
    assert blue_orders(match) == 1 and match.state.units["Bo"].hit == 3


def test_a_save_two_above_is_lowered_by_two_for_two_to() -> None:
    """Lite rulebook Tactical Orders: "you can spend 2 TOs to reduce the result of a die by 2"."""
    match = defended(2, 2, faces=[2, 6, 4])
    found = saves(match.apply(Shoot(0, "Ada", "Bo")))
    assert (found["faces"], found["failed"], found["rerolled"]) == ([2], 0, [])
    assert blue_orders(match) == 0


def test_a_save_further_off_is_re_rolled_then_lowered() -> None:
    """Lite rulebook Tactical Orders: "Re-roll any one die for any roll (including during one of
    your opponent's Agents' Activations ...)": a 6 is re-rolled (1 TO), the new 3 lowered to 2
    (1 TO); a re-roll comes before a change, as in Skirm."""
    match = defended(3, 2, faces=[2, 6, 6, 3])
    found = saves(match.apply(Shoot(0, "Ada", "Bo")))
    assert (found["first_faces"], found["faces"]) == ([6], [2])
    assert (found["rerolled"], found["lowered"], found["failed"]) == ([1], [1], 0)
    assert blue_orders(match) == 1


def test_two_above_with_one_to_left_is_re_rolled() -> None:
    """Our ruling: when -2 cannot be paid, a re-roll is the change left (a 4, re-rolled to 5)."""
    match = defended(1, 2, faces=[2, 6, 4, 5])
    found = saves(match.apply(Shoot(0, "Ada", "Bo")))
    assert (found["faces"], found["rerolled"], found["failed"]) == ([5], [1], 1)
    assert blue_orders(match) == 0 and match.state.units["Bo"].hit == 2


def test_the_sure_changes_come_first_and_the_budget_is_per_attack() -> None:
    """Our ruling: at most N TO per attack, the cheapest sure saves first: of a 6 and a 3, the 3
    is lowered (1 TO) and, with the budget of 1 spent, the 6 fails though TO are left."""
    match = defended(3, 1, faces=[2, 2, 6, 3])
    found = saves(match.apply(Shoot(0, "Ada", "Bo")))
    assert (found["faces"], found["lowered"], found["failed"]) == ([6, 2], [2], 1)
    assert blue_orders(match) == 2


def test_the_reserve_is_kept() -> None:
    """Rulings, Tactical Orders on rolls: standing orders keep the TO they are told to keep."""
    match = defended(2, 3, keep=1, faces=[2, 2, 3, 3])
    found = saves(match.apply(Shoot(0, "Ada", "Bo")))
    assert (found["faces"], found["failed"]) == ([2, 3], 1)
    assert blue_orders(match) == 1


def test_melee_saves_are_the_defenders_dice_too() -> None:
    """Lite rulebook Tactical Orders: "for example during Melee combat"; in Lite's melee the
    target rolls the saves, so Bo's standing orders lower its 3."""
    match = defended(1, 1, faces=[2, 6, 3], blue_square="C4")
    found = saves(match.apply(Melee(0, "Ada", "Bo")))
    assert (found["faces"], found["failed"]) == ([2], 0)


def test_without_to_per_attack_failed_saves_are_re_rolled_as_before() -> None:
    """Records before TO per attack keep their standing order: a failed 3 is re-rolled, not
    lowered, and the state shows no new field (docs/rulings.md: Records of the first release)."""
    old = command_from_json(
        {"type": "standing_orders", "side": 1, "reroll_saves_above": 0}, LITE_COMMANDS
    )
    assert old == SetStandingOrders(1, 0)
    match = lite_match({0: [agent("Ada", "C3")], 1: [agent("Bo", "C8")]}, orders=(0, 2),
                       faces=[2, 6, 3, 4])  # fmt: skip
    match.apply(old)
    found = saves(match.apply(Shoot(0, "Ada", "Bo")))
    assert (found["faces"], found["rerolled"], found["lowered"]) == ([4], [1], [])
    assert "standing order, 1 TO: re-rolled die 1: 3 → 4" in found["text"]
    assert "orders_per_attack" not in match.state.to_json()["squads"][1]


def test_setting_standing_orders_again_without_to_per_attack_drops_them() -> None:
    match = defended(2, 2, faces=[2, 6, 3, 1])
    match.apply(SetStandingOrders(1, 0))
    found = saves(match.apply(Shoot(0, "Ada", "Bo")))
    assert (found["faces"], found["rerolled"]) == ([1], [1])


def test_the_standing_orders_say_what_they_will_do() -> None:
    match = lite_match({0: [agent("Ada", "C3")], 1: [agent("Bo", "C8")]})
    [event] = match.apply(SetStandingOrders(1, 1, orders_per_attack=2))
    assert event.data["orders_per_attack"] == 2 and event.data["reroll_saves_above"] == 1
    assert "at most 2 TO per attack, keeping 1 TO" in event.text


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (SetStandingOrders(1, None, orders_per_attack=2), "choose never"),
        (SetStandingOrders(1, 0, orders_per_attack=0), "from 1 to 20 TO per attack"),
        (SetStandingOrders(1, 0, orders_per_attack=21), "from 1 to 20 TO per attack"),
    ],
)
def test_impossible_standing_orders_are_refused_in_words(
    command: SetStandingOrders, words: str
) -> None:
    refused(lite_match({0: [agent("Ada", "C3")], 1: [agent("Bo", "C8")]}), command, words)


def test_skirm_refuses_to_per_attack() -> None:
    """Skirm's full rules do not change: its standing orders only re-roll failed saves."""
    match = skirm_match({0: [unit("Remus", "C3")], 1: [unit("Vex", "C10")]})
    refused(match, SetStandingOrders(1, 0, orders_per_attack=2), "Skirm Lite standing order")


@pytest.mark.parametrize("command", [Modify(1, 1, -1), Reroll(1, 1)])
def test_a_defenders_own_decision_points_to_the_standing_orders(command: Any) -> None:
    """Nothing waits for the defender (rulings: Tactical Orders on rolls): a change it sends in
    Red's activation is refused, saying how its TO are spent on its dice."""
    match = lite_match({0: [agent("Ada", "C3")], 1: [agent("Bo", "C8")]}, orders=(1, 1),
                       faces=[4, 5])  # fmt: skip
    match.apply(Shoot(0, "Ada", "Bo"))  # Red's roll waits for Red's decision
    refused(match, command, "standing orders as they are rolled")


# --- the property: never more than N, nor more than the squad has ----------------------------------
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    orders=st.integers(0, 6),  # LD3: six dice
    keep=st.integers(0, 3),
    per_attack=st.integers(1, 5),
    roa=st.integers(1, 4),
    arm=st.integers(1, 5),
    faces=st.lists(st.integers(1, 6), min_size=30, max_size=30),
)
def test_the_standing_orders_never_spend_more_than_told_or_held(
    orders: int, keep: int, per_attack: int, roa: int, arm: int, faces: list[int]
) -> None:
    """Per attack, Blue's standing orders spend at most N TO, never its reserve, never more than
    it has (TO never below 0), and what they spend is what the saves event says."""
    gunner = gun("Gun", "ranged", roa, 4, 1, "RG8")
    match = lite_match(
        {0: [agent("Ada", "C3", weapons=[gunner])], 1: [agent("Bo", "C8", arm=arm, hit=6, specials=["LD3"])]},
        orders=(0, orders),
        faces=faces,
    )
    match.apply(SetStandingOrders(1, keep, orders_per_attack=per_attack))
    before = blue_orders(match)
    events = match.apply(Shoot(0, "Ada", "Bo"))
    spent = before - blue_orders(match)
    assert 0 <= spent <= per_attack
    assert blue_orders(match) >= min(before, keep) >= 0
    assert spent == sum(e.data["orders_spent"] for e in events if e.kind == "saves")


# --- where players set them ------------------------------------------------------------------------
async def console_says(tmp_path: Path, rules: str, typed: str) -> str:
    from skirmbot.console import run_console

    feed, said = iter(["auto", "auto", typed, "concede"]), []

    def ask(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    await run_console(False, tmp_path, ask=ask, say=said.append, seed=3, rules=rules)
    return "\n".join(said)


async def test_the_console_sets_to_per_attack_in_a_lite_match(tmp_path: Path) -> None:
    said = await console_says(tmp_path, "lite", "standing 1 2")
    assert "at most 2 TO per attack, keeping 1 TO" in said, said


async def test_the_console_refuses_to_per_attack_in_a_skirm_match_in_words(tmp_path: Path) -> None:
    said = await console_says(tmp_path, "skirm", "standing 0 2")
    assert "TO per attack is a Skirm Lite standing order" in said, said


async def test_match_standing_offers_to_per_attack() -> None:
    from skirmbot.bot import make_bot

    bot = make_bot(":memory:", sync_commands=False)
    await bot.setup_hook()
    try:
        match = next(c for c in bot.tree.get_commands() if c.name == "match").to_dict(bot.tree)
    finally:
        await bot.store.close()
    standing = next(o for o in match["options"] if o["name"] == "standing")
    per_attack = next(o for o in standing["options"] if o["name"] == "per_attack")
    assert (per_attack["min_value"], per_attack["max_value"], per_attack["required"]) == (1, 20, False)
    assert "Skirm Lite" in per_attack["description"]
