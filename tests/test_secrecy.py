"""Dice stay secret until they are rolled (issue 11).

What must hold: during a match, nothing anyone can see lets them predict a die. The proof here
has three parts, and each part is a test.

1. **Non-interference.** Let S be the match's dice, in the order they are rolled, and n_k the
   number of them the match has rolled after step k of a session (every step a member can
   take: create, join, squads, deploy, act, undo, draw, standing orders, refused commands),
   counted by replaying the stored record. Whatever anyone sees after step k (the step's
   replies, /match status, log, card, secondary, odds, export, what autocomplete reads, every
   refusal) must be a function of the commands and S[:n_k] only. The test plays a session
   with seeded dice (world A), then for every step k forks the match just before it, replaces
   its dice by a script of S[:n_k] followed by faces that differ from A's at every position,
   plays step k again and asks for everything again: it must all be identical, byte for byte
   (pictures and files included). A seed, a key or a future face that shows anywhere makes
   the fork differ.
2. **A die once rolled is never rolled again.** n_k never goes down. With part 1 this covers
   everything seen so far, not only the last step: an undo that took back an action and
   rolled its dice again would let both players know the next faces.
3. **The rolled faces do not tell the next one.** Parts 1 and 2 show that what anyone has seen
   is S[:n]; S[n] must not follow from S[:n]. A Mersenne Twister seeded below 2**31 fails:
   the first turn's dozen faces single out the seed among 2**31 (hours of a laptop's time,
   and a play-by-post match lasts days), then every roll to come is known. New matches use a
   256-bit key and HMAC-SHA256 (skirmbot.rules.dice.KeyedDice): a pseudorandom function, so
   the faces seen tell nothing about the next one without the key; the test checks that every
   new match gets one, and that the key only ever leaves the bot once the match is over.

Also here: the export before the end replays to the match so far exactly (and runs out of
dice at the next roll), and an opponent's secondary objective, drawn with the dice and hidden
until it scores, does not show through the exported faces either.
"""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from skirmbot.dice.odds import format_target_odds
from skirmbot.rules import commands
from skirmbot.rules.dice import DiceExhausted, dice_from_json
from skirmbot.rules.record import MatchRecord, replay, start_match
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.skirm import autoplayer, secondaries
from skirmbot.rules.skirm.odds import target_odds
from skirmbot.service import MatchService, Member, Reply, ServiceError
from skirmbot.store import Store

ALICE = Member(11, "Alice", moderator=True)  # plays, and moderates this server
BOB = Member(22, "Bob")
EVE = Member(33, "Eve")  # watches
MO = Member(44, "Mo", moderator=True)  # moderates, does not play
EVERYONE = (ALICE, BOB, EVE, MO)
CHANNEL, GUILD = 500, 900
SEED = 7
MISSION = "courier-run"  # with secondary objectives: drawn with the dice, hidden until scored
NOW = 1_000_000.0  # a clock that stands still, so deadlines read the same in every world


# --- counting the dice a record rolls -------------------------------------------------------
class Counting:
    """A dice source that keeps every face it gives."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.faces = inner, []

    def roll(self, sides: int = 6) -> int:
        face: int = self.inner.roll(sides)
        self.faces.append(face)
        return face

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = self.inner.to_json()
        return data


def rolled(record_data: dict[str, Any]) -> list[int]:
    """The faces a stored record's commands roll, in order (none before both squads are in)."""
    record = MatchRecord.from_json(record_data)
    if not all(record.content["squads"]):
        return []
    dice = Counting(dice_from_json(record.dice))
    match = start_match(record, dice)
    rules = ruleset(record.ruleset)
    for data in record.commands:
        match.apply(rules.parse_command(data))
    return dice.faces


# --- what anyone can see --------------------------------------------------------------------
def shown(result: object) -> list[object]:
    """A service answer as the members get it: every message's words, picture, pings,
    buttons and visibility; a file's bytes."""
    if isinstance(result, Reply):
        return [
            (
                r.text,
                r.picture,
                r.notify() if hasattr(r, "notify") else r.ping,
                r.choices,
                r.private,
            )  # fmt: skip
            for r in result.all()
        ]
    if isinstance(result, tuple):
        return [repr(result)]
    return [repr(result)]


async def answer(call: Awaitable[object]) -> list[object]:
    try:
        return shown(await call)
    except ServiceError as error:
        return [("refused", type(error).__name__, str(error))]


