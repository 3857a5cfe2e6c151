"""Substitutes without Discord (issue 34): a seat of a match handed to another member.

A moderator, or an organiser of the league whose game the match is, hands a seat on; the
newcomer plays it from the next command on. The match row's `players` and `names` say who holds
each seat now (so the turn pings, reminders and the result's seat rows follow the newcomer), and
the record's `holders` keep every hand-over with the command it took effect from, so the record
says who played what (`skirmbot.rules.record.held_by`). The record's `players` stay the first
names: the dice seals are made on them. A league game stays its pairing's (`league_games`), so
the result counts for the original player in the league; the server's ratings read the result's
seat rows, which name whoever held the seat at the end (docs/rulings.md, Substitutes).

A player asks for a substitute for themselves: a post in the channel naming who can hand the seat
on (the league's creator, or the server's moderators), with the member they would like if they
name one. A league may say that a seat out of excused misses goes to the automatic player for the
rest of the match instead of forfeiting (`MISSED_TO_AUTOMATIC`, read by skirmbot.service.timing).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from skirmbot.service.errors import NotAllowed, ServiceError
from skirmbot.service.leagues import MISSED_TO_AUTOMATIC, is_organiser
from skirmbot.service.matches import AUTOMATIC_NAME, MatchService
from skirmbot.service.replies import Reply, person
from skirmbot.service.seatholders import hand_seat
from skirmbot.service.work import AUTOMATIC, SETUP, MatchWork, Member
from skirmbot.store import LeagueRow, MatchRow, Store


@dataclass(frozen=True)
class Handover:
    """A seat handed on: the post for the match's channel, and the newcomer's direct message."""

    match_id: int
    channel_id: int
    reply: Reply
    direct: Reply


async def substitute(
    service: MatchService,
    channel_id: int,
    asker: Member,
    roles: Collection[int],
    newcomer: Member,
    leaving: Member | None = None,
) -> Handover:
    """Hand `leaving`'s seat (default: the asker's) to `newcomer`, if the asker moderates the
    server or organises the match's league; nothing changes on a refusal."""
    async with service.work(channel_id) as work:
        row = work.row
        league = await service.store.league_of_match(row.id)
        await _check_allowed(service.store, league, asker, roles)
        if row.status == SETUP:
            raise ServiceError(
                "This match has not started: a player who cannot play leaves with /match "
                "concede, and the new player starts another."
            )
        seat = _seat_handed(row, leaving or asker, asker)
        if newcomer.id in row.players:
            raise ServiceError(
                f"{newcomer.name} already plays in this match; name a member who does not."
            )
        before = row.names[seat]
        hand_seat(work, seat, newcomer.id, newcomer.name)
        text = (
            f"🔁 {person(newcomer.id)} takes {before}'s seat in match #{row.id} "
            f"(handed on by {asker.name}), from the next command on."
            + (f" The game still counts for {before} in **{league.name}**." if league else "")
        )
        direct = (
            f"🔁 You take {before}'s seat in match #{row.id} (handed on by {asker.name}). "
            "/match status there shows where it stands."
        )
        return Handover(
            row.id,
            row.channel_id,
            Reply(text, ping=newcomer.id),
            Reply(direct, ping=newcomer.id, dm=True),
        )


async def ask(
    service: MatchService, channel_id: int, asker: Member, wanted: Member | None = None
) -> Reply:
    """A player asks for a substitute for themselves (naming the member they would like, or
    not): a post naming who can hand the seat on. Nothing changes until one of them does."""
    row = await service.live.find(channel_id)
    if asker.id not in row.players:
        raise NotAllowed(
            "Only this match's players ask for a substitute; moderators and league organisers "
            "hand a seat on with /match substitute member: seat_of:."
        )
    if wanted is not None and wanted.id in row.players:
        raise ServiceError(
            f"{wanted.name} already plays in this match; name a member who does not."
        )
    league = await service.store.league_of_match(row.id)
    deciders = (
        f"{person(league.creator_id)} or another organiser of **{league.name}**"
        if league
        else "A moderator"
    )
    named = f", and would like {person(wanted.id)} to take it" if wanted else ""
    return Reply(
        f"🔁 {asker.name} asks for a substitute in match #{row.id}{named}. {deciders}: "
        f"`/match substitute member: seat_of:` hands {asker.name}'s seat on.",
        pings=[league.creator_id] if league else [],
    )


async def misses_go_automatic(store: Store, match_id: int) -> bool:
    """Whether the match's league hands a seat out of excused misses to the automatic player."""
    league = await store.league_of_match(match_id)
    return league is not None and bool(league.config.get(MISSED_TO_AUTOMATIC))


def to_automatic(work: MatchWork, seat: int) -> None:
    """The seat goes to the automatic player for the rest of the match (the league's rule)."""
    hand_seat(work, seat, AUTOMATIC, AUTOMATIC_NAME)


async def may_hand_on(
    service: MatchService, channel_id: int, asker: Member, roles: Collection[int]
) -> bool:
    """Whether the asker may hand seats on in the channel's match."""
    row = await service.live.find(channel_id)
    return await _allowed(service.store, await service.store.league_of_match(row.id), asker, roles)


async def _allowed(
    store: Store, league: LeagueRow | None, asker: Member, roles: Collection[int]
) -> bool:
    """A moderator, or an organiser of the match's league (its creator, a member with its or
    the server's league organiser role), as the league commands judge them."""
    if league is None:
        return asker.moderator
    return await is_organiser(store, league, asker, roles)


async def _check_allowed(
    store: Store, league: LeagueRow | None, asker: Member, roles: Collection[int]
) -> None:
    if await _allowed(store, league, asker, roles):
        return
    organisers = f" or {league.name}'s organisers" if league else ""
    raise NotAllowed(
        f"Only moderators{organisers} hand a seat to a substitute. A player asks for one with "
        "/match substitute, naming no seat_of."
    )


def _seat_handed(row: MatchRow, leaving: Member, asker: Member) -> int:
    if leaving.id not in row.players or leaving.id == AUTOMATIC:
        if leaving.id == asker.id:
            raise ServiceError(
                "You do not play in this match: name the player whose seat goes on (player:)."
            )
        raise ServiceError(
            f"{leaving.name} does not play in this match; name one of its players: "
            + ", ".join(name for name in row.names if name)
            + "."
        )
    return row.players.index(leaving.id)
