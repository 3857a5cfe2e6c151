"""League use cases, without Discord: create, sign up, drop, run rounds, results, standings.

A league opens ordinary matches (MatchService), one per pairing, each in a channel the caller
opens (`open_channel`: the cog makes a Discord thread; tests and the simulator pass a fake).
A game's result is its match's result, stored as columns when the match ends, never replayed
from its record, unless an organiser decided it: an unfinished match at the deadline (a draw,
a double loss or a winner; the match is called off), a correction (logged with its reason), a
settled dispute. Standings and ratings are worked out from those results by the pure league
domain (`skirmbot.leagues`).

Organisers are the league's creator, the server's moderators, and members with the league's
organiser role or the server's (`set_organiser_role`). Every refusal is a ServiceError in plain
words and changes nothing. Every change is one store transaction that checks the league's
version, so two organisers at once cannot both start a round (the second is told to retry).

Rounds and players: a player signed up before round N starts plays from round N (late entry;
a round robin's schedule is fixed at its first round, so it takes no late entries); a player
who drops out concedes their open match and is left out of the rounds after. Swiss rounds are
paired by league points, then the players' server rating, without rematches while another
pairing exists, the bye going to the lowest-ranked player who has not had one.
"""

from __future__ import annotations

import csv
import io
import json
import random
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from skirmbot import content
from skirmbot.leagues import (
    TIEBREAK_NAMES,
    TIEBREAKS,
    Game,
    LeagueError,
    Pairing,
    Scoring,
    Standing,
    check_tiebreaks,
    had_byes,
    ordinals,
    played_pairs,
    rate,
    round_robin,
    standings,
    swiss_order,
    swiss_round,
)
from skirmbot.render.standings import StandingsRow, StandingsTable, standings_png
from skirmbot.rules import commands
from skirmbot.rules.errors import ContentError, RulesError
from skirmbot.rules.ruleset import (
    CAMPAIGNS,
    DEFAULT_RULESET,
    Ruleset,
    lacking,
    ruleset,
    rulesets,
)
from skirmbot.service.campaigns import CampaignService, is_stored_name, stored_name
from skirmbot.service.errors import Busy, NotAllowed, ServiceError
from skirmbot.service.matches import (
    ABORTED,
    DEPLOYING,
    PLAYING,
    SETUP,
    MatchService,
    Member,
    dice_revealed,
)
from skirmbot.service.ratings import RatingService
from skirmbot.service.replies import Reply, channel, clip, person, when
from skirmbot.store import (
    LeagueGameRow,
    LeagueLog,
    LeagueMemberTaken,
    LeagueNameTaken,
    LeaguePlayerRow,
    LeagueRoundRow,
    LeagueRow,
    Store,
    StoreError,
    VersionConflict,
)
from skirmbot.timers.clock import TimeControls, duration
from skirmbot.words import seats_words, shown, typed_key

__all__ = [
    "FORMATS",
    "RESULTS",
    "LeagueExport",
    "LeagueNotice",
    "LeagueService",
    "LeagueStandings",
]

SWISS, ROUND_ROBIN = "swiss", "round_robin"
FORMATS = (SWISS, ROUND_ROBIN)
# An organiser's result for a game, from the named player's side.
WIN, LOSS, DRAW, DOUBLE_LOSS = "win", "loss", "draw", "double_loss"
RESULTS = (WIN, LOSS, DRAW, DOUBLE_LOSS)
ORGANISER_ROLE = "league_organiser_role"  # guild setting: the role whose members organise
# Substitutes (issue 34): a league's config says (True) that a seat out of excused misses goes to
# the automatic player for the rest of the match instead of forfeiting; its page says so.
MISSED_TO_AUTOMATIC = "missed_to_automatic"
MISSED_TO_AUTOMATIC_WORDS = (
    "A player who misses a deadline with no excused misses left hands their seat to the "
    "automatic player for the rest of the match, instead of forfeiting; the game counts for "
    "them as it ends."
)
MAX_NAME = 50
MAX_ROUNDS = 20
MAX_ROUND_HOURS = 60 * 24  # 60 days
DEFAULT_ROUND_HOURS = 7 * 24
DEFAULT_DISPUTE_HOURS = 48
MAX_DISPUTE = 500  # characters of a dispute's text
MAX_REASON = 300
BUSY = "Someone else changed this league at the same moment; please try again."
TABLE_COLUMNS = ("points", "mp_difference", "strength_of_schedule", "rating")


@dataclass(frozen=True)
class LeagueStandings:
    """A league's standings: the lines, as text and as the picture's table."""

    standings: list[Standing]
    text: str
    table: StandingsTable


@dataclass(frozen=True)
class LeagueExport:
    """A league exported: one CSV text (sections: players, rounds, games, standings, each
    with its own header row, the section's name in the first column) and one JSON text."""

    name: str  # a file name stem, such as "spring-league"
    csv: str
    json: str


@dataclass(frozen=True)
class LeagueNotice:
    """Something the bot's timer loop posts in a league's channel (`due_rounds`)."""

    guild_id: int
    channel_id: int
    league: str
    round: int
    reply: Reply


@dataclass(frozen=True)
class GameResult:
    """A decided game: the domain's Game, and when its result came."""

    game: Game
    at: float


async def is_organiser(
    store: Store, league: LeagueRow, member: Member, roles: Collection[int]
) -> bool:
    """Whether the member runs the league: its creator, a moderator, or a member with its
    organiser role or the server's (`roles`: the member's role ids)."""
    if member.id == league.creator_id or member.moderator:
        return True
    role_ids = {league.organiser_role}
    guild_role = await store.get_setting(league.guild_id, ORGANISER_ROLE)
    if guild_role is not None:
        role_ids.add(int(guild_role))
    return any(role in role_ids for role in roles)


