"""Turn timer use cases (issue 5): deadlines firing, extensions, pauses, and the clock's view.

Part of the service package: it works on a match through the same unit of work as every other
use case (`MatchService.work`, skirmbot.service.work), under the match's own lock, so a deadline
and a player's command at the same moment are applied one after the other, and the second sees
what the first did (a deadline that belongs to an activation that has since ended is stale and
does nothing).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Awaitable, Callable
from dataclasses import fields
from typing import Any

from skirmbot.rules import commands
from skirmbot.rules.events import Event
from skirmbot.rules.ruleset import PlayedMatch
from skirmbot.rules.view import Decision
from skirmbot.service import notify
from skirmbot.service.errors import NotAllowed, ServiceError
from skirmbot.service.matches import (
    ABORTED,
    AUTOMATIC,
    DEPLOY,
    DEPLOYING,
    HIDDEN,
    PLAYING,
    MatchService,
    Member,
    hidden_key,
)
from skirmbot.service.recap import with_recap
from skirmbot.service.replies import Reply, person, when
from skirmbot.service.substitutes import misses_go_automatic, to_automatic
from skirmbot.service.work import (
    REACTION_MINUTES,
    SEATS_DECIDING,
    WEEKENDS,
    MatchWork,
    clock_stops,
    deciding,
    ruleset_of,
    waiting_key,
)
from skirmbot.store import Deadline, MatchRow
from skirmbot.store.database import VacationRow
from skirmbot.timers.clock import DAY, HOUR, Clock, Stops, duration
from skirmbot.words import plural

# What a league that hands a seat out of excused misses on does instead (issue 34).
TO_AUTOMATIC = "the automatic player takes their seat"
FORFEIT = "forfeits (the turn timer ran out and no excused misses were left)"
VACATION_DAYS = "vacation_days"  # guild setting: each player's vacation days a year
DEFAULT_VACATION_DAYS = 20  # as Lichess gives
MAX_VACATION_DAYS = 60
MAX_REACTION_MINUTES = 30  # well inside the shortest turn clock (an hour)
# A Decision's `missed` words when its ruleset gives none of its own (a missed turn's).
TURN_MISSED = next(f.default for f in fields(Decision) if f.name == "missed")


async def on_deadline(service: MatchService, match_id: int, deadline: Deadline) -> Reply | None:
    """A deadline came due: remind, or apply the miss. None when it is stale (the player
    acted in time, the match is paused or over)."""
    async with service.work_on(match_id) as work:
        row, clock = work.row, work.clock()
        if not row.active or clock.paused is not None:
            return None
        if clock.reaction(deadline.key) is not None:
            return await _reaction_due(service, work, clock, deadline)
        if clock.key != deadline.key:
            return None
        due = clock.turn_deadline()
        if due is not None and due.kind == deadline.kind and deadline.due_at < due.due_at - 1:
            # Moved later since it was armed (a vacation, the weekends), perhaps by another
            # process: the deadline armed with the new time fires instead.
            return None
        if deadline.kind == "remind":
            return await _remind(service, work, clock)
        if clock.key == "deploy":
            return await _missed_deployment(service, work, clock)
        return await _missed_activation(service, work, clock)


async def _remind(service: MatchService, work: MatchWork, clock: Clock) -> Reply | None:
    row = work.row
    match = await work.in_play()
    due = when(clock.deadline)
    if match is None:
        stage = row.setup.get("stage", DEPLOY)
        placed = row.setup.get(HIDDEN[stage], {})
        waiting = [row.players[s] for s in range(len(row.players)) if str(s) not in placed]
        people = [p for p in waiting if p not in (None, AUTOMATIC)]
        # Issue 34: each player's own lead and quiet hours may hold their reminder.
        ready = await notify.due_now(service.store, work, clock, people)
        if people and not ready:
            return None  # every one of them is held: the clock fires again for them
        people = [p for p in people if p in ready]
        # One reminder per player still to deploy: each is pinged, each where they chose.
        reminders = [
            Reply(
                f"⏰ {person(who)}: deploy your squad with /deploy. Time runs out {due}.",
                ping=who,
                dm=await _wants_dm(service, who),
            )
            for who in people
        ]
        if not reminders:
            return Reply(f"⏰ Deploy your squad with /deploy. Time runs out {due}.")
        reminders[0].followups = reminders[1:]
        return reminders[0]
    # One reminder per seat whose turn it is: each pinged, each with its catch-up; a player's
    # own lead or quiet hours may hold theirs (issue 34).
    turns = [d for d in deciding(row, match) if d.turn]
    people = [p for p in (row.players[d.side] for d in turns) if p is not None and p != AUTOMATIC]
    ready = await notify.due_now(service.store, work, clock, people)
    reminders = [
        await _reminder(service, work, decision, due)
        for decision in turns
        if row.players[decision.side] in ready
    ]
    if not reminders:
        return None
    reminders[0].followups += reminders[1:]
    return reminders[0]


async def _reminder(service: MatchService, work: MatchWork, decision: Decision, due: str) -> Reply:
    player = work.row.players[decision.side]
    assert player is not None
    reminder = Reply(
        f"⏰ {person(player)}: {decision.why}. Time runs out {due}.",
        ping=player,
        dm=await _wants_dm(service, player),
    )
    # Every reminder carries what happened since the player last acted (service/recap.py).
    return await with_recap(work, reminder, decision.side, always=True)


async def _wants_dm(service: MatchService, player: int) -> bool:
    """A player may ask to be reminded by direct message instead of in the channel; once
    Discord has refused a DM to them (their DMs are closed), the channel it is, until they
    choose again with /timer reminders."""
    known = await service.store.player(player)
    return known is not None and bool(known.get("dm_reminders")) and not known.get("dms_closed")


async def abandon(service: MatchService, match_id: int, reason: str) -> bool:
    """The match cannot go on where it lives (its channel or thread was deleted): it is
    aborted, its deadlines are cancelled, and why is kept in its set-up. False when it was
    over already."""
    async with service.work_on(match_id) as work:
        row = work.row
        if not row.active:
            return False
        row.status = ABORTED
        row.setup["abandoned"] = {"at": work.now(), "reason": reason}
        return True  # saved: nothing to wait for any more, the deadline is dropped


async def _missed_activation(service: MatchService, work: MatchWork, clock: Clock) -> Reply | None:
    """The turn's time ran out: each seat it waited for misses, in turn (one, in Skirm)."""
    missed = [d for d in deciding(work.row, await work.match()) if d.turn]
    replies: list[Reply] = []
    for decision in missed:
        if replies and not await _still_asked(work, decision):
            continue  # a seat's miss before it moved the match on (a forfeit)
        replies.append(await _missed_turn(service, work, clock, decision))
    if not replies:
        return None
    replies[0].followups += replies[1:]
    return replies[0]