async def everything_seen(service: MatchService) -> dict[str, list[object]]:
    """Everything any member can ask to see now, by what they asked."""
    seen: dict[str, list[object]] = {
        "status": await answer(service.status(CHANNEL)),
        "log": await answer(service.log(CHANNEL, 200)),
    }
    for unit in ("Halden", "Vex"):
        seen[f"card {unit}"] = await answer(service.card(CHANNEL, unit))
    for member in (ALICE, BOB):
        seen[f"secondary {member.name}"] = await answer(service.secondary(CHANNEL, member))
    for member in EVERYONE:
        seen[f"export {member.name}"] = await answer(service.export(CHANNEL, member))
    try:
        row, match = await service.view(CHANNEL)
    except ServiceError as error:
        seen["view"] = [str(error)]
        return seen
    seen["view"] = [row.status, row.names, None if match is None else match.state.to_json()]
    if match is not None:  # /odds and the autocompletes read the live state
        state = match.state
        for unit in state.on_map():
            seen[f"odds {unit.id}"] = [format_target_odds(unit, target_odds(state, unit))]
    return seen


# --- a session: every kind of step a member can take ------------------------------------------
Call = Callable[[MatchService], Awaitable[object]]


@dataclass
class Step:
    label: str
    call: Call


@dataclass
class Moment:
    """World A after one step: what was seen, the stored match, the dice it had rolled."""

    step: Step
    seen: dict[str, list[object]]
    row: dict[str, Any] | None
    faces: list[int] = field(default_factory=list)


def acting(member: Member, command: commands.Command) -> Step:
    return Step(f"{member.name}: {command.to_json()}", lambda s: s.act(CHANNEL, member, command))


SET_UP = [
    Step("create", lambda s: s.create(GUILD, CHANNEL, ALICE, opponent=BOB, mission=MISSION)),
    Step("export in set-up", lambda s: s.export(CHANNEL, ALICE)),
    Step("join", lambda s: s.join(CHANNEL, BOB)),
    Step("Alice's squad", lambda s: s.choose_squad(CHANNEL, ALICE, "iron-wardens")),
    Step("Bob's squad", lambda s: s.choose_squad(CHANNEL, BOB, "ash-runners")),
    Step("Alice deploys (hidden)", lambda s: s.deploy(CHANNEL, ALICE)),
    Step("Bob deploys: the reveal", lambda s: s.deploy(CHANNEL, BOB)),
]
COMMANDS = 40  # into the second turn: moves, shots, melee, re-rolls
ROLLS = ("shoot", "melee", "reroll")


async def snapshot(store: Store) -> dict[str, Any] | None:
    row = await store.last_match(CHANNEL)
    if row is None:
        return None
    return copy.deepcopy(
        {
            "status": row.status,
            "players": row.players,
            "names": row.names,
            "record": row.record,
            "setup": row.setup,
        }
    )


async def play(store: Store) -> list[Moment]:
    """World A: the session with seeded dice; after each step, everything seen and the match."""
    service = MatchService(store, seed_source=lambda: SEED, clock=lambda: NOW)
    moments: list[Moment] = []

    async def take(step: Step) -> None:
        reply = await answer(step.call(service))
        seen = {"reply": reply, **(await everything_seen(service))}
        row = await snapshot(store)
        faces = rolled(row["record"]) if row is not None else []
        moments.append(Moment(step, seen, row, faces))

    for step in SET_UP:
        await take(step)
    undone = drawn = False
    for _ in range(COMMANDS):
        row, match = await service.view(CHANNEL)
        assert match is not None and match.state.to_act is not None
        side = match.state.to_act
        member, other = (ALICE, BOB) if row.players[side] == ALICE.id else (BOB, ALICE)
        command = autoplayer.choose(match.state, side)
        await take(acting(member, command))
        if command.type in ROLLS and not undone:  # take back an action whose dice are seen
            undone = True
            await take(Step(f"{member.name} asks to undo", lambda s, m=member: s.request_undo(CHANNEL, m)))  # fmt: skip
            await take(Step(f"{other.name} agrees", lambda s, o=other: s.accept_undo(CHANNEL, o)))
        _, match = await service.view(CHANNEL)
        assert match is not None
        if match.state.turn >= 2 and not drawn:  # the other kinds of step, once each
            drawn = True
            await take(Step("Bob offers a draw", lambda s: s.offer_draw(CHANNEL, BOB)))
            await take(Step("Bob's standing orders", lambda s: s.standing_orders(CHANNEL, BOB, 1)))  # fmt: skip
            await take(Step("Eve acts", lambda s, c=command: s.act(CHANNEL, EVE, c)))
            await take(Step("the other one acts", lambda s, c=command, o=other: s.act(CHANNEL, o, c)))  # fmt: skip
            await take(Step("Eve aborts", lambda s: s.abort(CHANNEL, EVE)))
    assert undone and drawn, "the session took every kind of step"
    return moments


