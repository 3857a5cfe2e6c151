"""Match use cases, without Discord: create, join, pick squads, deploy, act, and manage a match.

The cogs and the console both call this. A match lives in the store as its record; each use case
that changes it works through a match unit of work (`work`, `work_on`: skirmbot.service.work),
which holds the match's lock, replays the record into a live `PlayedMatch` (its ruleset's
match, kept in memory per version), applies the commands, and saves the new record in one
transaction with a version check, so two players clicking at once cannot both win, and a crash
leaves the old or the new record, never half of one.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from skirmbot import content
from skirmbot.render.battlemap import MapRenderer, alt_text
from skirmbot.render.card import card_lines, card_png
from skirmbot.rules import commands
from skirmbot.rules.dice import check_salt, new_dice, new_salt
from skirmbot.rules.errors import ContentError, IllegalCommand, RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.record import (
    MatchRecord,
    add_salt,
    commit_dice,
    faces_rolled,
    replay,
    revealed,
    so_far,
)
from skirmbot.rules.ruleset import (
    DEFAULT_RULESET,
    PlayedMatch,
    Ruleset,
    SetUpStage,
    ruleset,
    rulesets,
)
from skirmbot.rules.verify import commitment_words, reveal_words, salt_words
from skirmbot.rules.view import SETUP as SETUP_PHASE
from skirmbot.rules.view import Decision, MatchView
from skirmbot.service import actions
from skirmbot.service.campaigns import CampaignService
from skirmbot.service.choices import Situation
from skirmbot.service.errors import NotAllowed, ServiceError
from skirmbot.service.links import PageLinks
from skirmbot.service.maps import MapService
from skirmbot.service.orderline import play_line
from skirmbot.service.preview import preview_reply
from skirmbot.service.progress import SquadProgress
from skirmbot.service.recap import numbered_log, with_recap
from skirmbot.service.replies import (
    MESSAGE_LIMIT,
    FileReply,
    Reply,
    clip,
    describe,
    end_heading,
    person,
    the_end,
    when,
)
from skirmbot.service.seatholders import who_played
from skirmbot.service.teams import (
    acting_seats,
    by_side,
    joined_side,
    listed,
    seating_line,
    side_of,
    squad_names,
    teams_of,
)
from skirmbot.service.work import (
    ABORTED,
    AUTOMATIC,
    DEPLOY,
    DEPLOYING,
    ENDED_STATUS,
    INFILTRATE,
    LIVE_CACHE,
    PLAYING,
    SETUP,
    LiveMatches,
    MatchWork,
    Member,
    ruleset_of,
    seat,
    waiting_key,
)
from skirmbot.service.work import not_playing as _not_playing
from skirmbot.store import Deadline, MatchResult, MatchRow, SeatResult, Store
from skirmbot.store.database import match_setting_key
from skirmbot.timers.clock import Clock, TimeControls
from skirmbot.words import plural, possessive

__all__ = [
    "ABORTED",
    "AUTOMATIC",
    "DEFAULT_RULESET",
    "DEPLOY",
    "DEPLOYING",
    "ENDED_STATUS",
    "INFILTRATE",
    "PLAYING",
    "SETUP",
    "MatchService",
    "MatchWork",
    "Member",
    "PlayedMatch",
    "ruleset_of",
    "waiting_key",
]

AUTOMATIC_NAME = "Automatic player"
HIDDEN = {DEPLOY: "hidden_deployments", INFILTRATE: "hidden_infiltrations"}
MODERATOR_ROLE = "moderator_role"  # guild setting: the id of the role whose members moderate
# Skirm's and Skirm Lite's standing orders re-roll saves (`standing_orders`); another
# ruleset's take options of its own (`own_standing_orders`).
SAVES = "reroll_saves_above"
DRAW_OFFER_HOURS = 24  # a draw offer lapses after this, or at its player's next activation
DRAW_LAPSED = (
    "The draw offer has lapsed: an offer lasts until its player's next activation, "
    f"{DRAW_OFFER_HOURS} hours at most."
)


class MatchService:
    def __init__(
        self,
        store: Store,
        seed_source: Callable[[], int] | None = None,
        clock: Callable[[], float] = time.time,
        on_deadline: Callable[[int, Deadline | None], None] | None = None,
    ) -> None:
        self.store = store
        self.links = PageLinks(store)  # the bot sets the public address (SKIRMBOT_WEB_URL)
        # New matches roll keyed dice (secret until the end); a fixed seed is for tests and demos.
        seeded = seed_source
        self._dice: Callable[[], dict[str, Any]] = (
            (lambda: {"seed": seeded()}) if seeded is not None else new_dice
        )
        # The locks, the live matches in memory, the clock and the scheduler's ear, shared by
        # every unit of work (`work`, `work_on`) on this store.
        self.live = LiveMatches(store, clock, on_deadline)
        self._renderers: OrderedDict[int, MapRenderer] = OrderedDict()

    @property
    def now(self) -> Callable[[], float]:
        """The clock (seconds since the epoch), injected for tests."""
        return self.live.now

    @now.setter
    def now(self, clock: Callable[[], float]) -> None:
        self.live.now = clock

    @property
    def on_deadline(self) -> Callable[[int, Deadline | None], None] | None:
        """Who learns each match's next deadline when it is saved (the scheduler)."""
        return self.live.on_deadline

    @on_deadline.setter
    def on_deadline(self, hear: Callable[[int, Deadline | None], None] | None) -> None:
        self.live.on_deadline = hear

    # --- units of work ------------------------------------------------------------------------
    def work(self, channel_id: int) -> MatchWork:
        """The channel's active match as a unit of work: `async with service.work(channel) as
        work:` holds its lock, and saves what changed at the end (skirmbot.service.work)."""
        return self.live.work(channel_id)

    def work_on(self, match_id: int) -> MatchWork:
        """A match by id as a unit of work (the turn timers, leagues)."""
        return self.live.work_on(match_id)

    # --- set-up ---------------------------------------------------------------------------
    async def create(
        self,
        guild_id: int,
        channel_id: int,
        creator: Member,
        *,
        opponent: Member | None = None,
        practice: bool = False,
        mission: str | None = None,
        battle_map: str | None = None,
        controls: TimeControls | None = None,
        rules: str = DEFAULT_RULESET,
        salt: str | None = None,
        players: int | None = None,
        map_data: dict[str, Any] | None = None,
    ) -> Reply:
        """A new match in the channel under the ruleset `rules` (its name or title), for
        `players` seats (None: the fewest the ruleset takes); the others join (the challenged
        opponent first), or the automatic player takes every other seat (`practice`). No
        mission: the ruleset's first; no map: the mission's, else the ruleset's default
        (`content.default_map`); `battle_map` names a shipped map or one of the server's;
        `map_data`: a map file's data instead (a league's copy of a server map, the console's
        `--map-file`), checked by the ruleset here. The record keeps the map's data whole.
        `salt`: the creator's salt for the dice (None: the bot makes one; rulings: Verifiable
        dice)."""
        controls = controls or TimeControls()
        played = _ruleset(rules)
        seats = _seat_count(played, players)
        default_mission, default_squads = content.defaults(played.name, seats)
        if opponent is not None and opponent.id == creator.id:
            raise ServiceError(
                "You cannot challenge yourself; leave the opponent out to let anyone join."
            )
        mission_data = _shipped("missions", mission or default_mission, played.name)
        if map_data is None:
            # No map chosen: the mission's own, else the ruleset's default (its own maps'
            # first). A name is a shipped map's, else one of the server's own (/map upload).
            chosen_map = battle_map or content.default_map(played.name, mission_data)
            map_data = await self.maps.resolve(guild_id, chosen_map, played.name)
        try:  # a squad of one unit per seat at least: squads are chosen later
            played.check_mission(mission_data, played.load_map(map_data), (1,) * seats)
        except ContentError as error:  # a server's map of another kind, or one too small
            raise ServiceError(str(error)) from error
        seated, names = _seated(creator, opponent, practice, seats)
        others = range(1, seats)
        record = MatchRecord(
            content=played.match_content(
                {"map": map_data, "mission": mission_data, "squads": [None] * seats}
            ),
            dice=self._dice(),
            players=names,
            ruleset=played.name,
        )
        # Verifiable dice: the commitment to the key, the creator's salt (and the automatic
        # players', made by the bot); each other player's comes when they join.
        commit_dice(record, [_salt(salt), *(new_salt() if practice else None for _ in others)])
        setup: dict[str, Any] = {
            "challenged": opponent.id if opponent else None,
            "squads": [None] * seats,
            "clock": Clock(controls).to_json(),
        }
        if practice:
            for seat in others:
                setup["squads"][seat] = default_squads[seat]
                record.content["squads"][seat] = content.raw(
                    "squads", default_squads[seat], played.name
                )
        from skirmbot.store import ChannelBusy

        try:
            row = await self.store.create_match(
                guild_id, channel_id, seated, list(record.players), record.to_json(), setup
            )
        except ChannelBusy as error:
            raise ServiceError(
                "This channel already has a match going. Finish it (or concede) first, or use another channel."
            ) from error
        await self.store.remember_player(creator.id, creator.name)
        together = seating_line(teams_of(played, seats))
        text = (
            f"**New {played.title} match** #{row.id}: {mission_data['name']} on {map_data['name']}.\n"
            f"{_seating(creator, opponent, practice, seats)}.{' ' + together if together else ''}\n"
            f"{_everyone(seats)}: pick a squad with /match squad ({content.listing('squads', played.name)}, or upload your own).\n"
            f"Time controls: {controls.describe()}."
        )
        dice_line = commitment_words(record)
        text += f"\n{dice_line}" if dice_line else ""
        return Reply(text, ping=opponent.id if opponent else None)

    async def join(self, channel_id: int, member: Member, salt: str | None = None) -> Reply:
        """Take the first open seat (the challenged player takes the seat kept for them);
        `salt`: the player's salt for the dice (None: the bot makes one)."""
        async with self.work(channel_id) as work:
            row = work.row
            seat = _open_seat(row, member)
            row.players[seat], row.names[seat] = member.id, member.name
            row.record["players"][seat] = member.name
            add_salt(row.record, seat, _salt(salt))  # the last salt fixes the dice
        await self.store.remember_player(member.id, member.name)
        dice_line = salt_words(MatchRecord.from_json(row.record), seat)
        still_open = row.players.count(None)
        waiting = f"{plural(still_open, 'seat')} still open (/match join). " if still_open else ""
        side = joined_side(teams_of(ruleset_of(row), len(row.players)), seat, row.names)
        return Reply(
            f"{member.name} joins as squad {seat + 1}{side}. {waiting}"
            f"{_everyone(len(row.players))}: pick a squad with /match squad."
            + (f"\n{dice_line}" if dice_line else "")
        )

    async def choose_squad(
        self, channel_id: int, member: Member, squad: str | dict[str, Any]
    ) -> Reply:
        """A shipped squad by name, `my:NAME` for the player's stored squad (campaigns), or an
        uploaded squad file's data (checked against the building rules and the mission's EP
        limit)."""
        async with self.work(channel_id) as work:
            row = work.row
            side = work.seat(member.id)
            if row.status != SETUP:
                raise ServiceError("Squads are chosen before deployment; this match is past that.")
            played = ruleset_of(row)
            squad, stored_id = await self.campaigns.resolve(member.id, squad, played)
            data = _shipped("squads", squad, played.name) if isinstance(squad, str) else squad
            try:
                # each seat's share of its side's points (a side of one: the whole limit)
                limit = played.points_limit(row.record["content"]["mission"], len(row.players))
                chosen = played.check_squad(data, limit)
            except ContentError as error:
                raise ServiceError(f"That squad cannot play {played.title}: {error}") from error
            row.record["content"]["squads"][side] = data
            row.setup["squads"][side] = chosen.name
            row.setup.setdefault("stored_squads", [None] * len(row.players))[side] = stored_id
            text = f"{member.name} fields **{chosen.name}** ({chosen.size} {chosen.units_word}, {chosen.points} {played.points_word})."
            if all(row.record["content"]["squads"]) and None not in row.players:
                row.status = DEPLOYING
                text += f"\n{_all_squads(len(row.players))} are in. Deploy with /deploy (or let the bot deploy for you)."
            replies = Reply(text)
            if row.status == DEPLOYING and AUTOMATIC in row.players:
                replies.followups += self._automatic_deployment(work)
            return replies

    async def deploy(
        self, channel_id: int, member: Member, placements: dict[str, str] | None = None
    ) -> Reply:
        """Submit the placements of the set-up stage the match is in (its ruleset's
        deployment, then any later stage such as Skirm's Infiltrators; None: the bot places
        them for you), hidden until every side of the stage has placed its own (rulings:
        Deployment)."""
        async with self.work(channel_id) as work:
            row = work.row
            side = work.seat(member.id)
            if row.status != DEPLOYING:
                raise ServiceError(
                    "Deployment is when both squads are chosen and before the first turn."
                )
            scratch, rules = work.scratch(), ruleset_of(row)
            stage = rules.set_up_stage(scratch.state)
            assert stage is not None  # a match deploying is in a set-up stage
            hidden: dict[str, Any] = row.setup.setdefault(hidden_key(stage), {})
            if str(side) in hidden or side not in stage.sides:
                raise ServiceError(_placed_already(stage, len(row.players)))
            command = (
                rules.automatic_placement(scratch.state, side)
                if placements is None
                else rules.placement(scratch.state, side, placements)
            )
            self._hide(row, hidden_key(stage), scratch, command)
            if any(str(other) not in hidden for other in stage.sides):
                what = "deployed" if stage.name == DEPLOY else f"placed their {stage.what}"
                others = "your opponent has" if len(row.players) == 2 else "the others have"
                return Reply(f"{member.name} has {what} (hidden until {others} too).")
            return await self.reveal_deployments(work)

    def _hide(
        self, row: MatchRow, key: str, scratch: PlayedMatch, command: commands.Command
    ) -> None:
        """Check a placement on a scratch copy of the match, then keep it hidden in the set-up
        until the bot reveals all of the stage's together."""
        try:
            scratch.apply(command)
        except IllegalCommand as error:
            raise ServiceError(str(error)) from error
        row.setup.setdefault(key, {})[str(command.side)] = command.to_json()

    # --- play -----------------------------------------------------------------------------
    async def act(self, channel_id: int, member: Member, command: commands.Command) -> Reply:
        """Apply a player's command as their squad; the reply says what happened."""
        async with self.work(channel_id) as work:
            row = work.row
            side = work.seat(member.id)
            if row.status != PLAYING:
                raise ServiceError(_not_playing(row.status, len(row.players)))
            if row.setup.get("clock", {}).get("paused") is not None:
                raise ServiceError("The match is paused; /timer resume goes on.")
            events = await work.apply(actions.ruleset_command(command, side, ruleset_of(row)))
            reply = await self.reply_to(work, events)
            if AUTOMATIC in row.players:
                reply.followups += await self.automatic_turns(work)
            return reply

    async def standing_orders(
        self,
        channel_id: int,
        member: Member,
        reroll_saves_above: int | None,
        orders_per_attack: int | None = None,
    ) -> Reply:
        """Standing orders for the member's squad; `orders_per_attack` is Skirm Lite's (the
        rules refuse it in words elsewhere). Rules whose standing orders are not about saves
        (the d20 rules' defence dice) say what theirs take."""
        played = ruleset(await self.ruleset_here(channel_id))
        takes = actions.fields_of(played, "standing_orders")
        if takes and SAVES not in takes:
            raise ServiceError(
                f"{played.title} has no saves to re-roll: its standing orders take "
                f"{_and(takes)} (/match standing {takes[0]}:)."
            )
        orders = actions.own_command(
            "standing_orders",
            reroll_saves_above=reroll_saves_above,
            orders_per_attack=orders_per_attack,
        )
        reply = await self.act(channel_id, member, orders)
        reply.private = True
        return reply

    async def own_standing_orders(
        self, channel_id: int, member: Member, given: dict[str, Any]
    ) -> Reply:
        """Standing orders of the rules whose orders are their own, not re-rolled saves (the
        d20 rules' defence dice, the group rules' interrupts): the options `given`, each one
        the ruleset's standing_orders command takes (the others take their defaults). Asking
        the ruleset which it takes keeps one ruleset's options from reaching another's."""
        played = ruleset(await self.ruleset_here(channel_id))
        takes = actions.fields_of(played, "standing_orders")
        wrong = [name for name in given if name not in takes]
        if SAVES in takes:
            raise ServiceError(
                f"{possessive(played.title)} standing orders are about saves, not {_and(wrong)}: give "
                "reroll_saves (with above, per_attack)."
            )
        if wrong or not takes:
            raise ServiceError(
                f"{possessive(played.title)} standing orders take {_and(takes) or 'nothing'}, not "
                f"{_and(wrong)}."
            )
        reply = await self.act(channel_id, member, actions.own_command("standing_orders", **given))
        reply.private = True
        return reply

    async def orders(self, channel_id: int, member: Member, line: str) -> Reply:
        """A whole activation written as one line ("Halden move C5; shoot Kor; end"), each
        step sent as its own command, stopping at the first refused or waiting for a decision
        (skirmbot.service.orderline)."""
        return await play_line(self, channel_id, member, line)

    async def concede(self, channel_id: int, member: Member) -> Reply:
        """The player concedes: in a team match their squad leaves the table and their
        teammates play on, until the last of a side concedes and the other side wins."""
        async with self.work(channel_id) as work:
            side = work.seat(member.id)
            reply = await self.finish(work, commands.Concede(side))
            told = await self._left_the_table(work, side)
            if told:
                reply.text = f"{told}\n{reply.text}"
            return reply

    async def conceding_means(self, channel_id: int, member: Member) -> str:
        """What the member's concession would do, for the question before it: in a team match,
        their squad leaves and their teammates play on, or their side loses."""
        row, match = await self.view(channel_id)
        mine = seat(row, member.id)
        teams = teams_of(ruleset_of(row), len(row.players))
        if not teams:
            return (
                "Your opponent wins"
                if len(row.players) == 2
                else "You leave it and the others play on"
            )
        sides = ruleset_of(row).view(match.state).sides if match is not None else ()
        mates = [
            row.names[other] or "an open seat"
            for other in teams[side_of(teams, mine)]
            if other != mine and not (sides and sides[other].out)
        ]
        if not mates:
            return "You are the last of your side: the other side wins"
        verb = "plays" if len(mates) == 1 else "play"
        return f"Your squad leaves the table and {listed(mates)} {verb} on"

    async def _left_the_table(self, work: MatchWork, seat: int) -> str:
        """What a concession in a team match means, in words: who leaves and who plays on, or
        that the last of the side has gone; "" outside team play (the result says it all)."""
        row = work.row
        rules = ruleset_of(row)
        teams = teams_of(rules, len(row.players))
        if not teams or row.status not in (PLAYING, ENDED_STATUS):
            return ""
        view = rules.view((await work.match()).state)
        name, squad = row.names[seat], view.sides[seat].name
        mates = [
            row.names[other]
            for other in teams[side_of(teams, seat)]
            if other != seat and not view.sides[other].out
        ]
        if mates:
            if row.status != PLAYING:
                return ""
            verb = "plays" if len(mates) == 1 else "play"
            return f"{name} concedes: {squad} leaves the table; {listed(mates)} {verb} on."
        return f"{name} concedes, the last of their side: {squad} leaves the table."

    async def offer_draw(self, channel_id: int, member: Member) -> Reply:
        async with self.work(channel_id) as work:
            return await self._offer_draw(work, member, work.seat(member.id))

    async def accept_draw(
        self, channel_id: int, member: Member, *, offer_if_none: bool = True
    ) -> Reply:
        """Accept the opponent's draw offer. With no offer standing (none made, or it lapsed),
        offer one instead, unless `offer_if_none` is False (the "Accept draw" button)."""
        async with self.work(channel_id) as work:
            side = work.seat(member.id)
            offer, lapsed = await self._standing_draw_offer(work)
            if offer is None:
                if not offer_if_none:
                    raise ServiceError(
                        (DRAW_LAPSED if lapsed else "There is no draw offer to accept.")
                        + " /match draw offers one."
                    )
                reply = await self._offer_draw(work, member, side)
                if lapsed:
                    reply.text = f"{DRAW_LAPSED}\n{reply.text}"
                return reply
            if offer == side:
                raise ServiceError("You offered the draw; your opponent has to accept it.")
            waiting = await self._draw_waits_for(work, offer, side)
            if waiting:
                return Reply(
                    f"{member.name} agrees to the draw. {_people(waiting)}: /match draw to accept.",
                    ping=waiting[0],
                    pings=waiting[1:],
                    choices=["draw"],
                )
            work.row.setup.pop("draw_offer", None)
            return await self.finish(work, commands.AgreeDraw(side))

    async def _draw_waits_for(self, work: MatchWork, offer: int, side: int) -> list[int]:
        """`side` agrees to the draw `offer` made: the players still in who have not agreed
        yet (a draw needs every one; with two players, none is left)."""
        agreed: list[int] = work.row.setup["draw_offer"].setdefault("agreed", [])
        if side in agreed:
            raise ServiceError("You agreed to the draw already; the others have to accept it.")
        agreed.append(side)
        waiting = [s for s in await self._still_in(work) if s not in (offer, *agreed)]
        if not waiting:
            return []
        return [work.row.players[s] or 0 for s in waiting]

    async def _still_in(self, work: MatchWork) -> list[int]:
        """The seats still playing: all of them, but in a match of more than two a seat that
        conceded or forfeited is out while the others play on."""
        seats = range(len(work.row.players))
        match = await work.in_play()
        if len(seats) <= 2 or match is None:
            return list(seats)
        sides = ruleset_of(work.row).view(match.state).sides
        return [s for s in seats if not sides[s].out]

    async def _standing_draw_offer(self, work: MatchWork) -> tuple[int | None, bool]:
        """The side whose draw offer stands (None: no offer), and whether an offer lapsed: it
        lapses when its player starts their next activation, or DRAW_OFFER_HOURS after it was
        made. A lapsed offer is taken off the row (saved with whatever the caller saves)."""
        row = work.row
        offer = row.setup.get("draw_offer")
        if offer is None:
            return None, False
        # (An offer stored as a bare side, from before offers lapsed, has lapsed.)
        if (
            isinstance(offer, dict)
            and self.now() < offer["at"] + DRAW_OFFER_HOURS * 3600
            and await self._activations(work, offer["side"]) <= offer["activations"]
        ):
            return int(offer["side"]), False
        row.setup.pop("draw_offer", None)
        return None, True

    async def _activations(self, work: MatchWork, side: int) -> int:
        """How many activations the squad has started so far (none before the first turn)."""
        match = await work.in_play()
        if match is None:
            return 0
        return sum(
            1
            for event in match.log
            if event.kind == "activation_started" and event.data.get("side") == side
        )

    async def _offer_draw(self, work: MatchWork, member: Member, side: int) -> Reply:
        row = work.row
        others = [row.players[s] for s in await self._still_in(work) if s != side]
        if None in others:
            raise ServiceError("There is no opponent yet to agree to a draw.")
        if AUTOMATIC in others:
            raise ServiceError("The automatic player never agrees to a draw.")
        if row.status not in (DEPLOYING, PLAYING):
            raise ServiceError(_not_playing(row.status, len(row.players)))
        row.setup["draw_offer"] = {
            "side": side,
            "at": self.now(),
            "activations": await self._activations(work, side),
        }
        people = [other or 0 for other in others]
        return Reply(
            f"{member.name} offers a draw. {_people(people)}: /match draw to accept. The offer lasts "
            f"until {possessive(member.name)} next activation, {DRAW_OFFER_HOURS} hours at most.",
            ping=people[0],
            pings=people[1:],
            choices=["draw"],
        )

    async def request_undo(self, channel_id: int, member: Member) -> Reply:
        """Ask to take back the last action of your activation in progress; the opponent must
        agree (the automatic player always does)."""
        async with self.work(channel_id) as work:
            row = work.row
            side = work.seat(member.id)
            keep = _undo_point(await work.match(), row, side)
            _no_dice_rolled_since(row, keep)
            others = [row.players[s] or 0 for s in await self._still_in(work) if s != side]
            people = [other for other in others if other != AUTOMATIC]
            if not people:  # the automatic player always agrees
                return self._undo_to(work, keep, f"{member.name} takes back their last action.")
            row.setup["undo"] = {"side": side, "keep": keep, "length": len(row.record["commands"])}
            return Reply(
                f"{member.name} asks to take back their last action. {_people(people)}: /match undo to agree.",
                ping=people[0],
                pings=people[1:],
                choices=["undo"],
            )

    async def accept_undo(self, channel_id: int, member: Member) -> Reply:
        async with self.work(channel_id) as work:
            row = work.row
            side = work.seat(member.id)
            asked = row.setup.get("undo")
            if asked is None or asked["side"] == side:
                raise ServiceError("There is no undo request from your opponent to agree to.")
            if asked["length"] != len(row.record["commands"]):
                row.setup.pop("undo", None)
                await work.save()  # the request is gone, whatever the refusal
                raise ServiceError(
                    "The match moved on since the undo was asked for; it no longer applies."
                )
            waiting = await self._undo_waits_for(work, asked, side)
            if waiting:
                return Reply(
                    f"{member.name} agrees to take the last action back. {_people(waiting)}: "
                    "/match undo to agree.",
                    ping=waiting[0],
                    pings=waiting[1:],
                    choices=["undo"],
                )
            row.setup.pop("undo", None)
            return self._undo_to(
                work, asked["keep"], f"{member.name} agrees: the last action is taken back."
            )

    async def _undo_waits_for(self, work: MatchWork, asked: dict[str, Any], side: int) -> list[int]:
        """`side` agrees to the undo `asked` for: the players still in who have not agreed yet
        (with two players, none is left)."""
        agreed: list[int] = asked.setdefault("agreed", [])
        if side in agreed:
            raise ServiceError("You agreed already; the others have to agree too.")
        agreed.append(side)
        players = work.row.players
        return [
            players[s] or 0
            for s in await self._still_in(work)
            if s not in (asked["side"], *agreed) and players[s] != AUTOMATIC
        ]

    def _undo_to(self, work: MatchWork, keep: int, text: str) -> Reply:
        row = work.row
        removed = row.record["commands"][keep:]
        # Counted for the buttons' moment (`moment`): standing orders aside.
        row.setup["taken_back"] = int(row.setup.get("taken_back", 0)) + sum(
            1 for command in removed if command.get("type") != "standing_orders"
        )
        work.rewrite(row.record["commands"][:keep])
        return Reply(text)  # it rolled no dice (_no_dice_rolled_since): none to roll again

    async def abort(self, channel_id: int, member: Member) -> Reply:
        if not member.moderator:
            raise NotAllowed(
                "Only moderators (Manage Server, or the server's skirmbot moderator role) can abort a match."
            )
        async with self.work(channel_id) as work:
            text = f"Match #{work.id} was aborted by {member.name}." + dice_revealed(work.row)
            work.row.status = ABORTED
            return Reply(text, match_over=True)

    # --- reading --------------------------------------------------------------------------
    async def status(self, channel_id: int) -> Reply:
        """The match in the channel: its map and whose turn it is; once it is over (until the
        next one starts), its result and final map."""
        row = await self.live.find(channel_id, active_only=False)
        if not row.active:
            return await self._last_result(row)
        if row.status in (SETUP, DEPLOYING):
            return Reply(_setup_status(row))
        match = await self.live.match(row)
        picture, alt = await self._picture(row, match, _last_activation(match))
        return Reply(_status_text(row, match.state), picture=picture, picture_alt=alt, ping=None)

    async def log(self, channel_id: int, count: int = 25) -> Reply:
        """The latest lines of the channel's match (once it is over, until the next one starts,
        of its last match: the activation numbers /match recap takes)."""
        row = await self.live.find(channel_id, active_only=False)
        match = await self.live.match(row)
        lines = numbered_log(match.log)  # "#5 ...": the numbers /match recap takes
        played = who_played(row)  # substitutes (issue 34): who held a seat that changed hands
        lines = ([played] if played else []) + lines[-count:]
        return Reply(clip("\n".join(lines) or "Nothing has happened yet."), private=True)

    async def card(self, channel_id: int, unit: str) -> Reply:
        row = await self.live.find(channel_id)
        match = await self.live.match(row)
        try:
            card = ruleset_of(row).card(match.state, unit)
        except RulesError as error:
            raise ServiceError(str(error)) from error
        picture = await asyncio.to_thread(card_png, card)
        alt = f"Stat card of {card.name} of {card.squad}: {' · '.join(card_lines(card))}"
        return Reply(
            f"{card.name} of {card.squad}",
            picture=picture,
            picture_name="card.png",
            picture_alt=alt,
            private=True,
        )

    async def preview(
        self, channel_id: int, member: Member, unit: str | None = None, square: str | None = None
    ) -> Reply:
        """A player's preview of one of their units, as if on `square` if given (the activating
        unit if none is named): for the asker only; nothing is changed (service.preview)."""
        row = await self.live.find(channel_id)
        side = seat(row, member.id)
        match = await self.live.match(row)
        return await preview_reply(row, match, ruleset_of(row), side, unit, square)

    async def secondary(self, channel_id: int, member: Member) -> Reply:
        """Your squad's secondary objective this turn, shown only to you (rulebook Game Cycle:
        each squad draws one; it is revealed when scored)."""
        row = await self.live.find(channel_id)
        side = seat(row, member.id)
        match = await self.live.match(row)
        try:
            return Reply(ruleset_of(row).secret_note(match.state, side), private=True)
        except RulesError as error:
            raise ServiceError(str(error)) from error

    async def export(self, channel_id: int, member: Member | None = None) -> tuple[str, bytes]:
        """The match record's file name and bytes (see `export_record`)."""
        exported = await self.export_record(channel_id, member)
        return exported.name, exported.data

    async def export_record(self, channel_id: int, member: Member | None = None) -> FileReply:
        """The channel's match record. Once the match is over: the whole record, with the dice
        key, for the channel. Before: the record so far, only for the asker, whoever asks
        (moderators too): its dice are the faces rolled so far, never the key, which tells every
        roll to come, and the secondary objective of a squad the asker does not play stays
        hidden while unrevealed (skirmbot.rules.record.so_far)."""
        row = await self.live.find(channel_id, active_only=False)
        record = MatchRecord.from_json(row.record)
        if not row.active:
            record = await asyncio.to_thread(revealed, record)  # with its rolls and result
            check = "; check its dice with skirmbot verify" if record.commitment else ""
            return FileReply(
                f"skirm-match-{row.id}.json",
                record.dumps().encode(),
                f"The record of match #{row.id}, dice key included (replay it with skirmbot replay{check}).",
            )
        if row.status == SETUP:
            raise ServiceError(_not_playing(SETUP, len(row.players)))
        side = self.side_of(row, member) if member is not None else None
        partial = so_far(record, hide=[other for other in range(len(row.players)) if other != side])
        return FileReply(
            f"skirm-match-{row.id}-so-far.json",
            partial.dumps().encode(),
            f"The record of match #{row.id} so far, for you only. Its dice are the faces rolled so "
            "far, so it replays up to now; the dice key, which tells the rolls to come, is in "
            "the record once the match is over.",
            private=True,
        )

    async def units(self, channel_id: int) -> list[tuple[str, str]]:
        """(unit, its squad's name) for every unit of both squads, from the moment both squads
        are chosen (deployment included), for /match card; nothing is changed."""
        row = await self.live.find(channel_id)
        if row.status == SETUP:
            return []
        view = ruleset_of(row).view((await self.live.match(row)).state)
        return [(piece.id, view.sides[piece.side].name) for piece in view.pieces]

    async def view(self, channel_id: int) -> tuple[MatchRow, PlayedMatch | None]:
        """The match in the channel and its live state (None before deployment), for
        autocomplete and the cogs' checks; nothing is changed."""
        row = await self.live.find(channel_id)
        if row.status in (SETUP, DEPLOYING):
            return row, None
        return row, await self.live.match(row)

    def side_of(self, row: MatchRow, member: Member) -> int | None:
        return row.players.index(member.id) if member.id in row.players else None

    async def situation(self, channel_id: int, member: Member | None = None) -> Situation:
        """The channel's live match as `member` sees it (their side, None if they do not play
        it), for autocomplete and /odds; ServiceError when no match is in play here."""
        row, match = await self.view(channel_id)
        if match is None:
            raise ServiceError("The match has not started yet: units are still deploying.")
        side = self.side_of(row, member) if member is not None else None
        return Situation(match.state, side, ruleset_of(row))

    async def placing(self, channel_id: int, member: Member) -> Situation:
        """The channel's match in a set-up stage as `member` sees it, for /deploy's help and
        autocomplete; ServiceError when no match here is deploying."""
        row = await self.live.find(channel_id)
        if row.status != DEPLOYING:
            raise ServiceError("No match here is deploying: /deploy is for the set-up.")
        match = await self.live.match(row)
        return Situation(match.state, self.side_of(row, member), ruleset_of(row))

    async def rules_text(self, channel_id: int) -> str:
        """The actions of the ruleset of the channel's match (the default ruleset when there
        is none), with their costs, as /match rules shows them."""
        played = ruleset(await self.ruleset_here(channel_id))
        lines = [f"**{played.title}**: the actions a unit can take"]
        lines += [f"- **{r.title}** ({r.cost}): {r.text}" for r in played.action_rules()]
        others = [r.title for r in rulesets().values() if r is not played]
        lines.append(f"Other rulesets: {', '.join(others)} (/match new ruleset:).")
        return clip("\n".join(lines))

    # --- the server's and the players' settings ----------------------------------------------
    @property
    def campaigns(self) -> CampaignService:
        """Stored squads, their XP and medals, on the same store."""
        return CampaignService(self.store, self.live)

    @property
    def maps(self) -> MapService:
        """The server's own maps (/map), and finding a map by name for a new match."""
        return MapService(self.store)

    @property
    def progress(self) -> SquadProgress:
        """A stored squad's roster card and the Spoils Of War its units take."""
        return SquadProgress(self.store)

    async def moderator_role(self, guild_id: int) -> str | None:
        """The id of the role the server named for its moderators (/match modrole), if any."""
        return await self.store.get_setting(guild_id, MODERATOR_ROLE)

    async def set_moderator_role(self, guild_id: int, role_id: int | None) -> None:
        """Name the server's moderators' role; None clears it."""
        await self.store.set_setting(guild_id, MODERATOR_ROLE, str(role_id) if role_id else None)

    async def set_dm_reminders(self, member: Member, on: bool) -> None:
        """Remind the member by direct message (on) or in the match's channel; choosing again
        forgets that their direct messages were closed."""
        await self.store.remember_player(member.id, member.name)
        await self.store.set_dm_reminders(member.id, on)

    async def note_dms_closed(self, user_id: int) -> None:
        """Discord refused a direct message to the player: their reminders go to the channel."""
        await self.store.note_dms_closed(user_id)

    async def complete_results(self) -> list[int]:
        """Store the result columns of matches that ended before results were columns (their
        records replayed once, here); the matches done. Standings and ratings read only the
        columns, so old matches count too."""
        done = []
        for row in await self.store.ended_without_result():
            try:
                record = MatchRecord.from_json(row.record)
                if not all(record.content.get("squads") or [None]):
                    continue  # called off before both squads were in: no result to keep
                match = replay(record)
            except RulesError:
                continue  # a record this version cannot read or replay keeps no result
            row.result = result_of(row, match, row.updated_at)
            if row.result is not None:
                await self.store.write_result(row)
                done.append(row.id)
        return done

    async def squads_too_costly(self, channel_id: int, names: list[str]) -> set[str]:
        """Which of these shipped squads cost more than one player of the channel's match in
        set-up may field (a team match shares each side's points among its players); none
        when no match here is choosing squads."""
        row = await self.store.active_match(channel_id)
        if row is None or row.status != SETUP:
            return set()
        played = ruleset_of(row)
        limit = played.points_limit(row.record["content"]["mission"], len(row.players))
        costly = set()
        for name in names:
            try:
                played.check_squad(content.raw("squads", name, played.name), limit)
            except ContentError:
                costly.add(name)
        return costly

    async def ruleset_here(self, channel_id: int) -> str:
        """The ruleset of the channel's match (the default ruleset when there is none)."""
        row = await self.store.active_match(channel_id)
        return ruleset_of(row).name if row is not None else DEFAULT_RULESET

    async def last_match_id(self, channel_id: int) -> int | None:
        """The channel's match, or its last one (for the log)."""
        row = await self.store.last_match(channel_id)
        return row.id if row is not None else None

    # --- actions kept for a button ----------------------------------------------------------
    async def keep_action(self, guild_id: int, match_id: int, user_id: int, payload: str) -> None:
        """Keep an action (`actions.encode`) too long for a button's custom_id, one per match
        and player, until the match ends (then the store deletes it)."""
        await self.store.set_setting(guild_id, _kept_key(match_id, user_id), payload)

    async def kept_action(self, guild_id: int, match_id: int, user_id: int) -> str | None:
        """The action `keep_action` kept for the player in that match, if any."""
        return await self.store.get_setting(guild_id, _kept_key(match_id, user_id))

    async def sweep_kept_actions(self) -> int:
        """Delete the kept actions of matches that are over (left from before matches cleaned
        up after themselves, or from a crash); how many went."""
        return await self.store.sweep_match_settings()

    # --- the automatic player -------------------------------------------------------------
    def _automatic_deployment(self, work: MatchWork) -> list[Reply]:
        row = work.row
        scratch = work.scratch()
        for side in _automatic_seats(row):
            placement = ruleset_of(row).automatic_placement(scratch.state, side)
            row.setup.setdefault(HIDDEN[DEPLOY], {})[str(side)] = placement.to_json()
        return [Reply("The automatic player has deployed (hidden until you deploy too).")]

    async def automatic_turns(self, work: MatchWork) -> list[Reply]:
        """The automatic player takes its activations like a human would, one reply each."""
        row, match = work.row, await work.match()
        replies: list[Reply] = []
        played = ruleset_of(row)
        while (side := _automatic_seat(row, played.deciding(match.state))) is not None:
            events = await work.apply(played.automatic_command(match.state, side))
            if any(e.kind in ("activation_ended", "match_ended") for e in events):
                replies.append(await self.reply_to(work, _last_activation(match)))
        return replies

    # --- telling what happened ----------------------------------------------------------------
    async def reply_to(self, work: MatchWork, events: list[Event]) -> Reply:
        """What the players read after `events` of the live match: the events; when an
        activation ended, the map and who acts next (pinged) with their deadline; at the end,
        the result (`finish`)."""
        row, match = work.row, await work.match()
        state = match.state
        kinds = {event.kind for event in events}
        text = clip(describe(events))
        if ruleset_of(row).outcome(state) is not None:
            return await self._the_end(work, events)
        if kinds & {"activation_ended", "turn_started"}:
            picture, alt = await self._picture(row, match, _last_activation(match))
            view = ruleset_of(row).view(state)
            acting = acting_seats(view)
            if len(acting) > 1:
                return await self._side_to_act(work, text, view, acting, (picture, alt))
            nxt = row.players[view.to_act] if view.to_act is not None else None
            ready = (
                ", ".join(piece.id for piece in view.ready(view.to_act))
                if view.to_act is not None
                else ""
            )
            who = AUTOMATIC_NAME if nxt == AUTOMATIC else person(nxt or 0)
            deadline = await work.advance_clock()
            due = (
                f" Time runs out {when(work.clock().deadline)}."
                if deadline and nxt != AUTOMATIC
                else ""
            )
            reply = Reply(
                f"{text}\n\n{who}: activate a unit ({ready}).{due}",
                picture=picture,
                picture_alt=alt,
                ping=nxt,
            )
            # A player coming back after being away gets their catch-up (service/recap.py).
            return await with_recap(work, reply, view.to_act)
        return Reply(text + _reactions(row, state), choices=_choices(state, ruleset_of(row)))

    async def _side_to_act(
        self,
        work: MatchWork,
        text: str,
        view: MatchView,
        acting: tuple[int, ...],
        picture: tuple[bytes, str],
    ) -> Reply:
        """A side's turn taken by several seats at once (team play): each of its players,
        pinged, with their own units ready, and the turn's deadline."""
        row = work.row
        people = [row.players[seat] for seat in acting]
        each = listed(
            [
                f"{_seat_player(row, seat, True)} ({', '.join(p.id for p in view.ready(seat))})"
                for seat in acting
            ]
        )
        deadline = await work.advance_clock()
        humans = [p for p in people if p not in (None, AUTOMATIC)]
        due = f" Time runs out {when(work.clock().deadline)}." if deadline and humans else ""
        reply = Reply(
            f"{text}\n\n{each}: your side's turn, activate your units.{due}",
            picture=picture[0],
            picture_alt=picture[1],
            ping=humans[0] if humans else None,
            pings=humans[1:],
        )
        return await with_recap(work, reply, acting[0])

    async def _picture(
        self, row: MatchRow, match: PlayedMatch, events: list[Event]
    ) -> tuple[bytes, str]:
        """The battlemap after `events`, and its alt text."""
        renderer = self._renderers.pop(row.id, None) or MapRenderer()
        self._renderers[row.id] = renderer
        while len(self._renderers) > LIVE_CACHE:
            self._renderers.popitem(last=False)
        view = ruleset_of(row).view(match.state)
        # Pillow releases the GIL while drawing and encoding: keep the event loop free.
        picture = await asyncio.to_thread(renderer.png, view, events)
        return picture, alt_text(view, events)

    async def _final_picture(self, match: PlayedMatch, row: MatchRow) -> tuple[bytes | None, str]:
        """The battlemap at the end of a match, and its alt text; none for a match that ended
        before its first turn."""
        if ruleset_of(row).view(match.state).turn < 1:
            return None, ""
        return await self._picture(row, match, _last_activation(match))

    async def reveal_deployments(self, work: MatchWork) -> Reply:
        """Put the hidden placements of the set-up stage into the record, in squad order, and
        go on: to the ruleset's next set-up stage if there is one, else to the first turn."""
        row, rules = work.row, ruleset_of(work.row)
        before = work.scratch()
        stage = rules.set_up_stage(before.state)
        assert stage is not None
        hidden = row.setup.pop(hidden_key(stage))
        # Earlier stages were told when they were revealed: only this stage's events now.
        shown_already = len(before.log) if stage.name != DEPLOY else 0
        revealed = [hidden[str(side)] for side in range(len(row.players)) if str(side) in hidden]
        match = work.rewrite(row.record["commands"] + revealed)
        following = rules.set_up_stage(match.state)
        if following is not None:
            return await self._next_set_up_stage(work, match, following, stage)
        row.status = PLAYING
        row.setup.pop("stage", None)
        reply = await self.reply_to(work, match.log[shown_already:])
        reply.text = f"**{stage.heading}.**\n" + reply.text
        await self._asked_before_the_first_turn(work, reply)
        if AUTOMATIC in row.players:
            reply.followups += await self.automatic_turns(work)
        return reply

    async def _asked_before_the_first_turn(self, work: MatchWork, reply: Reply) -> None:
        """Deployed, and the rules ask the players something before any turn (the group rules'
        ambitions): each is told what, with /act, pinged, and the deadline."""
        row, match = work.row, await work.match()
        rules = ruleset_of(row)
        if rules.view(match.state).to_act is not None:
            return
        asked = [
            d for d in rules.deciding(match.state) if d.turn and row.players[d.side] != AUTOMATIC
        ]
        people = [player for d in asked if (player := row.players[d.side])]
        if not people:
            return
        deadline = await work.advance_clock()
        due = f" Time runs out {when(work.clock().deadline)}." if deadline else ""
        lines = [f"{_seat_player(row, d.side, True)}: {d.why}, with /act." for d in asked]
        reply.text += "\n\n" + "\n".join(lines) + due
        reply.ping, reply.pings = people[0], [*reply.pings, *people[1:]]

    async def _next_set_up_stage(
        self, work: MatchWork, match: PlayedMatch, stage: SetUpStage, done: SetUpStage
    ) -> Reply:
        """A later set-up stage begins (Skirm's Infiltrators): told, and placed at once by the
        automatic player if it has units to place."""
        row = work.row
        row.setup["stage"] = stage.name
        text = clip(f"**{done.heading}.**\n" + describe(match.log))
        text += f"\n{stage.announce}"
        placing = [side for side in _automatic_seats(row) if side in stage.sides]
        for side in placing:
            placement = ruleset_of(row).automatic_placement(match.state, side)
            row.setup.setdefault(hidden_key(stage), {})[str(side)] = placement.to_json()
        if placing and set(stage.sides) == set(placing):
            follow = await self.reveal_deployments(work)
            follow.text = text + "\n" + follow.text
            return follow
        return Reply(text)

    async def finish(self, work: MatchWork, command: commands.Command) -> Reply:
        """End the match with `command` (a concession, a forfeit, an agreed draw): saved, then
        the end told (`_the_end`). A match still in set-up is called off instead. In a match of
        more than two, a seat's concession may leave the others playing (the ruleset's
        `outcome` says whether the match is over): then what happened is told as any action."""
        row = work.row
        if row.status not in (DEPLOYING, PLAYING):
            if row.status == SETUP:
                row.status = ABORTED
                return Reply("The match is called off before it began.", match_over=True)
            raise ServiceError(_not_playing(row.status, len(row.players)))
        if row.status == DEPLOYING:
            row.setup.pop("hidden_deployments", None)
        events = await work.apply(command)
        if row.status == PLAYING and ruleset_of(row).outcome((await work.match()).state) is None:
            return await self.reply_to(work, events)  # one seat of several left: the others play on
        row.status = ENDED_STATUS
        row.result = result_of(row, await work.match(), work.now())
        await work.save()  # the match is over before its medals go to the stored squads
        return await self._the_end(work, events)

    async def _the_end(self, work: MatchWork, events: list[Event]) -> Reply:
        """The match is over: the result in one message, with both players pinged, the final
        map and the medals (XP added to stored squads first), after what happened last (in the
        same message when it all fits)."""
        row, match = work.row, await work.match()
        row.status = ENDED_STATUS
        row.result = row.result or result_of(row, match, work.now())
        state = match.state
        picture, alt = await self._final_picture(match, row)
        rules = ruleset_of(row)
        squads = _squad_names(rules, state, len(row.players))
        heading = end_heading(row.id, _result(rules, state), _seats(row, squads, mention=True))
        page = await self.links.match(row.guild_id, row.id)
        heading += f"\nReplay: {page}" if page else ""
        heading += _substitutes(row)
        heading += dice_revealed(row)
        room = MESSAGE_LIMIT - len(heading) - 2
        medals = await self.campaigns.award_ended(row, match, limit=room)
        last = describe([event for event in events if event.kind != "match_ended"])
        *before, text = the_end(heading, last, medals)
        result = Reply(
            text,
            picture=picture,
            picture_alt=alt,
            pings=[player for player in row.players if player],  # not the automatic player
            match_over=True,
        )
        return Reply(before[0], match_over=True, followups=[result]) if before else result

    async def _last_result(self, row: MatchRow) -> Reply:
        """/match status once the channel's match is over: its result and its final map."""
        match = None
        if all(row.record["content"]["squads"]):  # both squads were chosen: it replays
            match = await self.live.match(row)
        if match is None or ruleset_of(row).outcome(match.state) is None:
            return Reply(
                f"Match #{row.id} was {'aborted' if row.status == ABORTED else 'called off'}: "
                "it has no result. Start a new one with /match new."
            )
        state = match.state
        rules = ruleset_of(row)
        squads = _squad_names(rules, state, len(row.players))
        heading = end_heading(row.id, _result(rules, state), _seats(row, squads, mention=False))
        heading += _substitutes(row)
        picture, alt = await self._final_picture(match, row)
        return Reply(
            f"{heading}\nIts record: /match export. A new match: /match new.",
            picture=picture,
            picture_alt=alt,
        )


