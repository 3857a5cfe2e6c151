"""Turn timer use cases (issue 5): deadlines firing, extensions, pauses, and the clock's view.

Part of the service package: it works on a match under the match's own lock, through the same
internals as every other use case, so a deadline and a player's command at the same moment
are applied one after the other, and the second sees what the first did (a deadline that
belongs to an activation that has since ended is stale and does nothing).
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
    infiltrating_sides,
    ruleset_of,
    waiting_key,
)
from skirmbot.service.replies import Reply
from skirmbot.store import Deadline, MatchRow
from skirmbot.timers.clock import HOUR, Clock, discord_time, duration
from skirmbot.words import plural

MISSED = "the turn timer ran out"
FORFEIT = "forfeits (the turn timer ran out and no excused misses were left)"


async def on_deadline(service: MatchService, match_id: int, deadline: Deadline) -> Reply | None:
    """A deadline came due: remind, or apply the miss. None when it is stale (the player
    acted in time, the match is paused or over)."""
    async with service.locked_match(match_id) as row:
        clock = Clock.from_json(row.setup.get("clock"))
        if not row.active or clock.key != deadline.key or clock.paused is not None:
            return None
        if deadline.kind == "remind":
            return await _remind(service, row, clock)
        if clock.key == "deploy":
            return await _missed_deployment(service, row, clock)
        return await _missed_activation(service, row, clock)


async def _remind(service: MatchService, row: MatchRow, clock: Clock) -> Reply:
    clock.reminded = True
    row.setup["clock"] = clock.to_json()
    match = await service._live_match(row) if row.status == PLAYING else None
    await service._save(row, match)
    due = discord_time(clock.deadline)
    if match is None:
        stage = row.setup.get("stage", DEPLOY)
        waiting = [row.players[s] for s in (0, 1) if str(s) not in row.setup.get(HIDDEN[stage], {})]
        people = [p for p in waiting if p not in (None, AUTOMATIC)]
        # One reminder per player still to deploy: each is pinged, each where they chose.
        reminders = [
            Reply(
                f"⏰ <@{person}>: deploy your squad with /deploy. Time runs out {due}.",
                ping=person,
                dm=await _wants_dm(service, person),
            )
            for person in people
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
        f"⏰ <@{player}>: {expected}. Time runs out {due}.",
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
    async with service.locked_match(match_id) as row:
        if not row.active:
            return False
        row.status = ABORTED
        row.setup["abandoned"] = {"at": service.now(), "reason": reason}
        await service._save(row)  # nothing to wait for any more: the deadline is dropped
        return True


async def _missed_activation(service: MatchService, row: MatchRow, clock: Clock) -> Reply:
    match = await service._live_match(row)
    state = match.state
    side = state.to_act
    assert side is not None
    name = row.names[side]
    if clock.excuses_used[side] >= clock.controls.excuses:
        _note_miss(row, clock, side, service.now(), "forfeit")
        reply = await service._finish_with(row, commands.Concede(side, reason=FORFEIT))
        reply.text = f"⏰ {name} missed the deadline with no excused misses left.\n{reply.text}"
        return reply
    clock.excuses_used[side] += 1
    what = _note_miss(row, clock, side, service.now(), clock.controls.on_miss)
    events = (
        _play_out_activation(service, row, match, side)
        if clock.controls.on_miss == "auto"
        else _end_activation(service, row, match, side)
    )
    reply = await service._reply(row, match, events)
    left = clock.controls.excuses - clock.excuses_used[side]
    reply.text = f"⏰ {name} missed the deadline: {what}. Excused misses left for {name}: {left}.\n{reply.text}"
    if AUTOMATIC in row.players and state.phase != ENDED:
        reply.followups += await service._automatic_turns(row, match)
    await service._save_live(row, match)
    return reply


def _end_activation(service: MatchService, row: MatchRow, match: Any, side: int) -> list[Event]:
    """The unit's activation ends where it stands (a roll waiting for a decision is accepted)."""
    state = match.state
    events: list[Event] = []
    pending = (
        [commands.Accept(side)] if state.activation is not None and state.activation.pending else []
    )
    for command in pending:
        events += _record(service, row, match, command)
    unit = None if state.activation is not None else state.ready_units(side)[0].id
    events += _record(service, row, match, commands.EndActivation(side, unit, reason=MISSED))
    return events


def _play_out_activation(
    service: MatchService, row: MatchRow, match: Any, side: int
) -> list[Event]:
    """The automatic player takes the missed activation for the absent player."""
    state = match.state
    done = state.activations_done
    events: list[Event] = []
    while state.phase != ENDED and state.to_act == side and state.activations_done == done:
        events += _record(service, row, match, ruleset_of(row).automatic_command(state, side))
    return events


def _record(
    service: MatchService, row: MatchRow, match: Any, command: commands.Command
) -> list[Event]:
    events = service._apply(match, command)
    row.record["commands"].append(command.to_json())
    return events


async def _missed_deployment(service: MatchService, row: MatchRow, clock: Clock) -> Reply:
    """Deployment (or placing infiltrators) ran out of time: the bot does it for whoever has an
    excuse left; a player without one forfeits."""
    stage = row.setup.get("stage", DEPLOY)
    hidden: dict[str, Any] = row.setup.setdefault(HIDDEN[stage], {})
    scratch = service._fresh(row)
    needed = (0, 1) if stage == DEPLOY else tuple(infiltrating_sides(scratch))
    notes = []
    for side in needed:
        if str(side) in hidden or row.players[side] == AUTOMATIC:
            continue
        name = row.names[side]
        if clock.excuses_used[side] >= clock.controls.excuses:
            _note_miss(row, clock, side, service.now(), "forfeit")
            reply = await service._finish_with(row, commands.Concede(side, reason=FORFEIT))
            reply.text = (
                f"⏰ {name} did not deploy in time and has no excused misses left.\n{reply.text}"
            )
            return reply
        clock.excuses_used[side] += 1
        _note_miss(row, clock, side, service.now(), "deployed by the bot")
        placement = ruleset_of(row).automatic_placement(scratch.state, side)
        hidden[str(side)] = placement.to_json()
        notes.append(
            f"⏰ {name} did not deploy in time: the bot deployed for them (excused misses left: {clock.controls.excuses - clock.excuses_used[side]})."
        )
    reply = await service._reveal_deployments(row)
    reply.text = "\n".join(notes) + "\n" + reply.text
    return reply


