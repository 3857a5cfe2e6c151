"""The "your move" inbox (issue 34): a player's matches in every server, the ones waiting on them
first, and a way to name one of them from anywhere (a direct message with the bot).

Everything here reads the stored rows: who the clock waits for (`timing.waiting_for`, the
reactions the clock keeps), its deadline, who picked a squad. Only the score needs the live
match, and that comes from the same `LiveMatches` the channel's commands use (most are kept in
memory), through the ruleset's interface (`scores`, `view`): a match's secrets stay hidden, as
the public status shows no more. Acting on a named match (`named_match`) hands the match's
own channel to the very service calls the channel's commands make.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmbot.service.errors import NotAllowed, ServiceError
from skirmbot.service.replies import MESSAGE_LIMIT, Reply, when
from skirmbot.service.timing import waiting_for
from skirmbot.service.work import AUTOMATIC, DEPLOYING, SETUP, LiveMatches, ruleset_of
from skirmbot.store import MatchRow
from skirmbot.timers.clock import Clock
from skirmbot.words import plural, typed_key

NOTHING = "You play no match right now. Start one with /match new in a server with the bot."
DISCORD = "https://discord.com/channels"  # a channel's (or thread's) address: /GUILD/CHANNEL
# The room left for the "and N more" line when the list is cut to one message.
MORE_ROOM = 40


@dataclass(frozen=True)
class Entry:
    """One match of the player's, as the inbox lists it."""

    row: MatchRow
    mine: bool  # it waits on the player now
    deadline: float | None  # when the player's time runs out (None: no clock runs for them)
    line: str


def link(row: MatchRow) -> str:
    """The address of the match's channel or thread (threads are channels to Discord)."""
    return f"{DISCORD}/{row.guild_id}/{row.channel_id}"


def label(row: MatchRow, user_id: int) -> str:
    """How a match is named to its player: "#12 Hold the Line v Bob"."""
    mission = _mission(row)
    others = _others(row, user_id)
    return f"#{row.id}{f' {mission}' if mission else ''} v {others}"


async def entries(live: LiveMatches, user_id: int, *, scores: bool = True) -> list[Entry]:
    """The player's active matches: those waiting on them first, soonest deadline first, then
    the others by match number (`scores`: with the score, which may need a replay; autocomplete,
    which must answer at once, does without)."""
    rows = await live.store.matches_of_player(user_id)
    found = [await _entry(live, row, user_id, scores) for row in rows]
    waiting = sorted((e for e in found if e.mine), key=_by_deadline)
    others = sorted((e for e in found if not e.mine), key=lambda e: e.row.id)
    return waiting + others


async def inbox(live: LiveMatches, user_id: int, limit: int = MESSAGE_LIMIT) -> Reply:
    """/mine: the player's matches in one message, only for them; a list longer than one
    message ends with "and N more"."""
    found = await entries(live, user_id)
    if not found:
        return Reply(NOTHING, private=True)
    waiting = [e.line for e in found if e.mine]
    others = [e.line for e in found if not e.mine]
    lines: list[str] = []
    if waiting:
        lines += [f"**Waiting on you ({len(waiting)})**", *waiting]
    if others:
        lines += [f"**Your other matches ({len(others)})**", *others]
    return Reply(_cut(lines, len(found), limit), private=True)


async def match_choices(live: LiveMatches, user_id: int, current: str) -> list[tuple[str, int]]:
    """(label, match id) of the player's matches whose label holds what they typed, waiting on
    them first, for a `match:` option's autocomplete."""
    typed = typed_key(current)
    found = await entries(live, user_id, scores=False)
    named = [(label(e.row, user_id), e.row.id) for e in found]
    return [(text, match_id) for text, match_id in named if typed in typed_key(text)]


async def named_match(live: LiveMatches, user_id: int, match_id: int) -> MatchRow:
    """The player's match in progress #`match_id` (its channel is what the service's calls
    take); ServiceError, in words, when they play no such match."""
    row = await live.store.match(match_id)
    if row is None or not row.active:
        raise ServiceError(
            f"There is no match #{match_id} in progress. /mine lists yours with their numbers."
        )
    if user_id not in row.players:
        raise NotAllowed(
            f"You do not play in match #{match_id}. /mine lists yours with their numbers."
        )
    return row


