"""Campaigns: XP from medals, Spoils Of War by the 5-XP rule, the squad building rules on XP,
stored squads and the XP they earn at the end of each match (rulebook Your Squad, Spoils Of
War; docs/rulings.md, Campaign XP and Spoils Of War)."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest
from conftest import BOTH_BACKENDS
from service_setup import ALICE, BOB, CHANNEL, GUILD, end_activations
from service_setup import started as start_match

from skirmbot import content
from skirmbot.rules import commands
from skirmbot.rules.errors import ContentError
from skirmbot.rules.skirm.medals import Medal, apply_xp
from skirmbot.rules.skirm.squads import squad_from_json
from skirmbot.service import MatchService, Reply, ServiceError
from skirmbot.service.campaigns import CampaignService, keep_progress
from skirmbot.store import Store


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Every test here runs on SQLite and on PostgreSQL (issue 14)."""
    return str(request.param)


VICTOR, VETERAN = Medal("Victor", 1, "its squad won"), Medal("Veteran", 1, "was still Standing")
ASSASSIN = Medal("Assassin", 2, "took out Vex, the enemy Leader")


def wardens(**changes: dict[str, Any]) -> dict[str, Any]:
    """The shipped Iron Wardens, with some units' fields changed (by unit name)."""
    data = copy.deepcopy(content.raw("squads", "iron-wardens"))
    for unit in data["units"]:
        unit.update(changes.get(unit["name"], {}))
    return data


