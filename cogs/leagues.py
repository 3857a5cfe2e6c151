"""/league and /rating: community leagues (issue 13) and the server's ratings.

Thin, like every cog: it reads the options, asks the league service (skirmbot.service.leagues)
and posts its answer. The one Discord-side job it does is opening a public thread for each
pairing when a round starts (the service asks for a channel per match and seats the players
there), and posting what the bot's league check finds (a round complete, organisers reminded
of a deadline) in the league's channel.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, cast

import discord
from discord import app_commands
from discord.ext import commands

from skirmbot.leagues import TIEBREAK_NAMES, TIEBREAKS
from skirmbot.service import Member, ServiceError
from skirmbot.service.leagues import RESULTS, LeagueNotice, LeagueService
from skirmbot.service.matches import DEFAULT_RULESET, shipped_choices
from skirmbot.timers.clock import ON_MISS
from skirmbot.words import typed_key

from .buttons import answer, post
from .common import (
    UNKNOWN_CHANNEL,
    ChannelGone,
    Text,
    bot_of,
    guild_of,
    in_time,
    player,
    post_to_channel,
    roles_of,
    send,
    service_of,
)
from .matches import RULESETS, MapName, SquadName, map_choices, read_squad_file, time_controls
from .text import choice, choices, listed, short

if TYPE_CHECKING:
    from skirmbot.bot import SkirmBot

log = logging.getLogger("skirmbot.leagues")

LEAGUE_NAME_LENGTH = 50  # the service's longest league name
REASON_LENGTH = 300  # an organiser's reason, kept in the league's log
DISPUTE_LENGTH = 500  # what a player finds wrong with a result
LIST_LENGTH = 400  # missions, or tiebreaks, separated by commas
WEEK_MINUTES: Literal[10080] = 10080  # a match thread archives after a week without a message

LeagueName = app_commands.Transform[str, Text(LEAGUE_NAME_LENGTH, "league name")]
Reason = app_commands.Transform[str, Text(REASON_LENGTH, "reason")]
Dispute = app_commands.Transform[str, Text(DISPUTE_LENGTH, "dispute")]
Listing = app_commands.Transform[str, Text(LIST_LENGTH, "list")]

FORMATS = [
    app_commands.Choice(name="Swiss (give the number of rounds)", value="swiss"),
    app_commands.Choice(name="Round robin (everyone plays everyone)", value="round_robin"),
]
RESULT_CHOICES = [
    app_commands.Choice(name=short(key.replace("_", " ").capitalize()), value=key)
    for key in RESULTS
]
UNFINISHED = [
    app_commands.Choice(name="Draw", value="draw"),
    app_commands.Choice(name="Double loss", value="double_loss"),
]
ON_MISS_CHOICES = [
    app_commands.Choice(name=short(text), value=key) for key, text in ON_MISS.items()
]


def leagues_of(interaction: discord.Interaction[Any]) -> LeagueService:
    return bot_of(interaction).leagues


def someone(member: discord.Member | discord.User) -> Member:
    return Member(member.id, member.display_name)


def parts(text: str | None) -> list[str]:
    """A list typed in one option, its items separated by commas."""
    return [item.strip() for item in (text or "").split(",") if item.strip()]


def mission_points(mp_for: int | None, mp_against: int | None) -> tuple[int, int] | None:
    """Both scores of a game (the named player's, their opponent's), or neither."""
    if (mp_for is None) != (mp_against is None):
        raise ServiceError("Give both scores (mp_for and mp_against), or neither.")
    return None if mp_for is None or mp_against is None else (mp_for, mp_against)


# --- autocomplete ----------------------------------------------------------------------------
async def league_names(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The leagues of this server."""
    names = await leagues_of(interaction).names(guild_of(interaction))
    typed = current.strip().casefold()
    return choices([(name, name) for name in names if typed in name.casefold()])


async def league_squads(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The shipped squads of the league's ruleset (all rulesets' until a league is chosen),
    then the asker's stored squads (my:NAME)."""
    league = str(getattr(interaction.namespace, "league", "") or "")
    try:
        chosen = [await leagues_of(interaction).ruleset_of(guild_of(interaction), league)]
    except ServiceError:
        chosen = [rules.value for rules in RULESETS]
    options = [
        (name, title if len(chosen) == 1 else f"{title} ({rules})")
        for rules in chosen
        for name, title in shipped_choices("squads", rules)
    ]
    stored = await service_of(interaction).campaigns.squad_names(interaction.user.id)
    options += [(name, name) for name in stored]
    typed = typed_key(current)  # "iron-w" finds Iron Wardens
    return choices([(label, value) for value, label in options if typed in typed_key(label)])


