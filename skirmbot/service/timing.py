"""Turn timer use cases (issue 5): deadlines firing, extensions, pauses, and the clock's view.

Part of the service package: it works on a match through the same unit of work as every other
use case (`MatchService.work`, skirmbot.service.work), under the match's own lock, so a deadline
and a player's command at the same moment are applied one after the other, and the second sees
what the first did (a deadline that belongs to an activation that has since ended is stale and
does nothing).
"""

from __future__ import annotations

from typing import Any

from skirmbot.rules import commands
from skirmbot.rules.events import Event
from skirmbot.rules.skirm.state import ENDED
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
    ruleset_of,
)
from skirmbot.service.replies import Reply, person, when
from skirmbot.service.work import MatchWork, waiting_key
from skirmbot.store import Deadline, MatchRow
from skirmbot.timers.clock import HOUR, Clock, duration
from skirmbot.words import plural

MISSED = "the turn timer ran out"
FORFEIT = "forfeits (the turn timer ran out and no excused misses were left)"


async def on_deadline(service: MatchService, match_id: int, deadline: Deadline) -> Reply | None:
    """A deadline came due: remind, or apply the miss. None when it is stale (the player
    acted in time, the match is paused or over)."""
    async with service.work_on(match_id) as work:
        row, clock = work.row, work.clock()
        if not row.active or clock.key != deadline.key or clock.paused is not None:
            return None
        if deadline.kind == "remind":
            return await _remind(service, work, clock)
        if clock.key == "deploy":
            return await _missed_deployment(service, work, clock)
        return await _missed_activation(service, work, clock)


async def _remind(service: MatchService, work: MatchWork, clock: Clock) -> Reply:
    row = work.row
    clock.reminded = True
    work.keep_clock(clock)
    match = await work.in_play()
    due = when(clock.deadline)
    if match is None:
        stage = row.setup.get("stage", DEPLOY)
        waiting = [row.players[s] for s in (0, 1) if str(s) not in row.setup.get(HIDDEN[stage], {})]
        people = [p for p in waiting if p not in (None, AUTOMATIC)]
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
    state = match.state
    assert state.to_act is not None
    player = row.players[state.to_act]
    assert player is not None
    if state.activation is not None:
        expected = f"{state.activation.unit} is still activating: act, or /end it"
    else:
        ready = state.ready_units(state.to_act)
        expected = f"activate a unit, {len(ready)} ready: {', '.join(u.name for u in ready)}"
    return Reply(
        f"⏰ {person(player)}: {expected}. Time runs out {due}.",
        ping=player,
        dm=await _wants_dm(service, player),
    )


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


async def _missed_activation(service: MatchService, work: MatchWork, clock: Clock) -> Reply:
    row = work.row
    state = (await work.match()).state
    side = state.to_act
    assert side is not None
    name = row.names[side]
    if clock.excuses_used[side] >= clock.controls.excuses:
        _note_miss(work, clock, side, "forfeit")
        reply = await service.finish(work, commands.Concede(side, reason=FORFEIT))
        reply.text = f"⏰ {name} missed the deadline with no excused misses left.\n{reply.text}"
        return reply
    clock.excuses_used[side] += 1
    what = _note_miss(work, clock, side, clock.controls.on_miss)
    events = await (
        _play_out_activation(work, side)
        if clock.controls.on_miss == "auto"
        else _end_activation(work, side)
    )
    reply = await service.reply_to(work, events)
    left = clock.controls.excuses - clock.excuses_used[side]
    reply.text = f"⏰ {name} missed the deadline: {what}. Excused misses left for {name}: {left}.\n{reply.text}"
    if AUTOMATIC in row.players and state.phase != ENDED:
        reply.followups += await service.automatic_turns(work)
    return reply


async def _end_activation(work: MatchWork, side: int) -> list[Event]:
    """The unit's activation ends where it stands (a roll waiting for a decision is accepted)."""
    state = (await work.match()).state
    events: list[Event] = []
    if state.activation is not None and state.activation.pending:
        events += await work.apply(commands.Accept(side))
    unit = None if state.activation is not None else state.ready_units(side)[0].id
    events += await work.apply(commands.EndActivation(side, unit, reason=MISSED))
    return events


async def _play_out_activation(work: MatchWork, side: int) -> list[Event]:
    """The automatic player takes the missed activation for the absent player."""
    state, played = (await work.match()).state, ruleset_of(work.row)
    done = state.activations_done
    events: list[Event] = []
    while state.phase != ENDED and state.to_act == side and state.activations_done == done:
        events += await work.apply(played.automatic_command(state, side))
    return events