async def _missed_turn(
    service: MatchService, work: MatchWork, clock: Clock, decision: Decision
) -> Reply:
    row, side = work.row, decision.side
    name = row.names[side]
    if clock.excuses_used[side] >= clock.controls.excuses:
        if await misses_go_automatic(service.store, row.id):  # the league's rule (issue 34)
            return await _seat_to_automatic(service, work, clock, decision)
        _note_miss(work, clock, side, "forfeit")
        reply = await service.finish(work, commands.Concede(side, reason=FORFEIT))
        reply.text = f"⏰ {name} missed the deadline with no excused misses left.\n{reply.text}"
        return reply
    clock.excuses_used[side] += 1
    if clock.controls.banked:  # the empty bank gets enough for the next activation
        clock.refill(side, work.now(), await work.stops())
    on_miss = clock.controls.on_miss
    what = _note_miss(work, clock, side, decision.missed if on_miss == "skip" else on_miss)
    events = await (
        _play_out_activation(work, decision)
        if clock.controls.on_miss == "auto"
        else _send_on_timeout(work, decision)
    )
    reply = await service.reply_to(work, events)
    left = clock.controls.excuses - clock.excuses_used[side]
    reply.text = f"⏰ {name} missed the deadline: {what}. Excused misses left for {name}: {left}.\n{reply.text}"
    if AUTOMATIC in row.players and not await _over(work):
        reply.followups += await service.automatic_turns(work)
    return reply


async def _seat_to_automatic(
    service: MatchService, work: MatchWork, clock: Clock, decision: Decision
) -> Reply:
    """Substitutes (issue 34): the league hands a seat out of excused misses to the automatic
    player, who plays the missed activation and the rest of the match for it."""
    side, name = decision.side, work.row.names[decision.side]
    _note_miss(work, clock, side, TO_AUTOMATIC)
    to_automatic(work, side)
    reply = await service.reply_to(work, await _play_out_activation(work, decision))
    reply.text = (
        f"⏰ {name} missed the deadline with no excused misses left: {TO_AUTOMATIC} for the "
        f"rest of the match, as the league has it.\n{reply.text}"
    )
    if not await _over(work):
        reply.followups += await service.automatic_turns(work)
    return reply


