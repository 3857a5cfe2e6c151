"""A small league through the real bot process, against the loopback fake of Discord (issue 13):
Alice creates it, Alice, Bob and Carol sign up, Alice starts round 1 (one match and a bye), the
bot opens a thread for the match and pings both players, the match is played to its end there
(a concession), the player with the bye drops out, and the standings picture is posted. Bad
input (a second sign-up, a round started by someone who does not organise the league, a round
started while one is open) is refused privately and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import re

from fakediscord import FakeDiscord, Message, User
from test_wire import REPLY_TIMEOUT, Bot, answered, clean, fake, public, say, start_bot

__all__ = ["fake", "start_bot"]  # the fixtures, shared with test_wire

LEAGUE_TIMEOUT = 40.0
LEAGUE = "Spring League"


async def skirm_squads(bot: Bot) -> list[str]:
    """The squads /league signup offers for this Skirm league: Skirm's shipped squads only."""
    interaction = await bot.fake.autocomplete("league signup", focused="squad", league=LEAGUE)
    await answered(bot, interaction)
    offered = [c["value"] for c in interaction.choices]
    assert offered == ["ash-runners", "iron-wardens"], interaction.choices  # not Lite's
    return offered


def refused(interaction_text: str, messages: list[Message]) -> None:
    assert messages and all(m.ephemeral for m in messages), interaction_text


def threads(fake: FakeDiscord) -> list[int]:
    return [int(c["id"]) for c in fake.channels.values() if c["type"] == 11]


def posts_in(fake: FakeDiscord, channel_id: int) -> list[Message]:
    return [m for m in fake.messages.values() if m.channel_id == channel_id]


async def test_a_small_league_over_the_wire(fake: FakeDiscord, start_bot) -> None:
    async with asyncio.timeout(LEAGUE_TIMEOUT):
        bot = await start_bot()
        names = {c["name"] for c in fake.commands}
        assert {"league", "rating"} <= names, names

        created = await say(
            bot, "league create", name=LEAGUE, format="swiss", rounds=2, round_hours=48
        )
        assert public(created) and LEAGUE in created.text, created.text
        offered = await bot.fake.autocomplete("league signup", focused="league", league="spr")
        await answered(bot, offered)
        assert [c["value"] for c in offered.choices] == [LEAGUE], offered.choices

        squads = await skirm_squads(bot)
        assert len(squads) >= 2, squads
        players: list[User] = [fake.alice, fake.bob, fake.carol]
        for index, user in enumerate(players):
            joined = await say(
                bot, "league signup", user=user, league=LEAGUE, squad=squads[index % len(squads)]
            )
            assert public(joined) and f"{index + 1} players" in joined.text, joined.text
        again = await say(bot, "league signup", user=fake.bob, league=LEAGUE, squad=squads[0])
        refused(again.text, again.messages)
        assert "already signed up" in again.text, again.text

        # Only the league's organisers (Alice, its creator) run its rounds.
        not_organiser = await say(bot, "league round start", user=fake.bob, league=LEAGUE)
        refused(not_organiser.text, not_organiser.messages)
        assert threads(fake) == [], "a refused round opened a thread"

        # Round 1: one match in its own thread, both players pinged, and a bye.
        started = await say(bot, "league round start", league=LEAGUE)
        pairing = await bot.until(
            lambda: next((m for m in started.messages if "Bye" in m.text), None),
            f"the round's pairings (so far: {started.text!r})",
            REPLY_TIMEOUT,
        )
        assert not pairing.ephemeral, pairing.text
        [thread] = threads(fake)
        assert f"<#{thread}>" in pairing.text, pairing.text
        bye = int(re.search(r"Bye: <@(\d+)>", pairing.text).group(1))  # type: ignore[union-attr]
        paired = [user for user in players if user.id != bye]
        assert len(paired) == 2
        assert {user.id for user in paired} <= pairing.pings, (pairing.pings, pairing.text)
        assert fake.channels[thread]["parent_id"] == str(fake.channel_id)
        opening = await bot.until(
            lambda: len(posts_in(fake, thread)) >= 2 and posts_in(fake, thread),
            "the match's first messages in its thread",
            5,
        )
        # First the players, pinged in their thread with the deadline and the clock; then the
        # match's state.
        assert f"**{LEAGUE}**, round 1, board 1" in opening[0].text, opening[0].text
        assert {user.id for user in paired} <= opening[0].pings, opening[0]
        assert "Deadline" in opening[0].text and "Clock:" in opening[0].text
        assert "Match #1" in opening[1].text, opening[1].text

        busy = await say(bot, "league round start", league=LEAGUE)
        refused(busy.text, busy.messages)
        assert "still open" in busy.text, busy.text
        assert len(threads(fake)) == 1

        # The match ends: one of its players drops out of the league, which concedes it; its
        # end is told in its thread, where the players follow it.
        loser, winner = paired
        left = await say(bot, "league drop", user=loser, league=LEAGUE)
        assert public(left) and "conceded" in left.text, left.text
        await bot.until(
            lambda: any("wins" in m.text for m in posts_in(fake, thread)),
            "the end of the match in its thread",
            REPLY_TIMEOUT,
        )

        # The standings come as a picture and as text.
        table = await say(bot, "league standings", league=LEAGUE)
        picture = await bot.until(lambda: table.pngs, "the standings picture", REPLY_TIMEOUT)
        assert picture[0].data.startswith(b"\x89PNG") and len(picture[0].data) > 1000
        lines = table.text.splitlines()
        assert lines[1].startswith("1.") and winner.name in lines[1].lower(), table.text
        assert "(dropped)" in table.text, table.text

        history = await say(bot, "league history", league=LEAGUE, member=winner)
        assert f"<#{thread}>" in history.text, history.text
        exported = await say(bot, "league export", league=LEAGUE)
        files = {a.filename: a.data for m in exported.messages for a in m.attachments}
        assert sorted(files) == ["spring-league.csv", "spring-league.json"], sorted(files)
        assert len(json.loads(files["spring-league.json"])["players"]) == 3
        leaderboard = await say(bot, "rating leaderboard")
        assert winner.name in leaderboard.text.lower(), leaderboard.text

        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())
