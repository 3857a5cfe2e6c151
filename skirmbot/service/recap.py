"""Catch-up recaps (issue 21): what happened since a player last acted, in one look.

A recap is an animated picture that starts from the position the player last saw and goes
through the activations since (the replay GIF, cut to those frames) and a few lines of summary
built from the rules' events: units moved, attacks and what they cost, units Taken Out (or
Downed), the score. It goes with the ping that tells a player it is their turn when they were
away for more than the activation the map picture shows (see `worth_a_recap`), with every
reminder (in the channel or by direct message), and on demand with /match recap (`show`), from
the asker's last activation or from a given activation number.

"Last acted" comes from the record: the last activation of the player's squad that the player
played themselves. An activation the bot ended or played for them after a missed deadline is
not them acting (the clock keeps each miss with the key of the activation it was for). Setting
standing orders is not acting either. Activations are numbered as the replay numbers them
(`skirmbot.render.replay.Step`), 0 being the match as deployed; /match log shows the numbers.

Nothing a player may not know is shown: hidden deployments are never in the record before they
are revealed, and the summary is built from the events' data, which never names a secondary
objective before it scores; the frames do not draw secondary objectives at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from skirmbot.render.battlemap import MapRenderer
from skirmbot.render.replay import Step, animation, numbered_steps
from skirmbot.rules.errors import RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.record import MatchRecord
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.view import MatchView
from skirmbot.service.errors import ServiceError
from skirmbot.service.replies import MESSAGE_LIMIT, QUIET_EVENTS, Reply, clip
from skirmbot.service.work import (
    AUTOMATIC,
    DEPLOYING,
    SETUP,
    LiveMatches,
    MatchWork,
    Member,
    activation_key,
)
from skirmbot.store import MatchRow


class Reads(Protocol):
    """What a recap needs of the match service (skirmbot.service.matches)."""

    live: LiveMatches

    def side_of(self, row: MatchRow, member: Member) -> int | None: ...


RECAP_NAME = "recap.gif"
MAX_FRAMES = 20  # the animation shows at most the latest 20 activations (the text tells all)
SUMMARY_LIMIT = 700  # characters: the recap rides along with a ping's own text
LINE_LIMIT = 220  # one summary line (moves, attacks, ...) at most
HEADING = "📜"


@dataclass(frozen=True)
class Recap:
    """The catch-up for activations `first` to `last` (numbers as the replay gives them)."""

    first: int
    last: int
    text: str  # a few lines of summary, words only
    animation: bytes  # the GIF: the position before `first`, then those activations' frames
    # (the latest MAX_FRAMES of them)


# --- which activations ---------------------------------------------------------------------------
def missed_keys(row: MatchRow) -> set[str]:
    """The keys of the activations a player missed (the bot ended or played them)."""
    misses = row.setup.get("clock", {}).get("misses", [])
    return {str(miss["key"]) for miss in misses if miss.get("key")}


def own(step: Step, side: int, missed: Collection[str]) -> bool:
    """The player of `side` played this activation themselves."""
    return step.side == side and step.key not in missed


def activations_since(log: Sequence[Event], side: int, missed: Collection[str]) -> tuple[int, bool]:
    """How many activations ended since `side`'s player last played one, and whether one of
    them was theirs, missed; read from the live match's log (cheap: no replay), to decide
    whether a ping carries a recap."""
    turn, done, since, was_missed = 0, 0, 0, False
    for event in log:
        if event.kind == "turn_started":
            turn = int(event.data.get("turn", turn))
        elif event.kind == "activation_ended":
            mine = event.data.get("side") == side
            if mine and activation_key(turn, done, side) not in missed:
                since, was_missed = 0, False
            else:
                since, was_missed = since + 1, was_missed or mine
            done += 1
    return since, was_missed


def worth_a_recap(since: int, opponent_is_automatic: bool, missed_lately: bool) -> bool:
    """A turn ping carries a recap when more happened than the activation its map shows, and
    the player was away: against the automatic player, who answers at once, only after a
    miss (docs/rulings.md, Catch-up recaps)."""
    if since < 2:
        return False
    return missed_lately or not opponent_is_automatic


# --- the recap -----------------------------------------------------------------------------------
def catch_up(
    record: MatchRecord,
    side: int | None,
    missed: Collection[str] = (),
    start: int | None = None,
    renderer: MapRenderer | None = None,
) -> Recap | None:
    """The recap for the player of `side` since they last acted, or from activation `start`
    on; None when no activation happened since. Replays the record twice (once to number the
    activations, once to draw the frames wanted), trusted: the record is our store's, each of
    its commands checked when it was accepted. Pure: run it in a thread."""
    steps: list[Step] = []
    state: MatchView | None = None
    try:
        for step, after in numbered_steps(record, trusted=True):
            steps.append(step)
            state = after  # after the loop, the match now (its unit names)
    except RulesError as error:  # a record this version cannot replay shows no recap
        raise ServiceError(f"The recap cannot be drawn: {error}") from error
    if state is None or len(steps) < 2:
        if start is not None:
            raise ServiceError("No activation has ended yet: there is nothing to catch up on.")
        return None
    last = steps[-1].number
    if start is None:
        if side is None:
            raise ServiceError("You do not play in this match: give the activation to start from.")
        start = 1 + max((s.number for s in steps if own(s, side, missed)), default=0)
    elif not 1 <= start <= last:
        raise ServiceError(
            f"The match has activations 1 to {last} so far (/match log numbers them); "
            f"give one of those."
        )
    if start > last:
        return None
    shown = steps[start : last + 1]
    before = steps[start - 1]
    framed = range(max(start, last - MAX_FRAMES + 1), last + 1)
    # The first frame is the position the player last saw, so even one activation shows the
    # change (a single frame was a still picture).
    try:
        gif = animation(
            record, renderer or MapRenderer(), only={before.number, *framed}, trusted=True
        )
    except RulesError as error:  # a record this version cannot replay shows no recap
        raise ServiceError(f"The recap cannot be drawn: {error}") from error
    score = ruleset(record.ruleset).score_words[0]
    text = summary(shown, before.mp, state, side, missed, len(framed), score=score)
    return Recap(start, last, text, gif)


def summary(
    steps: Sequence[Step],
    mp_before: Sequence[int],
    state: MatchView,
    side: int | None,
    missed: Collection[str],
    framed: int,
    *,
    score: str = "MP",
) -> str:
    """A few lines: which activations, units moved, attacks and their results, units Taken
    Out, the score. Built from the events' data; fits in SUMMARY_LIMIT."""
    # A match that ended between activations (a concession, a draw, a forfeit) ends with a
    # step of its own, numbered but no activation: told as the end, not as one more activation.
    acted = [s for s in steps if s.is_activation]
    first, last = (acted[0].number, acted[-1].number) if acted else (0, 0)
    span = f"activation #{first}" if first == last else f"activations #{first} to #{last}"
    turns = sorted({s.turn for s in acted or steps})
    word = state.turn_word.lower()
    turn = f"{word} {turns[0]}" if len(turns) == 1 else f"{word}s {turns[0]} to {turns[-1]}"
    heading = f"{HEADING} Catch-up: {span} ({turn})" if acted else f"{HEADING} Catch-up:"
    if len(acted) < len(steps):
        heading += f"{', then' if acted else ''} the end of the match (#{steps[-1].number})"
    if framed < len(steps):
        heading += f"; the picture shows the position before, then the last {framed}"
    lines = [heading + "."]
    played_for = [
        f"#{s.number}"
        for s in steps
        if side is not None and s.side == side and not own(s, side, missed)
    ]
    if played_for:
        by_bot = " ended or played by the bot"
        lines.append(_listed("Missed deadline", played_for, sep=", ", then=by_bot))
    events = [event for step in steps for event in step.events if event.kind not in QUIET_EVENTS]
    names = {piece.id: piece.id for piece in state.pieces}
    found = [
        (what, items)
        for what, items in (
            ("Moved", _moves(events, names)),
            ("Attacks", _attacks(events, names, state.hits)),
            (state.out_word, _taken_out(events, names, state.down_word)),
        )
        if items
    ]
    squads = [seat.name for seat in state.sides]
    ending = [e.text for e in events if e.kind == "match_ended"][-1:]  # how the match ended
    score = _score(squads, mp_before, steps[-1].mp, score)
    # The heading, the missed deadlines, the end and the score always show; the lists share
    # what is left (a long absence once cut the heading off, keeping the latest lines).
    fixed = [*lines, *ending, score]
    room = SUMMARY_LIMIT - sum(len(line) + 1 for line in fixed)
    told = _shared(found, room)
    lines += [*(told or ["No unit moved or attacked."]), *ending, score]
    return clip("\n".join(lines), SUMMARY_LIMIT, more="/match log")