# --- helpers -------------------------------------------------------------------------------
def _substitutes(row: MatchRow) -> str:
    """Substitutes (issue 34): a line per seat that changed hands, for the result."""
    played = who_played(row)
    return f"\n{played}" if played else ""


def dice_revealed(row: MatchRow) -> str:
    """For a match that ends now: a line saying where its dice seed is revealed and how to
    verify it (verifiable dice); nothing when no die could have been rolled (still in set-up)
    or its dice carry no commitment."""
    if row.status == SETUP:
        return ""
    revealing = reveal_words(MatchRecord.from_json(row.record))
    return f"\n{revealing}" if revealing else ""


def _ruleset(name: str) -> Ruleset:
    try:
        return ruleset(name)
    except RulesError as error:
        raise ServiceError(str(error)) from error


def ruleset_choices() -> list[tuple[str, str]]:
    """Every ruleset this skirmbot plays as (name, title), the default first."""
    return [(found.name, found.title) for found in rulesets().values()]


def seat_choices() -> list[int]:
    """How many players a match may have, under one ruleset or another (`/match new players`)."""
    return sorted({count for found in rulesets().values() for count in found.seats})


def players_words(count: int) -> str:
    """`two players`: a match's players, counted in words."""
    return f"{NUMBER_WORDS.get(count, str(count))} players"