async def _over(work: MatchWork) -> bool:
    return ruleset_of(work.row).outcome((await work.match()).state) is not None


async def _still_asked(work: MatchWork, decision: Decision) -> bool:
    """Whether the match still waits for this very decision (its seat, its key)."""
    now = deciding(work.row, await work.match())
    return any(d.side == decision.side and d.key == decision.key for d in now)


async def _send_on_timeout(work: MatchWork, decision: Decision) -> list[Event]:
    """What the ruleset sends for a missed decision (Skirm: a roll waiting for a decision
    accepted, then the activation ended where the unit stands), in order, while the decision
    is still the one asked for: a roll accepted may end the activation by itself."""
    events: list[Event] = []
    for command in decision.on_timeout:
        if not await _still_asked(work, decision):
            break
        events += await work.apply(command)
    return events


async def _play_out_activation(work: MatchWork, decision: Decision) -> list[Event]:
    """The automatic player takes the missed activation for the absent player."""
    match, played = await work.match(), ruleset_of(work.row)
    events: list[Event] = []
    while await _still_asked(work, decision):
        events += await work.apply(played.automatic_command(match.state, decision.side))
    return events


async def _reaction_due(
    service: MatchService, work: MatchWork, clock: Clock, deadline: Deadline
) -> Reply | None:
    """A decision in another seat's turn: its seat is pinged when its window opens; when the
    window closes undecided, what the ruleset sends for it is sent and the match goes on."""
    reaction = clock.reaction(deadline.key)
    assert reaction is not None
    decision = next(
        (d for d in deciding(work.row, await work.in_play()) if d.key == deadline.key), None
    )
    if decision is None:  # decided meanwhile: the save closes the window
        return None
    player = work.row.players[decision.side]
    assert player is not None
    if deadline.kind == "remind":
        reaction["pinged"] = True
        work.keep_clock(clock)
        due = when(reaction["deadline"])
        text = f"⏰ {person(player)}: {decision.why}. Time runs out {due}."
        return Reply(text, ping=player, dm=await _wants_dm(service, player))
    if deadline.due_at < reaction["deadline"] - 1:
        return None  # armed before its window moved
    clock.close_reaction(deadline.key)
    work.keep_clock(clock)
    reply = await service.reply_to(work, await _send_on_timeout(work, decision))
    name = work.row.names[decision.side]
    reply.text = f"⏰ {name} did not decide in time: {_decided_for(decision)}the match goes on.\n{reply.text}"
    if AUTOMATIC in work.row.players and not await _over(work):
        reply.followups += await service.automatic_turns(work)
    return reply


def _decided_for(decision: Decision) -> str:
    """What the window's end sent, in the ruleset's words, when it says ("the arc's order
    (every) fires, and "); "" when it keeps the words of a missed turn, which a reaction's are
    not."""
    if decision.missed == TURN_MISSED:
        return ""
    return f"{decision.missed}, and "


async def _missed_deployment(service: MatchService, work: MatchWork, clock: Clock) -> Reply:
    """Deployment (or placing infiltrators) ran out of time: the bot does it for whoever has an
    excuse left; a player without one forfeits."""
    row = work.row
    scratch = work.scratch()
    stage = ruleset_of(row).set_up_stage(scratch.state)
    assert stage is not None  # a match deploying is in a set-up stage
    hidden: dict[str, Any] = row.setup.setdefault(hidden_key(stage), {})
    notes = []
    automatic = await misses_go_automatic(service.store, row.id)  # the league's rule (issue 34)
    for side in stage.sides:
        if str(side) in hidden or row.players[side] == AUTOMATIC:
            continue
        name = row.names[side]
        if clock.excuses_used[side] >= clock.controls.excuses and not automatic:
            _note_miss(work, clock, side, "forfeit")
            reply = await service.finish(work, commands.Concede(side, reason=FORFEIT))
            reply.text = (
                f"⏰ {name} did not deploy in time and has no excused misses left.\n{reply.text}"
            )
            return reply
        placement = ruleset_of(row).automatic_placement(scratch.state, side)
        hidden[str(side)] = placement.to_json()
        if clock.excuses_used[side] >= clock.controls.excuses:  # (and the league's rule)
            _note_miss(work, clock, side, TO_AUTOMATIC)
            to_automatic(work, side)
            notes.append(
                f"⏰ {name} did not deploy in time and has no excused misses left: the bot "
                f"deployed for them, and {TO_AUTOMATIC} for the rest of the match, as the league has it."
            )
            continue
        clock.excuses_used[side] += 1
        _note_miss(work, clock, side, "deployed by the bot")
        notes.append(
            f"⏰ {name} did not deploy in time: the bot deployed for them (excused misses left: {clock.controls.excuses - clock.excuses_used[side]})."
        )
    reply = await service.reveal_deployments(work)
    reply.text = "\n".join(notes) + "\n" + reply.text
    return reply


