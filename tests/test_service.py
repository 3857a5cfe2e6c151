"""The service layer (issue 4): every use case without Discord, on a real SQLite store."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD, MOD, started

from skirmbot.rules import commands
from skirmbot.rules.record import MatchRecord, replay
from skirmbot.rules.skirm.costs import MOVE
from skirmbot.rules.skirm.legal import reachable_squares
from skirmbot.service import (
    AUTOMATIC,
    Busy,
    MatchService,
    Member,
    NotAllowed,
    ServiceError,
    person,
)
from skirmbot.store import Store, VersionConflict


def service_on(store: Store) -> MatchService:
    return MatchService(store, seed_source=lambda: 1234)


async def to_act(service: MatchService) -> tuple[Member, str]:
    """The member whose activation it is, and one of their ready units."""
    row, match = await service.view(CHANNEL)
    assert match is not None and match.state.to_act is not None
    member = ALICE if row.players[match.state.to_act] == ALICE.id else BOB
    return member, match.state.ready_units(match.state.to_act)[0].id


async def test_a_match_is_set_up_and_both_deployments_are_revealed_together(store: Store) -> None:
    service = service_on(store)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    with pytest.raises(NotAllowed, match="challenge"):
        await service.join(CHANNEL, EVE)
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-runners")
    first = await service.deploy(CHANNEL, ALICE)
    assert "hidden" in first.text and first.picture is None
    row = await store.active_match(CHANNEL)
    assert row is not None and row.record["commands"] == [], (
        "a hidden deployment is not in the record"
    )
    reveal = await service.deploy(CHANNEL, BOB)
    assert "Both squads deploy" in reveal.text and reveal.picture is not None
    assert reveal.picture.startswith(b"\x89PNG") and reveal.ping in (ALICE.id, BOB.id)
    row = await store.active_match(CHANNEL)
    assert row is not None and row.status == "playing"


async def test_an_illegal_move_is_refused_and_changes_nothing(store: Store) -> None:
    service = service_on(store)
    await started(service)
    member, unit = await to_act(service)
    before = await store.active_match(CHANNEL)
    with pytest.raises(ServiceError, match="can reach"):
        await service.act(CHANNEL, member, commands.Move(0, unit, "L12"))
    after = await store.active_match(CHANNEL)
    assert before is not None and after is not None
    assert (after.version, after.record) == (before.version, before.record)


async def test_moving_and_ending_posts_the_picture_and_pings_the_next_player(store: Store) -> None:
    service = service_on(store)
    await started(service)
    member, unit = await to_act(service)
    _, match = await service.view(CHANNEL)
    assert match is not None
    square = sorted(reachable_squares(match.state, match.state.units[unit], MOVE))[0]
    moved = await service.act(CHANNEL, member, commands.Move(0, unit, str(square)))
    assert "moves" in moved.text and moved.picture is None and "end" in moved.choices
    ended = await service.act(CHANNEL, member, commands.EndActivation(0))
    assert ended.picture is not None and ended.ping not in (None, member.id)
    assert ended.ping is not None and person(ended.ping) in ended.text


async def test_only_the_players_act_and_only_for_their_squad(store: Store) -> None:
    service = service_on(store)
    await started(service)
    member, unit = await to_act(service)
    with pytest.raises(NotAllowed, match="Only Alice and Bob"):
        await service.act(CHANNEL, EVE, commands.EndActivation(0, unit))
    other = BOB if member is ALICE else ALICE
    with pytest.raises(ServiceError):
        await service.act(CHANNEL, other, commands.EndActivation(0, unit))


async def test_practice_against_the_automatic_player(store: Store) -> None:
    service = service_on(store)
    await service.create(GUILD, CHANNEL, ALICE, practice=True)
    reply = await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    assert any("automatic player has deployed" in r.text for r in reply.all())
    reveal = await service.deploy(CHANNEL, ALICE)
    row, match = await service.view(CHANNEL)
    assert match is not None and row.players == [ALICE.id, AUTOMATIC]
    # Whoever had the initiative, the automatic player has played until it is Alice's turn.
    assert match.state.to_act == 0
    if match.state.initiative == 1:
        assert any(r.picture for r in reveal.followups)
    for _ in range(100):  # Alice only ends her activations; the automatic player plays on
        if await store.active_match(CHANNEL) is None:
            break
        _, match = await service.view(CHANNEL)
        assert match is not None and match.state.to_act == 0
        await service.act(
            CHANNEL, ALICE, commands.EndActivation(0, match.state.ready_units(0)[0].id)
        )
    final = await store.match(row.id)
    assert final is not None and final.status == "ended"
    assert replay(MatchRecord.from_json(final.record)).state.phase == "ended"


async def test_concede_ends_the_match_and_export_gives_a_replayable_record(store: Store) -> None:
    service = service_on(store)
    await started(service)
    for asker in (ALICE, MOD):  # before the end: the record so far, without the seed
        name, data = await service.export(CHANNEL, asker)
        assert name.endswith("-so-far.json") and json.loads(data)["format"] == "skirmbot-record"
        assert "seed" not in json.loads(data)["dice"]
    reply = await service.concede(CHANNEL, BOB)
    assert reply.match_over and "Iron Wardens wins" in reply.text
    assert await store.active_match(CHANNEL) is None
    name, data = await service.export(CHANNEL, ALICE)  # after the end: whole, seed included
    assert "seed" in json.loads(data)["dice"]
    assert replay(MatchRecord.loads(data.decode())).state.phase == "ended"
    await service.create(GUILD, CHANNEL, ALICE)  # the channel is free again


async def test_undo_needs_the_opponent_and_the_dice_come_again(store: Store) -> None:
    service = service_on(store)
    await started(service)
    member, unit = await to_act(service)
    other = BOB if member is ALICE else ALICE
    _, match = await service.view(CHANNEL)
    assert match is not None
    square = sorted(reachable_squares(match.state, match.state.units[unit], MOVE))[0]
    await service.act(CHANNEL, member, commands.Move(0, unit, str(square)))
    before = await store.active_match(CHANNEL)
    asked = await service.request_undo(CHANNEL, member)
    assert asked.ping == other.id
    with pytest.raises(ServiceError):
        await service.accept_undo(CHANNEL, member)
    await service.accept_undo(CHANNEL, other)
    after = await store.active_match(CHANNEL)
    assert before is not None and after is not None
    assert after.record["commands"] == before.record["commands"][:-1]


async def test_abort_is_for_moderators(store: Store) -> None:
    service = service_on(store)
    await started(service)
    with pytest.raises(NotAllowed, match="moderators"):
        await service.abort(CHANNEL, ALICE)
    reply = await service.abort(CHANNEL, MOD)
    assert reply.match_over and await store.active_match(CHANNEL) is None


async def test_two_clicks_at_once_cannot_corrupt_the_match(store: Store) -> None:
    service = service_on(store)
    await started(service)
    member, unit = await to_act(service)
    results = await asyncio.gather(
        service.act(CHANNEL, member, commands.EndActivation(0, unit)),
        service.act(CHANNEL, member, commands.EndActivation(0, unit)),
        return_exceptions=True,
    )
    assert sum(isinstance(r, ServiceError) for r in results) == 1
    row = await store.active_match(CHANNEL)
    assert row is not None
    replay(MatchRecord.from_json(row.record))  # the stored record still replays


async def test_a_save_that_loses_the_race_is_refused_politely(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = service_on(store)
    await started(service)
    member, unit = await to_act(service)

    async def lost(row: object, deadline: object = None, snapshot: object = None) -> object:
        raise VersionConflict("someone else saved first")

    monkeypatch.setattr(store, "save_match", lost)
    with pytest.raises(Busy, match="try again"):
        await service.act(CHANNEL, member, commands.EndActivation(0, unit))


async def test_a_restart_continues_the_match(tmp_path: Path) -> None:
    path = tmp_path / "restart.db"
    first = await Store.open(path)
    service = service_on(first)
    await started(service)
    member, unit = await to_act(service)
    await service.act(CHANNEL, member, commands.EndActivation(0, unit))
    row = await first.active_match(CHANNEL)
    await first.close()
    second = await Store.open(path)
    try:
        again = service_on(second)
        status = await again.status(CHANNEL)
        assert status.picture is not None and "turn 1" in status.text
        member, unit = await to_act(again)
        await again.act(CHANNEL, member, commands.EndActivation(0, unit))
        now = await second.active_match(CHANNEL)
        assert (
            row is not None
            and now is not None
            and len(now.record["commands"]) == len(row.record["commands"]) + 1
        )
    finally:
        await second.close()


async def test_export_works_after_the_match_has_ended(store: Store) -> None:
    service = service_on(store)
    await started(service)
    await service.concede(CHANNEL, ALICE)
    name, data = await service.export(CHANNEL)
    assert replay(MatchRecord.loads(data.decode())).state.result is not None


async def test_infiltrators_are_placed_after_the_reveal_hidden_until_all_are_in(
    store: Store,
) -> None:
    """INF (rulings: Deployment): INF units left out of the deployment are placed afterwards
    with /deploy again, hidden until every squad with infiltrators has placed them."""
    from skirmbot import content

    service = service_on(store)
    runners = content.raw("squads", "ash-runners")
    runners["units"][1]["specials"] = [*runners["units"][1].get("specials", []), "INF"]
    infiltrator = runners["units"][1]["name"]
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, runners)
    await service.deploy(CHANNEL, ALICE)
    _, scratch = await service.view(CHANNEL)
    assert scratch is None
    row = await store.active_match(CHANNEL)
    assert row is not None
    from skirmbot.rules.skirm import autoplayer

    placements = dict(
        autoplayer.deployment(replay(MatchRecord.from_json(row.record)).state, 1).placements
    )
    assert infiltrator not in placements  # the automatic deployment holds Infiltrators back
    reveal = await service.deploy(CHANNEL, BOB, placements)
    assert f"{infiltrator} will infiltrate" in reveal.text
    with pytest.raises(ServiceError, match="no infiltrators"):
        await service.deploy(CHANNEL, ALICE)
    done = await service.deploy(CHANNEL, BOB)  # the bot places them for Bob
    assert "infiltrators appear" in done.text and done.picture is not None
    # The deployments were told at their reveal; the infiltrators' reveal tells only theirs.
    deployed = [line for line in reveal.text.splitlines() if "deploys" in line]
    assert deployed and not any(line in done.text for line in deployed)
    row, match = await service.view(CHANNEL)
    assert row.status == "playing" and match is not None and match.state.units[infiltrator].on_map


async def test_reading_or_offering_before_the_match_exists_is_refused_in_words(
    store: Store,
) -> None:
    """Bugs found by the cogs: card/log/undo in set-up, and a draw offer with an open seat."""
    service = service_on(store)
    await service.create(GUILD, CHANNEL, ALICE)
    for call in (
        service.card(CHANNEL, "Halden"),
        service.log(CHANNEL),
        service.request_undo(CHANNEL, ALICE),
    ):
        with pytest.raises(ServiceError, match="pick a squad first"):
            await call
    with pytest.raises(ServiceError, match="no opponent yet"):
        await service.offer_draw(CHANNEL, ALICE)


async def test_each_player_sees_only_their_own_secondary_objective(store: Store) -> None:
    """Rulebook Game Cycle: each squad draws a secondary objective, revealed when scored; until
    then only its owner sees it (/match secondary answers privately)."""
    service = service_on(store)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB, mission="courier-run")
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-runners")
    await service.deploy(CHANNEL, ALICE)
    reveal = await service.deploy(CHANNEL, BOB)
    mine, theirs = await service.secondary(CHANNEL, ALICE), await service.secondary(CHANNEL, BOB)
    assert mine.private and theirs.private and "Your secondary objective this turn" in mine.text
    _, match = await service.view(CHANNEL)
    assert match is not None
    from skirmbot.rules.skirm import secondaries

    for side, reply in ((0, mine), (1, theirs)):
        card = secondaries.card_of(match.state, side)
        assert card is not None and card.name in reply.text
        assert card.name not in "\n".join(r.text for r in reveal.all())  # nothing public names it
    with pytest.raises(NotAllowed):
        await service.secondary(CHANNEL, EVE)