def ruleset_name(typed: str) -> str:
    """A ruleset's key ("lite") as records and the database name it, from what a player typed:
    its key or its title, in any case and spacing ("Skirm Lite", "skirm-lite")."""
    return _ruleset(typed).name


def ruleset_title(name: str) -> str:
    """A ruleset's title for players ("Skirm Lite"), from its name."""
    return _ruleset(name).title


def shipped_choices(kind: str, rules: str = DEFAULT_RULESET) -> list[tuple[str, str]]:
    """The shipped maps, or one ruleset's missions or squads, as (file name, display name), for
    the options that pick one."""
    return list(content.titles(kind, rules).items())


def _shipped(kind: str, name: str, rules: str = DEFAULT_RULESET) -> dict[str, Any]:
    """A shipped map, mission or squad as a player named it (`content.find`: its file name or
    display name, in any case and spacing)."""
    try:
        return content.raw(kind, content.find(kind, name, rules), rules)
    except ContentError as error:
        raise ServiceError(str(error)) from error


def hidden_key(stage: SetUpStage | str) -> str:
    """Where a set-up stage's (or the stage named) placements wait, hidden, in the match's
    set-up (the first two stages keep the names they were stored under before stages were the
    rulesets' own)."""
    name = stage if isinstance(stage, str) else stage.name
    return HIDDEN.get(name, f"hidden_{name}")


