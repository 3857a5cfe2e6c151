"""A match of three seats played through the service (issue 29), with no Discord: the d20
rules (rulebook 004) for three players, created with `players=3`, joined by two more players
with the bot's normal (salted) dice, squads chosen, deployed in secret, played by the automatic
player for whoever the rules ask to decide, one player conceding midway while the other two
play on, the bot restarted midway, to the end: a placing per seat, and ratings from them."""

from __future__ import annotations

import re

import pytest
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD

from skirmbot.rules.dice import SaltedDice, salted_key
from skirmbot.rules.errors import RulesError
from skirmbot.rules.record import MatchRecord, dice_of, revealed
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.verify import verify
from skirmbot.service import MatchService, Member, ServiceError
from skirmbot.service.matches import DEPLOYING, PLAYING
from skirmbot.service.ratings import RatingService
from skirmbot.store import Store

D20 = ruleset("d20")
PLAYERS = (ALICE, BOB, EVE)
SQUADS = ("red-lancers", "blue-hunters", "green-wardens")
MOST_COMMANDS = 2_000  # a match of three ends long before this many


def bot_on(store: Store) -> MatchService:
    """The bot as it runs: keyed dice with a salt per player (no fixed seed)."""
    return MatchService(store, clock=lambda: 1_000.0)


async def seated_and_deployed(service: MatchService) -> None:
    await service.create(GUILD, CHANNEL, ALICE, rules="d20", players=3)
    await service.join(CHANNEL, BOB)
    joined = await service.join(CHANNEL, EVE)  # the last salt fixes the dice
    assert "The dice are now fixed by the committed seed and every player's salt" in joined.text
    for member, squad in zip(PLAYERS, SQUADS, strict=True):
        await service.choose_squad(CHANNEL, member, squad)
    row, _ = await service.view(CHANNEL)
    assert row.status == DEPLOYING
    first = await service.deploy(CHANNEL, ALICE)
    assert "hidden" in first.text  # rulings: Deployment, revealed together
    row, match = await service.view(CHANNEL)
    assert match is None and row.status == DEPLOYING
    await service.deploy(CHANNEL, BOB)
    await service.deploy(CHANNEL, EVE)


async def play_one(service: MatchService) -> bool:
    """The automatic player's command for the first seat the rules name; False when over."""
    row, match = await service.view(CHANNEL)
    if row.status != PLAYING:
        return False
    assert match is not None
    [decision, *_] = D20.deciding(match.state)
    member = PLAYERS[decision.side]
    command = D20.automatic_command(match.state, decision.side)
    reply = await service.act(CHANNEL, member, command)
    return not reply.match_over


async def test_three_players_play_a_d20_match_to_the_end_through_a_restart(
    store: Store,
) -> None:
    service = bot_on(store)
    await seated_and_deployed(service)
    row, match = await service.view(CHANNEL)
    assert row.status == PLAYING and match is not None
    record = MatchRecord.from_json(row.record)
    assert record.salts is not None and None not in record.salts and len(record.salts) == 3
    played = 0
    conceded = False
    while await play_one(service):
        played += 1
        assert played < MOST_COMMANDS
        if played == 10:
            service = bot_on(store)  # the bot restarts: the match is read back from the store
        if played == 20 and not conceded:
            conceded = True
            reply = await service.concede(CHANNEL, EVE)
            assert not reply.match_over  # the other two play on
            _, after = await service.view(CHANNEL)
            assert after is not None and D20.view(after.state).sides[2].out
    assert conceded
    [(_, result)] = await store.match_results(GUILD, "d20")
    placings = {seat.seat: seat.placing for seat in result.seats}
    assert placings[2] == 3  # conceded first of three: last
    assert sorted(placings.values())[:2] in ([1, 2], [1, 1])
    assert [seat.user_id for seat in result.seats] == [ALICE.id, BOB.id, EVE.id]
    rated = await RatingService(store).ratings(GUILD)
    assert {r.player for r in rated} == {ALICE.id, BOB.id, EVE.id}
    assert rated[-1].player == EVE.id


async def test_the_finished_record_verifies_with_every_players_salt(store: Store) -> None:
    service = bot_on(store)
    await seated_and_deployed(service)
    while await play_one(service):
        pass
    row = await store.last_match(CHANNEL)
    assert row is not None
    verdict = verify(revealed(MatchRecord.from_json(row.record)))
    assert verdict.ok, verdict.problems
    assert "Every player's salt match their seals" in verdict.checked[1]


def test_two_salts_key_the_dice_as_every_record_before_more_seats() -> None:
    """Rulings: Verifiable dice. Two seats give the bytes of records made since issue 21."""
    key = "00" * 32
    two = SaltedDice(key, ["a", "b"])
    assert two._salted == salted_key(key, ["a", "b"])
    three = SaltedDice(key, ["a", "b", "c"])
    assert three._salted is not None and three._salted != two._salted
    waiting = dice_of(MatchRecord(content={}, dice={"key": key}, salts=["a", None, "c"]))
    with pytest.raises(RulesError, match="before every player's salt is fixed"):
        waiting.roll()


async def test_four_players_start_when_the_last_seat_joins_and_every_squad_is_in(
    store: Store,
) -> None:
    """Rulings: Verifiable dice. Each join posts its salt; the last one fixes the dice."""
    service = bot_on(store)
    dan = Member(44, "Dan")
    created = await service.create(GUILD, CHANNEL, ALICE, rules="d20", players=4)
    assert "the others come as the players join" in created.text
    for member in (BOB, EVE):
        joined = await service.join(CHANNEL, member)
        assert "The dice are fixed when every player's salt is in" in joined.text
    assert "The dice are now fixed" in (await service.join(CHANNEL, dan)).text
    for member, squad in zip((ALICE, BOB, EVE, dan), (*SQUADS, "gold-breakers"), strict=True):
        chosen = await service.choose_squad(CHANNEL, member, squad)
        assert re.search(r"\(\d+ units, \d+ points\)", chosen.text), chosen.text  # not Skirm's EP
    assert "All squads are in." in chosen.text
    for member in (ALICE, BOB, EVE, dan):
        await service.deploy(CHANNEL, member)
    row, match = await service.view(CHANNEL)
    assert row.status == PLAYING and match is not None
    assert len(D20.view(match.state).sides) == 4


async def test_a_match_of_three_waits_for_every_player_not_both(store: Store) -> None:
    """Set-up for N seats: what a match still waits for is said of every player."""
    service = bot_on(store)
    await service.create(GUILD, CHANNEL, ALICE, rules="d20", players=3)
    with pytest.raises(ServiceError, match="^The match has not started: every player picks a"):
        await service.export_record(CHANNEL, ALICE)