# --- one match ---------------------------------------------------------------------------------
async def _entry(live: LiveMatches, row: MatchRow, user_id: int, scores: bool) -> Entry:
    seats = [seat for seat, player in enumerate(row.players) if player == user_id]
    clock = Clock.from_json(row.setup.get("clock"))
    turn = set(waiting_for(row))
    reacting = {int(r["side"]): float(r["deadline"]) for r in clock.reactions}
    picking = set(_still_picking(row))
    mine = any(seat in turn or seat in reacting or seat in picking for seat in seats)
    deadline = _deadline(clock, seats, turn, reacting)
    where = link(row)
    if mine:
        due = f", time runs out {when(deadline)}" if deadline is not None else ""
        what = _what(row, seats, reacting, picking)
        return Entry(row, True, deadline, f"- {label(row, user_id)}: {what}{due}. {where}")
    waits = _whose_turn(row, turn | set(reacting) | picking)
    score = await _score(live, row) if scores else ""
    text = f"- {label(row, user_id)}: {waits}{f'; {score}' if score else ''}. {where}"
    return Entry(row, False, None, text)


def _deadline(
    clock: Clock, seats: list[int], turn: set[int], reacting: dict[int, float]
) -> float | None:
    """The soonest moment the player's time runs out (a paused clock runs for nobody)."""
    if clock.paused is not None:
        return None
    moments = [reacting[seat] for seat in seats if seat in reacting]
    if clock.key is not None and any(seat in turn for seat in seats):
        moments.append(clock.deadline)
    return min(moments) if moments else None


def _what(row: MatchRow, seats: list[int], reacting: dict[int, float], picking: set[int]) -> str:
    """What the match waits on the player for, in a few words."""
    if any(seat in picking for seat in seats):
        return "pick your squad (/match squad)"
    if row.status == DEPLOYING:
        return "deploy (/deploy)"
    if any(seat in reacting for seat in seats):
        return "decide (see the channel)"
    return "your turn"


def _whose_turn(row: MatchRow, sides: set[int]) -> str:
    """Who the match waits for, in words (set-up: open seats and squads)."""
    open_seats = [seat for seat, player in enumerate(row.players) if player is None]
    if row.status == SETUP and open_seats:
        # A challenge keeps the challenged player's name on their seat until they join.
        named = [row.names[seat] for seat in open_seats if row.names[seat]]
        return f"waiting for {' and '.join(named) or 'an opponent'} to join"
    names = [_name(row, seat) for seat in sorted(sides)]
    if not names:
        return "set-up" if row.status == SETUP else "the automatic player's turn"
    doing = (
        "to pick a squad" if row.status == SETUP else "to deploy" if row.status == DEPLOYING else ""
    )
    return f"waiting for {' and '.join(names)}{f' {doing}' if doing else ''}"


async def _score(live: LiveMatches, row: MatchRow) -> str:
    """The score in play ("score 3-1"), through the ruleset's interface; "" before play."""
    if row.status in (SETUP, DEPLOYING):
        return ""
    try:
        match = await live.match(row)
    except ServiceError:
        return ""
    rules = ruleset_of(row)
    view = rules.view(match.state)
    scores = rules.scores(match.state)
    turn = f"{view.turn_word.lower()} {view.turn}" if view.turn else ""
    shown = "-".join(str(score) for score in scores)
    return ", ".join(part for part in (turn, f"score {shown}" if scores else "") if part)


def _still_picking(row: MatchRow) -> list[int]:
    """The seats with a player and no squad yet, while the match is being set up."""
    if row.status != SETUP:
        return []
    squads = row.setup.get("squads") or [None] * len(row.players)
    return [
        seat
        for seat, player in enumerate(row.players)
        if player not in (None, AUTOMATIC) and not squads[seat]
    ]


def _others(row: MatchRow, user_id: int) -> str:
    names = [_name(row, seat) for seat, player in enumerate(row.players) if player != user_id]
    return " and ".join(names) or "yourself"


def _name(row: MatchRow, seat: int) -> str:
    if row.players[seat] == AUTOMATIC:
        return "the automatic player"
    return row.names[seat] or "an open seat"


def _mission(row: MatchRow) -> str:
    """The mission's name as the record's content gives it ("" when it names none)."""
    content: Any = row.record.get("content") or {}
    mission: Any = content.get("mission") if isinstance(content, dict) else None
    name = mission.get("name") if isinstance(mission, dict) else None
    return str(name) if name else ""


def _by_deadline(entry: Entry) -> tuple[float, int]:
    """Soonest first; a match whose clock does not run for the player (paused) last."""
    return (entry.deadline if entry.deadline is not None else float("inf"), entry.row.id)


def _cut(lines: list[str], count: int, limit: int) -> str:
    """The lines that fit in one message, then "and N more" for the matches left out."""
    kept: list[str] = []
    size, shown = 0, 0
    for index, line in enumerate(lines):
        room = limit - MORE_ROOM if index < len(lines) - 1 else limit
        if size + len(line) + 1 > room:
            break
        kept.append(line)
        size += len(line) + 1
        shown += line.startswith("- ")
    if shown < count:
        kept.append(f"… and {plural(count - shown, 'more match', 'more matches')}")
    return "\n".join(kept)