def _last_activation(match: PlayedMatch) -> list[Event]:
    """The events since the last activation began (or since the turn began)."""
    log = match.log
    for index in range(len(log) - 1, -1, -1):
        if log[index].kind in ("activation_started", "deployed"):
            return log[index:]
    return list(log)


def _reactions(row: MatchRow, state: Any) -> str:
    """What the match now waits for from a seat outside its turn, said where the move that
    asked it is told ("Waiting for Alice: Okafor's arc: Varga is in F8 (...): fire or hold."),
    so its buttons there are not a riddle; the seat's ping comes with its window."""
    waiting = [d for d in ruleset_of(row).deciding(state) if not d.turn]
    return "".join(f"\nWaiting for {row.names[d.side]}: {d.why}." for d in waiting)


def _choices(state: Any, rules: Ruleset) -> list[str]:
    """The buttons under a reply: the ruleset's (`Ruleset.buttons`), "end", "accept", ..."""
    return list(rules.buttons(state))


def _undo_point(match: PlayedMatch, row: MatchRow, side: int) -> int:
    """How many commands to keep to take back the last action of the activation in progress."""
    try:
        return ruleset_of(row).undo_point(match.state, row.record["commands"], side)
    except RulesError as error:
        raise ServiceError(str(error)) from error


def _automatic_seat(row: MatchRow, deciding: tuple[Decision, ...]) -> int | None:
    """A seat of the automatic player's that must decide now, if any."""
    return next((d.side for d in deciding if row.players[d.side] == AUTOMATIC), None)


