"""A whole match of the infantry rules (rulebook 002, issue 31) between two players, through the
real bot process against the loopback fake of Discord: Alice opens `/match new
ruleset:infantry`, Bob joins, each fields a squad from what `/match squad` offers (Riflemen
against the Laser Team) and deploys it from what /deploy offers, and they play the shipped
Firefight to its end with /move (the dots offered), /arc (width, facing and order from its
lists), /act (firing arcs, a grenade, prone and stand), /melee where offered and /end. Alice asked to be prompted for her arcs: an enemy
entering one asks her live; once she fires with the button on the message that tells her,
once she lets the reaction window pass and the arc's own order decides. Midway the bot is
killed and restarted on the same database (on a move paused for her arc when one is pending):
the status reads the same and play goes on. Nothing is fixed by hand: every command is one a
player would send, chosen from what the bot offers.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import pytest
from fakediscord import FakeDiscord, Interaction, Message, User
from fakediscord.server import MANAGE_GUILD, MEMBER_PERMISSIONS, snowflake
from test_wire import REPLY_TIMEOUT, Bot, clean, click, fake, public, say, start_bot
from test_wire_companies import deploy, field_companies, the_end
from test_wire_d20 import labelled, offered
from test_wire_lite import crashed_and_restarted, ruleset_choices, status_text

from skirmbot.rules.dots import Dot

__all__ = ["fake", "start_bot"]  # the fixtures, shared with test_wire

MATCH_TIMEOUT = 240.0  # the brief's bound: 8 rounds of two turns, four troopers a side
STEPS = 600  # more commands than any Firefight of these squads needs: catches a stuck match
# The timers' clock runs WARP times faster, so the reaction window (REACTION minutes) passes in
# 60 * REACTION / WARP real seconds: long enough for a click and a restart, short to wait out.
WARP = 30.0
REACTION = 8  # minutes: 16 real seconds, more than a restart takes
STANDOFF = 3  # dots: the players close in to a grenade's throw and hold there, arcs set
HOURS = 168  # each activation's time: far longer than the test, even warped
TIMED_OUT = "did not decide in time"
FIRE = re.compile(r"^Fire: (\w+)'s arc$")


@dataclass
class Player:
    """A seat as its player knows it: their side (0 deploys at the top, 1 at the bottom) and
    what they did so far."""

    user: User
    seat: int
    order: str  # the order their arcs fire by unasked
    sent: list[str] = field(default_factory=list)  # the orders' kinds, in order
    arc_command: bool = False  # sets arcs with /arc (else with /act's arcs)
    threw: bool = False  # a grenade thrown (once in the match)
    postured: bool = False  # gone prone and stood up again (once in the match)


@dataclass
class Prompted:
    """Alice's answers to her arcs' chances: a click on Fire first, then one left to time out,
    then clicks again."""

    clicked: int = 0
    timed_out: int = 0
    asked: int = 0
    answers: list[Message] = field(default_factory=list)  # what the bot answered to them


def fire_button(messages: list[Message]) -> tuple[Message, str] | None:
    """The message that offers a Fire button, and the button's label."""
    for message in messages:
        for label in message.buttons().values():
            if FIRE.match(label):
                return message, label
    return None


def at_of(label: str) -> tuple[Dot | None, int]:
    """A trooper's dot and AP left from its autocomplete label ("... AP 6/8, at C4)")."""
    where = re.search(r"\bat ([A-Z]+\d+)", label)
    ap = re.search(r"AP (\d+)/", label)
    return (Dot.parse(where[1]) if where else None), (int(ap[1]) if ap else 0)


def cost_of(label: str) -> int:
    found = re.search(r"\((\d+) AP", label)
    return int(found[1]) if found else 99


async def send(bot: Bot, player: Player, kind: str, command: str, **options: str) -> Interaction:
    player.sent.append(kind)
    return await say(bot, command, user=player.user, **options)