def unit_of(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(u for u in data["units"] if u["name"] == name)


def xp5_rifle() -> list[dict[str, Any]]:
    """Pell's weapons with its Rifle made a Spoil Of War for units with 5 XP or more."""
    return [
        {
            "name": "Rifle",
            "type": "ranged",
            "roa": 2,
            "dam": 1,
            "ep": 3,
            "specials": ["RG8", "XP5"],
        },
        {"name": "Bayonet", "type": "melee", "roa": 1, "dam": 1, "ep": 0, "specials": []},
    ]


NEQ_PELL = {
    "specials": ["NEQ"],
    "weapons": [
        {"name": "Rifle", "type": "ranged", "roa": 2, "dam": 1, "ep": 0, "specials": ["RG8"]},
        {"name": "Bayonet", "type": "melee", "roa": 1, "dam": 1, "ep": 0, "specials": []},
    ],
}


# --- XP and Spoils Of War ------------------------------------------------------------------------
def test_medals_add_their_xp_to_the_units() -> None:
    data = wardens(Halden={"xp": 3})
    new, spoils = apply_xp(data, {"Halden": [ASSASSIN, VICTOR], "Corra": [VETERAN]})
    assert unit_of(new, "Halden")["xp"] == 6 and unit_of(new, "Corra")["xp"] == 1
    assert unit_of(new, "Brann")["xp"] == 0
    assert unit_of(data, "Halden")["xp"] == 3, "the data given is not changed"
    assert (spoils["Halden"].gained, spoils["Halden"].xp) == (3, 6)


def test_one_spoil_of_war_per_5_xp() -> None:
    """Rulebook Spoils Of War: a Unit at 13 XP may take 2 Spoils Of War, each with XPx <= 13."""
    _, spoils = apply_xp(wardens(Halden={"xp": 12}, Corra={"xp": 4}), {"Halden": [VICTOR]})
    halden = spoils["Halden"]
    assert (halden.xp, halden.allowed, halden.taken, halden.available) == (13, 2, 0, 2)
    assert spoils["Corra"].available == 0  # 4 XP: not yet


def test_spoils_already_taken_are_counted() -> None:
    """XPx gear on the card and `spoils_taken` are spoils the unit already holds."""
    data = wardens(Pell={"xp": 9, "weapons": xp5_rifle(), "spoils_taken": 1})
    with pytest.raises(ContentError, match="Pell has 9 XP, enough for 1 Spoil Of War"):
        squad_from_json(data)
    data = wardens(Pell={"xp": 10, "weapons": xp5_rifle(), "spoils_taken": 1})
    _, spoils = apply_xp(data, {"Pell": [VICTOR]})
    assert (spoils["Pell"].xp, spoils["Pell"].taken, spoils["Pell"].available) == (11, 2, 0)
    _, spoils = apply_xp(wardens(Pell={"xp": 14, "weapons": xp5_rifle()}), {"Pell": [VICTOR]})
    assert (spoils["Pell"].allowed, spoils["Pell"].taken, spoils["Pell"].available) == (3, 1, 2)


def test_neq_units_gain_no_xp_and_take_no_spoils() -> None:
    """Rulebook NEQ: does not gain XP, and cannot take any Spoils Of War."""
    new, spoils = apply_xp(wardens(Pell=NEQ_PELL), {"Pell": [VICTOR, ASSASSIN]})
    assert unit_of(new, "Pell")["xp"] == 0
    assert spoils["Pell"].neq and spoils["Pell"].available == 0


# --- squad building rules on XP ------------------------------------------------------------------
def test_xpx_gear_only_for_units_with_that_xp() -> None:
    """Rulebook XPx: a Unit may only have this Gear if its XP is x or higher."""
    with pytest.raises(ContentError, match="Rifle needs XP 5; Pell has 4 XP"):
        squad_from_json(wardens(Pell={"xp": 4, "weapons": xp5_rifle()}))
    squad = squad_from_json(wardens(Pell={"xp": 5, "weapons": xp5_rifle()}))
    assert next(c for c in squad.units if c.name == "Pell").xp == 5


def test_neq_units_carry_no_gear_no_xp_and_no_spoils() -> None:
    neq = dict(NEQ_PELL)
    with pytest.raises(ContentError, match="No Equipment .NEQ. and cannot carry Rifle"):
        squad_from_json(wardens(Pell={"specials": ["NEQ"]}))
    with pytest.raises(ContentError, match="Pell has No Equipment .NEQ.: it gains no XP"):
        squad_from_json(wardens(Pell={**neq, "xp": 5}))
    with pytest.raises(ContentError, match="cannot take Spoils Of War"):
        squad_from_json(wardens(Pell={**neq, "spoils_taken": 1}))
    squad_from_json(wardens(Pell=neq))


def test_spoils_taken_is_a_whole_number() -> None:
    with pytest.raises(ContentError, match="'spoils_taken' must be a whole number, 0 or more"):
        squad_from_json(wardens(Pell={"spoils_taken": -1}))


# --- the store -----------------------------------------------------------------------------------
async def test_the_store_keeps_squads_per_owner_and_names_without_case(store: Store) -> None:
    saved = await store.save_squad(ALICE.id, GUILD, "Wardens", lambda old: wardens())
    assert (saved.owner_id, saved.guild_id, saved.name) == (ALICE.id, GUILD, "Wardens")
    assert (await store.squad(ALICE.id, "wardens")) == saved
    assert await store.squad(BOB.id, "Wardens") is None
    seen: list[Any] = []
    again = await store.save_squad(ALICE.id, GUILD, "WARDENS", lambda old: seen.append(old) or old)
    assert again.id == saved.id and seen == [saved.data]
    assert [row.name for row in await store.squads_of(ALICE.id)] == ["WARDENS"]
    assert await store.delete_squad(ALICE.id, "wardens") and await store.squads_of(ALICE.id) == []


async def test_a_failing_change_saves_nothing(store: Store) -> None:
    await store.save_squad(ALICE.id, GUILD, "Wardens", lambda old: wardens())

    def refuse(old: Any) -> dict[str, Any]:
        raise ContentError("no")

    with pytest.raises(ContentError):
        await store.save_squad(ALICE.id, GUILD, "Wardens", refuse)
    with pytest.raises(ContentError):
        await store.save_squad(ALICE.id, GUILD, "Other", refuse)
    assert [row.name for row in await store.squads_of(ALICE.id)] == ["Wardens"]


# --- stored squads through the service -----------------------------------------------------------
async def test_saving_keeps_the_xp_the_medals_gave(store: Store) -> None:
    """Rulings: Campaigns: XP is never typed in; a new unit starts at 0."""
    campaigns = CampaignService(store)
    reply = await campaigns.save_squad(ALICE.id, GUILD, "my:Wardens", wardens(Halden={"xp": 20}))
    assert "my:Wardens" in reply.text and "Halden keeps the 0 XP" in reply.text
    row = await campaigns.load_squad(ALICE.id, "my:wardens")
    assert unit_of(row.data, "Halden")["xp"] == 0
    merged, notes = keep_progress(wardens(Halden={"xp": 7}), wardens(Halden={"xp": 9}))
    assert unit_of(merged, "Halden")["xp"] == 7 and len(notes) == 1


async def test_saving_refuses_a_squad_that_breaks_the_building_rules(store: Store) -> None:
    campaigns = CampaignService(store)
    with pytest.raises(ServiceError, match="cannot be saved: .*needs exactly one Leader"):
        await campaigns.save_squad(ALICE.id, GUILD, "W", wardens(Halden={"specials": ["UNQ"]}))
    with pytest.raises(ServiceError, match="no stored squad called 'W'. Save a squad file"):
        await campaigns.load_squad(ALICE.id, "my:W")


async def started(service: MatchService, alice_squad: str, *, first_turn: bool = False) -> None:
    """Alice (with `alice_squad`) against Bob's Ash Runners, deployed by the bot; unless
    `first_turn`, both squads then play their first turn out, every unit ending its activation
    where it stands (a match conceded in its first turn gives no XP)."""
    await start_match(service, alice_squad)
    if not first_turn:
        await end_activations(service, until_turn=2)


def medals_of(reply: Reply) -> str:
    """The one message of a match's end that holds the medals (its result)."""
    [found] = [r.text for r in reply.all() if "Medals:" in r.text or "No medals" in r.text]
    return found


async def test_a_stored_squad_gets_its_xp_when_its_match_ends(store: Store) -> None:
    service, campaigns = MatchService(store, seed_source=lambda: 1234), CampaignService(store)
    await campaigns.save_squad(ALICE.id, GUILD, "Wardens", wardens(Pell=NEQ_PELL))
    await started(service, "my:wardens")
    reply = await service.concede(CHANNEL, BOB)  # no shot fired: Alice's squad wins untouched
    text = medals_of(reply)
    mine, theirs = text.split("**Medals: Ash Runners**")
    assert "**Medals: Iron Wardens** (my:Wardens, XP added)" in mine
    # Both squads' medals with their reasons are too long for the message: they go without.
    assert "• Halden: Untouchable +2 XP; Veteran +1 XP; Victor +1 XP → 4 XP" in mine
    assert len(reply.all()) == 1 and len(reply.text) <= 2000
    assert "• Pell: Untouchable" in mine and "(NEQ: gains no XP)" in mine
    assert theirs.startswith(" (not a stored squad")
    stored = await campaigns.load_squad(ALICE.id, "Wardens")
    assert unit_of(stored.data, "Halden")["xp"] == 4 and unit_of(stored.data, "Pell")["xp"] == 0
    assert [awards for _, awards in await store.squad_awards(stored.id)][0]["Halden"] == [
        "Untouchable", "Veteran", "Victor",
    ]  # fmt: skip

    # Asking again shows the medals but adds nothing.
    match_id = (await store.squad_awards(stored.id))[0][0]
    again = await campaigns.award(match_id)
    assert "XP already added" in again.text and "→ 4 XP" in again.text
    assert "Iron Wardens" in again.text and "Ash Runners" in again.text, "one message, both"
    assert unit_of((await campaigns.load_squad(ALICE.id, "Wardens")).data, "Halden")["xp"] == 4

    # The same squad plays its next match with its XP, and reaches its first Spoil Of War.
    await started(service, "my:Wardens")
    row = await store.active_match(CHANNEL)
    assert row is not None and row.setup["stored_squads"] == [stored.id, None]
    assert unit_of(row.record["content"]["squads"][0], "Halden")["xp"] == 4
    reply = await service.concede(CHANNEL, BOB)
    assert "→ 8 XP; may take 1 Spoil Of War (XPx up to 8)" in medals_of(reply)

    # A NEQ unit takes no Spoils Of War, however many XP its squadmates have.
    with pytest.raises(ServiceError, match="Pell has No Equipment"):
        await campaigns.save_squad(
            ALICE.id, GUILD, "Wardens", wardens(Pell={**NEQ_PELL, "weapons": xp5_rifle()})
        )


async def test_an_award_waits_for_the_unit_of_work_on_its_match(store: Store) -> None:
    """The award reads the match under its lock, so it sees what a command ending it saved."""
    service = MatchService(store, seed_source=lambda: 1234)
    campaigns = service.campaigns
    await campaigns.save_squad(ALICE.id, GUILD, "Wardens", wardens())
    await started(service, "my:Wardens")
    await service.concede(CHANNEL, BOB)
    row = await store.last_match(CHANNEL)
    assert row is not None
    async with service.work_on(row.id):
        award = asyncio.create_task(campaigns.award(row.id))
        while service.live.lock_users()[row.id] < 2:
            assert not award.done(), "the award read the match without its lock"
            await asyncio.sleep(0)
    assert "XP already added" in (await award).text
    assert service.live.lock_users() == {}


async def test_xpx_gear_is_allowed_once_the_unit_has_the_xp(store: Store) -> None:
    service, campaigns = MatchService(store, seed_source=lambda: 1234), CampaignService(store)
    await campaigns.save_squad(ALICE.id, GUILD, "Wardens", wardens())
    with pytest.raises(ServiceError, match="Rifle needs XP 5; Pell has 0 XP"):
        await campaigns.save_squad(
            ALICE.id, GUILD, "Wardens", wardens(Pell={"weapons": xp5_rifle()})
        )
    for _ in range(2):  # two wins, untouched: 4 XP each time
        await started(service, "my:Wardens")
        await service.concede(CHANNEL, BOB)
    reply = await campaigns.save_squad(
        ALICE.id, GUILD, "Wardens", wardens(Pell={"weapons": xp5_rifle()})
    )
    assert "Saved **Iron Wardens**" in reply.text
    stored = await campaigns.load_squad(ALICE.id, "Wardens")
    assert unit_of(stored.data, "Pell")["xp"] == 8
    assert "XP5" in unit_of(stored.data, "Pell")["weapons"][0]["specials"]
    listing = await campaigns.list_squads(ALICE.id)
    assert "my:Wardens: Iron Wardens (Halden 8 XP," in listing.text


async def test_a_shipped_squad_keeps_no_xp_and_a_match_ended_in_deployment_gives_none(
    store: Store,
) -> None:
    service = MatchService(store, seed_source=lambda: 1234)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-runners")
    reply = await service.concede(CHANNEL, BOB)  # still deploying: no battle was fought
    assert reply.match_over and "No medals: the match ended before its first turn." in reply.text
    await started(service, "iron-wardens")
    reply = await service.concede(CHANNEL, BOB)
    assert medals_of(reply).count("(not a stored squad: its XP is not kept)") == 2
    assert await store.squads_of(ALICE.id) == []


# --- no XP for a match given up in its first turn (issue 11) ------------------------------------
@pytest.mark.parametrize("ending", ["concede", "draw", "forfeit"])
async def test_a_match_given_up_in_its_first_turn_awards_no_xp(store: Store, ending: str) -> None:
    """Rulings: Campaign medals: conceded (a forfeit to the turn timer too) or agreed drawn
    before the end of its first turn, a match gives no medals and no XP; the result says so.
    Else every unit would be Untouchable and a Veteran for nothing, and stored squads could
    farm XP match after match."""
    service, campaigns = MatchService(store, seed_source=lambda: 1234), CampaignService(store)
    await campaigns.save_squad(ALICE.id, GUILD, "Wardens", wardens())
    await started(service, "my:Wardens", first_turn=True)
    _, match = await service.view(CHANNEL)
    assert match is not None and match.state.turn == 1
    if ending == "concede":
        reply = await service.concede(CHANNEL, BOB)
    elif ending == "draw":
        await service.offer_draw(CHANNEL, BOB)
        reply = await service.accept_draw(CHANNEL, ALICE)
    else:
        row = await store.active_match(CHANNEL)
        assert row is not None
        async with service.work_on(row.id) as work:
            reply = await service.finish(work, commands.Concede(1, reason="forfeits"))
    assert reply.match_over
    words = "agreed drawn" if ending == "draw" else "conceded"
    assert (
        f"No medals and no XP: the match was {words} before the end of its first turn"
        in medals_of(reply)
    )
    assert "Untouchable" not in "\n".join(r.text for r in reply.all())
    stored = await campaigns.load_squad(ALICE.id, "Wardens")
    assert all(unit["xp"] == 0 for unit in stored.data["units"])
    assert await store.squad_awards(stored.id) == []
    ended = await store.last_match(CHANNEL)
    assert ended is not None and "No medals and no XP" in (await campaigns.award(ended.id)).text


async def test_a_match_conceded_after_its_first_turn_awards_xp(store: Store) -> None:
    service, campaigns = MatchService(store, seed_source=lambda: 1234), CampaignService(store)
    await campaigns.save_squad(ALICE.id, GUILD, "Wardens", wardens())
    await started(service, "my:Wardens")  # the first turn played out: turn 2 has begun
    reply = await service.concede(CHANNEL, BOB)
    assert "(my:Wardens, XP added)" in medals_of(reply)
    stored = await campaigns.load_squad(ALICE.id, "Wardens")
    assert unit_of(stored.data, "Halden")["xp"] == 4


async def test_an_unknown_stored_squad_is_refused_when_picking(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 1234)
    await CampaignService(store).save_squad(ALICE.id, GUILD, "Wardens", wardens())
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    await service.join(CHANNEL, BOB)
    with pytest.raises(ServiceError, match="no stored squad called 'Wrong'. Yours: my:Wardens."):
        await service.choose_squad(CHANNEL, ALICE, "my:Wrong")
    with pytest.raises(ServiceError, match="no stored squad called 'Wardens'. Save a squad"):
        await service.choose_squad(CHANNEL, BOB, "my:Wardens")  # Alice's, not Bob's


async def test_a_stored_squad_is_refused_in_a_ruleset_without_campaigns(store: Store) -> None:
    """Issue 29: campaigns are Skirm's feature (Ruleset.features); a match of Skirm Lite
    refuses a stored squad in words, and fields nothing."""
    service, campaigns = MatchService(store, seed_source=lambda: 1234), CampaignService(store)
    await campaigns.save_squad(ALICE.id, GUILD, "Wardens", wardens())
    await service.create(GUILD, CHANNEL, ALICE, rules="lite")
    with pytest.raises(ServiceError) as error:
        await service.choose_squad(CHANNEL, ALICE, "my:wardens")
    assert str(error.value) == "Campaigns are played with Skirm, not Skirm Lite."
    row = await store.active_match(CHANNEL)
    assert row is not None and row.record["content"]["squads"][0] is None