def _note_miss(work: MatchWork, clock: Clock, side: int, outcome: str) -> str:
    """Every miss is kept with the match: who, when, what it was for, what happened."""
    what = {
        "skip": "the activation ends where it stands",
        "auto": "the automatic player took the activation",
    }.get(outcome, outcome)
    clock.misses.append({"side": side, "at": work.now(), "key": clock.key, "outcome": what})
    work.keep_clock(clock)
    return what


# --- asking for time -----------------------------------------------------------------------
async def extend(service: MatchService, channel_id: int, member: Member) -> Reply:
    """More time for the player the clock waits for, within the match's extensions."""
    async with service.work(channel_id) as work:
        side = work.seat(member.id)
        clock = _clock_waiting_for(work.row, await work.in_play(), side)
        if clock.extensions_used[side] >= clock.controls.extensions:
            raise ServiceError(
                "You have no extensions left (this match allows "
                f"{plural(clock.controls.extensions, 'extension')} per player)."
            )
        clock.extend(side, await work.stops(), work.now())
        work.keep_clock(clock)
        left = clock.controls.extensions - clock.extensions_used[side]
        return Reply(
            f"{member.name} takes {duration(clock.controls.extension)} more. Time now runs out "
            f"{when(clock.deadline)} ({plural(left, 'extension')} left)."
        )


def _clock_waiting_for(row: MatchRow, match: PlayedMatch | None, side: int) -> Clock:
    clock = Clock.from_json(row.setup.get("clock"))
    key = waiting_key(row, match)
    if key is None or clock.key != key:
        raise ServiceError("The clock is not running for you right now.")
    if clock.paused is not None:
        raise ServiceError("The match is paused; resume it first.")
    waits_for_you = (
        str(side) not in row.setup.get("hidden_deployments", {})
        if key == "deploy"
        else side in _turn_sides(row, match)
    )
    if not waits_for_you:
        raise ServiceError("The clock is running for your opponent, not for you.")
    return clock


def _turn_sides(row: MatchRow, match: PlayedMatch | None) -> list[int]:
    """The seats whose turn's decisions the clock waits for now."""
    return [d.side for d in deciding(row, match) if d.turn]


async def pause(service: MatchService, channel_id: int, member: Member) -> Reply:
    """The players together pause the match: the first asks, the others agree."""
    async with service.work(channel_id) as work:
        row = work.row
        side = work.seat(member.id)
        clock = work.clock()
        if clock.paused is not None:
            raise ServiceError("The match is already paused; /timer resume goes on.")
        if row.status not in (DEPLOYING, PLAYING):
            raise ServiceError("Only a match being deployed or played has a clock to pause.")
        asked = {side, *clock.pause_agreed}
        if clock.pause_request is not None:
            asked.add(clock.pause_request)
        waiting = [
            player
            for seat, player in enumerate(row.players)
            if seat not in asked and player != AUTOMATIC
        ]
        if not waiting:  # every player agreed (the automatic player never objects)
            clock.pause(work.now(), await work.stops())
            work.keep_clock(clock)
            return Reply(
                f"The match is paused with {duration(clock.paused or 0)} left on the clock. Either player can /timer resume."
            )
        if clock.pause_request == side or side in clock.pause_agreed:
            raise ServiceError("You already asked to pause; your opponent has to agree.")
        if clock.pause_request is None:
            clock.pause_request = side
        else:  # more than two players: each of the others agrees in turn
            clock.pause_agreed.append(side)
        work.keep_clock(clock)
        return Reply(
            f"{member.name} asks to pause the match. "
            f"{' '.join(person(other or 0) for other in waiting)}: /timer pause to agree.",
            ping=waiting[0],
            pings=[other for other in waiting[1:] if other],
        )


