"""A whole 3-player match of the d20 rules (rulebook 004) through the real bot process, against
the loopback fake of Discord: Alice opens `/match new ruleset:d20 players:3`, Bob and Carol
join, each fields a warband and deploys where the placement help says, and the three play
with the common verbs (/move, /shoot, /melee, /end) and `/act` for the rulebook's own (buy
bonus dice, defend, the melee winner's free move, end turn). Midway the bot is killed and
restarted on the same database, and Carol concedes: Alice and Bob play on to the end, and the
result names every player's placing. Nothing is fixed by hand: every command is one a player
would send, chosen from what the bot offers.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field

from fakediscord import FakeDiscord, Interaction, User
from test_wire import REPLY_TIMEOUT, Bot, answered, clean, click, fake, public, say, start_bot
from test_wire_lite import crashed_and_restarted, ruleset_choices, status_text

__all__ = ["fake", "start_bot"]  # the fixtures, shared with test_wire

MATCH_TIMEOUT = 420.0  # a whole match: 4 rounds of 3 turns, a few activations each
STEPS = 600  # more commands than any d20 match of these warbands needs: catches a stuck match


@dataclass
class Player:
    """What a player remembers of their own turn: whether they bought bonus dice already, and
    which models moved."""

    user: User
    bought: bool = False
    acted: set[str] = field(default_factory=set)


async def offered(bot: Bot, user: User, command: str, focused: str, **options: str) -> list[str]:
    return [value for value, _ in await labelled(bot, user, command, focused, **options)]


async def labelled(
    bot: Bot, user: User, command: str, focused: str, **options: str
) -> list[tuple[str, str]]:
    """What the bot's autocomplete offers `user` for one option: (value, what it reads)."""
    interaction = await bot.fake.autocomplete(command, focused=focused, user=user, **options)
    await answered(bot, interaction)
    return [(choice["value"], choice["name"]) for choice in interaction.choices]


def first(options: list[tuple[str, str]], title: str) -> str | None:
    """The first of the /act options whose words start with the action's title (as
    /match rules names it)."""
    return next((value for value, words in options if words.startswith(title)), None)


def last(options: list[tuple[str, str]], title: str) -> str | None:
    found = [value for value, words in options if words.startswith(title)]
    return found[-1] if found else None


async def deploy(bot: Bot, user: User) -> Interaction:
    """Deploy the way a player does: /deploy alone tells them, privately, where their models
    may go; its list offers a whole deployment, which they send."""
    helped = await say(bot, "deploy", user=user)
    assert [m.ephemeral for m in helped.messages] == [True], helped.text
    offers = await offered(bot, user, "deploy", "placements")
    assert len(offers) == 1, offers
    for placement in offers[0].split(", "):
        model, _ = placement.rsplit(" ", 1)
        assert model in helped.text, f"{model} is not in the placement help: {helped.text}"
    return await say(bot, "deploy", user=user, placements=offers[0])


async def attack(bot: Bot, user: User, verb: str) -> Interaction | None:
    """/shoot or /melee with the first unit that has a target, on the first target offered."""
    for unit in await offered(bot, user, verb, "unit"):
        targets = await offered(bot, user, verb, "target", unit=unit)
        if targets:
            aim = {"unit": unit, "target": targets[0]}
            weapons = await offered(bot, user, verb, "weapon", **aim)
            chosen = {"weapon": weapons[0]} if weapons else {}
            return await say(bot, verb, user=user, **aim, **chosen)
    return None


async def move(bot: Bot, user: User, player: Player) -> Interaction | None:
    """/move a model that has not moved this turn to the last square offered (the list goes
    nearest first: the farthest, out of the zone toward the rivals)."""
    for unit in await offered(bot, user, "move", "unit"):
        if unit in player.acted:
            continue
        squares = await offered(bot, user, "move", "square", unit=unit)
        if squares:
            player.acted.add(unit)
            return await say(bot, "move", user=user, unit=unit, square=squares[-1])
    return None


async def step(bot: Bot, player: Player) -> Interaction | None:
    """One command of `player`, the way they play: a decision asked of them first (defend with
    every bonus die held, the melee winner's free move), then bonus dice once a turn, an
    attack, a move, ending the activation, and at last ending the turn. None: nothing to do."""
    user = player.user
    own = await labelled(bot, user, "act", "action")
    # The melee winner's free move has no title of its own in /match rules: its kind names it.
    decided = last(own, "Defend") or first(own, "Free move") or first(own, "shift")
    if decided:
        return await say(bot, "act", user=user, action=decided)
    if not player.bought and (bought := first(own, "Purchase Bonus Dice")):
        player.bought = True
        return await say(bot, "act", user=user, action=bought)
    for verb in ("shoot", "melee"):
        if (sent := await attack(bot, user, verb)) is not None:
            return sent
    if (moved := await move(bot, user, player)) is not None:
        return moved
    ending = await offered(bot, user, "end", "unit")
    if ending:
        return await say(bot, "end", user=user, unit=ending[0])
    if ended := first(own, "End turn"):
        player.bought, player.acted = False, set()
        return await say(bot, "act", user=user, action=ended)
    return None