def _people(users: list[int]) -> str:
    """The players named together, each pinged: "@Alice @Bob"."""
    return " ".join(person(user) for user in users)


def _and(names: Sequence[str]) -> str:
    """Names in words: "defiant, elusive and prompt"."""
    return " and ".join(filter(None, (", ".join(names[:-1]), names[-1] if names else "")))


def moment(row: MatchRow) -> int:
    """How far the match is, for a button to tell it is stale: the accepted commands in its
    record, standing orders left out (a player may set those at any time; that must not expire
    the other player's buttons), plus twice the commands taken back by undo, so the count only
    ever grows: a button from before an undo never matches a later moment of the same length."""
    done = sum(1 for c in row.record.get("commands", []) if c.get("type") != "standing_orders")
    return done + 2 * int(row.setup.get("taken_back", 0))


def _kept_key(match_id: int, user_id: int) -> str:
    """`spend:<match>:<user>`: a match setting (the store deletes it when the match ends)."""
    return match_setting_key("spend", match_id, user_id)


def _no_dice_rolled_since(row: MatchRow, keep: int) -> None:
    """Rolled dice stand (rulings: Fair play): taking back an action that rolled dice would
    roll the same faces again for the next action, and both players would know them."""
    record = MatchRecord.from_json(row.record)
    if len(faces_rolled(record, keep)) < len(faces_rolled(record)):
        raise ServiceError(
            "Your last action rolled dice, and rolled dice stand: only an action that rolled "
            "no dice can be taken back."
        )