async def resume(service: MatchService, channel_id: int, member: Member) -> Reply:
    async with service.work(channel_id) as work:
        work.seat(member.id)
        clock = work.clock()
        if clock.paused is None:
            raise ServiceError("The match is not paused.")
        clock.resume(work.now(), await work.stops())
        work.keep_clock(clock)
        return Reply(f"{member.name} resumes the match. Time runs out {when(clock.deadline)}.")


async def set_deadline(
    service: MatchService, channel_id: int, member: Member, hours: float
) -> Reply:
    """Moderators may move the current deadline to `hours` from now."""
    if not member.moderator:
        raise NotAllowed("Only moderators can change a deadline.")
    if not 0 < hours <= 24 * 14:
        raise ServiceError("Give the new deadline as 0.1 to 336 hours from now.")
    async with service.work(channel_id) as work:
        clock = work.clock()
        if clock.key is None or clock.key != waiting_key(work.row, await work.in_play()):
            raise ServiceError("The clock is not running in this match right now.")
        if clock.paused is not None:  # resuming would count from the time left, not this
            raise ServiceError("The match is paused; resume it first, then set the deadline.")
        clock.deadline = work.now() + hours * HOUR
        clock.reminded = False
        clock.remind = max(work.now(), clock.deadline - clock.lead())
        work.keep_clock(clock)
        return Reply(
            f"{member.name} (moderator) sets the deadline: time runs out {when(clock.deadline)}."
        )


async def timer(service: MatchService, channel_id: int) -> Reply:
    """The clock of the match in the channel."""
    row, match = await service.view(channel_id)
    clock = Clock.from_json(row.setup.get("clock"))
    now = service.now()
    stops = await clock_stops(service.store, row, now)
    lines = [f"Clock of match #{row.id}: {clock.controls.describe()}."]
    if stops.weekends:
        lines.append("This server's clocks stand still at weekends (Saturday and Sunday, UTC).")
    if clock.paused is not None:
        lines.append(f"Paused with {duration(clock.paused)} left (/timer resume).")
    elif clock.key is not None:
        waiting = (
            ("both squads' deployment" if len(row.players) == 2 else "every squad's deployment")
            if clock.key == "deploy"
            else " and ".join(row.names[side] for side in _turn_sides(row, match)) or "?"
        )
        lines.append(f"Waiting for {waiting}: time runs out {when(clock.deadline)}.")
    else:
        lines.append("The clock is not running (set-up, the automatic player's turn, or the end).")
    for reaction in clock.reactions:
        lines.append(
            f"Waiting for {row.names[reaction['side']]} to decide: time runs out "
            f"{when(reaction['deadline'])}."
        )
    for side in range(len(row.players)):
        if row.players[side] not in (None, AUTOMATIC):
            excuses = clock.controls.excuses - clock.excuses_used[side]
            extensions = clock.controls.extensions - clock.extensions_used[side]
            left = math.ceil(clock.bank_left(side, now, stops) / 60) * 60  # whole minutes
            bank = f"a bank of {duration(left)}, " if clock.controls.banked else ""
            lines.append(
                f"{row.names[side]}: {bank}{plural(excuses, 'excused miss')} and "
                f"{plural(extensions, 'extension')} left."
            )
    for away in stops.breaks:
        if away.start <= now:
            lines.append(
                f"{row.names[away.side]} is on vacation, back {when(away.end)}: "
                "their clock stands still until then."
            )
    for miss in clock.misses:
        lines.append(f"Missed: {row.names[miss['side']]} at {when(miss['at'])}: {miss['outcome']}.")
    return Reply("\n".join(lines))


# --- vacations and the server's clock settings (issue 21) -----------------------------------
def _year(now: float) -> tuple[float, float]:
    """The calendar year (UTC) `now` falls in: its first moment and the next year's."""
    year = dt.datetime.fromtimestamp(now, dt.UTC).year
    start = dt.datetime(year, 1, 1, tzinfo=dt.UTC).timestamp()
    return start, dt.datetime(year + 1, 1, 1, tzinfo=dt.UTC).timestamp()