def _note_miss(row: MatchRow, clock: Clock, side: int, now: float, outcome: str) -> str:
    """Every miss is kept with the match: who, when, what it was for, what happened."""
    what = {
        "skip": "the activation ends where it stands",
        "auto": "the automatic player took the activation",
    }.get(outcome, outcome)
    clock.misses.append({"side": side, "at": now, "key": clock.key, "outcome": what})
    row.setup["clock"] = clock.to_json()
    return what


# --- asking for time -----------------------------------------------------------------------
async def extend(service: MatchService, channel_id: int, member: Member) -> Reply:
    """More time for the player the clock waits for, within the match's extensions."""
    async with service._locked(channel_id) as row:
        side = service._seat(row, member)
        match = await service._live_match(row) if row.status == PLAYING else None
        clock = _clock_waiting_for(row, match, side)
        if clock.extensions_used[side] >= clock.controls.extensions:
            raise ServiceError(
                "You have no extensions left (this match allows "
                f"{plural(clock.controls.extensions, 'extension')} per player)."
            )
        clock.extend(side)
        row.setup["clock"] = clock.to_json()
        await service._save(row, match)
        left = clock.controls.extensions - clock.extensions_used[side]
        return Reply(
            f"{member.name} takes {duration(clock.controls.extension)} more. Time now runs out "
            f"{discord_time(clock.deadline)} ({plural(left, 'extension')} left)."
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
    async with service._locked(channel_id) as row:
        side = service._seat(row, member)
        clock = Clock.from_json(row.setup.get("clock"))
        if clock.paused is not None:
            raise ServiceError("The match is already paused; /timer resume goes on.")
        if row.status not in (DEPLOYING, PLAYING):
            raise ServiceError("Only a match being deployed or played has a clock to pause.")
        other = row.players[1 - side]
        if clock.pause_request == 1 - side or other == AUTOMATIC:
            clock.pause(service.now())
            row.setup["clock"] = clock.to_json()
            await service._save(
                row, await service._live_match(row) if row.status == PLAYING else None
            )
            return Reply(
                f"The match is paused with {duration(clock.paused or 0)} left on the clock. Either player can /timer resume."
            )
        if clock.pause_request == side:
            raise ServiceError("You already asked to pause; your opponent has to agree.")
        clock.pause_request = side
        row.setup["clock"] = clock.to_json()
        await service._save(row, await service._live_match(row) if row.status == PLAYING else None)
        return Reply(
            f"{member.name} asks to pause the match. <@{other}>: /timer pause to agree.", ping=other
        )


async def resume(service: MatchService, channel_id: int, member: Member) -> Reply:
    async with service._locked(channel_id) as row:
        service._seat(row, member)
        clock = Clock.from_json(row.setup.get("clock"))
        if clock.paused is None:
            raise ServiceError("The match is not paused.")
        clock.resume(service.now())
        row.setup["clock"] = clock.to_json()
        await service._save(row, await service._live_match(row) if row.status == PLAYING else None)
        return Reply(
            f"{member.name} resumes the match. Time runs out {discord_time(clock.deadline)}."
        )


async def set_deadline(
    service: MatchService, channel_id: int, member: Member, hours: float
) -> Reply:
    """Moderators may move the current deadline to `hours` from now."""
    if not member.moderator:
        raise NotAllowed("Only moderators can change a deadline.")
    if not 0 < hours <= 24 * 14:
        raise ServiceError("Give the new deadline as 0.1 to 336 hours from now.")
    async with service._locked(channel_id) as row:
        match = await service._live_match(row) if row.status == PLAYING else None
        clock = Clock.from_json(row.setup.get("clock"))
        if clock.key is None or clock.key != waiting_key(row, match):
            raise ServiceError("The clock is not running in this match right now.")
        clock.deadline = service.now() + hours * HOUR
        clock.reminded = False
        clock.remind = max(
            service.now(),
            clock.deadline - clock.controls.activation_seconds * (1 - clock.controls.remind_at),
        )
        row.setup["clock"] = clock.to_json()
        await service._save(row, match)
        return Reply(
            f"{member.name} (moderator) sets the deadline: time runs out {discord_time(clock.deadline)}."
        )


async def timer(service: MatchService, channel_id: int) -> Reply:
    """The clock of the match in the channel."""
    row = await service._row(channel_id)
    clock = Clock.from_json(row.setup.get("clock"))
    lines = [f"Clock of match #{row.id}: {clock.controls.describe()}."]
    if clock.paused is not None:
        lines.append(f"Paused with {duration(clock.paused)} left (/timer resume).")
    elif clock.key is not None:
        match = await service._live_match(row) if row.status == PLAYING else None
        waiting = (
            "both squads' deployment"
            if clock.key == "deploy"
            else (
                row.names[match.state.to_act] if match and match.state.to_act is not None else "?"
            )
        )
        lines.append(f"Waiting for {waiting}: time runs out {discord_time(clock.deadline)}.")
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
        lines.append(
            f"Missed: {row.names[miss['side']]} at {discord_time(miss['at'])}: {miss['outcome']}."
        )
    return Reply("\n".join(lines))