def _salt(given: str | None) -> str:
    """A player's salt for the dice as they typed it (checked), or one the bot makes for them
    (rulings: Verifiable dice)."""
    try:
        return new_salt() if given is None else check_salt(given)
    except RulesError as error:
        raise ServiceError(str(error)) from error


def result_of(row: MatchRow, match: PlayedMatch, now: float) -> MatchResult | None:
    """The finished match's result, as the store keeps it in columns: its ruleset's outcome
    (each side's placing and score) for every seat of each side. None if it has no outcome."""
    rules = ruleset_of(row)
    outcome = rules.outcome(match.state)
    if outcome is None:
        return None
    placed = [
        SeatResult(
            side,
            row.players[seat],
            row.names[seat],
            outcome.placings[side],
            outcome.scores[side],
            seat,
        )
        for side, seated in enumerate(rules.sides_of(len(row.players)))
        for seat in seated
    ]
    seats = tuple(sorted(placed, key=lambda found: found.seat))
    return MatchResult(rules.name, outcome.winner, outcome.reason, now, seats)


def _result(rules: Ruleset, state: Any) -> str:
    outcome = rules.outcome(state)
    return outcome.reason if outcome is not None else "The match is over."


def _squad_names(rules: Ruleset, state: Any, players: int) -> list[str]:
    """Each seat's squad name (`_seats`); in a finished match of more than two seats, with its
    side's placing ("Gold Breakers, 1st"), which a two-seat result's words already say."""
    return squad_names(rules.view(state), rules.outcome(state), rules.sides_of(players))