async def vacation_allowance(service: MatchService, guild_id: int) -> int:
    """Each player's vacation days a year in the server (a moderator's setting; 20)."""
    stored = await service.store.get_setting(guild_id, VACATION_DAYS)
    return DEFAULT_VACATION_DAYS if stored is None else int(stored)


async def current_vacation(
    service: MatchService, guild_id: int, user_id: int
) -> VacationRow | None:
    """The player's vacation going on now in the server, if any."""
    now = service.now()
    found = await service.store.vacations(guild_id, [user_id], now)
    return next((v for v in found if v.starts_at <= now), None)


async def vacation_days_left(service: MatchService, guild_id: int, user_id: int) -> int:
    """The whole vacation days the player has left this year in the server."""
    since, until = _year(service.now())
    used = await service.store.vacation_days_used(guild_id, user_id, since, until)
    return max(0, await vacation_allowance(service, guild_id) - used)


async def vacation(service: MatchService, guild_id: int, member: Member, days: int) -> Reply:
    """The player goes on vacation for `days` whole days from now: their clocks in the server's
    matches stand still until then, and each opponent is told until when. 0 ends a vacation
    early and gives back its whole days not used; a new number while on vacation replaces
    the vacation with one of that many days from now. The reply is for the player only; its
    followups go to each of their matches' channels (`Reply.channel`)."""
    now = service.now()
    allowance = await vacation_allowance(service, guild_id)
    current = await current_vacation(service, guild_id, member.id)
    if not 0 <= days <= allowance:
        if days > 0 and allowance == 0:
            raise ServiceError(
                "This server gives no vacation days (a moderator sets them with /timer server)."
                + (" /timer vacation days:0 ends yours early." if current else "")
            )
        raise ServiceError(
            f"Give the vacation as 1 to {allowance} whole days (0 ends your vacation early)."
        )
    if current is None and days == 0:
        raise ServiceError("You are not on vacation; /timer vacation days:N starts one.")
    # Days given back when the current vacation ends now: the whole days not begun.
    used = 0 if current is None else current.days - math.floor((current.ends_at - now) / DAY)
    left = await vacation_days_left(service, guild_id, member.id)
    if current is not None:
        since, until = _year(now)
        if since <= current.starts_at < until:
            left += current.days - used
    if days > left:
        raise ServiceError(
            f"You have {plural(left, 'vacation day')} left this year in this server "
            f"(of {allowance}); ask for at most that many."
        )

    async def change() -> None:
        if current is not None:
            await service.store.end_vacation(current.id, now, used)
        if days:
            await service.store.add_vacation(guild_id, member.id, now, now + days * DAY, days)

    rows = [r for r in await service.store.matches_of_player(member.id) if r.guild_id == guild_id]
    notes = await _retime(service, rows, change, now)
    end = now + days * DAY
    if days:
        text = (
            f"You are on vacation for {plural(days, 'day')}, back {when(end)} "
            f"({plural(left - days, 'vacation day')} left this year of {allowance}). Your clocks "
            f"stand still in {plural(len(rows), 'match', 'matches')} of this server. "
            "/timer vacation days:0 ends it early and gives back the whole days not used."
        )
        said = (
            f"🏖️ {member.name} is on vacation for {plural(days, 'day')}, back {when(end)}: "
            "their clock stands still until then."
        )
    else:
        back = current.days - used if current else 0
        began = dt.datetime.fromtimestamp(current.starts_at if current else now, dt.UTC).year
        this_year = dt.datetime.fromtimestamp(now, dt.UTC).year
        year = "this year's" if began == this_year else f"{began}'s"
        text = f"Welcome back: your vacation is over and {plural(back, 'day')} went back to {year} allowance."
        said = f"{member.name} is back from vacation: their clock runs again."
    notice = Reply(text, private=True)
    for row in rows:
        others = [p for p in row.players if p not in (None, AUTOMATIC, member.id)]
        moved = notes.get(row.id)
        line = said + (f" Time runs out {when(moved)}." if moved and days == 0 else "")
        text = f"{' '.join(person(p) for p in others if p)}: {line}" if others else line
        ping = others[0] if others else None
        notice.followups.append(
            Reply(text, ping=ping, pings=[p for p in others[1:] if p], channel=row.channel_id)
        )
    return notice