class LeagueService:
    def __init__(
        self,
        store: Store,
        matches: MatchService,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.matches = matches
        self.now = clock
        self.ratings = RatingService(store)

    # --- leagues ------------------------------------------------------------------------------
    async def create(
        self,
        guild: int,
        channel_id: int,
        creator: Member,
        name: str,
        rules: str = DEFAULT_RULESET,
        *,
        format: str = SWISS,
        rounds: int | None = None,
        round_hours: float = DEFAULT_ROUND_HOURS,
        controls: TimeControls | None = None,
        missions: Sequence[str] | None = None,
        maps: Sequence[str] | None = None,
        seed: int | None = None,
        scoring: Scoring | tuple[int, int, int] | None = None,
        tiebreaks: Sequence[str] = TIEBREAKS,
        campaign: bool = False,
        dispute_hours: float = DEFAULT_DISPUTE_HOURS,
        organiser_role: int | None = None,
        missed_to_automatic: bool = False,
    ) -> Reply:
        """A new league in sign-up. `format`: "swiss" (with `rounds`) or "round_robin";
        `controls`: every league match's clock; `missions`/`maps`: one per round in turn, or
        None: drawn for each round from the ruleset's shipped ones with `seed`; `scoring`:
        points for a win, a draw, a loss; `campaign`: players field stored squads, which keep
        their XP and medals from match to match."""
        name = " ".join(name.split())
        if not name or len(name) > MAX_NAME or any(ord(c) < 32 for c in name):
            raise ServiceError(f"A league needs a name of 1 to {MAX_NAME} characters.")
        played = _ruleset(rules)
        if 2 not in played.seats:  # pairings, standings and ratings are one against one
            who = seats_words(played.title, played.seats)
            raise ServiceError(f"A league pairs its players one against one, and {who}.")
        if campaign and CAMPAIGNS not in played.features:  # stored squads are its campaign's
            raise ServiceError(str(lacking(played.title, CAMPAIGNS)))
        if format not in FORMATS:
            raise ServiceError(
                f"'{shown(format)}' is not a league format: use swiss (with a number of rounds) "
                "or round_robin."
            )
        if format == SWISS and (rounds is None or not 1 <= rounds <= MAX_ROUNDS):
            raise ServiceError(f"A Swiss league needs a number of rounds from 1 to {MAX_ROUNDS}.")
        if not 1 <= round_hours <= MAX_ROUND_HOURS:
            raise ServiceError(
                f"A round lasts from 1 hour to {MAX_ROUND_HOURS // 24} days (got {round_hours} hours)."
            )
        if not 1 <= dispute_hours <= 24 * 14:
            raise ServiceError("A result can be disputed for 1 hour to 14 days after it comes in.")
        controls = controls or TimeControls()
        fixed_missions = _names("missions", missions, played.name)
        fixed_maps, server_maps = await self._league_maps(guild, maps, played)
        try:
            if isinstance(scoring, tuple):
                scoring = Scoring(*scoring)
            scoring = scoring or Scoring()
            order = check_tiebreaks(list(tiebreaks))
        except LeagueError as error:
            raise ServiceError(str(error)) from error
        config: dict[str, Any] = {
            "format": format,
            "rounds": rounds if format == SWISS else None,
            "round_hours": round_hours,
            "clock": asdict(controls),
            "missions": fixed_missions,
            "maps": fixed_maps,
            # the server's own maps it names, copied: removing one later changes no league
            "server_maps": server_maps,
            "seed": seed if seed is not None else random.SystemRandom().randrange(2**31),
            "scoring": asdict(scoring),
            "tiebreaks": list(order),
            "campaign": campaign,
            "dispute_hours": dispute_hours,
            MISSED_TO_AUTOMATIC: missed_to_automatic,
        }
        try:
            league = await self.store.create_league(
                guild, name, played.name, config, creator.id, channel_id, organiser_role,
                LeagueLog(creator.id, "create", f"{format}, {played.name}"),
            )  # fmt: skip
        except LeagueNameTaken as error:
            raise ServiceError(
                f"This server already has a league called '{shown(name)}'; choose another name."
            ) from error
        await self.store.remember_player(creator.id, creator.name)
        return Reply(
            f"**New league: {league.name}** ({played.title}, {_format_text(config)}"
            f"{', campaign: stored squads keep their XP' if campaign else ''}).\n"
            f"Rounds last {duration(int(round_hours * 3600))}; matches: {controls.describe()}.\n"
            f"Scoring: {scoring.win} for a win (and a bye), {scoring.draw} for a draw, "
            f"{scoring.loss} for a loss; ties broken by "
            f"{', '.join(_tiebreak_name(key, played) for key in order[1:])}.\n"
            + (f"{MISSED_TO_AUTOMATIC_WORDS}\n" if missed_to_automatic else "")
            + f"Players sign up with a squad; {creator.name} starts the first round."
        )

    async def leagues(self, guild: int) -> Reply:
        """The server's leagues, each with its state."""
        found = await self.store.leagues(guild)
        if not found:
            return Reply("This server has no leagues yet: an organiser creates one.")
        lines = ["**Leagues on this server**"]
        for league in found:
            players = await self.store.league_players(league.id)
            rounds = await self.store.league_rounds(league.id)
            lines.append(
                f"• {league.name}: {ruleset(league.ruleset).title}, "
                f"{_format_text(league.config)}, {league.status}, {len(players)} players, "
                f"{len(rounds)} rounds started"
            )
        return Reply(clip("\n".join(lines)))

    async def names(self, guild: int) -> list[str]:
        """The server's leagues' names (for autocomplete)."""
        return [league.name for league in await self.store.leagues(guild)]

    async def set_organiser_role(
        self,
        guild: int,
        member: Member,
        role_id: int | None,
        league: str | None = None,
        roles: Collection[int] = (),
    ) -> Reply:
        """Name the role whose members organise the server's leagues (a moderator's choice),
        or one league's (its organisers' choice); None clears it."""
        if league is None:
            if not member.moderator:
                raise NotAllowed("Only the server's moderators name its league organisers' role.")
            await self.store.set_setting(guild, ORGANISER_ROLE, str(role_id) if role_id else None)
            return Reply(
                "League organisers are now the members with that role (and each league's creator)."
                if role_id
                else "The server's league organiser role is cleared."
            )
        found = await self._league(guild, league)
        await self._check_organiser(found, member, roles)
        await self._write(
            self.store.set_league_role(
                found.id,
                found.version,
                role_id,
                LeagueLog(member.id, "organiser role", str(role_id)),
            )
        )
        return Reply(f"{found.name}'s organiser role is {'set' if role_id else 'cleared'}.")

    # --- players ------------------------------------------------------------------------------
    async def sign_up(
        self, guild: int, league: str, member: Member, squad: str | dict[str, Any]
    ) -> Reply:
        """Sign up with a squad: a shipped squad's name, `my:NAME` (a stored squad: required in
        a campaign league, where it keeps its XP), or a squad file's data; checked with the
        league's ruleset. Late entry is open until the season's last round starts."""
        found = await self._league(guild, league)
        if found.status == "finished":
            raise ServiceError(f"{found.name} is over; it takes no more players.")
        players = await self.store.league_players(found.id)
        mine = next((p for p in players if p.user_id == member.id), None)
        if mine is not None:
            if mine.dropped_round is not None:
                raise ServiceError(
                    f"You dropped out of {found.name}; a player who dropped out cannot sign up again."
                )
            raise ServiceError(f"You are already signed up to {found.name} with {mine.squad_name}.")
        rounds = await self.store.league_rounds(found.id)
        if found.config["format"] == ROUND_ROBIN and rounds:
            raise ServiceError(
                f"{found.name} is a round robin: its schedule was fixed when its first round "
                "started, so it takes no late entries."
            )
        joins = len(rounds) + 1
        total = found.config.get("rounds")
        if total is not None and joins > int(total):
            raise ServiceError(f"{found.name}'s last round has started; it takes no more players.")
        data, squad_id, squad_name = await self._squad(found, member, squad)
        entry = LeaguePlayerRow(found.id, member.id, member.name, squad_name,
                                data, squad_id, joins, None)  # fmt: skip
        try:
            await self._write(
                self.store.add_league_player(
                    found.id,
                    found.version,
                    entry,
                    LeagueLog(member.id, "sign up", f"{member.name} with {squad_name}"),
                )  # fmt: skip
            )
        except LeagueMemberTaken as error:
            raise ServiceError(f"You are already signed up to {found.name}.") from error
        await self.store.remember_player(member.id, member.name)
        late = f" (from round {joins})" if rounds else ""
        return Reply(
            f"{member.name} joins **{found.name}** with **{squad_name}**{late}: "
            f"{len(players) + 1} players signed up."
        )

    async def drop(self, guild: int, league: str, member: Member) -> Reply:
        """Drop out: the player's open league match is conceded, and later rounds leave them
        out. Before the first round, the sign-up is simply withdrawn."""
        found = await self._league(guild, league)
        me = await self._player(found, member.id)
        if me.dropped_round is not None:
            raise ServiceError(
                f"You already dropped out of {found.name} (round {me.dropped_round})."
            )
        rounds = await self.store.league_rounds(found.id)
        current = next((r for r in rounds if r.status == "open"), None)
        decision: tuple[int, str] | None = None
        conceded = ""
        told: list[Reply] = []
        if current is not None:
            game = _game_of(await self.store.league_games(found.id, current.number), member.id)
            if game is not None and game.second is not None and game_result(game) is None:
                if game.match_id is not None:
                    ended = await self._concede(game.match_id, member)
                    told = [ended] if ended is not None else []
                    conceded = " Their open match is conceded."
                after = _game_of(await self.store.league_games(found.id, current.number), member.id)
                if after is not None and game_result(after) is None:  # no match result to stand on
                    decision = (game.id, "second" if member.id == game.first else "first")
        last = current.number if current is not None else (rounds[-1].number if rounds else None)
        log = LeagueLog(member.id, "drop", f"{member.name}, round {last or 0}")
        await self._write(
            self.store.drop_league_player(found.id, found.version, member.id, last, log, decision)
        )
        if last is None:
            return Reply(f"{member.name} withdraws from **{found.name}** before it began.")
        return Reply(
            f"{member.name} drops out of **{found.name}** after round {last}.{conceded} "
            "Later rounds leave them out; their results stand.",
            followups=told,
        )

    # --- rounds ------------------------------------------------------------------------------
    async def start_round(
        self,
        guild: int,
        league: str,
        organiser: Member,
        open_channel: Callable[[str], Awaitable[int]],
        roles: Collection[int] = (),
    ) -> Reply:
        """Pair the next round and open its matches: one channel each (`open_channel(title)`
        gives its id), both players seated with their league squads, the round's mission and
        map, the league's clock, ready to deploy. Refused while a round is open (a round whose
        games are all decided is closed first). A start cut short (a channel that could not
        be opened) is picked up again by starting once more."""
        found = await self._league(guild, league)
        await self._check_organiser(found, organiser, roles)
        if found.status == "finished":
            raise ServiceError(f"{found.name} is over: every round has been played.")
        if found.config.get("campaign"):  # XP a stopped process left unawarded, before fielding
            await CampaignService(self.store).complete_awards()
        rounds = await self.store.league_rounds(found.id)
        current = next((r for r in rounds if r.status == "open"), None)
        if current is not None:
            games = await self.store.league_games(found.id, current.number)
            if any(g.second is not None and g.match_id is None for g in games):
                return await self._open_matches(found, current, open_channel)  # resume
            undecided = [g for g in games if game_result(g) is None]
            if undecided:
                raise ServiceError(
                    f"Round {current.number} of {found.name} is still open: "
                    f"{len(undecided)} of its {len(games)} games have no result. It closes when "
                    f"they end; after its deadline ({when(current.deadline)}) an organiser "
                    "decides the unfinished ones and closes the round."
                )
            found = await self._close(found, current, organiser.id)
            if found.status == "finished":
                raise ServiceError(f"{found.name} is over: every round has been played.")
        number = len(rounds) + 1
        players = await self.store.league_players(found.id)
        pairing, config = await self._pair(found, number, players)
        missions, maps = found.config["missions"], found.config["maps"]
        now = self.now()
        opened = LeagueRoundRow(
            found.id, number, "open",
            _pick(missions, number, found.config["seed"], "missions", found.ruleset),
            _pick(maps, number, found.config["seed"], "maps", found.ruleset),
            now, now + float(found.config["round_hours"]) * 3600,
        )  # fmt: skip
        boards: list[tuple[int, int, int | None]] = [
            (board, first, second) for board, (first, second) in enumerate(pairing.pairs, start=1)
        ]
        if pairing.bye is not None:
            boards.append((len(boards) + 1, pairing.bye, None))
        found = await self._write(
            self.store.open_league_round(
                found.id,
                found.version,
                opened,
                boards,
                LeagueLog(organiser.id, "start round", f"round {number}"),
                config,
            )  # fmt: skip
        )
        return await self._open_matches(found, opened, open_channel)

    async def _pair(
        self, league: LeagueRow, number: int, players: list[LeaguePlayerRow]
    ) -> tuple[Pairing, dict[str, Any] | None]:
        """The round's pairing, and the league's new config when it changes (the round
        robin's schedule, fixed at its first round)."""
        config = league.config
        playing = [p.user_id for p in players if _plays(p, number)]
        if config["format"] == ROUND_ROBIN:
            schedule = config.get("schedule")
            changed: dict[str, Any] | None = None
            if schedule is None:
                if len(playing) < 2:
                    raise ServiceError(f"{league.name} needs at least 2 players to start.")
                made = round_robin(playing)
                schedule = [[[list(pair) for pair in p.pairs], p.bye] for p in made]
                changed = dict(config, schedule=schedule)
            if number > len(schedule):
                raise ServiceError(f"{league.name} is over: every round has been played.")
            pairs, bye = schedule[number - 1]
            kept: list[tuple[int, int]] = []
            byes = [] if bye is None else [int(bye)]
            for first, second in pairs:  # a player who dropped: their opponent has a bye
                if first in playing and second in playing:
                    kept.append((int(first), int(second)))
                else:
                    byes += [p for p in (int(first), int(second)) if p in playing]
            if len([b for b in byes if b in playing]) > 1:
                # Two or more without an opponent: they play each other instead.
                waiting = [b for b in byes if b in playing]
                while len(waiting) > 1:
                    kept.append((waiting.pop(0), waiting.pop(0)))
                byes = waiting
            bye_player = next((b for b in byes if b in playing), None)
            return Pairing(tuple(kept), bye_player), changed
        total = int(config["rounds"])
        if number > total:
            raise ServiceError(f"{league.name} is over: its {total} rounds have been played.")
        if len(playing) < 2:
            raise ServiceError(
                f"{league.name} needs at least 2 players in the round; {len(playing)} "
                f"{'is' if len(playing) == 1 else 'are'} signed up."
            )
        results = [r.game for r in await self._results(league)]
        rating = await self.ratings.ordinals(league.guild_id, league.ruleset)
        ranked = swiss_order(playing, results, _scoring(league), rating)
        pairing = swiss_round(
            ranked, played_pairs(results), had_byes(results), lookahead=number < total
        )
        return pairing, None

    async def _open_matches(
        self,
        league: LeagueRow,
        number: LeagueRoundRow,
        open_channel: Callable[[str], Awaitable[int]],
    ) -> Reply:
        players = {p.user_id: p for p in await self.store.league_players(league.id)}
        games = await self.store.league_games(league.id, number.number)
        controls = TimeControls.from_json(league.config["clock"])
        for game in games:
            if game.second is None or game.match_id is not None:
                continue
            first, second = players[game.first], players[game.second]
            title = f"{league.name} R{number.number} B{game.board}: {first.name} v {second.name}"
            channel_id = await open_channel(title)
            match_id = await self._new_match(league, number, channel_id, first, second, controls)
            await self.store.set_league_game_match(game.id, match_id, channel_id)
        return await self._round_reply(league, number, controls)

    async def _league_maps(
        self, guild: int, chosen: Sequence[str] | None, played: Ruleset
    ) -> tuple[list[str] | None, dict[str, dict[str, Any]]]:
        """The maps a league plays in turn, named as players type them: each a shipped map of
        the ruleset (by its file name), else one of the server's own (by its name's key, its
        data copied, checked to be of a kind the ruleset plays on); None: drawn each round from
        the shipped ones."""
        if chosen is None or not list(chosen):
            return None, {}
        names: list[str] = []
        copies: dict[str, dict[str, Any]] = {}
        for typed in chosen:
            try:
                names.append(content.find("maps", typed, played.name))
                continue
            except ContentError:
                pass
            data = await self.matches.maps.server_map_data(guild, typed)
            if data is None:
                raise ServiceError(await self.matches.maps.no_such_map(guild, typed, played.name))
            try:
                played.load_map(data)  # a map of the kind it plays on
            except ContentError as error:
                raise ServiceError(str(error)) from error
            key = typed_key(str(data["name"]))
            names.append(key)
            copies[key] = data
        return names, copies

    async def _new_match(
        self,
        league: LeagueRow,
        number: LeagueRoundRow,
        channel_id: int,
        first: LeaguePlayerRow,
        second: LeaguePlayerRow,
        controls: TimeControls,
    ) -> int:
        a, b = Member(first.user_id, first.name), Member(second.user_id, second.name)
        await self.matches.create(
            league.guild_id, channel_id, a, opponent=b, mission=number.mission,
            battle_map=number.map, controls=controls, rules=league.ruleset,
            map_data=league.config.get("server_maps", {}).get(number.map),
        )  # fmt: skip
        await self.matches.join(channel_id, b)
        for member, entry in ((a, first), (b, second)):
            await self.matches.choose_squad(channel_id, member, await self._fielded(entry))
        row = await self.store.active_match(channel_id)
        assert row is not None and row.status == DEPLOYING
        return row.id

    async def _fielded(self, entry: LeaguePlayerRow) -> str | dict[str, Any]:
        """What a player fields: their stored squad (its XP as it stands now) in a campaign
        league, else the squad's data as they signed up with it."""
        if entry.squad_id is not None:
            stored = await self.store.squad_by_id(entry.squad_id)
            if stored is not None and stored.owner_id == entry.user_id:
                return f"my:{stored.name}"
        assert entry.squad is not None
        return entry.squad

    async def _round_reply(
        self, league: LeagueRow, number: LeagueRoundRow, controls: TimeControls
    ) -> Reply:
        players = {p.user_id: p for p in await self.store.league_players(league.id)}
        games = await self.store.league_games(league.id, number.number)
        mission = content.raw("missions", number.mission, league.ruleset).get(
            "name", number.mission
        )
        battle_map = _map_title(league, number.map)
        lines = [
            f"**{league.name}: round {number.number}** ({mission} on {battle_map}). "
            f"Deadline {when(number.deadline)}."
        ]
        pings: list[int] = []
        for game in games:
            first = players[game.first]
            if game.second is None:
                lines.append(f"Bye: {person(game.first)} (scores as a win).")
                pings.append(game.first)
                continue
            second = players[game.second]
            where = f" in {channel(game.channel_id)}" if game.channel_id is not None else ""
            lines.append(
                f"Board {game.board}: {person(game.first)} ({first.squad_name}) v "
                f"{person(game.second)} ({second.squad_name}){where}"
            )
            pings += [game.first, game.second]
        lines.append(f"Clock: {controls.describe()}. Deploy with /deploy in your match's thread.")
        return Reply(clip("\n".join(lines)), pings=pings)

    async def openings(self, guild: int, league: str) -> list[tuple[int, Reply]]:
        """Each match of the league's open round, by its channel: the first message in it,
        both players pinged, with the mission, the deadline and the clock."""
        found = await self._league(guild, league)
        number = await self._round(found, None)
        controls = TimeControls.from_json(found.config["clock"])
        mission = content.raw("missions", number.mission, found.ruleset).get("name", number.mission)
        battle_map = _map_title(found, number.map)
        openings = []
        for game in await self.store.league_games(found.id, number.number):
            if game.second is None or game.channel_id is None:
                continue
            text = (
                f"**{found.name}**, round {number.number}, board {game.board}: "
                f"{person(game.first)} v {person(game.second)}, {mission} on {battle_map}. "
                f"Deadline {when(number.deadline)}.\nClock: {controls.describe()}. "
                "Deploy with /deploy here."
            )
            openings.append((game.channel_id, Reply(text, pings=[game.first, game.second])))
        return openings

    async def ruleset_of(self, guild: int, league: str) -> str:
        """The name of the league's ruleset ("skirm", "lite")."""
        return (await self._league(guild, league)).ruleset

    async def channel_of(self, guild: int, league: str) -> int:
        """The channel the league was created in: its announcements and its match threads."""
        return (await self._league(guild, league)).channel_id

    async def round_status(self, guild: int, league: str, round: int | None = None) -> Reply:
        """A round's games (the open one, else the last) and their results so far."""
        found = await self._league(guild, league)
        number = await self._round(found, round)
        players = await self._names(found)
        games = await self.store.league_games(found.id, number.number)
        lines = [
            f"**{found.name}: round {number.number}** ({number.status}; deadline "
            f"{when(number.deadline)})"
        ]
        for game in games:
            lines.append(_game_line(game, players))
        undecided = sum(1 for g in games if game_result(g) is None)
        if number.status == "open":
            lines.append(
                f"{undecided} of {len(games)} games still to finish."
                if undecided
                else "Every game has a result: the round closes."
            )
        return Reply(clip("\n".join(lines)))

    async def decide(
        self,
        guild: int,
        league: str,
        organiser: Member,
        player: int,
        result: str,
        *,
        reason: str = "",
        mp: tuple[int, int] | None = None,
        roles: Collection[int] = (),
    ) -> Reply:
        """An organiser decides an unfinished game of the open round after its deadline:
        `result` and `mp` (their score, then their opponent's: Mission Points in Skirm) from
        `player`'s side (win, loss, draw or double_loss); its match is called off. The round
        closes once every game has a result."""
        found = await self._league(guild, league)
        await self._check_organiser(found, organiser, roles)
        number = await self._round(found, None)
        if number.status != "open":
            raise ServiceError(
                f"{found.name} has no open round; an organiser corrects a result instead."
            )
        games = await self.store.league_games(found.id, number.number)
        game = await self._players_game(found, games, player, number.number)
        if game_result(game) is not None:
            raise ServiceError(
                "That game already has a result; an organiser corrects it, with a reason."
            )
        if self.now() < number.deadline:
            raise ServiceError(
                f"That match is still being played; its result comes when it ends. After the "
                f"round's deadline ({when(number.deadline)}) an organiser can decide it."
            )
        decision = _decision(game, player, result)
        mp = _from_sides(game, player, mp)
        told: list[Reply] = []
        if game.match_id is not None:
            called_off = await self._call_off(game.match_id, reason)
            told += [called_off] if called_off is not None else []
        log = LeagueLog(organiser.id, "decide", _decision_text(game, decision), reason)
        found = await self._write(
            self.store.decide_league_game(
                found.id, found.version, game.id, decision, mp, organiser.id, reason, log
            )
        )
        names = await self._names(found)
        text = f"Round {number.number}: {_decision_words(game, decision, names)} (decided by {organiser.name})."
        if all(
            game_result(g) is not None
            for g in await self.store.league_games(found.id, number.number)
        ):
            found = await self._close(found, number, organiser.id)
            text += f"\nRound {number.number} is complete."
        return Reply(text, followups=told)

    async def close_round(
        self,
        guild: int,
        league: str,
        organiser: Member,
        unfinished: str | None = None,
        *,
        reason: str = "",
        roles: Collection[int] = (),
    ) -> Reply:
        """Close the open round: when every game has a result, or after its deadline, the
        unfinished games decided as `unfinished` ("draw" or "double_loss") and their matches
        called off (a winner for one game: `decide`)."""
        found = await self._league(guild, league)
        await self._check_organiser(found, organiser, roles)
        number = await self._round(found, None)
        if number.status != "open":
            raise ServiceError(f"{found.name} has no open round to close.")
        games = await self.store.league_games(found.id, number.number)
        undecided = [g for g in games if game_result(g) is None]
        decisions: list[tuple[int, str]] = []
        told: list[Reply] = []
        if undecided:
            if self.now() < number.deadline:
                raise ServiceError(
                    f"Round {number.number} has {len(undecided)} games still being played; it "
                    f"closes when they end, or after its deadline ({when(number.deadline)})."
                )
            if unfinished not in (DRAW, DOUBLE_LOSS):
                boards = ", ".join(str(g.board) for g in undecided)
                raise ServiceError(
                    f"Round {number.number} has unfinished games (boards {boards}). Close it with "
                    "unfinished: draw or double_loss, or decide each one (a winner, a draw or a "
                    "double loss) first."
                )
            for game in undecided:
                if game.match_id is not None:
                    called_off = await self._call_off(game.match_id, reason)
                    told += [called_off] if called_off is not None else []
                decisions.append((game.id, unfinished))
        finished = self._last_round(found, number.number)
        log = LeagueLog(
            organiser.id, "close round",
            f"round {number.number}" + (f", {len(decisions)} unfinished: {unfinished}" if decisions else ""),
            reason,
        )  # fmt: skip
        await self._write(
            self.store.close_league_round(
                found.id,
                found.version,
                number.number,
                finished,
                log,
                decisions,
                organiser.id,
                reason,
            )
        )
        text = f"Round {number.number} of **{found.name}** is closed."
        if decisions:
            text += f" {len(decisions)} unfinished games: {unfinished.replace('_', ' ') if unfinished else ''}."
        if finished:
            text += (
                " That was the last round: the league is over. The standings have the final table."
            )
        return Reply(text, followups=told)

    async def _close(
        self, league: LeagueRow, number: LeagueRoundRow, actor: int | None
    ) -> LeagueRow:
        finished = self._last_round(league, number.number)
        log = LeagueLog(actor, "close round", f"round {number.number}, every game decided")
        return await self._write(
            self.store.close_league_round(league.id, league.version, number.number, finished, log)
        )

    def _last_round(self, league: LeagueRow, number: int) -> bool:
        config = league.config
        if config["format"] == ROUND_ROBIN:
            return number >= len(config.get("schedule") or [])
        return number >= int(config["rounds"])

    async def due_rounds(self, now: float | None = None) -> list[LeagueNotice]:
        """For the bot's timer loop: open rounds whose games all have results are closed (a
        notice for the league's channel); rounds past their deadline with unfinished games
        get one reminder to the organisers (once, whichever process asks first)."""
        now = self.now() if now is None else now
        notices: list[LeagueNotice] = []
        for league, number in await self.store.open_league_rounds():
            games = await self.store.league_games(league.id, number.number)
            undecided = [g for g in games if game_result(g) is None]
            if not undecided and all(g.second is None or g.match_id for g in games):
                try:
                    closed = await self._close(league, number, None)
                except Busy:
                    continue
                last = (
                    " That was the last round: the league is over."
                    if closed.status == "finished"
                    else ""
                )
                reply = Reply(
                    f"Round {number.number} of **{league.name}** is complete: every game has a "
                    f"result.{last}"
                )
                notices.append(
                    LeagueNotice(
                        league.guild_id, league.channel_id, league.name, number.number, reply
                    )
                )
            elif undecided and number.deadline <= now:
                if not await self.store.mark_round_reminded(league.id, number.number):
                    continue
                names = await self._names(league)
                lines = [
                    f"{person(league.creator_id)} and the organisers of **{league.name}**: round "
                    f"{number.number}'s deadline has passed with {len(undecided)} unfinished games:"
                ]
                lines += [_game_line(game, names) for game in undecided]
                lines.append(
                    "Decide each (a winner, a draw or a double loss), or close the round with "
                    "the unfinished games as draws or double losses."
                )
                reply = Reply(clip("\n".join(lines)), ping=league.creator_id)
                notices.append(
                    LeagueNotice(
                        league.guild_id, league.channel_id, league.name, number.number, reply
                    )
                )
        return notices

    # --- results: corrections and disputes ------------------------------------------------------
    async def correct(
        self,
        guild: int,
        league: str,
        organiser: Member,
        round: int,
        player: int,
        result: str,
        reason: str,
        *,
        mp: tuple[int, int] | None = None,
        roles: Collection[int] = (),
    ) -> Reply:
        """An organiser corrects a game's result (`result` and `mp`, their score then
        their opponent's, from `player`'s side), with a reason kept in the league's log; a
        dispute on it is settled."""
        found = await self._league(guild, league)
        await self._check_organiser(found, organiser, roles)
        reason = _reason(reason)
        games = await self.store.league_games(found.id, round)
        game = await self._players_game(found, games, player, round)
        if game_result(game) is None:
            raise ServiceError(
                "That game has no result yet to correct; an unfinished game is decided after "
                "the round's deadline."
            )
        decision = _decision(game, player, result)
        mp = _from_sides(game, player, mp)
        log = LeagueLog(
            organiser.id, "correct", f"round {round}: {_decision_text(game, decision)}", reason
        )
        found = await self._write(
            self.store.decide_league_game(
                found.id,
                found.version,
                game.id,
                decision,
                mp,
                organiser.id,
                reason,
                log,
                settle=game.disputed_at is not None,
            )  # fmt: skip
        )
        names = await self._names(found)
        return Reply(
            f"Corrected, round {round}: {_decision_words(game, decision, names)}. "
            f"Reason: {reason} (by {organiser.name}; kept in the league's log)."
        )

    async def dispute(
        self, guild: int, league: str, member: Member, round: int, text: str
    ) -> Reply:
        """A player disputes their game's result in `round`, within the league's window after
        the result came in; the organisers settle it."""
        found = await self._league(guild, league)
        await self._player(found, member.id)
        text = " ".join(text.split())
        if not text or len(text) > MAX_DISPUTE:
            raise ServiceError(
                f"Say what is wrong with the result, in 1 to {MAX_DISPUTE} characters."
            )
        games = await self.store.league_games(found.id, round)
        game = _game_of(games, member.id)
        if game is None:
            raise ServiceError(f"You had no game in round {round} of {found.name}.")
        if game.second is None:
            raise ServiceError("A bye has no result to dispute.")
        decided = game_result(game)
        if decided is None:
            raise ServiceError("Your game has no result yet to dispute.")
        if game.disputed_at is not None and game.settled_at is None:
            raise ServiceError("That result is already disputed; the organisers will settle it.")
        hours = float(found.config.get("dispute_hours", DEFAULT_DISPUTE_HOURS))
        closes = decided.at + hours * 3600
        if self.now() > closes:
            raise ServiceError(
                f"A result can be disputed for {duration(int(hours * 3600))} after it comes in; "
                f"that window closed {when(closes)}. Ask an organiser for a correction."
            )
        log = LeagueLog(member.id, "dispute", f"round {round}, board {game.board}", text)
        await self._write(
            self.store.dispute_league_game(found.id, found.version, game.id, member.id, text, log)
        )
        return Reply(
            f"{member.name} disputes their round {round} result in **{found.name}**: {text}\n"
            f"{person(found.creator_id)} (or another organiser): settle it, keeping or "
            "correcting the result.",
            ping=found.creator_id,
        )

    async def settle(
        self,
        guild: int,
        league: str,
        organiser: Member,
        round: int,
        player: int,
        result: str | None,
        reason: str,
        *,
        roles: Collection[int] = (),
    ) -> Reply:
        """Settle a dispute: `result` None keeps the result, else corrects it (from `player`'s
        side); the reason goes in the league's log."""
        found = await self._league(guild, league)
        await self._check_organiser(found, organiser, roles)
        reason = _reason(reason)
        games = await self.store.league_games(found.id, round)
        game = _game_of(games, player)
        if game is None or game.disputed_at is None or game.settled_at is not None:
            raise ServiceError(f"There is no open dispute on that player's round {round} game.")
        if result is not None:
            return await self.correct(
                guild, league, organiser, round, player, result, reason, roles=roles
            )
        log = LeagueLog(
            organiser.id, "settle", f"round {round}, board {game.board}: result stands", reason
        )
        await self._write(self.store.settle_league_dispute(found.id, found.version, game.id, log))
        return Reply(f"The dispute is settled: the round {round} result stands. Reason: {reason}.")

    # --- reading ---------------------------------------------------------------------------
    async def standings_of(
        self, guild: int, league: str, round: int | None = None
    ) -> LeagueStandings:
        """The standings (after `round`; None: now), as text and as the picture's table."""
        found = await self._league(guild, league)
        players = await self.store.league_players(found.id)
        games = [r.game for r in await self._results(found)]
        if round is not None:
            games = [g for g in games if g.round <= round]
        order = tuple(found.config["tiebreaks"])
        rated = ordinals(rate(games))
        table = standings([p.user_id for p in players], games, _scoring(found), order, rated)
        by_id = {p.user_id: p for p in players}
        shared = {s.rank for s in table if sum(1 for t in table if t.rank == s.rank) > 1}
        columns = ("rank", "name", "record", *(k for k in order if k in TABLE_COLUMNS))
        columns += tuple(k for k in TABLE_COLUMNS if k not in columns)
        rounds = await self.store.league_rounds(found.id)
        after = round if round is not None else len(rounds)
        played = ruleset(found.ruleset)
        score = played.score_words[0]
        subtitle = f"{played.title} · {_format_text(found.config)}, after round {after}"
        lines = [f"**{found.name}** standings ({subtitle})"]
        rows = []
        for line in table:
            entry = by_id[line.player]
            dropped = entry.dropped_round is not None
            rank = f"={line.rank}" if line.rank in shared else str(line.rank)
            values = {
                "points": f"{line.points} pts",
                "mp_difference": f"{score} {line.mp_difference:+d}",
                "strength_of_schedule": f"SoS {line.strength_of_schedule}",
                "rating": f"rating {line.rating:.1f}",
            }
            shown_values = ", ".join(values[c] for c in columns if c in values)
            byes = f" ({line.byes} bye{'s' if line.byes != 1 else ''})" if line.byes else ""
            lines.append(
                f"{rank}. {entry.name}{' (dropped)' if dropped else ''}: "
                f"{line.wins}-{line.draws}-{line.losses}{byes}, {shown_values}"
            )
            rows.append(
                StandingsRow(
                    line.rank,
                    entry.name,
                    line.wins + line.byes,
                    line.draws,
                    line.losses,
                    line.points,
                    line.mp_difference,
                    line.strength_of_schedule,
                    line.rating,
                    dropped,
                )  # fmt: skip
            )
        picture = StandingsTable(found.name, subtitle, columns, tuple(rows), score)
        return LeagueStandings(table, clip("\n".join(lines)), picture)

    async def standings(self, guild: int, league: str, round: int | None = None) -> Reply:
        """The standings as text, with the picture."""
        import asyncio

        found = await self.standings_of(guild, league, round)
        picture = await asyncio.to_thread(standings_png, found.table)
        page = await self.matches.links.league(guild, (await self._league(guild, league)).name)
        text = f"{found.text}\n{page}" if page else found.text
        alt = found.text.replace("**", "")  # the table in words, without the bold of chat
        return Reply(text, picture=picture, picture_name="standings.png", picture_alt=alt)

    async def history(self, guild: int, league: str, member: Member | int) -> Reply:
        """A player's games in the league, each with a link to its match's channel."""
        found = await self._league(guild, league)
        player = member if isinstance(member, int) else member.id
        entry = await self._player(found, player, yours=False)
        names = await self._names(found)
        lines = [f"**{entry.name} in {found.name}** ({entry.squad_name})"]
        for game in await self.store.league_games(found.id):
            if player not in (game.first, game.second):
                continue
            lines.append(f"Round {game.round}: {_history_line(game, player, names)}")
        if len(lines) == 1:
            lines.append("No games yet.")
        if entry.dropped_round is not None:
            lines.append(f"Dropped out after round {entry.dropped_round}.")
        return Reply(clip("\n".join(lines)))

    async def log(self, guild: int, league: str) -> Reply:
        """The league's log: who did what when, and why."""
        found = await self._league(guild, league)
        names = await self._names(found)
        lines = [f"**{found.name}: log**"]
        for entry in await self.store.league_log(found.id):
            who = names.get(entry.actor, "the bot") if entry.actor is not None else "the bot"
            why = f" ({entry.reason})" if entry.reason else ""
            lines.append(f"{when(entry.at)} {who}: {entry.action} {entry.detail}{why}")
        return Reply(clip("\n".join(lines), more="the league's export"), private=True)

    async def league_ratings(self, guild: int, league: str) -> dict[int, float]:
        """The displayed ratings from the league's own games."""
        found = await self._league(guild, league)
        return ordinals(rate([r.game for r in await self._results(found)]))

    async def export(self, guild: int, league: str) -> LeagueExport:
        """The league as CSV and JSON: players, rounds, pairings with results, standings."""
        found = await self._league(guild, league)
        players = await self.store.league_players(found.id)
        rounds = await self.store.league_rounds(found.id)
        games = await self.store.league_games(found.id)
        table = (await self.standings_of(guild, league)).standings
        names = {p.user_id: p.name for p in players}
        player_rows = [
            {"user_id": p.user_id, "name": p.name, "squad": p.squad_name,
             "joined_round": p.joined_round, "dropped_round": p.dropped_round}
            for p in players
        ]  # fmt: skip
        round_rows = [
            {"round": r.number, "status": r.status, "mission": r.mission, "map": r.map,
             "started_at": r.started_at, "deadline": r.deadline, "closed_at": r.closed_at}
            for r in rounds
        ]  # fmt: skip
        game_rows = []
        for g in games:
            decided = game_result(g)
            result = _result_word(decided.game) if decided else "pending"
            mp = decided.game.mp if decided else (None, None)
            game_rows.append(
                {"round": g.round, "board": g.board, "first": g.first,
                 "first_name": names.get(g.first, ""), "second": g.second,
                 "second_name": names.get(g.second, "") if g.second is not None else "",
                 "result": result, "first_mp": mp[0], "second_mp": mp[1],
                 "decided_by_organiser": g.decision is not None,
                 "reason": g.decision_reason or "", "match_id": g.match_id,
                 "channel_id": g.channel_id}
            )  # fmt: skip
        standing_rows = [
            {"rank": s.rank, "user_id": s.player, "name": names.get(s.player, ""),
             "wins": s.wins, "draws": s.draws, "losses": s.losses, "byes": s.byes,
             "points": s.points, "mp_difference": s.mp_difference,
             "strength_of_schedule": s.strength_of_schedule, "rating": round(s.rating, 3)}
            for s in table
        ]  # fmt: skip
        sections: dict[str, list[dict[str, Any]]] = {
            "players": player_rows,
            "rounds": round_rows,
            "games": game_rows,
            "standings": standing_rows,
        }
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        for section, rows in sections.items():
            if rows:
                writer.writerow([section, *rows[0].keys()])
                for row in rows:
                    writer.writerow([section, *("" if v is None else v for v in row.values())])
                out.write("\n")
        data = {
            "league": {"name": found.name, "ruleset": found.ruleset, "status": found.status,
                       "config": found.config},
            **sections,
        }  # fmt: skip
        stem = "-".join("".join(c if c.isalnum() else " " for c in found.name.lower()).split())
        return LeagueExport(
            stem or "league", out.getvalue(), json.dumps(data, indent=1, ensure_ascii=False)
        )

    # --- helpers ------------------------------------------------------------------------------
    async def _league(self, guild: int, name: str) -> LeagueRow:
        found = await self.store.league(guild, " ".join(name.split()))
        if found is not None:
            return found
        known = [league.name for league in await self.store.leagues(guild)]
        raise ServiceError(
            f"There is no league called '{shown(name)}' on this server. "
            + (f"Its leagues: {', '.join(known)}." if known else "An organiser creates one first.")
        )

    async def _check_organiser(
        self, league: LeagueRow, member: Member, roles: Collection[int]
    ) -> None:
        if await is_organiser(self.store, league, member, roles):
            return
        raise NotAllowed(
            f"Only {league.name}'s organisers (its creator and members with the league "
            "organiser role) run its rounds and fix its results."
        )

    async def _player(self, league: LeagueRow, user_id: int, yours: bool = True) -> LeaguePlayerRow:
        for entry in await self.store.league_players(league.id):
            if entry.user_id == user_id:
                return entry
        raise ServiceError(
            f"You are not signed up to {league.name}."
            if yours
            else f"{person(user_id)} is not in {league.name}."
        )

    async def _players_game(
        self, league: LeagueRow, games: list[LeagueGameRow], player: int, round: int
    ) -> LeagueGameRow:
        entry = await self._player(league, player, yours=False)
        if entry.dropped_round is not None:
            raise ServiceError(
                f"{entry.name} dropped out of {league.name} after round {entry.dropped_round}; "
                "the results of a player who dropped out stand as they are."
            )
        game = _game_of(games, player)
        if game is None:
            raise ServiceError(f"{entry.name} had no game in round {round} of {league.name}.")
        if game.second is None:
            raise ServiceError(f"{entry.name} had a bye in round {round}: a bye scores as a win.")
        return game

    async def _round(self, league: LeagueRow, number: int | None) -> LeagueRoundRow:
        rounds = await self.store.league_rounds(league.id)
        if not rounds:
            raise ServiceError(f"{league.name} has not started a round yet.")
        if number is None:
            return next((r for r in rounds if r.status == "open"), rounds[-1])
        for found in rounds:
            if found.number == number:
                return found
        raise ServiceError(f"{league.name} has no round {number}; it has played {len(rounds)}.")

    async def _names(self, league: LeagueRow) -> dict[int | None, str]:
        return {p.user_id: p.name for p in await self.store.league_players(league.id)}

    async def _results(self, league: LeagueRow) -> list[GameResult]:
        found = []
        for game in await self.store.league_games(league.id):
            decided = game_result(game)
            if decided is not None:
                found.append(decided)
        return found

    async def _squad(
        self, league: LeagueRow, member: Member, squad: str | dict[str, Any]
    ) -> tuple[dict[str, Any], int | None, str]:
        """The squad's data, its stored squad's id (campaign leagues), its name; checked."""
        played = ruleset(league.ruleset)
        campaign = bool(league.config.get("campaign"))
        squad_id: int | None = None
        if is_stored_name(squad):
            assert isinstance(squad, str)
            stored = await CampaignService(self.store).load_squad(member.id, squad)
            data, squad_id = stored.data, (stored.id if campaign else None)
        elif campaign:
            raise ServiceError(
                f"{league.name} is a campaign league: sign up with one of your stored squads "
                "(my:NAME), whose units keep their XP and medals from match to match."
            )
        elif isinstance(squad, str):
            data = _shipped_squad(squad, played)
        else:
            data = squad
        try:
            summary = played.check_squad(data, _points_limit(league))
        except ContentError as error:
            raise ServiceError(
                f"That squad cannot play in {league.name} ({played.title}): {error}"
            ) from error
        if squad_id is not None:
            stored_label = f"my:{stored_name(str(squad))}"
            return data, squad_id, f"{summary.name} ({stored_label})"
        return data, None, summary.name

    async def _concede(self, match_id: int, member: Member) -> Reply | None:
        """The dropping player's match conceded; its end, for the match's own channel."""
        async with self.matches.work_on(match_id) as work:
            if work.row.status in (DEPLOYING, PLAYING):
                ended = await self.matches.finish(work, commands.Concede(work.seat(member.id)))
                for reply in ended.all():
                    reply.channel = work.row.channel_id
                return ended
            if work.row.status == SETUP:
                work.row.status = ABORTED
        return None

    async def _call_off(self, match_id: int, why: str = "") -> Reply | None:
        """An unfinished league match the organiser decided: called off (no result of its
        own); a word for the match's own channel."""
        async with self.matches.work_on(match_id) as work:
            if work.row.active:
                revealed = dice_revealed(work.row)
                work.row.status = ABORTED
                return Reply(
                    f"Match #{work.row.id} is called off: an organiser decided its league game. {why}".strip()
                    + revealed,
                    channel=work.row.channel_id,
                    match_over=True,
                )
        return None

    async def _write(self, change: Awaitable[LeagueRow]) -> LeagueRow:
        try:
            return await change
        except VersionConflict as error:
            raise Busy(BUSY) from error
        except StoreError as error:
            raise ServiceError(str(error)) from error


# --- pure helpers ---------------------------------------------------------------------------
def _ruleset(name: str) -> Ruleset:
    try:
        return ruleset(name)
    except RulesError as error:
        raise ServiceError(str(error)) from error


def _names(kind: str, chosen: Sequence[str] | None, rules: str | None) -> list[str] | None:
    """The shipped missions or maps (of a ruleset: its own maps, else the shared) named, as
    players type them (`content.find`), by their file names; None: drawn each round."""
    if chosen is None or not list(chosen):
        return None
    try:
        return [content.find(kind, name, rules or DEFAULT_RULESET) for name in chosen]
    except ContentError as error:
        raise ServiceError(str(error)) from error


def _map_title(league: LeagueRow, name: str) -> str:
    """A round's map as players read it: a server map the league copied, else a shipped one."""
    copied = league.config.get("server_maps", {}).get(name)
    if copied is not None:
        return str(copied.get("name", name))
    return str(content.raw("maps", name, league.ruleset).get("name", name))


def _pick(fixed: list[str] | None, number: int, seed: int, kind: str, rules: str | None) -> str:
    """The round's mission or map (the ruleset's: its own maps, else the shared): the fixed
    list in turn, or a seeded draw."""
    if fixed:
        return fixed[(number - 1) % len(fixed)]
    known = content.names(kind, rules) if rules is not None else content.names(kind)
    return random.Random(f"{seed}:{kind}:{number}").choice(known)


def _tiebreak_name(key: str, played: Ruleset) -> str:
    """A tiebreak as players read it, the score difference in the ruleset's words."""
    if key == "mp_difference":
        return f"{played.score_words[1]} difference"
    return TIEBREAK_NAMES[key]


def _points_limit(league: LeagueRow) -> int:
    """The lowest points limit (EP in Skirm) of the missions the league may play."""
    names = league.config.get("missions") or content.names("missions", league.ruleset)
    limits = []
    for name in names:
        try:
            limits.append(content.points_limit(name, league.ruleset))
        except ContentError:
            continue
    return min(limits, default=100)


def _shipped_squad(name: str, played: Ruleset) -> dict[str, Any]:
    try:
        return content.raw("squads", content.find("squads", name, played.name), played.name)
    except ContentError:
        pass
    for other in rulesets():
        if other != played.name and _ships(other, name):
            raise ServiceError(
                f"'{shown(name)}' is a {ruleset(other).title} squad; this league plays "
                f"{played.title}: choose one of {content.listing('squads', played.name)}, or "
                "your own squad file."
            )
    raise ServiceError(
        f"There is no squad called '{shown(name)}'. Choose one of: "
        f"{content.listing('squads', played.name)}, my:NAME for a stored squad, or upload a "
        "squad file."
    )


def _ships(rules: str, squad: str) -> bool:
    """Whether `rules` ships a squad called `squad` (as players type names)."""
    try:
        content.find("squads", squad, rules)
    except ContentError:
        return False
    return True


def _scoring(league: LeagueRow) -> Scoring:
    return Scoring(**league.config["scoring"])


def _format_text(config: dict[str, Any]) -> str:
    if config["format"] == ROUND_ROBIN:
        return "round robin"
    return f"Swiss, {config['rounds']} rounds"


def _plays(entry: LeaguePlayerRow, number: int) -> bool:
    return entry.joined_round <= number and (
        entry.dropped_round is None or entry.dropped_round >= number
    )


def _game_of(games: list[LeagueGameRow], player: int) -> LeagueGameRow | None:
    return next((g for g in games if player in (g.first, g.second)), None)


def game_result(game: LeagueGameRow) -> GameResult | None:
    """The game's result (the organiser's decision over its match's), or None: undecided."""
    if game.second is None:
        return GameResult(Game(game.round, game.first, None, game.first), game.decided_at or 0.0)
    if game.decision is not None:
        mp = game.decision_mp or game.match_scores or (0, 0)
        winner = {"first": game.first, "second": game.second}.get(game.decision)
        double = game.decision == DOUBLE_LOSS
        played = Game(game.round, game.first, game.second, winner, mp, double)
        return GameResult(played, game.decided_at or 0.0)
    if game.match_ended_at is not None and game.match_status == "ended":
        mp = game.match_scores or (0, 0)
        winner = None if game.match_winner is None else (game.first, game.second)[game.match_winner]
        return GameResult(
            Game(game.round, game.first, game.second, winner, mp), game.match_ended_at
        )
    return None


def _from_sides(
    game: LeagueGameRow, player: int, mp: tuple[int, int] | None
) -> tuple[int, int] | None:
    """Scores given as (the named player's, their opponent's), as the game stores them:
    (first's, second's)."""
    if mp is None or player == game.first:
        return mp
    return mp[1], mp[0]


def _decision(game: LeagueGameRow, player: int, result: str) -> str:
    if result not in RESULTS:
        raise ServiceError(
            f"'{shown(result)}' is not a result: use win, loss, draw or double_loss (from the "
            "named player's side)."
        )
    if result in (DRAW, DOUBLE_LOSS):
        return result
    first_won = (player == game.first) == (result == WIN)
    return "first" if first_won else "second"


def _decision_text(game: LeagueGameRow, decision: str) -> str:
    return f"board {game.board}: {decision}"


def _decision_words(game: LeagueGameRow, decision: str, names: dict[int | None, str]) -> str:
    a, b = names.get(game.first, "?"), names.get(game.second, "?")
    if decision == DRAW:
        return f"{a} and {b} draw"
    if decision == DOUBLE_LOSS:
        return f"{a} and {b} both lose"
    winner, loser = (a, b) if decision == "first" else (b, a)
    return f"{winner} beats {loser}"


def _result_word(game: Game) -> str:
    if game.second is None:
        return "bye"
    if game.double_loss:
        return "double_loss"
    if game.winner is None:
        return "draw"
    return "first" if game.winner == game.first else "second"


def _game_line(game: LeagueGameRow, names: dict[int | None, str]) -> str:
    a = names.get(game.first, "?")
    if game.second is None:
        return f"Board {game.board}: {a} has a bye."
    b = names.get(game.second, "?")
    decided = game_result(game)
    where = f" ({channel(game.channel_id)})" if game.channel_id is not None else ""
    if decided is None:
        return f"Board {game.board}: {a} v {b}, playing{where}"
    result = result_words(decided.game, game, names)
    disputed = " · disputed" if game.disputed_at is not None and game.settled_at is None else ""
    return f"Board {game.board}: {a} v {b}: {result}{disputed}{where}"


def result_words(played: Game, game: LeagueGameRow, names: dict[int | None, str]) -> str:
    """A played game's result as a line shows it: "Ana wins 12-7 (organiser)", "draw"."""
    if played.double_loss:
        result = "double loss"
    elif played.winner is None:
        result = "draw"
    else:
        result = f"{names.get(played.winner, '?')} wins"
    if played.mp != (0, 0):
        result += f" {played.mp[0]}-{played.mp[1]}"
    return result + (" (organiser)" if game.decision is not None else "")


def _history_line(game: LeagueGameRow, player: int, names: dict[int | None, str]) -> str:
    if game.second is None:
        return "bye (a win)"
    other = game.second if player == game.first else game.first
    decided = game_result(game)
    where = f" in {channel(game.channel_id)}" if game.channel_id is not None else ""
    if decided is None:
        return f"v {names.get(other, '?')}, playing{where}"
    played = decided.game
    mine, theirs = played.mission_points(player)
    if played.double_loss:
        result = "double loss"
    elif played.winner is None:
        result = "draw"
    else:
        result = "win" if played.winner == player else "loss"
    return f"v {names.get(other, '?')}: {result} {mine}-{theirs}{where}"


def _reason(reason: str) -> str:
    reason = " ".join(reason.split())
    if not reason or len(reason) > MAX_REASON:
        raise ServiceError(
            f"Give a reason, 1 to {MAX_REASON} characters: it goes in the league's log."
        )
    return reason
