"""A stored squad's campaign progress (issue 13): its roster card, and Spoils Of War taken by
command between matches (rulebook Spoils Of War; docs/rulings.md, Spoils Of War)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from conftest import BOTH_BACKENDS

from skirmbot import content
from skirmbot.rules.skirm.spoils import spoils_from_json
from skirmbot.service import ServiceError
from skirmbot.service.progress import SquadProgress
from skirmbot.store import Store


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Every test here runs on SQLite and on PostgreSQL (issue 14)."""
    return str(request.param)


OWNER, GUILD = 11, 900


async def stored_wardens(store: Store, xp: dict[str, int], **changes: Any) -> None:
    """Iron Wardens stored for OWNER, its units with the given XP (as if earned)."""
    data = copy.deepcopy(content.raw("squads", "iron-wardens"))
    for unit in data["units"]:
        unit["xp"] = xp.get(unit["name"], 0)
        unit.update(changes.get(unit["name"], {}))
    await store.save_squad(OWNER, GUILD, "Wardens", lambda _: data)


async def stored_unit(store: Store, name: str) -> dict[str, Any]:
    row = await store.squad(OWNER, "Wardens")
    assert row is not None
    return next(unit for unit in row.data["units"] if unit["name"] == name)


def test_the_shipped_spoils_are_xpx_gear() -> None:
    rewards = spoils_from_json(content.raw("spoils", "common"))
    assert rewards and all(weapon.has("XP") for weapon, _ in rewards)


async def test_a_unit_is_offered_the_spoils_its_xp_allows(store: Store) -> None:
    await stored_wardens(store, {"Corra": 7})
    progress = SquadProgress(store)
    offered = [name for name, _ in await progress.reward_choices(OWNER, "Wardens", "Corra")]
    assert offered == ["Scoped Rifle", "Combat Knife", "Frag Grenade"]  # the XP5 gear
    assert await progress.reward_choices(OWNER, "Wardens", "Osk") == []  # 0 XP: none yet
    assert await progress.reward_choices(OWNER, "my:Wardens", "corra")  # names without case


async def test_taking_a_spoil_adds_the_gear_and_uses_the_units_spoil(store: Store) -> None:
    await stored_wardens(store, {"Corra": 7})
    progress = SquadProgress(store)
    reply = await progress.take_spoil(OWNER, GUILD, "Wardens", "Corra", "Scoped Rifle")
    assert "Corra of **Wardens** takes Scoped Rifle" in reply.text and reply.private
    corra = await stored_unit(store, "Corra")
    assert corra["weapons"][-1]["name"] == "Scoped Rifle" and corra["xp"] == 7
    # One Spoil per 5 XP: with 7 XP, Corra holds all she may.
    with pytest.raises(
        ServiceError, match=r"7 XP and holds all the Spoils it may \(1\); its next comes at 10 XP"
    ):
        await progress.take_spoil(OWNER, GUILD, "Wardens", "Corra", "Combat Knife")
    assert await progress.reward_choices(OWNER, "Wardens", "Corra") == []


@pytest.mark.parametrize(
    ("unit", "reward", "says"),
    [
        ("Corra", "Plasma Lance", "Plasma Lance needs 15 XP (XP15); Corra has 7"),
        (
            "Corra",
            "Laser Sword",
            "'Laser Sword' is not a Spoil Of War here; the rewards are: Scoped Rifle",
        ),
        ("Nobody", "Scoped Rifle", "has no unit called 'Nobody'. Its units: Halden, Corra"),
        ("Osk", "Scoped Rifle", "Osk has 0 XP and holds all the Spoils it may (0)"),
    ],
)
async def test_a_spoil_that_cannot_be_taken_is_refused_and_nothing_changes(
    store: Store, unit: str, reward: str, says: str
) -> None:
    await stored_wardens(store, {"Corra": 7})
    before = await store.squad(OWNER, "Wardens")
    with pytest.raises(ServiceError, match=says.replace("(", r"\(").replace(")", r"\)")):
        await SquadProgress(store).take_spoil(OWNER, GUILD, "Wardens", unit, reward)
    after = await store.squad(OWNER, "Wardens")
    assert before is not None and after is not None and after.data == before.data


async def test_an_unknown_stored_squad_is_refused_with_the_players_squads(store: Store) -> None:
    await stored_wardens(store, {})
    with pytest.raises(ServiceError, match="no stored squad called 'Rangers'. Yours: my:Wardens"):
        await SquadProgress(store).take_spoil(OWNER, GUILD, "Rangers", "Corra", "Scoped Rifle")


async def test_the_roster_card_shows_xp_medals_and_spoils_to_take(store: Store) -> None:
    await stored_wardens(store, {"Corra": 7, "Halden": 12})
    reply = await SquadProgress(store).roster(OWNER, "Alice", "Wardens")
    assert reply.picture is not None and reply.picture.startswith(b"\x89PNG")
    assert reply.private
    assert "3 Spoils Of War to take with /squad spoils" in reply.text  # Corra 1, Halden 2