async def _missed_deployment(service: MatchService, work: MatchWork, clock: Clock) -> Reply:
    """Deployment (or placing infiltrators) ran out of time: the bot does it for whoever has an
    excuse left; a player without one forfeits."""
    row = work.row
    scratch = work.scratch()
    stage = ruleset_of(row).set_up_stage(scratch.state)
    assert stage is not None  # a match deploying is in a set-up stage
    hidden: dict[str, Any] = row.setup.setdefault(hidden_key(stage), {})
    notes = []
    for side in stage.sides:
        if str(side) in hidden or row.players[side] == AUTOMATIC:
            continue
        name = row.names[side]
        if clock.excuses_used[side] >= clock.controls.excuses:
            _note_miss(work, clock, side, "forfeit")
            reply = await service.finish(work, commands.Concede(side, reason=FORFEIT))
            reply.text = (
                f"⏰ {name} did not deploy in time and has no excused misses left.\n{reply.text}"
            )
            return reply
        clock.excuses_used[side] += 1
        _note_miss(work, clock, side, "deployed by the bot")
        placement = ruleset_of(row).automatic_placement(scratch.state, side)
        hidden[str(side)] = placement.to_json()
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
        clock.extend(side)
        work.keep_clock(clock)
        left = clock.controls.extensions - clock.extensions_used[side]
        return Reply(
            f"{member.name} takes {duration(clock.controls.extension)} more. Time now runs out "
            f"{when(clock.deadline)} ({plural(left, 'extension')} left)."
        )


def _clock_waiting_for(row: MatchRow, match: Any, side: int) -> Clock:
    clock = Clock.from_json(row.setup.get("clock"))
    key = waiting_key(row, match)
    if key is None or clock.key != key:
        raise ServiceError("The clock is not running for you right now.")
    if clock.paused is not None:
        raise ServiceError("The match is paused; resume it first.")
    waits_for_you = (
        str(side) not in row.setup.get("hidden_deployments", {})
        if key == "deploy"
        else match.state.to_act == side
    )
    if not waits_for_you:
        raise ServiceError("The clock is running for your opponent, not for you.")
    return clock


async def pause(service: MatchService, channel_id: int, member: Member) -> Reply:
    """Both players together pause the match: the first asks, the other agrees."""
    async with service.work(channel_id) as work:
        row = work.row
        side = work.seat(member.id)
        clock = work.clock()
        if clock.paused is not None:
            raise ServiceError("The match is already paused; /timer resume goes on.")
        if row.status not in (DEPLOYING, PLAYING):
            raise ServiceError("Only a match being deployed or played has a clock to pause.")
        other = row.players[1 - side]
        if clock.pause_request == 1 - side or other == AUTOMATIC:
            clock.pause(work.now())
            work.keep_clock(clock)
            return Reply(
                f"The match is paused with {duration(clock.paused or 0)} left on the clock. Either player can /timer resume."
            )
        if clock.pause_request == side:
            raise ServiceError("You already asked to pause; your opponent has to agree.")
        clock.pause_request = side
        work.keep_clock(clock)
        return Reply(
            f"{member.name} asks to pause the match. {person(other or 0)}: /timer pause to agree.",
            ping=other,
        )


async def resume(service: MatchService, channel_id: int, member: Member) -> Reply:
    async with service.work(channel_id) as work:
        work.seat(member.id)
        clock = work.clock()
        if clock.paused is None:
            raise ServiceError("The match is not paused.")
        clock.resume(work.now())
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
        clock.deadline = work.now() + hours * HOUR
        clock.reminded = False
        clock.remind = max(
            work.now(),
            clock.deadline - clock.controls.activation_seconds * (1 - clock.controls.remind_at),
        )
        work.keep_clock(clock)
        return Reply(
            f"{member.name} (moderator) sets the deadline: time runs out {when(clock.deadline)}."
        )


async def timer(service: MatchService, channel_id: int) -> Reply:
    """The clock of the match in the channel."""
    row, match = await service.view(channel_id)
    clock = Clock.from_json(row.setup.get("clock"))
    lines = [f"Clock of match #{row.id}: {clock.controls.describe()}."]
    if clock.paused is not None:
        lines.append(f"Paused with {duration(clock.paused)} left (/timer resume).")
    elif clock.key is not None:
        waiting = (
            "both squads' deployment"
            if clock.key == "deploy"
            else (
                row.names[match.state.to_act] if match and match.state.to_act is not None else "?"
            )
        )
        lines.append(f"Waiting for {waiting}: time runs out {when(clock.deadline)}.")
    else:
        lines.append("The clock is not running (set-up, the automatic player's turn, or the end).")
    for side in (0, 1):
        if row.players[side] not in (None, AUTOMATIC):
            excuses = clock.controls.excuses - clock.excuses_used[side]
            extensions = clock.controls.extensions - clock.extensions_used[side]
            lines.append(
                f"{row.names[side]}: {plural(excuses, 'excused miss')} and "
                f"{plural(extensions, 'extension')} left."
            )
    for miss in clock.misses:
        lines.append(f"Missed: {row.names[miss['side']]} at {when(miss['at'])}: {miss['outcome']}.")
    return Reply("\n".join(lines))
