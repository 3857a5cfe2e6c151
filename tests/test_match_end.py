"""The end of a match (issue 11): one result message that pings both players, carries the final
battlemap and both squads' medals within Discord's limits; /match status shows the last match's
result and final map once it is over; counts and possessives that read right."""

from __future__ import annotations

import re

import pytest
from service_setup import ALICE, BOB, CHANNEL, GUILD, MOD, end_activations, started

from skirmbot.rules.skirm.medals import Medal
from skirmbot.service import MatchService, Reply, person
from skirmbot.service.replies import PERSON
from skirmbot.store import Store

DISCORD_LIMIT = 2000
PNG = b"\x89PNG"


def result_of(reply: Reply) -> Reply:
    """The message of the match's end that pings the players: the result."""
    [result] = [r for r in reply.all() if "is over." in r.text]
    return result


def check_result(result: Reply) -> None:
    assert result.notify() == [ALICE.id, BOB.id], "both players are pinged"
    assert f"{person(ALICE.id)} (Iron Wardens)" in result.text  # a mention, in Discord
    assert f"{person(BOB.id)} (Ash Runners)" in result.text
    assert result.picture is not None and result.picture.startswith(PNG), "the final map"
    assert "**Medals: Iron Wardens**" in result.text and "**Medals: Ash Runners**" in result.text
    assert len(result.text) <= DISCORD_LIMIT - len(f"<@{ALICE.id}> <@{BOB.id}> ")


async def test_a_concession_posts_one_result_with_both_pings_the_map_and_the_medals(
    store: Store,
) -> None:
    service = MatchService(store, seed_source=lambda: 1234)
    await started(service)
    await end_activations(service, until_turn=2)
    reply = await service.concede(CHANNEL, BOB)
    assert reply.match_over and len(reply.all()) == 1, "one message, not three"
    result = result_of(reply)
    check_result(result)
    assert "Ash Runners conceded: Iron Wardens wins." in result.text
    assert "• Halden: Untouchable" in result.text and "• Jax: Untouchable" in result.text


async def test_the_last_activation_ends_the_match_with_the_same_result(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 1234)
    await started(service)
    reply = await end_activations(service)
    assert reply is not None
    result = result_of(reply)
    check_result(result)
    assert "The match ends" in result.text
    everything = [r.text for r in reply.all()]
    assert len(everything) <= 2 and all(len(text) <= DISCORD_LIMIT for text in everything)
    assert sum("Medals:" in text for text in everything) == 1, "the medals in one message"


async def test_status_after_the_end_shows_the_result_and_the_final_map(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 1234)
    await started(service)
    await end_activations(service, until_turn=2)
    ended = result_of(await service.concede(CHANNEL, ALICE))
    status = await service.status(CHANNEL)
    assert "Match #1 is over." in status.text and "Alice conceded" not in status.text
    assert "Iron Wardens conceded: Ash Runners wins." in status.text
    assert "Alice (Iron Wardens) · Bob (Ash Runners)" in status.text
    assert status.notify() == [] and not PERSON.search(status.text), "looking it up pings nobody"
    assert status.picture == ended.picture, "the final map"
    # A new match in the channel: status is about it again.
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    assert "Match #2 (setup)" in (await service.status(CHANNEL)).text


async def test_status_after_an_abort_says_so(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 1234)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    await service.abort(CHANNEL, MOD)
    status = await service.status(CHANNEL)
    assert "Match #1 was aborted: it has no result" in status.text and status.picture is None


def test_the_medals_of_two_full_squads_fit_one_message() -> None:
    """The largest squads (12 units each, 32-character names, many medals): the medals of both
    still fit in one message, each unit named; what goes first is each medal's reason, then its
    XP, then the medals' names (each unit's number of medals and XP stay)."""
    from skirmbot.service.campaigns import _Block, _medals_text

    medals = [Medal(name, 2, "a long reason " * 4) for name in ("Assassin", "Berserker", "Marksman", "First Blood", "Untouchable", "Veteran")]  # fmt: skip
    blocks = [
        _Block(
            f"**Medals: Squad {side}** (not a stored squad: its XP is not kept)",
            {f"Unit {side}-{n:02} with a much longer name"[:32]: medals for n in range(12)},
            None,
        )
        for side in (1, 2)
    ]
    text = _medals_text(blocks, 1800)
    assert len(text) <= 1800
    assert "**Medals: Squad 1**" in text and "**Medals: Squad 2**" in text
    assert all(f"Unit {side}-{n:02}" in text for side in (1, 2) for n in range(12))
    assert "• Unit 1-00 with a much longer nam: 6 medals (+12 XP)" in text
    few = _medals_text(
        [_Block(b.title, dict(list(b.earned.items())[:7]), None) for b in blocks], 1800
    )
    assert "Assassin, Berserker, Marksman, First Blood, Untouchable, Veteran (+12 XP)" in few


def test_counts_and_possessives_read_right() -> None:
    """`1 earlier line`, `1 face`, `Iron Wardens'`: never `1 earlier lines`, `Wardens's`."""
    from skirmbot.rules.dice import DiceExhausted, ScriptedDice
    from skirmbot.service.replies import clip

    clipped = clip("x" * 50 + "\n" + "y" * 30, 80)
    assert clipped.startswith("… (1 earlier line in /match log)")
    dice = ScriptedDice([3])
    dice.roll()
    with pytest.raises(DiceExhausted, match=r"ran out after 1 face\."):
        dice.roll()


async def test_no_message_of_the_end_says_wardens_s(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 1234)
    await started(service)
    await end_activations(service, until_turn=2)
    reply = await service.concede(CHANNEL, ALICE)
    texts = [r.text for r in reply.all()] + [(await service.status(CHANNEL)).text]
    assert not any(re.search(r"s's\b|\b1 [a-z]{2,}s\b", text) for text in texts), texts


async def test_saving_a_one_unit_squad_says_1_unit(store: Store) -> None:
    from skirmbot import content
    from skirmbot.service.campaigns import CampaignService

    data = content.raw("squads", "iron-wardens")
    data["units"] = [unit for unit in data["units"] if "LD" in str(unit.get("specials"))][:1]
    reply = await CampaignService(store).save_squad(ALICE.id, GUILD, "Solo", data)
    assert "(1 unit," in reply.text
