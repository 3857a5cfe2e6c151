"""A whole match of the group rules (rulebook 003, issue 30) between two players, through the
real bot process against the loopback fake of Discord: Alice opens `/match new
ruleset:companies`, Bob joins, each fields a Company and deploys it from what the list offers,
each chooses an ambition with /act, and they play with /move (the squares offered), /shoot,
/melee and /act (Retreat, End turn, the Interrupt Alice asked to be prompted for) and /end.
Midway the bot is killed and restarted on the same database and the status reads the same; the
match ends with a result naming each side's VP. Nothing is fixed by hand: every command is one
a player would send, chosen from what the bot offers.

The helpers here play a seat the way a player does; the team match (test_wire_companies_teams)
plays with them too.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field

from fakediscord import FakeDiscord, Interaction, User
from test_wire import REPLY_TIMEOUT, Bot, clean, fake, public, say, start_bot
from test_wire_d20 import labelled, offered, round_of
from test_wire_lite import crashed_and_restarted, ruleset_choices, status_text

from skirmbot.rules.squares import Square

__all__ = ["fake", "start_bot"]  # the fixtures, shared with test_wire

MATCH_TIMEOUT = 240.0  # a whole match: 6 rounds of two turns, a few orders each
LONGEST_MOVE = (
    10  # inches: the longest MO of the shipped profiles (Scouts' 8), +2 for a Swift Captain
)
MOVES = 3  # Groups a player moves in a turn at most; the others hold their ground
STEPS = 500  # more commands than any match of these Companies needs: catches a stuck match


@dataclass
class Player:
    """A seat as its player knows it: who they are, their seat (seat n is on side n % 2: side
    0 deployed along the top edge, side 1 along the bottom, so each knows which way the enemy
    is), the ambition they will pick, and what they did so far."""

    user: User
    seat: int
    ambition: str = ""  # the start of the ambition's words to choose ("" : the first offered)
    end_with_slash_end: bool = False  # ends their part with /end (else /act End turn)
    sent: list[str] = field(default_factory=list)  # the orders' kinds, in order
    moves: int = 0  # Move orders given this turn
    orders: int = 0  # orders given this turn
    most: int | None = None  # orders they give in a turn at most (None: as many as they like)

    @property
    def forward(self) -> int:
        """Which way the rows go toward the enemy's edge: down the table for side 0."""
        return 1 if self.seat % 2 == 0 else -1


def starting(options: list[tuple[str, str]], *titles: str) -> list[str]:
    """The /act values whose words start with one of the titles ("Ambition", "End turn")."""
    return [value for value, words in options if words.startswith(titles)]


def advance(player: Player, squares: list[str]) -> str:
    """The square a player advances to: the farthest toward the enemy's edge, then nearest
    the table's middle columns (the list says only where the Group can go, not where to)."""

    def ahead(text: str) -> tuple[int, int]:
        square = Square.parse(text.split(" ")[0])
        return player.forward * square.y, -abs(2 * square.x - 23)

    return max(squares, key=ahead)


async def farthest(bot: Bot, player: Player, unit: str) -> list[str]:
    """The squares the Group reaches with its longest move, as typed into /move's list."""
    for inches in range(LONGEST_MOVE, 0, -1):
        typed = f'{inches}")'
        squares = await offered(bot, player.user, "move", "square", unit=unit, square=typed)
        if squares:
            return squares
    return await offered(bot, player.user, "move", "square", unit=unit)


async def send(bot: Bot, player: Player, kind: str, command: str, **options: str) -> Interaction:
    player.sent.append(kind)
    return await say(bot, command, user=player.user, **options)


async def decide(bot: Bot, player: Player, own: list[tuple[str, str]]) -> Interaction | None:
    """A decision the match waits for from this player: their ambition (set-up), or, asked
    to be prompted, whether an attacked Group tests its Defiant or Elusive trait (it does)."""
    if interrupt := starting(own, "Interrupt"):
        return await send(bot, player, "interrupt", "act", action=interrupt[0])
    ambitions = [(v, w) for v, w in own if w.startswith("Ambition")]
    if ambitions:
        chosen = starting(ambitions, f"Ambition: {player.ambition}") or [ambitions[0][0]]
        return await send(bot, player, "ambition", "act", action=chosen[0])
    return None