def _seats(row: MatchRow, squads: Sequence[str], *, mention: bool) -> list[tuple[str, str]]:
    """(player, squad) for every seat, side by side (a side's seats together): each player
    pinged (`mention`) or named, with their own squad (`squads`: each seat's squad name)."""
    sides = ruleset_of(row).sides_of(len(row.players))
    return [(_seat_player(row, seat, mention), squads[seat]) for seated in sides for seat in seated]


def _placed_already(stage: SetUpStage, seats: int) -> str:
    """Why a seat that has placed its units in this set-up stage places none now."""
    if seats == 2:  # the words of two-player matches
        if stage.name == DEPLOY:
            return "You have already deployed; the bot reveals both deployments once your opponent has."
        return f"You have no {stage.what} left to place; waiting for your opponent's."
    if stage.name == DEPLOY:
        return "You have already deployed; the bot reveals every deployment once the others have."
    return f"You have no {stage.what} left to place; waiting for the others'."


def _automatic_seats(row: MatchRow) -> list[int]:
    """The seats the automatic player plays (every other seat of a practice match)."""
    return [seat for seat, player in enumerate(row.players) if player == AUTOMATIC]


def _seat_player(row: MatchRow, seat: int, mention: bool) -> str:
    player = row.players[seat]
    if player == AUTOMATIC:
        return AUTOMATIC_NAME
    return person(player) if mention and player else row.names[seat]