def nearest_enemy(own: list[tuple[str, str]], unit: str) -> Dot | None:
    """The dot /act's firing arcs face: the nearest enemy's (legal.arcs)."""
    for _, words in own:
        found = re.match(rf"Arc: {unit} \d+° toward ([A-Z]+\d+)", words)
        if found:
            return Dot.parse(found[1])
    return None


async def activation(bot: Bot, player: Player, unit: str, label: str) -> list[Interaction]:
    """One trooper's activation, the way a quick and careful player plays it: a melee if one
    is offered; else, once in the match, a grenade: the throw offered, or with an enemy within
    a throw's reach the change to the Hand Grenade (3 AP) and then the throw offered; else a
    move toward the nearest enemy, but no nearer than `STANDOFF` dots, that leaves the AP for
    a firing arc (in its first activation it goes prone and stands up again first); then the widest arc it affords up to 60° with the player's order, and /end."""
    sent: list[Interaction] = []
    user = player.user
    targets = await offered(bot, user, "melee", "target", unit=unit)
    if targets:
        weapons = await offered(bot, user, "melee", "weapon", unit=unit, target=targets[0])
        chosen = {"weapon": weapons[0]} if weapons else {}
        melee = await send(bot, player, "melee", "melee", unit=unit, target=targets[0], **chosen)
        return [melee, *await ending(bot, player, unit)]
    own = await labelled(bot, user, "act", "action", unit=unit)
    here, ap = at_of(label)
    enemy = nearest_enemy(own, unit)
    if not player.threw:
        change = [v for v, w in own if w.startswith(f"Change weapon: {unit} to Hand Grenade")]
        if change and here and enemy and here.distance(enemy) <= ap - 3:
            sent.append(await send(bot, player, "change", "act", action=change[0]))
            own = await labelled(bot, user, "act", "action", unit=unit)
        throws = [v for v, w in own if w.startswith(f"Throw: {unit}")]
        if throws:
            player.threw = True
            sent.append(await send(bot, player, "throw", "act", action=throws[0]))
            return sent + await ending(bot, player, unit)
    if not player.postured and (down := starting(own, f"Go prone: {unit}")):
        # Once, first thing: down and up again (3 AP; arcs it stands in get a chance).
        player.postured = True
        sent.append(await send(bot, player, "prone", "act", action=down[0]))
        up = starting(await labelled(bot, user, "act", "action", unit=unit), f"Stand up: {unit}")
        if up:
            sent.append(await send(bot, player, "stand", "act", action=up[0]))
            if fire_button(sent[-1].messages) is not None:
                return sent
        ap -= 3
    if here and enemy and here.distance(enemy) > STANDOFF:
        squares = await labelled(bot, user, "move", "square", unit=unit)
        ahead = [
            (Dot.parse(value.split(" ")[0]).distance(enemy), cost_of(words), value)
            for value, words in squares
            if cost_of(words) <= ap - 2
        ]
        ahead = [found for found in ahead if STANDOFF <= found[0] < here.distance(enemy)]
        if ahead:
            sent.append(await send(bot, player, "move", "move", unit=unit, square=min(ahead)[2]))
            if fire_button(sent[-1].messages) is not None:
                return sent  # paused for Alice's arc: the loop hands it to her
    if player.arc_command:
        return sent + await arc_command(bot, player, unit)
    own = await labelled(bot, user, "act", "action", unit=unit)
    for width in (60, 30):
        arc = [
            v for v, w in own if re.match(rf"Arc: {unit} {width}° toward \w+, {player.order} \(", w)
        ]
        if arc:
            sent.append(await send(bot, player, "arc", "act", action=arc[0]))
            break
    return sent + await ending(bot, player, unit)