def _listing(current: str, known: Sequence[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """Completes the last item of a comma-separated list: what is typed before it is kept."""
    done, _, last = current.rpartition(",")
    kept = [item.strip() for item in done.split(",") if item.strip()]
    typed = typed_key(last)
    found = []
    for value, label in known:
        if value in kept or typed not in typed_key(label):
            continue
        whole = ", ".join([*kept, value])
        if len(whole) <= LIST_LENGTH:
            found.append(choice(label if not kept else whole, whole))
    return listed(found)


async def mission_list(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The missions of the ruleset chosen in the same command, one after another."""
    rules = str(getattr(interaction.namespace, "ruleset", None) or DEFAULT_RULESET)
    return _listing(current, shipped_choices("missions", rules))


async def tiebreak_list(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The tiebreaks after league points, in the order typed."""
    return _listing(current, [(key, TIEBREAK_NAMES[key]) for key in TIEBREAKS if key != "points"])


# --- the commands ----------------------------------------------------------------------------
@app_commands.guild_only()
class Leagues(
    commands.GroupCog,
    group_name="league",
    group_description="Community leagues: sign up, rounds, results, standings",
):
    rounds = app_commands.Group(name="round", description="Organisers: run a league's rounds")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    # --- setting up ----------------------------------------------------------------------
    @app_commands.command(name="create", description="Start a league on this server")
    @app_commands.describe(
        name="The league's name (unique on this server)",
        ruleset="The rules every match plays by (default Skirm)",
        format="Swiss with a number of rounds, or round robin",
        rounds="Swiss: how many rounds (1 to 20)",
        round_hours="How long a round lasts, in hours (default a week)",
        hours="The matches' time per activation, 1 to 168 hours (default 24)",
        excuses="Missed deadlines forgiven per player before a miss forfeits (default 2)",
        on_miss="What a forgiven miss does (default: the activation ends where it stands)",
        missions="Missions played in turn, separated by commas (leave out: drawn each round)",
        battle_map="One map for every round, shipped or this server's (leave out: drawn)",
        win="League points for a win and a bye (default 3)",
        draw="League points for a draw (default 1)",
        loss="League points for a loss (default 0)",
        tiebreaks="Tiebreaks after points, in order, separated by commas",
        campaign="Players field stored squads, which keep their XP and medals",
        dispute_hours="How long a result can be disputed, in hours (default 48)",
        organisers="A role whose members organise this league with you",
        to_automatic="A miss with no excuses left hands the seat to the automatic player, not a forfeit",
    )
    @app_commands.rename(battle_map="map")
    @app_commands.autocomplete(
        missions=mission_list, tiebreaks=tiebreak_list, battle_map=map_choices
    )
    @app_commands.choices(ruleset=RULESETS, format=FORMATS, on_miss=ON_MISS_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction[Any],
        name: LeagueName,
        format: str = "swiss",
        rounds: app_commands.Range[int, 1, 20] | None = None,
        ruleset: str = DEFAULT_RULESET,
        round_hours: app_commands.Range[int, 1, 1440] = 168,
        hours: app_commands.Range[int, 1, 168] = 24,
        excuses: app_commands.Range[int, 0, 10] = 2,
        on_miss: str = "skip",
        missions: Listing | None = None,
        battle_map: MapName | None = None,
        win: app_commands.Range[int, 0, 10] = 3,
        draw: app_commands.Range[int, 0, 10] = 1,
        loss: app_commands.Range[int, 0, 10] = 0,
        tiebreaks: Listing | None = None,
        campaign: bool = False,
        dispute_hours: app_commands.Range[int, 1, 336] = 48,
        organisers: discord.Role | None = None,
        to_automatic: bool = False,
    ) -> None:
        creator = await player(interaction)
        options: dict[str, Any] = {}
        if tiebreaks is not None:
            options["tiebreaks"] = parts(tiebreaks)
        work = leagues_of(interaction).create(
            guild_of(interaction), interaction.channel_id or 0, creator, name, ruleset,
            format=format, rounds=rounds, round_hours=round_hours,
            controls=time_controls(hours, excuses, on_miss),
            missions=parts(missions) or None, maps=[battle_map] if battle_map else None,
            scoring=(win, draw, loss), campaign=campaign, dispute_hours=dispute_hours,
            organiser_role=organisers.id if organisers else None,
            missed_to_automatic=to_automatic, **options,
        )  # fmt: skip
        await answer(interaction, work)

    @app_commands.command(
        name="organisers", description="Name the role whose members organise leagues"
    )
    @app_commands.describe(
        role="The organisers' role (leave out to clear it)",
        league="Only this league's organisers (leave out: every league here; moderators only)",
    )
    @app_commands.autocomplete(league=league_names)
    async def organisers(
        self,
        interaction: discord.Interaction[Any],
        role: discord.Role | None = None,
        league: LeagueName | None = None,
    ) -> None:
        member = await player(interaction)
        work = leagues_of(interaction).set_organiser_role(
            guild_of(interaction), member, role.id if role else None, league,
            roles_of(interaction),
        )  # fmt: skip
        await answer(interaction, work)

    @app_commands.command(name="list", description="The leagues of this server")
    async def list(self, interaction: discord.Interaction[Any]) -> None:
        await answer(interaction, leagues_of(interaction).leagues(guild_of(interaction)))

    # --- players -------------------------------------------------------------------------
    @app_commands.command(name="signup", description="Sign up to a league with a squad")
    @app_commands.describe(
        league="The league",
        squad="A shipped squad, or one of yours stored with /squad save (my:NAME)",
        file="Your squad as a JSON file",
    )
    @app_commands.autocomplete(league=league_names, squad=league_squads)
    async def signup(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueName,
        squad: SquadName | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        if (squad is None) == (file is None):
            raise ServiceError("Give either a squad (a shipped one, or my:NAME) or a squad file.")
        member = await player(interaction)
        fielded: str | dict[str, Any] = squad if file is None else await read_squad_file(file)  # type: ignore[assignment]
        work = leagues_of(interaction).sign_up(guild_of(interaction), league, member, fielded)
        await answer(interaction, work)

    @app_commands.command(
        name="drop", description="Drop out of a league (your open match there is conceded)"
    )
    @app_commands.describe(league="The league")
    @app_commands.autocomplete(league=league_names)
    async def drop(self, interaction: discord.Interaction[Any], league: LeagueName) -> None:
        member = await player(interaction)
        await answer(
            interaction, leagues_of(interaction).drop(guild_of(interaction), league, member)
        )

    # --- results -------------------------------------------------------------------------
    @app_commands.command(
        name="result", description="Organisers: correct a game's result, with a reason"
    )
    @app_commands.describe(
        league="The league",
        round="The round of the game",
        member="A player of the game",
        result="The result, from that player's side",
        reason="Why (kept in the league's log)",
        mp_for="That player's score, MP or VP (with mp_against)",
        mp_against="Their opponent's score (with mp_for)",
    )
    @app_commands.autocomplete(league=league_names)
    @app_commands.choices(result=RESULT_CHOICES)
    async def result(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueName,
        round: app_commands.Range[int, 1, 100],
        member: discord.Member,
        result: str,
        reason: Reason,
        mp_for: app_commands.Range[int, 0, 999] | None = None,
        mp_against: app_commands.Range[int, 0, 999] | None = None,
    ) -> None:
        organiser = await player(interaction)
        work = leagues_of(interaction).correct(
            guild_of(interaction), league, organiser, round, member.id, result, reason,
            mp=mission_points(mp_for, mp_against), roles=roles_of(interaction),
        )  # fmt: skip
        await answer(interaction, work)

    @app_commands.command(name="dispute", description="Dispute your game's result in a round")
    @app_commands.describe(
        league="The league", round="The round of your game", text="What is wrong with it"
    )
    @app_commands.autocomplete(league=league_names)
    async def dispute(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueName,
        round: app_commands.Range[int, 1, 100],
        text: Dispute,
    ) -> None:
        member = await player(interaction)
        work = leagues_of(interaction).dispute(guild_of(interaction), league, member, round, text)
        await answer(interaction, work)

    @app_commands.command(
        name="settle", description="Organisers: settle a dispute, keeping or correcting the result"
    )
    @app_commands.describe(
        league="The league",
        round="The round of the disputed game",
        member="A player of the game",
        reason="Why (kept in the league's log)",
        result="The result from that player's side (leave out: the result stands)",
    )
    @app_commands.autocomplete(league=league_names)
    @app_commands.choices(result=RESULT_CHOICES)
    async def settle(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueName,
        round: app_commands.Range[int, 1, 100],
        member: discord.Member,
        reason: Reason,
        result: str | None = None,
    ) -> None:
        organiser = await player(interaction)
        work = leagues_of(interaction).settle(
            guild_of(interaction), league, organiser, round, member.id, result, reason,
            roles=roles_of(interaction),
        )  # fmt: skip
        await answer(interaction, work)

    # --- reading -------------------------------------------------------------------------
    @app_commands.command(name="standings", description="A league's standings, table and text")
    @app_commands.describe(league="The league", after="After this round (leave out: now)")
    @app_commands.autocomplete(league=league_names)
    async def standings(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueName,
        after: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:
        work = leagues_of(interaction).standings(guild_of(interaction), league, after)
        await answer(interaction, work)

    @app_commands.command(
        name="history", description="A player's games in a league, with links to their matches"
    )
    @app_commands.describe(league="The league", member="The player (leave out: you)")
    @app_commands.autocomplete(league=league_names)
    async def history(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueName,
        member: discord.Member | None = None,
    ) -> None:
        who = someone(member or interaction.user)
        await answer(
            interaction, leagues_of(interaction).history(guild_of(interaction), league, who)
        )

    @app_commands.command(name="log", description="A league's log: who did what, and why")
    @app_commands.describe(league="The league")
    @app_commands.autocomplete(league=league_names)
    async def log(self, interaction: discord.Interaction[Any], league: LeagueName) -> None:
        work = leagues_of(interaction).log(guild_of(interaction), league)
        await answer(interaction, work, private=True)

    @app_commands.command(
        name="export", description="A league as CSV and JSON: players, rounds, games, standings"
    )
    @app_commands.describe(league="The league")
    @app_commands.autocomplete(league=league_names)
    async def export(self, interaction: discord.Interaction[Any], league: LeagueName) -> None:
        exported = await in_time(
            interaction, leagues_of(interaction).export(guild_of(interaction), league)
        )
        files = [
            discord.File(io.BytesIO(exported.csv.encode("utf-8")), f"{exported.name}.csv"),
            discord.File(io.BytesIO(exported.json.encode("utf-8")), f"{exported.name}.json"),
        ]
        text = "The league's players, rounds, games and standings (CSV and JSON)."
        await send(interaction, text, files=files)

    # --- rounds (organisers) ---------------------------------------------------------------
    @rounds.command(
        name="start", description="Pair the next round and open a thread for each match"
    )
    @app_commands.describe(league="The league")
    @app_commands.autocomplete(league=league_names)
    async def round_start(self, interaction: discord.Interaction[Any], league: LeagueName) -> None:
        home = await leagues_of(interaction).channel_of(guild_of(interaction), league)
        parent = interaction.client.get_channel(home) or interaction.channel
        if not isinstance(parent, discord.TextChannel):
            raise ServiceError(
                "I open the round's match threads in the league's text channel, and it is gone; "
                "start the round from a text channel."
            )
        organiser = await player(interaction)
        threads: list[discord.Thread] = []

        async def open_thread(title: str) -> int:
            created = await parent.create_thread(
                name=short(title),
                type=discord.ChannelType.public_thread,
                auto_archive_duration=WEEK_MINUTES,  # play-by-post matches pause for days
            )
            threads.append(created)
            return created.id

        work = leagues_of(interaction).start_round(
            guild_of(interaction), league, organiser, open_thread, roles_of(interaction)
        )
        try:
            reply = await in_time(interaction, work)
        except Exception:
            await _without_match(interaction, threads[-1:])
            raise
        await post(interaction, reply.all())  # the pairings, both players of each game pinged
        openings = dict(await leagues_of(interaction).openings(guild_of(interaction), league))
        for thread in threads:  # then, in each thread, its players pinged and the match's state
            if thread.id in openings:
                await post_to_channel(thread, openings[thread.id])
            await post_to_channel(thread, await service_of(interaction).status(thread.id))

    @rounds.command(
        name="close",
        description="Close the open round (after its deadline, unfinished games as you say)",
    )
    @app_commands.describe(
        league="The league",
        unfinished="After the deadline: the unfinished games' result",
        reason="Why (kept in the league's log)",
    )
    @app_commands.autocomplete(league=league_names)
    @app_commands.choices(unfinished=UNFINISHED)
    async def round_close(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueName,
        unfinished: str | None = None,
        reason: Reason = "",
    ) -> None:
        organiser = await player(interaction)
        work = leagues_of(interaction).close_round(
            guild_of(interaction), league, organiser, unfinished, reason=reason,
            roles=roles_of(interaction),
        )  # fmt: skip
        await answer(interaction, work)

    @rounds.command(
        name="decide", description="After the deadline: decide one unfinished game of the round"
    )
    @app_commands.describe(
        league="The league",
        member="A player of the unfinished game",
        result="The result, from that player's side",
        reason="Why (kept in the league's log)",
        mp_for="That player's score, MP or VP (with mp_against)",
        mp_against="Their opponent's score (with mp_for)",
    )
    @app_commands.autocomplete(league=league_names)
    @app_commands.choices(result=RESULT_CHOICES)
    async def round_decide(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueName,
        member: discord.Member,
        result: str,
        reason: Reason = "",
        mp_for: app_commands.Range[int, 0, 999] | None = None,
        mp_against: app_commands.Range[int, 0, 999] | None = None,
    ) -> None:
        organiser = await player(interaction)
        work = leagues_of(interaction).decide(
            guild_of(interaction), league, organiser, member.id, result, reason=reason,
            mp=mission_points(mp_for, mp_against), roles=roles_of(interaction),
        )  # fmt: skip
        await answer(interaction, work)

    @rounds.command(name="show", description="A round's games and their results so far")
    @app_commands.describe(league="The league", number="The round (leave out: the current one)")
    @app_commands.autocomplete(league=league_names)
    async def round_show(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueName,
        number: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:
        work = leagues_of(interaction).round_status(guild_of(interaction), league, number)
        await answer(interaction, work)

    # --- what the bot's league check found ------------------------------------------------
    @commands.Cog.listener()
    async def on_skirm_league(self, notice: LeagueNotice) -> None:
        """A round complete, or organisers reminded of a deadline: posted in the league's
        channel (skirmbot/bot.py checks the leagues every few minutes)."""
        bot = cast("SkirmBot", self.bot)
        where = f"League {notice.league!r} (round {notice.round})"
        try:
            found: Any = bot.get_channel(notice.channel_id) or await bot.fetch_channel(
                notice.channel_id
            )
            if not isinstance(found, discord.abc.Messageable):
                raise ChannelGone(f"channel {notice.channel_id} takes no messages")
            for reply in notice.reply.all():
                await post_to_channel(found, reply)
        except (ChannelGone, discord.HTTPException) as error:
            log.warning("%s: could not post in channel %s: %s", where, notice.channel_id, error)


async def _without_match(
    interaction: discord.Interaction[Any], threads: Sequence[discord.Thread]
) -> None:
    """A thread opened for a match the service then refused is deleted: no empty thread is
    left behind (starting the round again opens a new one)."""
    for thread in threads:
        if await service_of(interaction).last_match_id(thread.id) is not None:
            continue
        try:
            await thread.delete()
        except discord.HTTPException as error:
            if not (isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL):
                log.warning("Could not delete the empty thread %s: %s", thread.id, error)


# --- /rating -----------------------------------------------------------------------------------
@app_commands.guild_only()
class Ratings(
    commands.GroupCog,
    group_name="rating",
    group_description="The server's player ratings, from every finished match between players",
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="leaderboard", description="The server's best rated players")
    @app_commands.describe(ruleset="Only this ruleset's matches (leave out: all)")
    @app_commands.choices(ruleset=RULESETS)
    async def leaderboard(
        self, interaction: discord.Interaction[Any], ruleset: str | None = None
    ) -> None:
        ratings = leagues_of(interaction).ratings
        await answer(interaction, ratings.leaderboard(guild_of(interaction), ruleset))

    @app_commands.command(name="show", description="A player's rating and place on this server")
    @app_commands.describe(
        member="The player (leave out: you)", ruleset="Only this ruleset's matches (leave out: all)"
    )
    @app_commands.choices(ruleset=RULESETS)
    async def show(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | None = None,
        ruleset: str | None = None,
    ) -> None:
        ratings = leagues_of(interaction).ratings
        who = someone(member or interaction.user)
        await answer(interaction, ratings.rating_of(guild_of(interaction), who, ruleset))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Leagues(bot))
    await bot.add_cog(Ratings(bot))