async def attack(bot: Bot, player: Player, verb: str) -> Interaction | None:
    """/shoot or /melee with the first Group offered that has a target, at the first target."""
    for unit in await offered(bot, player.user, verb, "unit"):
        targets = await offered(bot, player.user, verb, "target", unit=unit)
        if targets:
            return await send(bot, player, verb, verb, unit=unit, target=targets[0])
    return None


async def move(bot: Bot, player: Player) -> Interaction | None:
    """/move the first Group offered that can go somewhere, as far forward as it may: the list
    shows the 25 nearest squares, so the player types the inches of a long move (`7"`), from
    the longest down, as one who wants to close in would."""
    for unit in await offered(bot, player.user, "move", "unit"):
        squares = await farthest(bot, player, unit)
        if squares:
            return await send(
                bot, player, "move", "move", unit=unit, square=advance(player, squares)
            )
    return None


async def step(bot: Bot, player: Player) -> Interaction | None:
    """One command of `player`, the way they play: a decision asked of them first; then a
    Retreat from a melee once in the match (to see one), a Cast or a Summon, a Shot, an
    Attack, a Move for up to `MOVES` Groups a turn (the rest hold their ground); at last the
    end of their part of the turn. None: nothing for them to do now."""
    own = await labelled(bot, player.user, "act", "action")
    if (decided := await decide(bot, player, own)) is not None:
        return decided
    ending = starting(own, "End turn")
    if not ending:
        # Not their turn; or their Reckless Groups must attack first, the only orders they
        # may give until each has tried (rulebook Turns 2).
        if (reckless := await attack(bot, player, "melee")) is not None:
            return reckless
        player.moves = player.orders = 0
        return None
    if player.most is not None and player.orders >= player.most:
        return await end(bot, player, ending[0])
    player.orders += 1
    retreats = starting(own, "Retreat")
    if retreats and "retreat" not in player.sent:
        return await send(bot, player, "retreat", "act", action=retreats[0])
    if special := starting(own, "Cast", "Summon"):
        return await send(bot, player, "special", "act", action=special[0])
    for verb in ("shoot", "melee"):
        if (sent := await attack(bot, player, verb)) is not None:
            return sent
    if player.moves < MOVES and (moved := await move(bot, player)) is not None:
        player.moves += 1
        return moved
    return await end(bot, player, ending[0])


async def end(bot: Bot, player: Player, ending: str) -> Interaction:
    """The end of the player's part of their side's turn: /end, or /act's End turn."""
    if player.end_with_slash_end:
        return await send(bot, player, "end", "end")
    return await send(bot, player, "end", "act", action=ending)


async def next_command(
    bot: Bot, players: list[Player], absent: Player | None = None
) -> Interaction | None:
    """The next command a player sends, asking each in turn from the one after the last to
    send (so teammates take their side's turn order by order between them); None: nobody
    has one. `absent` never answers."""
    for player in list(players):
        if player is absent:
            continue
        if (sent := await step(bot, player)) is not None:
            players.remove(player)
            players.append(player)  # the others first next time
            return sent
    return None


async def deploy(bot: Bot, user: User) -> Interaction:
    """/deploy alone tells the player, privately, where their Groups may go; its list offers a
    whole deployment, which they send (a big Company's is too long for the list: the help
    says auto: True then)."""
    helped = await say(bot, "deploy", user=user)
    assert [m.ephemeral for m in helped.messages] == [True], helped.text
    offers = await offered(bot, user, "deploy", "placements")
    if not offers:
        assert "auto: True" in helped.text, helped.text
        return await say(bot, "deploy", user=user, auto=True)
    return await say(bot, "deploy", user=user, placements=offers[0])