async def arc_command(bot: Bot, player: Player, unit: str) -> list[Interaction]:
    """/arc: the widest width offered up to 60°, the first dot offered to face, the player's
    order from those offered; then /end."""
    user = player.user
    widths = [int(w) for w in await offered(bot, user, "arc", "width", unit=unit)]
    fitting = [w for w in widths if w <= 60]
    if not fitting:
        return await ending(bot, player, unit)
    width = max(fitting)
    towards = await offered(bot, user, "arc", "toward", unit=unit, width=width)
    orders = await offered(bot, user, "arc", "order", unit=unit, width=width)
    chosen = [o for o in orders if o.split(":")[0].strip().lower() == player.order]
    if not towards or not chosen:
        return await ending(bot, player, unit)
    arc = await send(
        bot, player, "arc", "arc", unit=unit, width=width, toward=towards[0], order=chosen[0]
    )
    return [arc, *await ending(bot, player, unit)]


def starting(options: list[tuple[str, str]], words: str) -> list[str]:
    return [value for value, label in options if label.startswith(words)]


async def ending(bot: Bot, player: Player, unit: str) -> list[Interaction]:
    """/end the activation if it is still going (a shot may have ended it)."""
    if unit in await offered(bot, player.user, "end", "unit"):
        return [await send(bot, player, "end", "end", unit=unit)]
    return []


async def turn_of(bot: Bot, players: list[Player]) -> tuple[Player, str, str] | None:
    """Whose turn it is, and the trooper they activate next (the one activating, else the first
    ready): the first offered to /move or /end."""
    for player in players:
        units = await labelled(bot, player.user, "end", "unit")
        if units:
            return player, units[0][0], units[0][1]
    return None