async def fork(store: Store, before: dict[str, Any], dice: dict[str, Any]) -> MatchService:
    """The match as it was in `before`, with other dice; a new service (nothing cached)."""
    row = await store.last_match(CHANNEL)
    assert row is not None
    row.status, row.players, row.names = before["status"], before["players"], before["names"]
    row.record, row.setup = copy.deepcopy(before["record"]), copy.deepcopy(before["setup"])
    row.record["dice"] = dice
    await store.save_match(row)
    return MatchService(store, seed_source=lambda: SEED, clock=lambda: NOW)


def other_faces(known: list[int], start: int, count: int = 400) -> list[int]:
    """Faces for positions start.. that differ from world A's at each position it rolled
    (1 and 2 only: they can come up on any die)."""
    return [
        2 if index < len(known) and known[index] == 1 else 1
        for index in range(start, start + count)
    ]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "a.db", clock=lambda: NOW)
    yield opened
    await opened.close()


@pytest.fixture
async def other_store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "b.db", clock=lambda: NOW)
    yield opened
    await opened.close()


# --- 1. non-interference --------------------------------------------------------------------
async def test_nothing_seen_during_a_match_depends_on_a_die_not_yet_rolled(
    store: Store, other_store: Store
) -> None:
    moments = await play(store)
    last = max((m.faces for m in moments), key=len)
    # The fork's match: created like world A's, then overwritten before each step.
    await MatchService(other_store, seed_source=lambda: SEED, clock=lambda: NOW).create(
        GUILD, CHANNEL, ALICE, opponent=BOB, mission=MISSION
    )
    leaks: list[str] = []
    for index, moment in enumerate(moments):
        before = moments[index - 1].row if index else None
        if before is None:
            continue  # the match does not exist yet: there are no dice
        assert moment.row is not None and moment.row["status"] not in ("ended", "aborted")
        faces = moment.faces
        dice = {"script": faces + other_faces(last, len(faces))}
        service = await fork(other_store, before, dice)
        reply = await answer(moment.step.call(service))
        seen = {"reply": reply, **(await everything_seen(service))}
        for what, value in moment.seen.items():
            if seen.get(what) != value:
                leaks.append(f"step {index} ({moment.step.label}): {what}")

    assert not leaks, (
        "Seen during the match, and different when only the dice not yet rolled differ:\n"
        + "\n".join(leaks[:20])
    )


# --- 2. a die once rolled stays rolled ------------------------------------------------------
async def test_a_die_once_rolled_is_never_rolled_again(store: Store) -> None:
    moments = await play(store)
    for earlier, later in zip(moments, moments[1:], strict=False):
        assert later.faces[: len(earlier.faces)] == earlier.faces[: len(later.faces)]
        assert len(later.faces) >= len(earlier.faces), (
            f"{later.step.label}: the match went back from {len(earlier.faces)} dice rolled to "
            f"{len(later.faces)}; the faces in between, already seen, will come up again"
        )
    refused = next(m for m in moments if m.step.label.endswith("asks to undo"))
    assert refused.seen["reply"][0][0] == "refused", "an action that rolled dice stands"
    assert "rolled dice stand" in str(refused.seen["reply"])


# --- 3. the faces seen do not tell the next one -----------------------------------------------
async def test_every_new_match_rolls_keyed_dice_whose_key_stays_secret_until_the_end(
    store: Store,
) -> None:
    service = MatchService(store, clock=lambda: NOW)  # as the bot runs: no fixed seed
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    row = await store.active_match(CHANNEL)
    assert row is not None
    dice = row.record["dice"]
    assert set(dice) == {"key"}, f"a new match's dice are {dice}, not a secret key"
    assert len(bytes.fromhex(dice["key"])) >= 16, "at least 128 bits"
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-runners")
    await service.deploy(CHANNEL, ALICE)
    everything: list[object] = [shown(await service.deploy(CHANNEL, BOB))]
    everything += (await everything_seen(service)).values()
    assert dice["key"] not in repr(everything), "the key shows nowhere during the match"
    ended = await service.concede(CHANNEL, BOB)
    assert dice["key"] not in repr(shown(ended))
    _, data = await service.export(CHANNEL, BOB)
    assert json.loads(data)["dice"] == dice, "after the end, the record holds the key"
    assert rolled(json.loads(data)), "and replays with it"


def test_keyed_dice_are_the_same_for_the_same_key_and_fair() -> None:
    from skirmbot.rules.dice import KeyedDice, new_dice

    key = str(new_dice()["key"])
    first, again = KeyedDice(key), KeyedDice(key)
    faces = [first.roll() for _ in range(6000)]
    assert faces == [again.roll() for _ in range(6000)], "a record replays"
    assert {face: faces.count(face) for face in range(1, 7)} == pytest.approx(
        dict.fromkeys(range(1, 7), 1000), abs=150
    )
    assert {first.roll(3) for _ in range(300)} == {1, 2, 3}
    assert new_dice() != new_dice()
    assert KeyedDice(key).to_json() == {"key": key}