async def field_companies(bot: Bot, chosen: list[tuple[User, str]]) -> dict[str, str]:
    """Each player fields the Company they chose, from those /match squad offers them (by its
    name); returns each player's Company as the bot names it."""
    fielded_by: dict[str, str] = {}
    for user, wanted in chosen:
        companies = await offered(bot, user, "match squad", "name")
        assert wanted in companies, companies
        fielded = await say(bot, "match squad", user=user, name=wanted)
        assert public(fielded), fielded.text
        fielded_by[user.name] = re.findall(r"\*\*(.+?)\*\*", fielded.text)[0]
    return fielded_by


async def the_end(bot: Bot) -> str:
    """The end-of-match message and the status after it."""
    final = await bot.until(
        lambda: [m for m in bot.fake.messages.values() if "is over" in m.text],
        "the end-of-match message",
        REPLY_TIMEOUT,
    )
    return final[-1].text + "\n" + await status_text(bot)


async def test_a_whole_one_against_one_match_of_the_group_rules_with_a_restart(
    fake: FakeDiscord, start_bot
) -> None:
    async with asyncio.timeout(MATCH_TIMEOUT):
        bot = await start_bot()
        assert "companies" in ruleset_choices(fake), ruleset_choices(fake)
        new = await say(bot, "match new", ruleset="companies")
        assert public(new) and "Companies" in new.text, new.text
        joined = await say(bot, "match join", user=fake.bob)
        assert public(joined), joined.text
        # Two Companies of 24 points (the scenario's), each with shooters and fighters.
        chosen = [(fake.alice, "hill-wardens"), (fake.bob, "river-guard")]
        fielded_by = await field_companies(bot, chosen)
        for user in (fake.alice, fake.bob):
            deployed = await deploy(bot, user)
            assert deployed.messages, deployed.text
        # Revealed: each player is asked for their ambition, pinged.
        assert f"<@{fake.bob.id}>: choose River Guard's ambition" in deployed.text, deployed.text
        assert {fake.alice.id, fake.bob.id} <= set().union(*(m.pings for m in deployed.messages))
        revealed = await status_text(bot)
        assert all(name in revealed for name in fielded_by.values()), revealed
        # Deployed: the match waits for each player's ambition, and says so.
        assert "Waiting for Alice: choose Hill Wardens' ambition" in revealed, revealed
        # Alice wants to be asked whether an attacked Group of hers tests Defiant or Elusive.
        standing = await say(bot, "match standing", prompt=True)
        assert [m.ephemeral for m in standing.messages] == [True], standing.text

        # Four orders a turn at most, then they end their part (a failed activation test may
        # end it first).
        alice = Player(fake.alice, 0, ambition="Glory", end_with_slash_end=True, most=4)
        bob = Player(fake.bob, 1, ambition="Unbroken", most=4)
        players = [alice, bob]
        restarted = False
        for _ in range(STEPS):
            sent = await next_command(bot, players)
            if sent is None:
                break
            assert public(sent), f"{sent.payload['data']} refused: {sent.text}"
            text = await status_text(bot)
            if not restarted and round_of(text) >= 2:
                bot, restarted = await crashed_and_restarted(bot, start_bot), True
        else:
            raise AssertionError(f"the match did not end: {await status_text(bot)}")

        assert restarted, f"the match ended before round 2: {await status_text(bot)}"
        result = await the_end(bot)
        # Each side's VP in the result, and each player's placing.
        assert re.search(r"Attackers \([^)]*\) \d+ VP", result), result
        assert re.search(r"Defenders \([^)]*\) \d+ VP", result), result
        # What they sent depends on the dice (a failed test ends the turn): a turn ended by a
        # player's choice, and a shot or an attack, come in every match of these Companies.
        both = alice.sent + bob.sent
        assert alice.sent[0] == bob.sent[0] == "ambition" and "move" in both, both
        assert "end" in both and {"shoot", "melee"} & set(both), both
        assert not fake.unknown, f"routes the fake does not know: {fake.unknown}"
        clean(bot.log())
