"""A 2 v 2 match of the group rules (rulebook 003, issue 30) through the real bot process
against the loopback fake of Discord: Alice opens `/match new ruleset:companies players:4`, Bob,
Carol and Dave join; seat n is on side n % 2, so Alice and Carol play against Bob and Dave, each
with their own Company of 12 points (the scenario's 24 a side, shared). They deploy, choose
their ambitions, and both players of the side whose turn it is give orders in the same turn.
In one turn Dave never answers: Bob gives an order and ends his part, Dave's time runs out, and
the bot ends Dave's part of the turn (and so his side's); the match goes on to its last round,
Dave playing again, and the result names all four players with their side's placing.

The turn clock runs on a warped clock (fakediscord.warp, as test_wire's timers do): an hour
per activation lasts `HOUR_SECONDS` real seconds, longer than any player here takes between
two orders, so only Dave's silence misses a deadline.
"""

from __future__ import annotations

import asyncio
import re

from fakediscord import FakeDiscord, User
from fakediscord.server import snowflake
from test_wire import Bot, channel_posts, clean, fake, public, say, start_bot
from test_wire_companies import (
    Player,
    deploy,
    field_companies,
    next_command,
    the_end,
)
from test_wire_d20 import offered, round_of
from test_wire_lite import status_text

__all__ = ["fake", "start_bot"]  # the fixtures, shared with test_wire

MATCH_TIMEOUT = 240.0
STEPS = 600
HOUR_SECONDS = 20.0  # real seconds an hour of the turn clock lasts
WARP = 3600.0 / HOUR_SECONDS


def misses(bot: Bot, name: str) -> list[str]:
    """What the bot posted on its own about `name` missing a deadline."""
    return [
        m.text
        for m in channel_posts(bot.fake, bot.fake.channel_id)
        if m.text.startswith(f"⏰ {name} missed the deadline")
    ]


async def test_a_two_against_two_match_with_a_missed_deadline(fake: FakeDiscord, start_bot) -> None:
    async with asyncio.timeout(MATCH_TIMEOUT):
        dave = User(snowflake(), "dave")
        bot = await start_bot(warp=WARP)
        new = await say(bot, "match new", ruleset="companies", players=4, hours=1, excuses=2)
        assert public(new), new.text
        for user in (fake.bob, fake.carol, dave):
            joined = await say(bot, "match join", user=user)
            assert public(joined), joined.text
        users = [fake.alice, fake.bob, fake.carol, dave]
        # The list offers only Companies within a player's share of the side's points.
        offers = await offered(bot, dave, "match squad", "name")
        assert "ember-circle" in offers and "hill-wardens" not in offers, offers
        # Four Companies of 12 points: each seat's share of its side's 24.
        names = ("iron-lances", "red-hounds", "thornwatch", "ember-circle")
        fielded_by = await field_companies(bot, list(zip(users, names, strict=True)))
        for user in users:
            deployed = await deploy(bot, user)
            assert deployed.messages, deployed.text
        revealed = await status_text(bot)
        assert all(name in revealed for name in fielded_by.values()), revealed

        players = [Player(user, seat) for seat, user in enumerate(users)]
        alice, bob, carol, dave = players
        absent: Player | None = None  # Dave, until he has missed his deadline
        missed = ""
        for _ in range(STEPS):
            text = await status_text(bot)
            if not missed and absent is None and round_of(text) >= 1 and "Dave" in next_up(text):
                # Dave never answers in this turn; Bob gives an order and ends his part (one
                # only: a failed activation test would end the side's turn before Dave's time
                # runs out, and Dave would stay away for his side's next turn).
                absent, bob.most, before = dave, 1, len(bob.sent)
            sent = await next_command(bot, players, absent)
            if sent is not None:
                assert public(sent), f"{sent.payload['data']} refused: {sent.text}"
                continue
            if absent is None:
                break
            # Everyone else is done: Dave's time runs out and the bot ends his part.
            await bot.until(lambda: misses(bot, "Dave"), "Dave's missed deadline", 3 * HOUR_SECONDS)
            [missed] = misses(bot, "Dave")
            assert bob.sent[before:] and bob.sent[-1] == "end", bob.sent[before:]
            absent, bob.most = None, None
            after = await status_text(bot)
            assert "Alice" in next_up(after) and "Dave" not in next_up(after), after
        else:
            raise AssertionError(f"the match did not end: {await status_text(bot)}")

        assert missed, f"the match ended before Dave's side played: {await status_text(bot)}"
        # The bot ended Dave's part of the turn (and with it his side's: Bob had ended his).
        assert (
            f"{fielded_by['dave']} ends its part of the turn (the turn timer ran out)" in missed
        ), missed
        assert missed.startswith("⏰ Dave missed the deadline: their part of the turn ends."), missed
        assert f"{fielded_by['alice']} and {fielded_by['carol']}'s turn" in missed, missed
        # Both players of a side gave orders in the same turns, Dave too after his miss.
        for player in players:
            assert player.sent[0] == "ambition" and len(player.sent) > 2, (
                player.user.name,
                player.sent,
            )
        result = await the_end(bot)
        placed = {
            name: re.search(rf"{name}\b[^·\n]*?\b(1st|2nd)\b", result, re.I)
            for name in ("Alice", "Bob", "Carol", "Dave")
        }
        assert all(placed.values()), result
        side_of = {name: found[1] for name, found in placed.items() if found}
        assert side_of["Alice"] == side_of["Carol"] and side_of["Bob"] == side_of["Dave"], result
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())


def next_up(status: str) -> str:
    """The status's last line: "Next: Bob (...), Dave (...)."."""
    return status.splitlines()[-1] if status.startswith("Match") else ""