async def set_clock_rules(
    service: MatchService,
    guild_id: int,
    member: Member,
    vacation_days: int | None = None,
    weekends: bool | None = None,
    reaction_minutes: int | None = None,
) -> Reply:
    """Moderators: each player's vacation days a year, whether the server's clocks stand
    still at weekends (Saturday 00:00 to Monday 00:00 UTC), and the minutes a decision in
    another player's turn waits (windows opened after the change). Running clocks follow at
    once."""
    if not member.moderator:
        raise NotAllowed("Only moderators can change the server's clock settings.")
    if vacation_days is not None and not 0 <= vacation_days <= MAX_VACATION_DAYS:
        raise ServiceError(f"Vacation days a year: 0 to {MAX_VACATION_DAYS}.")
    if reaction_minutes is not None and not 1 <= reaction_minutes <= MAX_REACTION_MINUTES:
        raise ServiceError(
            f"A decision in another player's turn waits 1 to {MAX_REACTION_MINUTES} minutes "
            "(a turn's own clock is at least an hour)."
        )
    store = service.store
    if vacation_days is not None:
        await store.set_setting(guild_id, VACATION_DAYS, str(vacation_days))
    if reaction_minutes is not None:
        await store.set_setting(guild_id, REACTION_MINUTES, str(reaction_minutes))
    notice = Reply("", private=True)
    if weekends is not None and weekends != (await store.get_setting(guild_id, WEEKENDS) == "1"):

        async def change() -> None:
            await store.set_setting(guild_id, WEEKENDS, "1" if weekends else None)

        rows = [r for r in await store.active_matches() if r.guild_id == guild_id]
        moved = await _retime(service, rows, change, service.now())
        word = "stand still" if weekends else "run again"
        for row in rows:
            if row.id in moved:
                text = f"This server's clocks now {word} at weekends: time runs out {when(moved[row.id])}."
                notice.followups.append(Reply(text, channel=row.channel_id))
    allowance = await vacation_allowance(service, guild_id)
    stops = await store.get_setting(guild_id, WEEKENDS) == "1"
    notice.text = (
        f"Each player has {plural(allowance, 'vacation day')} a year in this server; clocks "
        f"{'stand still' if stops else 'run'} at weekends (Saturday and Sunday, UTC)."
    )
    if reaction_minutes is not None:
        notice.text += (
            f" A decision in another player's turn waits {plural(reaction_minutes, 'minute')}."
        )
    return notice


async def _retime(
    service: MatchService,
    rows: list[MatchRow],
    change: Callable[[], Awaitable[None]],
    now: float,
) -> dict[int, float]:
    """Apply `change` (what makes clocks stand still: a vacation, the weekends) and move each
    match's running deadline to keep the running time it had at `now` (the moment of the
    change); the new deadlines, by match."""
    seen = {r.id: _mark(Clock.from_json(r.setup.get("clock"))) for r in rows}
    before: dict[int, Stops] = {r.id: await clock_stops(service.store, r, now) for r in rows}
    await change()
    moved: dict[int, float] = {}
    for row in rows:
        async with service.work_on(row.id) as work:
            clock = work.clock()
            if clock.key is None or clock.paused is not None or not work.row.active:
                continue
            if _mark(clock) != seen[row.id]:
                continue  # moved meanwhile (a player acted), counted with the new stops already
            old = clock.deadline
            clock.retime(now, before[row.id], await work.stops())
            work.keep_clock(clock)
            if clock.deadline != old:
                moved[row.id] = clock.deadline
    return moved


def _mark(clock: Clock) -> tuple[str | None, float, float | None]:
    """What tells that a clock moved: its activation, deadline and pause."""
    return clock.key, clock.deadline, clock.paused


def waiting_for(row: MatchRow) -> list[int]:
    """The sides the match's clock waits for now (those still to deploy, or the side whose
    activation it is, or the seats of a turn taken by several at once), from the stored row
    alone."""
    clock = Clock.from_json(row.setup.get("clock"))
    if not row.active or clock.key is None:
        return []
    if clock.waiting is not None:
        return [clock.waiting]
    if row.status != DEPLOYING:
        return [int(side) for side in row.setup.get(SEATS_DECIDING, [])]
    stage = row.setup.get("stage", DEPLOY)
    placed = row.setup.get(hidden_key(stage), {})
    return [
        s
        for s in range(len(row.players))
        if str(s) not in placed and row.players[s] not in (None, AUTOMATIC)
    ]