# --- the export before the end ----------------------------------------------------------------
async def test_the_export_before_the_end_replays_the_match_so_far_and_no_further(
    store: Store,
) -> None:
    service = MatchService(store, seed_source=lambda: SEED, clock=lambda: NOW)
    for step in SET_UP:
        await answer(step.call(service))
    for _ in range(12):
        row, match = await service.view(CHANNEL)
        assert match is not None and match.state.to_act is not None
        side = match.state.to_act
        member = ALICE if row.players[side] == ALICE.id else BOB
        await service.act(CHANNEL, member, autoplayer.choose(match.state, side))
    row, live = await service.view(CHANNEL)
    assert live is not None
    for member in EVERYONE:
        exported = await service.export_record(CHANNEL, member)
        assert exported.private, f"{member.name}: only for the asker, moderators too"
        record = MatchRecord.loads(exported.data.decode())
        hidden = [side for side in (0, 1) if row.players[side] != member.id]
        faces, real = record.dice["script"], rolled(row.record)
        changed = [n for n, (face, was) in enumerate(zip(faces, real, strict=True)) if face != was]
        assert len(changed) <= len(hidden), "at most the hidden secondary draws differ"
        again = replay(record)
        assert [e.text for e in again.log] == [e.text for e in live.log]
        state, now = again.state.to_json(), live.state.to_json()
        for side in hidden:  # the opponent's unrevealed card of the turn is not told
            state["secondaries"][side] = now["secondaries"][side] = None
        assert state == now, "the match so far, exactly"
        with pytest.raises(DiceExhausted):  # the next die is not in it
            for _ in range(100):
                again.dice.roll()
    await service.concede(CHANNEL, BOB)
    exported = await service.export_record(CHANNEL, BOB)
    assert not exported.private and json.loads(exported.data)["dice"] == {"seed": SEED}


async def test_an_export_does_not_show_the_opponents_hidden_secondary_objective(
    store: Store, other_store: Store
) -> None:
    """Two worlds that differ only in the face that drew Bob's secondary objective of the
    turn: Bob's card differs, and everything Alice (a moderator too) sees is the same."""
    world_a = MatchService(store, seed_source=lambda: SEED, clock=lambda: NOW)
    for step in SET_UP:
        await answer(step.call(world_a))
    row = await store.active_match(CHANNEL)
    assert row is not None
    faces = rolled(row.record)
    live = replay(MatchRecord.from_json(row.record))
    bobs = secondaries.card_of(live.state, 1)
    assert bobs is not None

    def drawn_by_bob(position: int) -> list[int] | None:
        """The faces with the one at `position` changed, if that changes Bob's card only."""
        changed = list(faces)
        changed[position] = faces[position] % 6 + 1
        record = MatchRecord.from_json(row.record | {"dice": {"script": changed + [1] * 50}})
        match = replay(record)
        same = [e.text for e in match.log] == [e.text for e in live.log]
        card = secondaries.card_of(match.state, 1)
        return changed if same and card is not None and card.id != bobs.id else None

    changed = next(c for c in map(drawn_by_bob, range(len(faces))) if c is not None)
    world_b = MatchService(other_store, seed_source=lambda: SEED, clock=lambda: NOW)
    await SET_UP[0].call(world_b)
    other = await other_store.active_match(CHANNEL)
    assert other is not None
    other.record["dice"] = {"script": changed + [1] * 50}
    await other_store.save_match(other)
    for step in SET_UP[1:]:
        await answer(step.call(world_b))

    async def alice_sees(service: MatchService) -> list[object]:
        return [
            await answer(service.status(CHANNEL)),
            await answer(service.log(CHANNEL, 200)),
            await answer(service.secondary(CHANNEL, ALICE)),
            await answer(service.export(CHANNEL, ALICE)),
            await answer(service.export(CHANNEL, MO)),
            await answer(service.export(CHANNEL, EVE)),
        ]

    assert await alice_sees(world_a) == await alice_sees(world_b)
    assert await answer(world_a.secondary(CHANNEL, BOB)) != await answer(
        world_b.secondary(CHANNEL, BOB)
    ), "the worlds differ in Bob's card"
    # Bob's own export keeps his card: it replays to his own view of the match.
    _, data = await world_a.export(CHANNEL, BOB)
    mine = secondaries.card_of(replay(MatchRecord.loads(data.decode())).state, 1)
    assert mine is not None and mine.id == bobs.id