def player_counts(fake: FakeDiscord) -> list[int]:
    """The numbers of players /match new offers, as the bot synced the command."""
    match = next(c for c in fake.commands if c["name"] == "match")
    new = next(o for o in match["options"] if o["name"] == "new")
    players = next(o for o in new["options"] if o["name"] == "players")
    return [choice["value"] for choice in players["choices"]]


def round_of(status: str) -> int:
    """The round the status line names ("round 2 of 3": a d20 round is every player's turns);
    0 before the first."""
    found = re.search(r"\bround (\d+) of \d+", status)
    return int(found[1]) if found else 0


async def concede(bot: Bot, user: User) -> Interaction:
    asked = await say(bot, "match concede", user=user)
    return await click(bot, asked.messages[0], "Concede the match", user=user)


async def test_a_whole_three_player_d20_match_with_a_restart_and_a_concession(
    fake: FakeDiscord, start_bot
) -> None:
    async with asyncio.timeout(MATCH_TIMEOUT):
        bot = await start_bot()
        assert "d20" in ruleset_choices(fake), ruleset_choices(fake)
        assert 3 in player_counts(fake), player_counts(fake)
        new = await say(bot, "match new", ruleset="d20", players=3)
        assert public(new) and "d20" in new.text, new.text
        for user in (fake.bob, fake.carol):
            joined = await say(bot, "match join", user=user)
            assert public(joined), joined.text
        warbands = await offered(bot, fake.alice, "match squad", "name")
        assert len(warbands) >= 3, warbands
        fielded_by: dict[str, str] = {}  # each player's warband, as the bot names it
        for user, warband in zip((fake.alice, fake.bob, fake.carol), warbands, strict=False):
            fielded = await say(bot, "match squad", user=user, name=warband)
            assert public(fielded), fielded.text
            fielded_by[user.name] = re.findall(r"\*\*(.+?)\*\*", fielded.text)[0]
        for user in (fake.alice, fake.bob, fake.carol):
            deployed = await deploy(bot, user)
            assert deployed.messages, deployed.text
        text = await status_text(bot)
        assert round_of(text) >= 1, text
        # Standing orders for defence rolls in others' turns: Alice wants to be asked (she
        # answers with /act), Bob adds a bonus die without being asked, Carol none.
        for user, orders in ((fake.alice, {"prompt": True}), (fake.bob, {"defend": 1})):
            given = await say(bot, "match standing", user=user, **orders)
            assert [m.ephemeral for m in given.messages] == [True], given.text

        players = [Player(fake.alice), Player(fake.bob), Player(fake.carol)]
        restarted = conceded = False
        for _ in range(STEPS):
            sent = None
            for player in players:
                sent = await step(bot, player)
                if sent is not None:
                    break
            if sent is None:
                break
            assert public(sent), f"{sent.payload['data']} refused: {sent.text}"
            text = await status_text(bot)
            if not restarted and round_of(text) >= 2:
                bot, restarted = await crashed_and_restarted(bot, start_bot), True
            elif restarted and not conceded:
                ended = await concede(bot, fake.carol)
                assert public(ended) and f"{fielded_by['carol']} concedes" in ended.text, ended.text
                players = players[:2]
                conceded = True
                # The others play on; Carol is offered nothing more.
                going = await status_text(bot)
                assert round_of(going) >= 2 and "is over" not in going, going
                for command in ("act", "move", "end"):
                    focused = "action" if command == "act" else "unit"
                    assert not await offered(bot, fake.carol, command, focused), command
        else:
            raise AssertionError(f"the match did not end: {await status_text(bot)}")

        assert restarted and conceded, f"the match ended before round 2: {await status_text(bot)}"
        final = await bot.until(
            lambda: [m for m in fake.messages.values() if "is over" in m.text],
            "the end-of-match message",
            REPLY_TIMEOUT,
        )
        result = final[-1].text + "\n" + await status_text(bot)
        # Each player named with their placing; Carol, who conceded, last.
        placed = {
            name: re.search(rf"{name}\b[^·\n]*?\b(1st|2nd|3rd)\b", result, re.I)
            for name in ("Alice", "Bob", "Carol")
        }
        assert all(placed.values()), result
        assert placed["Carol"] and placed["Carol"][1] == "3rd", result
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())