def _shared(found: list[tuple[str, list[str]]], room: int) -> list[str]:
    """The lists as lines in `room` characters in all: a line shorter than its share leaves
    the rest to the others; none longer than LINE_LIMIT."""
    lines: dict[str, str] = {}
    waiting = list(found)
    while waiting:
        each = min(LINE_LIMIT, room // len(waiting) - 1)
        whole = {what: _listed(what, items) for what, items in waiting}
        short = [(what, items) for what, items in waiting if len(whole[what]) <= each]
        if not short:
            lines.update((what, _listed(what, items, each)) for what, items in waiting)
            break
        for what, _ in short:
            lines[what] = whole[what]
            room -= len(whole[what]) + 1
        waiting = [entry for entry in waiting if entry not in short]
    return [lines[what] for what, _ in found]


def _moves(events: Iterable[Event], names: dict[str, str]) -> list[str]:
    """Each unit that moved once: where it started and where it ended up."""
    paths: dict[str, list[str]] = {}
    for event in events:
        if event.kind == "moved" and event.data.get("path"):
            path = [str(square) for square in event.data["path"]]
            known = paths.setdefault(str(event.data.get("unit")), [path[0], path[-1]])
            known[1] = path[-1]
    return [f"{names.get(unit, unit)} {a}→{b}" for unit, (a, b) in paths.items()]


@dataclass
class _Exchange:
    """One attacker on one target with one weapon over the recap."""

    attacks: int = 0
    lost: int = 0  # HIT the target lost
    saved: int = 0
    out: list[str] = field(default_factory=list)
    won: int = 0  # opposed rolls the attacker won (a ruleset without HIT: the d20 rules)


def _attacks(events: Iterable[Event], names: dict[str, str], hits: bool = True) -> list[str]:
    """Attacks grouped by attacker, target and weapon, with what the target lost. A save roll
    after an attack (a blast or an explosion may catch others) belongs to that attack."""
    exchanges: dict[tuple[str, str, str], _Exchange] = {}
    current: tuple[str, str] | None = None  # (attacker, weapon) of the last attack

    def exchange(target: str) -> _Exchange:
        assert current is not None
        return exchanges.setdefault((current[0], target, current[1]), _Exchange())

    for event in events:
        data = event.data
        if event.kind == "attack":
            current = (_name(data.get("attacker"), names), str(data.get("weapon") or "attack"))
            found = exchange(_target(data, names))
            found.attacks += 1
            found.won += 1 if data.get("strikes") else 0
        elif event.kind == "event_effect":  # the turn's event (a hazard) deals damage itself
            current = (event.text.split(":", 1)[0] or "The turn's event", "turn event")
        elif event.kind in _ATTACK_ENDS:
            current = None  # what comes later is no longer that attack's (a hazard's saves)
        elif current is None or str(data.get("unit")) not in names:
            continue
        elif event.kind == "saves":
            found = exchange(names[str(data["unit"])])
            found.saved += int(data.get("saved") or 0)
            found.lost += int(data.get("lost") or 0)  # Skirm: the saves take the HIT
        elif event.kind == "hit_lost":
            exchange(names[str(data["unit"])]).lost += int(data.get("lost") or 0)  # Skirm Lite
    return [_exchange_words(key, found, hits) for key, found in exchanges.items()]


# After these, a save roll or a HIT lost belongs to no attack made before them.
_ATTACK_ENDS = {"activation_started", "activation_ended", "turn_started", "turn_ended"}


def _exchange_words(key: tuple[str, str, str], found: _Exchange, hits: bool) -> str:
    attacker, target, weapon = key
    times = f" ×{found.attacks}" if found.attacks > 1 else ""
    if not hits:  # "There are no hit points. Period.": the opposed rolls won
        won = f"won {found.won}" if found.attacks > 1 else ("won" if found.won else "not won")
        return f"{attacker} → {target} ({weapon}{times}): {won}"
    result = f"{found.lost} HIT lost" if found.lost else "no HIT lost"
    if found.saved:
        result += f", {found.saved} saved"
    return f"{attacker} → {target} ({weapon}{times}): {result}"


def _target(data: dict[str, Any], names: dict[str, str]) -> str:
    if data.get("target"):
        return _name(data["target"], names)
    return f"an item on {data.get('to', '?')}"


def _name(unit: Any, names: dict[str, str]) -> str:
    return names.get(str(unit), str(unit))


def _taken_out(events: Iterable[Event], names: dict[str, str], down: str = "Downed") -> list[str]:
    """Units Taken Out (Skirm Lite, the d20 rules: Downed too, until revived or removed), and by
    whom; a Downed unit revived since says so."""
    gone: dict[str, list[str]] = {}  # unit name: what is said of it
    for event in events:
        if event.kind == "revived" and "target" not in event.data:  # the d20 rules' recovery
            unit = _name(event.data.get("unit"), names)
            if unit in gone:
                gone[unit].append("back in play")
            continue
        if event.kind == "revived":  # Skirm Lite: a Downed unit back on its feet
            unit = _name(event.data.get("target"), names)
            if unit in gone:
                gone[unit].append(f"revived by {_name(event.data.get('unit'), names)}")
            continue
        if event.kind not in ("taken_out", "downed"):
            continue
        unit = _name(event.data.get("unit"), names)
        by = event.data.get("by")
        how = down if event.kind == "downed" else ""
        said = " ".join(filter(None, [how, f"by {_name(by, names)}" if by else ""]))
        if event.kind == "taken_out" and unit in gone:
            continue  # a Downed unit removed at the end of the turn: told once
        gone[unit] = [said] if said else []
    return [f"{unit} ({'; '.join(said)})" if said else unit for unit, said in gone.items()]


def _score(squads: Sequence[str], before: Sequence[int], after: Sequence[int], word: str) -> str:
    """Each squad's score (MP in Skirm) before the recap's first activation and after its last."""
    parts = [
        f"{name} {was} → {now} {word}" if now != was else f"{name} {now} {word}"
        for name, was, now in zip(squads, before, after, strict=False)
    ]
    return "Score: " + ", ".join(parts) + "."


def _listed(
    what: str, items: list[str], limit: int = LINE_LIMIT, sep: str = "; ", then: str = ""
) -> str:
    """`What: a; b; c.` (`then` before the full stop) cut to `limit` characters, saying how
    many more there were; an item too long on its own is cut with "…"."""
    if not items:
        return ""
    end = f"{then}."
    kept: list[str] = []
    for number, item in enumerate(items):
        if len(sep.join([*kept, item])) + len(what) + len(end) + 16 > limit and kept:
            return f"{what}: {sep.join(kept)} and {len(items) - number} more{end}"
        kept.append(item)
    line = f"{what}: {sep.join(kept)}{end}"
    return line if len(line) <= max(limit, 40) else line[: max(limit, 40) - 1] + "…"


# --- the numbers in /match log -------------------------------------------------------------------
def numbered_log(events: Sequence[Event]) -> list[str]:
    """The log's lines, each activation's first line marked with its number ("#5 ..."), as
    /match recap activation: takes it."""
    lines: list[str] = []
    ended, started = 0, False
    for event in events:
        if event.kind in QUIET_EVENTS:
            continue
        text = event.text
        if event.kind == "activation_started" or (event.kind == "activation_ended" and not started):
            text = f"#{ended + 1} {text}"
        if event.kind == "activation_started":
            started = True
        elif event.kind == "activation_ended":
            ended, started = ended + 1, False
        lines.extend(text.splitlines())
    return lines


# --- with the service ------------------------------------------------------------------------------
async def with_recap(
    work: MatchWork, reply: Reply, side: int | None, *, always: bool = False
) -> Reply:
    """The ping `reply` to the player of `side`, with their recap attached when it is worth it
    (`worth_a_recap`; `always`: a reminder, which carries one whenever anything happened)."""
    row = work.row
    if side is None or row.players[side] in (None, AUTOMATIC):
        return reply
    match = await work.in_play()
    if match is None:
        return reply
    missed = missed_keys(row)
    since, missed_lately = activations_since(match.log, side, missed)
    others = [player for seat, player in enumerate(row.players) if seat != side]
    automatic = all(player == AUTOMATIC for player in others)
    if not always and not worth_a_recap(since, automatic, missed_lately):
        return reply
    if since == 0:
        return reply
    record = MatchRecord.from_json(row.record)
    found = await asyncio.to_thread(catch_up, record, side, missed)
    return attached(reply, found)


def attached(reply: Reply, recap: Recap | None) -> Reply:
    """The reply with the recap's summary after its text (its own text cut to leave room,
    latest lines kept) and its animation as a second file."""
    if recap is None:
        return reply
    room = MESSAGE_LIMIT - len(recap.text) - 2
    reply.text = f"{clip(reply.text, room)}\n\n{recap.text}" if reply.text else recap.text
    reply.animation, reply.animation_name = recap.animation, RECAP_NAME
    reply.animation_alt = f"Animated recap: {recap.text}"
    return reply


async def show(
    service: Reads,
    channel_id: int,
    member: Member,
    activation: int | None = None,
    *,
    private: bool = True,
) -> Reply:
    """/match recap: the asker's catch-up since they last acted (or from `activation`), only
    for them unless `private` is False. Once the match is over (until the channel's next one
    starts), the recap of its last activations."""
    row = await service.live.find(channel_id, active_only=False)  # over: its last activations
    over = not row.active
    if row.status in (SETUP, DEPLOYING):
        raise ServiceError("The match has not started yet: there is nothing to catch up on.")
    if over and not row.record.get("commands"):
        raise ServiceError(
            "The last match here ended before it was played: there is nothing to catch up on."
        )
    side = service.side_of(row, member)
    if side is None and activation is None:
        raise ServiceError(
            "You do not play in this match: give the activation to start from "
            "(/match recap activation:5; /match log numbers them)."
        )
    record = MatchRecord.from_json(row.record)
    found = await asyncio.to_thread(catch_up, record, side, missed_keys(row), activation)
    if found is None:
        if over:
            return Reply(
                f"Match #{row.id} is over, and nothing happened after your last activation: "
                "/match recap activation:1 shows it from the start.",
                private=private,
            )
        return Reply(
            "Nothing has happened since your last activation: you are caught up.", private=private
        )
    heading = f"🏁 Match #{row.id} is over." if over else ""  # then its last activations
    return attached(Reply(heading, private=private), found)