async def test_a_whole_infantry_match_with_live_arcs_a_grenade_and_a_restart(
    fake: FakeDiscord, start_bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both processes share one warped clock (the restart goes on from where the first stopped).
    monkeypatch.setenv("SKIRMBOT_WARP_START", str(time.time()))
    start: Callable[[], Awaitable[Bot]] = lambda: start_bot(warp=WARP)  # noqa: E731
    async with asyncio.timeout(MATCH_TIMEOUT):
        bot = await start()
        assert "infantry" in ruleset_choices(fake), ruleset_choices(fake)
        mo = User(snowflake(), "mo", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
        quick = await say(bot, "timer server", user=mo, reaction_minutes=REACTION)
        assert f"waits {REACTION} minutes" in quick.text, quick.text
        new = await say(bot, "match new", ruleset="infantry", hours=HOURS)
        assert public(new), new.text
        joined = await say(bot, "match join", user=fake.bob)
        assert public(joined), joined.text
        fielded_by = await field_companies(
            bot, [(fake.alice, "riflemen"), (fake.bob, "laser-team")]
        )
        for user in (fake.alice, fake.bob):
            deployed = await deploy(bot, user)
            assert deployed.messages, deployed.text
        revealed = await status_text(bot)
        assert all(name in revealed for name in fielded_by.values()), revealed
        standing = await say(bot, "match standing", prompt=True)
        assert [m.ephemeral for m in standing.messages] == [True], standing.text
        # The kernel's /shoot is no way to fire here: the refusal points to firing arcs.
        shot = await say(bot, "shoot", unit="Hale", target="Varga")
        assert [m.ephemeral for m in shot.messages] == [True], shot.text
        assert "Skirmishers fire from firing arcs: /act arc" in shot.text, shot.text

        # Alice's arcs fire at every chance unasked (her live answer aside). Bob's hold their
        # fire (he is not asked live, so they never fire): his squad fights with grenades and
        # fists, so hers lasts, and his troopers give her arcs chance after chance.
        alice = Player(fake.alice, 0, "every", arc_command=True)  # /arc; Bob /act's arcs
        bob = Player(fake.bob, 1, "hold")
        players = [alice, bob]
        prompted = Prompted()
        restarted = False
        everything: list[Interaction] = []
        for _ in range(STEPS):
            found = await turn_of(bot, players)
            if found is None:
                break
            player, unit, label = found
            sent = await activation(bot, player, unit, label)
            for interaction in sent:
                assert public(interaction), (
                    f"{interaction.payload['data']} refused: {interaction.text}"
                )
            everything += sent
            shown = [m for i in sent for m in i.messages]
            if not restarted:
                # Killed on a move paused for Alice's arc in round 2 or later (or at round 4
                # with none): her button from before the crash still answers it.
                pausing = fire_button(shown) is not None
                reached = round_of(await status_text(bot))
                if (pausing and reached >= 2) or reached >= 4:
                    bot, restarted = await crashed_and_restarted(bot, start), True
            while (button := fire_button(shown)) is not None:
                shown = await answer(bot, prompted, button)
        else:
            raise AssertionError(f"the match did not end: {await status_text(bot)}")

        assert restarted, f"the match ended before round 3: {await status_text(bot)}"
        result = await the_end(bot)
        assert re.search(r"Riflemen \d+ PV · Laser Team \d+ PV", result), result
        assert "wins" in result or "draw" in result, result
        both = alice.sent + bob.sent
        assert {"arc", "throw", "move", "prone", "stand", "end"} <= set(both), both
        assert prompted.clicked and prompted.timed_out, prompted
        # Each chance pinged her at once, with its question and its deadline.
        asked = [m for m in fake.messages.values() if "fire or hold. Time runs out" in m.text]
        assert asked and all(fake.alice.id in m.pings for m in asked), asked
        assert len(asked) >= prompted.asked, (len(asked), prompted)
        # Skirmishers fire from firing arcs only: every shot is an arc's.
        shots = [
            m for m in fake.messages.values() if re.search(r"\w+ fires its [\w ]+ at ", m.text)
        ]
        assert shots, "no shot from an arc"
        # The picture after every activation: each message that ends one comes with it (or
        # its interaction's next message does), whoever's answer ended it.
        posted = [m for i in everything for m in i.messages] + prompted.answers
        for n, message in enumerate(posted):
            if "activation ends" in message.text:
                pictured = [m for m in posted[n : n + 2] if m.attachments]
                assert pictured, f"no picture with {message.text!r}"
        # (An /end that activates a trooper in her arc waits for her answer first: its
        # activation ends, with its picture, after it.)
        unpictured = [
            i.text
            for i in everything
            if i.payload["data"]["name"] == "end" and not i.pngs and not fire_button(i.messages)
        ]
        assert not unpictured, unpictured
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())


async def answer(bot: Bot, prompted: Prompted, button: tuple[Message, str]) -> list[Message]:
    """Alice's answer to a chance of her arc: the first she fires with the button; the second
    she leaves to time out (the arc's order decides, and the channel is told); after that she
    fires again. The messages that answer it (another chance may come of them)."""
    message, label = button
    prompted.asked += 1
    owner = label.removeprefix("Fire: ").removesuffix("'s arc")
    assert f"Waiting for Alice: {owner}'s arc: " in message.text, message.text
    assert message.text.rstrip().endswith("fire or hold."), message.text
    if prompted.clicked and not prompted.timed_out:
        before = len(bot.fake.messages)
        posted = await bot.until(
            lambda: [m for m in list(bot.fake.messages.values())[before:] if TIMED_OUT in m.text],
            "the reaction window to close",
            REPLY_TIMEOUT + 60 * REACTION / WARP,
        )
        prompted.timed_out += 1
        assert "the arc's order (every) fires" in posted[-1].text, posted[-1].text
        prompted.answers.append(posted[-1])
        return posted
    clicked = await click(bot, message, label, user=bot.fake.alice)
    assert public(clicked), clicked.text
    prompted.clicked += 1
    prompted.answers += clicked.messages
    return clicked.messages


def round_of(status: str) -> int:
    found = re.search(r"\bround (\d+)", status, re.I)
    return int(found[1]) if found else 0
