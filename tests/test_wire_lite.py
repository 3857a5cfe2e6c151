"""A whole Skirm Lite match through the real bot process, against the loopback fake of Discord:
two players set it up with `/match new ruleset:`, field Lite squads, deploy, and play every
activation with the common verbs and `/act`, with the bot killed and restarted on the same
database in the middle. Nothing is fixed by hand: every command is one a player would send,
chosen from what the bot's autocomplete offers.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable

from fakediscord import FakeDiscord, Interaction, User
from test_wire import REPLY_TIMEOUT, Bot, answered, clean, fake, public, say, start_bot

__all__ = ["fake", "start_bot"]  # the fixtures, shared with test_wire

MATCH_TIMEOUT = 240.0  # a whole match: about 40 activations, a few commands each
ACTIVATIONS = 200  # more than any Lite match has: this bound only catches a stuck match


async def offered(bot: Bot, user: User, command: str, focused: str, **options: str) -> list[str]:
    """What the bot's autocomplete offers `user` for one option of a command."""
    interaction = await bot.fake.autocomplete(command, focused=focused, user=user, **options)
    await answered(bot, interaction)
    return [choice["value"] for choice in interaction.choices]


def ruleset_choices(fake: FakeDiscord) -> list[str]:
    """The rulesets /match new offers, as the bot synced the command."""
    match = next(c for c in fake.commands if c["name"] == "match")
    new = next(o for o in match["options"] if o["name"] == "new")
    ruleset = next(o for o in new["options"] if o["name"] == "ruleset")
    return [choice["value"] for choice in ruleset["choices"]]


async def status_text(bot: Bot) -> str:
    shown = await say(bot, "match status")
    return shown.text


async def crashed_and_restarted(bot: Bot, start_bot: Callable[[], Awaitable[Bot]]) -> Bot:
    """The bot killed mid-match (SIGKILL: a crash, no clean-up) and started again on the same
    database; the match's status reads the same."""
    before = await status_text(bot)
    bot.process.send_signal(signal.SIGKILL)
    assert await bot.wait_exit(5) == -signal.SIGKILL
    again = await start_bot()
    assert await status_text(again) == before, "the match differs after the restart"
    return again


async def whose_turn(bot: Bot) -> User | None:
    """The player who may act now: the one autocomplete offers a unit to end (or /act)."""
    for user in (bot.fake.alice, bot.fake.bob):
        if await offered(bot, user, "end", "unit") or await offered(bot, user, "act", "action"):
            return user
    return None


def waits_for_a_decision(interaction: Interaction) -> bool:
    """A roll waits for its player: the bot's answer offers the "Accept roll" button."""
    return any("Accept roll" in m.buttons().values() for m in interaction.messages)


async def activation(bot: Bot, user: User) -> list[Interaction]:
    """One activation the way a player plays it: an action of Lite's own if one is offered
    (Revive, a Sentry action), else an attack if a target is offered, else a move; then /end
    (and /accept for a roll waiting for a decision)."""
    sent: list[Interaction] = []
    own = await offered(bot, user, "act", "action")
    if own:
        sent.append(await say(bot, "act", user=user, action=own[0]))
    else:
        shooters = await offered(bot, user, "shoot", "unit")
        targets = await offered(bot, user, "shoot", "target", unit=shooters[0]) if shooters else []
        if targets:
            aim = {"unit": shooters[0], "target": targets[0]}
            weapons = await offered(bot, user, "shoot", "weapon", **aim)
            sent.append(await say(bot, "shoot", user=user, weapon=weapons[0], **aim))
        else:
            movers = await offered(bot, user, "move", "unit")
            squares = await offered(bot, user, "move", "square", unit=movers[0]) if movers else []
            if squares:
                sent.append(await say(bot, "move", user=user, unit=movers[0], square=squares[0]))
    while sent and waits_for_a_decision(sent[-1]):
        sent.append(await say(bot, "accept", user=user))
    ending = await offered(bot, user, "end", "unit")
    if ending:
        sent.append(await say(bot, "end", user=user, unit=ending[0]))
    return sent


async def test_a_whole_skirm_lite_match_between_two_players_with_a_restart(
    fake: FakeDiscord, start_bot
) -> None:
    async with asyncio.timeout(MATCH_TIMEOUT):
        bot = await start_bot()
        assert "lite" in ruleset_choices(fake), ruleset_choices(fake)
        new = await say(bot, "match new", ruleset="lite")
        assert "Skirm Lite" in new.text, new.text
        joined = await say(bot, "match join", user=fake.bob)
        assert public(joined), joined.text
        squads = await offered(bot, fake.alice, "match squad", "name")
        assert squads and all(name in ("ash-stalkers", "vigil-wardens") for name in squads), squads
        for user, squad in ((fake.alice, squads[0]), (fake.bob, squads[-1])):
            fielded = await say(bot, "match squad", user=user, name=squad)
            assert public(fielded), fielded.text
        for user in (fake.alice, fake.bob):
            deployed = await say(bot, "deploy", user=user, auto=True)
            assert deployed.messages, deployed.text

        restarted = False
        for _ in range(ACTIVATIONS):
            user = await whose_turn(bot)
            if user is None:
                break
            for interaction in await activation(bot, user):
                assert interaction.messages, f"no answer to {interaction.payload['data']}"
            text = await status_text(bot)
            if not restarted and "turn 3" in text.lower():
                bot, restarted = await crashed_and_restarted(bot, start_bot), True
        else:
            raise AssertionError(f"the match did not end: {await status_text(bot)}")

        assert restarted, f"the match ended before turn 3: {await status_text(bot)}"
        final = await bot.until(
            lambda: [m for m in fake.messages.values() if "wins" in m.text or "draw" in m.text],
            "the end-of-match message",
            REPLY_TIMEOUT,
        )
        assert final, "no end-of-match message"
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())
