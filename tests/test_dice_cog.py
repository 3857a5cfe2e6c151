"""The dice cog offline with simcord: slash commands as a member uses them, scripted faces."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
import pytest
import simcord
from builders import skirm_match, unit
from discord.ext import commands
from lite_builders import agent, lite_match
from skirmbot.cogs.dice import DiceCog  # noqa: E402

from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.ruleset import Ruleset, ruleset
from skirmbot.rules.skirm import RULESET
from skirmbot.rules.skirm.engine import Match
from skirmbot.service.choices import Situation
from skirmbot.service.errors import ServiceError


class FakeService:
    """Stands in for MatchService.view and .situation: the channel's match, or the service's
    refusal."""

    def __init__(
        self, match: Match | None = None, refusal: str | None = None, rules: Ruleset = RULESET
    ) -> None:
        self.match = match
        self.refusal = refusal
        self.rules = rules

    async def view(self, channel_id: int) -> tuple[object, Match | None]:
        if self.refusal is not None:
            raise ServiceError(self.refusal)
        return object(), self.match

    async def situation(self, channel_id: int, member: object = None) -> Situation:
        _, match = await self.view(channel_id)
        if match is None:
            raise ServiceError("The match has not started yet: units are still deploying.")
        return Situation(match.state, None, self.rules)


class DiceBot(commands.Bot):
    def __init__(self, dice: ScriptedDice, service: FakeService | None = None) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.dice = dice
        if service is not None:
            self.service = service

    async def setup_hook(self) -> None:
        await self.add_cog(DiceCog(self, self.dice))
        await self.tree.sync()


@dataclass
class Table:
    env: simcord.Env
    channel: simcord.ChannelHandle
    ann: simcord.MemberActor
    bob: simcord.MemberActor
    cat: simcord.MemberActor


@pytest.fixture
def dice() -> ScriptedDice:
    return ScriptedDice([])  # each test appends the faces it needs


@pytest.fixture
def service() -> FakeService | None:
    return None  # no game bot; tests about matches parametrize one


@pytest.fixture
def simcord_bot(dice: ScriptedDice, service: FakeService | None) -> DiceBot:
    return DiceBot(dice, service)


@pytest.fixture
def table(simcord_env: simcord.Env) -> Table:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("skirm")
    members = [guild.add_member(simcord_env.create_user(name)) for name in ("ann", "bob", "cat")]
    return Table(simcord_env, channel, *members)


def content(result: Any) -> str:
    assert result.response is not None, "the command did not answer"
    return str(result.response.content)


# --- /roll ----------------------------------------------------------------------------------
async def test_roll_answers_in_the_channel_with_every_die(table: Table, dice: Any) -> None:
    dice.faces.extend([2, 6, 3, 5])
    result = await table.ann.slash(table.channel, "roll", expression="4d6kh3", label="Stats")
    assert not result.ephemeral
    assert content(result) == "**Stats**\n4d6kh3 (~~2~~, **6**, 3, 5) = `14`"
    assert dice.remaining == 0


async def test_roll_counts_successes(table: Table, dice: Any) -> None:
    dice.faces.extend([1, 6, 3, 4, 2, 5])
    result = await table.ann.slash(table.channel, "roll", expression="6d6<=3 shots")
    text = content(result)
    assert text.startswith("**shots**\n6d6 (**1**✓, **6**✗, 3✓, 4✗, 2✓, 5✗) <= 3 = `3` successes")


async def test_a_bad_expression_is_an_ephemeral_error(table: Table, dice: Any) -> None:
    result = await table.ann.slash(table.channel, "roll", expression="4d6x")
    assert result.ephemeral
    assert (
        content(result) == "Unexpected 'x' at position 4 in '4d6x': expected the end of the roll."
    )
    too_many = await table.ann.slash(table.channel, "roll", expression="200d6")
    assert too_many.ephemeral and "at most 100" in content(too_many)
    assert table.channel.last_message is None, "nothing was posted for everyone"


async def test_roll_help_lists_the_notations(table: Table) -> None:
    result = await table.ann.slash(table.channel, "roll", expression="help")
    assert result.ephemeral
    assert "`4d6k3`" in content(result) and "`4dF`" in content(result)
    assert len(content(result)) <= 2000


async def test_other_bots_notation_works_in_the_channel(table: Table, dice: Any) -> None:
    dice.faces.extend([6, 2, 3, 1])
    result = await table.ann.slash(table.channel, "roll", expression="3d6!")
    assert content(result) == "3d6e6 (**6!**, 2, 3, **1**) = `12`"


async def test_long_rolls_fit_one_discord_message(table: Table, dice: Any) -> None:
    dice.faces.extend([1000] * 100)
    result = await table.ann.slash(table.channel, "roll", expression="100d1000", label="x" * 100)
    assert len(content(result)) <= 2000


async def test_private_rolls_are_ephemeral(table: Table, dice: Any) -> None:
    dice.faces.append(17)
    result = await table.ann.slash(table.channel, "roll", expression="1d20+2", private=True)
    assert result.ephemeral and content(result) == "1d20 (17) + 2 = `19`"


async def test_roll_answers_never_ping(table: Table, dice: Any) -> None:
    dice.faces.append(3)
    result = await table.ann.slash(table.channel, "roll", expression="1d6 @everyone")
    assert result.response is not None
    assert not result.response.message.mention_everyone


# --- /rolloff and /to ---------------------------------------------------------------------------
async def test_rolloff_rerolls_the_tie_among_the_tied(table: Table, dice: Any) -> None:
    dice.faces.extend([2, 2, 5, 4, 3])
    result = await table.ann.slash(
        table.channel, "rolloff", member1=table.ann, member2=table.bob, member3=table.cat
    )
    ann, bob, cat = table.ann.mention, table.bob.mention, table.cat.mention
    assert content(result) == (
        "**Roll-off** (lowest wins, ties re-roll)\n"
        f"Round 1: {ann} 2 · {bob} 2 · {cat} 5 — {ann} and {bob} tie on 2 and re-roll\n"
        f"Round 2: {ann} 4 · {bob} 3\n"
        f"**{bob} wins** with 3."
    )


async def test_rolloff_with_one_name_includes_the_caller(table: Table, dice: Any) -> None:
    dice.faces.extend([5, 2])
    result = await table.ann.slash(table.channel, "rolloff", member1=table.bob, highest=True)
    assert f"Round 1: {table.bob.mention} 5 · {table.ann.mention} 2" in content(result)
    assert f"**{table.bob.mention} wins** with 5." in content(result)


async def test_rolloff_refuses_a_bot(table: Table, dice: Any) -> None:
    """Rulebook Glossary, Roll-Off: the players roll; a bot is not a player."""
    robot = table.channel.guild.add_member(table.env.create_user("robot", bot=True))
    result = await table.ann.slash(table.channel, "rolloff", member1=table.bob, member2=robot)
    assert (
        result.ephemeral
        and content(result) == "Bots cannot take part in a roll-off: name the players."
    )
    assert dice.remaining == 0 and table.channel.last_message is None


async def test_rolloff_against_yourself_is_refused(table: Table, dice: Any) -> None:
    result = await table.ann.slash(table.channel, "rolloff", member1=table.ann)
    assert result.ephemeral and "at least two players" in content(result)


async def test_to_rolls_tactical_orders(table: Table, dice: Any) -> None:
    dice.faces.extend([1, 4, 3, 6])
    result = await table.ann.slash(table.channel, "to", leader_dice=1)
    assert content(result).endswith("1✓ 4✗ 3✓ 6✗ = `2` Tactical Orders (each 1-3 is one).")


# --- /odds -------------------------------------------------------------------------------------
async def test_odds_for_given_stats(table: Table) -> None:
    """Rulebook Combat 2-3 and Ranged Combat Modifiers (Cover): one die at skill 3 strikes on
    1-3; a 2 or 3 does 1 damage, saved by cover; a natural 1 does 2, one save die on ARM 3
    fails half the time: 1 HIT lost is 1/6 x 1/2."""
    result = await table.ann.slash(
        table.channel, "odds", skill=3, roa=1, dam=1, arm=3, hit=2, cover=True, orders=0
    )
    assert result.ephemeral
    text = content(result)
    assert "Without TO: taken out **0%** · HIT lost 0: 91.7% · 1: 8.3% · 2: 0%" in text
    assert "Re-rolling" not in text


async def test_odds_take_special_rules_and_tactical_orders(table: Table) -> None:
    """Special Rules AHx and DDx, and Tactical Orders (re-roll any one die): with AH1 the one
    die always strikes, for 1 + DD1 = 2 damage on HIT 1."""
    result = await table.ann.slash(
        table.channel, "odds", skill=3, roa=1, dam=1, arm=1, hit=1, rules="ah1 dd1", orders=2
    )
    text = content(result)
    assert "AH1, DD1" in text and "At least one strike: 100%" in text
    assert "Re-rolling failed attack dice with up to 2 TO" in text
    bad = await table.ann.slash(
        table.channel, "odds", skill=3, roa=1, dam=1, arm=1, hit=1, rules="CTR"
    )
    assert bad.ephemeral and "use unit and target in a match" in content(bad)


async def test_odds_need_every_stat(table: Table) -> None:
    result = await table.ann.slash(table.channel, "odds", skill=3, roa=2)
    assert result.ephemeral and content(result).startswith("Give skill, ROA, DAM, ARM and HIT")


async def test_match_odds_need_the_game_bot(table: Table) -> None:
    result = await table.ann.slash(table.channel, "odds", unit="Ada")
    assert result.ephemeral and "need the game bot" in content(result)


def _match() -> Match:
    return skirm_match({0: [unit("Ada", "C3")], 1: [unit("Bo", "C7"), unit("Cy", "H3")]})


@pytest.mark.parametrize("service", [FakeService(_match())])
async def test_match_odds_list_the_units_targets(table: Table) -> None:
    result = await table.ann.slash(table.channel, "odds", unit="ada")
    text = content(result)
    assert result.ephemeral and text.startswith("**Ada's targets**")
    assert "Rifle → Bo (4 away): taken out **" in text and "Rifle → Cy (5 away)" in text
    unknown = await table.ann.slash(table.channel, "odds", unit="Zed")
    assert unknown.ephemeral and "There is no unit called 'Zed'" in content(unknown)


@pytest.mark.parametrize("service", [FakeService(_match())])
async def test_match_odds_for_a_named_target_in_detail(table: Table) -> None:
    result = await table.ann.slash(
        table.channel, "odds", unit="Ada", target="Bo", orders=0, detail=True
    )
    text = content(result)
    assert text.startswith("**Ada → Bo** with Rifle (ranged, 4 away): skill 3, 2 dice rolled")
    assert "Rifle → Cy" not in text and "Re-rolling" not in text
    missing = await table.ann.slash(table.channel, "odds", unit="Ada", target="Zed")
    assert missing.ephemeral and "Ada cannot attack 'Zed' now" in content(missing)


@pytest.mark.parametrize("service", [FakeService(refusal="There is no match here.")])
async def test_match_odds_without_a_match(table: Table) -> None:
    result = await table.ann.slash(table.channel, "odds", unit="Ada")
    assert result.ephemeral and content(result) == "There is no match here."


LITE = ruleset("lite")
LITE_MATCH = lite_match({0: [agent("Ada", "C3")], 1: [agent("Bo", "C8"), agent("Cy", "H3")]})


@pytest.mark.parametrize("service", [FakeService(LITE_MATCH, rules=LITE)])
async def test_match_odds_in_a_lite_match_are_the_previews(table: Table) -> None:
    """Issue 28, Lite rulebook Ranged Combat: /odds in a Skirm Lite match gives the preview's
    exact Lite odds (one source for both): the Rifle's 2 dice at SKL 3 hit on 1-3, so at least
    one hits 1 - (1/2)^2 = 75%."""
    result = await table.ann.slash(table.channel, "odds", unit="Ada", target="Bo")
    text = content(result)
    previewed = LITE.preview(LITE_MATCH.state, "Ada").attacks
    rifle_on_bo = next(c for c in previewed if (c.weapon, c.target) == ("Rifle", "Bo"))
    assert result.ephemeral and f"- {rifle_on_bo.words()}" in text.splitlines()
    assert "hits 75%" in rifle_on_bo.words() and "Cy" not in text
    every = content(await table.ann.slash(table.channel, "odds", unit="Ada"))
    assert "Rifle → Bo" in every and "Rifle → Cy" in every


@pytest.mark.parametrize("service", [FakeService(LITE_MATCH, rules=LITE)])
async def test_odds_by_hand_in_a_lite_match_say_they_are_skirms(table: Table) -> None:
    result = await table.ann.slash(
        table.channel, "odds", skill=3, roa=1, dam=1, arm=3, hit=2, orders=0
    )
    text = content(result)
    assert "Without TO:" in text
    assert text.endswith(
        "These are Skirm's odds: /odds by hand knows only Skirm's combat. For Skirm Lite's "
        "odds in this match, give unit (and target) instead."
    )


async def test_odds_unit_names_may_be_64_characters(table: Table) -> None:
    """Squads name units with up to 64 characters; the option must take them."""
    unit_option = next(p for p in DiceCog.odds.parameters if p.name == "unit")
    assert unit_option.max_value == 64  # discord.py keeps a string's max_length here
    result = await table.ann.slash(table.channel, "odds", unit="U" * 64)
    assert "need the game bot" in content(result)


# --- the extension --------------------------------------------------------------------------
async def test_the_extension_loads_every_command() -> None:
    class Plain(commands.Bot):
        async def setup_hook(self) -> None:
            await self.load_extension("skirmbot.cogs.dice")
            await self.tree.sync()

    bot = Plain(command_prefix="!", intents=discord.Intents.default())
    async with simcord.run(bot) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("general")
        ann = guild.add_member(env.create_user("ann"))
        assert set(ann.available_commands(channel)) >= {"roll", "rolloff", "to", "odds"}
        result = await ann.slash(channel, "roll", expression="3d6")
        assert "3d6 (" in content(result)