def _setup_status(row: MatchRow) -> str:
    seats = len(row.players)
    squads = row.setup.get("squads") or [None] * seats
    deployed = row.setup.get(HIDDEN[DEPLOY], {})
    teams = teams_of(ruleset_of(row), seats)
    lines = [
        f"Squad {seat + 1}{f' (side {side_of(teams, seat) + 1})' if teams else ''}: "
        f"{row.names[seat] or '(open seat: /match join)'}, "
        f"{squads[seat] or 'no squad yet'}{' · deployed' if str(seat) in deployed else ''}"
        for seat in range(seats)
    ]
    return f"Match #{row.id} ({row.status}).\n" + "\n".join(lines)


# --- seats ---------------------------------------------------------------------------------
NUMBER_WORDS = {2: "two", 3: "three", 4: "four"}
CHALLENGED_SEAT = 1  # the seat a challenged opponent takes


def _seat_count(played: Ruleset, players: int | None) -> int:
    """How many seats a new match of `played` has: `players`, if its ruleset is played by that
    many (None: the fewest it is); else ServiceError saying which ruleset is played by how many."""
    if players is None:
        return min(played.seats)
    if players in played.seats:
        return players
    others = [r for r in rulesets().values() if r is not played and players in r.seats]
    told = "; ".join(
        [f"{played.title} is played by {_counts(played.seats)} players"]
        + [f"{other.title} by {_counts(other.seats)}" for other in others]
    )
    raise ServiceError(f"{told}.")


def _counts(seats: Sequence[int]) -> str:
    """`2`, `2 to 4`, `2 or 4`: how many players a ruleset takes, in words."""
    ordered = sorted(seats)
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]} to {ordered[-1]}"
    if len(ordered) == 1:
        return str(ordered[0])
    return ", ".join(map(str, ordered[:-1])) + f" or {ordered[-1]}"


def _seated(
    creator: Member, opponent: Member | None, practice: bool, seats: int
) -> tuple[list[int | None], list[str]]:
    """A new match's players and names, seat by seat: the creator first, then the automatic
    player in every other seat (`practice`), or open seats, the challenged opponent's named."""
    others = range(1, seats)
    players: list[int | None] = [creator.id, *(AUTOMATIC if practice else None for _ in others)]
    names = [creator.name, *(AUTOMATIC_NAME if practice else "" for _ in others)]
    if opponent is not None:
        names[CHALLENGED_SEAT] = opponent.name
    return players, names


def _squads_words(first: int, last: int) -> str:
    """`squad 2`, `squads 3 and 4`, `squads 2 to 4`."""
    if first == last:
        return f"squad {first}"
    return f"squads {first} {'and' if last == first + 1 else 'to'} {last}"


def _everyone(seats: int) -> str:
    return "Both players" if seats == 2 else "Every player"


def _all_squads(seats: int) -> str:
    return "Both squads" if seats == 2 else "All squads"


def _seating(creator: Member, opponent: Member | None, practice: bool, seats: int) -> str:
    """Who plays which squad of a new match: the creator the first, the others to come."""
    rest = _squads_words(2, seats)
    if practice:
        return f"{creator.name} plays squad 1; the automatic player plays {rest}"
    if opponent is None:
        return f"{creator.name} plays squad 1; anyone may join as {rest}"
    line = f"{creator.name} plays squad 1; {person(opponent.id)} may join as squad 2 (/match join)"
    return line + (f", anyone as {_squads_words(3, seats)}" if seats > 2 else "")


def _open_seat(row: MatchRow, member: Member) -> int:
    """The seat `member` joins in: the first open one, but the challenged opponent's seat is
    kept for them; ServiceError (NotAllowed) in words when there is none for them."""
    if row.status != SETUP or None not in row.players:
        raise ServiceError(f"This match already has {players_words(len(row.players))}.")
    if row.players[0] == member.id:
        raise ServiceError("You created this match; someone else has to join it.")
    if member.id in row.players:
        raise ServiceError("You already have a seat in this match.")
    challenged = row.setup.get("challenged")
    if challenged is None or challenged in row.players:
        return row.players.index(None)
    if challenged == member.id:
        return CHALLENGED_SEAT
    free = [seat for seat, p in enumerate(row.players) if p is None and seat != CHALLENGED_SEAT]
    if not free:
        raise NotAllowed(
            f"This match is a challenge to {person(int(challenged))}; only they can join it."
        )
    return free[0]


def _status_text(row: MatchRow, state: Any) -> str:
    rules = ruleset_of(row)
    view = rules.view(state)
    squads = _standings(row, rules, state, view)
    outcome = rules.outcome(state)
    if outcome is not None:
        return f"Match #{row.id}: {outcome.reason}\n{squads}"
    waiting = () if view.phase == SETUP_PHASE else rules.deciding(state)
    if view.to_act is None and waiting:
        # Past deployment, nobody's turn: a decision of the set-up (the group rules' ambitions)
        # or a reaction (a defender's Interrupt) holds the match.
        when = f", {view.turn_word.lower()} {view.turn} of {view.turns}" if view.turn else ""
        asked = "; ".join(f"{row.names[d.side]}: {d.why}" for d in waiting)
        return f"Match #{row.id}{when}. {squads}\nWaiting for {asked}."
    if view.phase == SETUP_PHASE or view.to_act is None:
        return f"Match #{row.id}: deploying. {squads}"
    busy = f" {view.activating} is activating." if view.activating else ""
    # A seat asked to decide outside its turn (an arc's owner, a defender) holds the match too.
    reacting = "".join(
        f"\nWaiting for {row.names[d.side]}: {d.why}." for d in waiting if not d.turn
    )
    nxt = ", ".join(
        f"{row.names[seat]} ({', '.join(piece.id for piece in view.ready(seat))})"
        for seat in acting_seats(view) or (view.to_act,)
    )
    return (
        f"Match #{row.id}, {view.turn_word.lower()} {view.turn} of {view.turns}. {squads}\n"
        f"Next: {nxt}.{busy}{reacting}"
    )


def _standings(row: MatchRow, rules: Ruleset, state: Any, view: MatchView) -> str:
    """Each seat's standing; in a team match grouped by side with its player, a seat that is
    out (conceded) marked so."""
    teams = teams_of(rules, len(row.players))
    if not teams:
        return " · ".join(rules.status_line(state, side.side) for side in view.sides)

    def standing(seat: int) -> str:
        seen = view.sides[seat]
        return f"{seen.name}, out" if seen.out else rules.status_line(state, seat)

    return by_side(teams, lambda seat: row.names[seat] or "open seat", standing)
