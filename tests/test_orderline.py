"""One message, one activation (issue 21, part 5): the order-line parser the console and
`/match orders` share (skirmbot/service/orderline.py), and a whole line played through the
service: each step sent as its own command, stopping at the first step refused or waiting for a
decision (docs/rulings.md, One-line orders)."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from builders import KNIFE, skirm_match, unit, weapon
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lite_builders import agent, lite_match
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD, started
from test_console import SEED, scripted, walk

from skirmbot.console import run_console
from skirmbot.rules.lite import commands
from skirmbot.rules.ruleset import ruleset
from skirmbot.service import MatchService, Member, NotAllowed, ServiceError, actions
from skirmbot.service.choices import Situation
from skirmbot.service.orderline import (
    UnknownWord,
    line_choices,
    offering,
    read_command,
    split_steps,
    words_of,
)
from skirmbot.store import Store

BOLTER = weapon("Heavy Bolter", "ranged", 2, 1, "RG8")


def two_word_names() -> Situation:
    """Names with spaces: the Wardens' "Iron Warden 2" (Heavy Bolter) against "Ash Scout"."""
    match = skirm_match(
        {
            0: [unit("Iron Warden 2", "C3", weapons=[BOLTER, KNIFE]), unit("Brann", "D3")],
            1: [unit("Ash Scout", "C8"), unit("Kor", "F8")],
        }
    )
    return Situation(match.state, 0, ruleset("skirm"))


# --- reading a step ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "typed",
    [
        "iron warden 2 shoot ash scout with heavy bolter",  # the unit first, as in a line
        "shoot Iron Warden 2 Ash Scout Heavy Bolter",  # the console's order of words
        'shoot "Iron Warden 2" at "Ash Scout" HEAVY BOLTER',
    ],
)
def test_names_with_spaces_are_read_in_any_case_unquoted(typed: str) -> None:
    assert read_command(two_word_names(), typed) == actions.Shoot(
        0, "Iron Warden 2", "Ash Scout", "Heavy Bolter"
    )


def test_a_step_without_its_unit_acts_with_the_unit_carried_from_the_step_before() -> None:
    situation = two_word_names()
    assert read_command(situation, "move to c4 2", "Brann") == actions.Move(0, "Brann", "C4", 2)
    assert read_command(situation, "melee Kor", "Brann") == actions.Melee(0, "Brann", "Kor", None)
    assert read_command(situation, "end") == actions.EndActivation(0, None)
    assert read_command(situation, "Brann") == actions.Activate(0, "Brann")
    with pytest.raises(ServiceError, match="Name the unit that moves"):
        read_command(situation, "move C4")  # nobody activating, nobody named


def test_a_step_offers_tactical_orders_written_last() -> None:
    """Rulings: Paying for actions (a command says how many TO it spends)."""
    situation = two_word_names()
    assert read_command(situation, "dash C4 1 TO", "Brann") == actions.Dash(0, "Brann", "C4", 1)
    assert read_command(situation, "melee Kor with knife 2 to", "Brann") == actions.Melee(
        0, "Brann", "Kor", "Knife", 2
    )
    with pytest.raises(ServiceError, match="end spends no Tactical Orders"):
        read_command(situation, "end 1 TO", "Brann")


def test_what_is_not_an_own_unit_goes_to_the_rules_as_typed() -> None:
    """The rules' own error then names the units there are (the console's "move Nobody C4")."""
    assert read_command(two_word_names(), "move Nobody C4") == actions.Move(0, "Nobody", "C4")


@pytest.mark.parametrize(
    ("typed", "error"),
    [
        ("fly Brann C4", "'fly' is not an action"),
        ("Brann fly C4", "'fly' is not an action"),
        ("move Brann", "Usage: move UNIT SQUARE [TO]"),
        ("move Brann C4 lots", "'lots' is not a whole number"),
        ("reroll x", "'x' is not a whole number"),
        ("modify 1", "Usage: modify DIE +1|-1"),
        ("activate", "Usage: activate UNIT"),
        ("shoot Kor with", "Name the weapon after 'with'"),
        ('move "Brann C4', "No closing quotation"),
    ],
)
def test_a_step_that_cannot_be_read_says_what_would_be_right(typed: str, error: str) -> None:
    with pytest.raises(ServiceError, match=re.escape(error)):
        read_command(two_word_names(), typed, "Brann")


def test_an_unknown_action_names_the_word_typed() -> None:
    with pytest.raises(UnknownWord) as raised:
        read_command(two_word_names(), "charge Kor")
    assert raised.value.word == "charge"


def test_steps_are_separated_by_semicolons_or_lines_and_quotes_group_words() -> None:
    assert split_steps("Halden move C5;shoot Kor\n end;; ") == [
        "Halden move C5",
        "shoot Kor",
        "end",
    ]
    assert words_of('move "Remus 1" C4 Kor\'val') == ["move", "Remus 1", "C4", "Kor'val"]


def test_lite_own_actions_are_read_by_their_name() -> None:
    """Lite rulebook Revive (2 TO): "Di revive bo" is the legal Revive of Di on Bo, and plays."""
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C4", hit=2), agent("Di", "D5")]},
        faces=[1, 6, 4, 4, 2],
        orders=(0, 2),
    )
    match.apply(commands.Melee(0, "Ada", "Bo"))
    match.apply(commands.Move(0, "Ada", "C1"))
    match.apply(commands.EndActivation(0))
    situation = Situation(match.state, 1, ruleset("lite"))
    revive = read_command(situation, "Di revive bo")
    assert revive == commands.Revive(0, "Di", "Bo")
    assert read_command(situation, "revive Bo", "Di", ahead=True) is None  # only its name, ahead
    with pytest.raises(ServiceError, match="No Revive of Di fits 'Kor'"):
        read_command(situation, "Di revive Kor")
    assert revive is not None
    events = match.apply(replace(revive, side=1))
    assert any(event.kind == "revived" for event in events)


def test_line_choices_offer_the_units_and_what_each_may_do_now() -> None:
    situation = two_word_names()
    offered = line_choices(situation, "iron")
    assert "Iron Warden 2 move" in offered and "Iron Warden 2 shoot" in offered
    assert all(choice.startswith("Iron Warden 2") for choice in offered)
    assert "Brann move; Brann dash" in line_choices(situation, "Brann move; Brann d")
    assert line_choices(Situation(situation.state, 1, situation.rules), "") == []  # not theirs


# --- a whole line through the service ----------------------------------------------------------
NOW = 1_800_000_000.0  # one fixed moment: the deadlines two services tell are the same


def service_on(store: Store, seed: int = 1234) -> MatchService:
    return MatchService(store, seed_source=lambda: seed, clock=lambda: NOW)


async def first_move(service: MatchService) -> tuple[Member, str, str]:
    """Whose turn it is, one of their ready units and a square it can Move to (from the
    rules' legal commands, not from where the bot deployed)."""
    row, match = await service.view(CHANNEL)
    assert match is not None and match.state.to_act is not None
    side = match.state.to_act
    member = ALICE if row.players[side] == ALICE.id else BOB
    rules = (await service.situation(CHANNEL, member)).rules
    move = next(c for c in rules.legal_commands(match.state, side) if isinstance(c, commands.Move))
    return member, move.unit, move.square


async def recorded(store: Store) -> list[dict[str, Any]]:
    row = await store.active_match(CHANNEL)
    assert row is not None
    return list(row.record["commands"])


async def test_a_line_gives_the_same_record_and_messages_as_its_steps_one_by_one(
    store: Store, tmp_path: Any
) -> None:
    line_service = service_on(store)
    await started(line_service)
    member, mover, square = await first_move(line_service)
    reply = await line_service.orders(
        CHANNEL, member, f"{mover.upper()} move {square.lower()}; end"
    )

    other = await Store.open(str(tmp_path / "one-by-one.db"))
    try:
        single = service_on(other)
        await started(single)
        await single.act(CHANNEL, member, commands.Move(0, mover, square))
        ended = await single.act(CHANNEL, member, commands.EndActivation(0))
        assert await recorded(store) == await recorded(other)
    finally:
        await other.close()
    assert [m.private for m in reply.all()] == [False]  # nothing stopped: no notice
    assert f"{mover} moves" in reply.text and ended.text in reply.text
    assert reply.picture is not None and reply.ping == ended.ping  # the map, who acts next


async def test_a_refused_step_stops_the_line_and_what_was_done_stays_done(store: Store) -> None:
    service = service_on(store)
    await started(service)
    member, mover, square = await first_move(service)
    before = await recorded(store)
    reply = await service.orders(CHANNEL, member, f"{mover} move {square}; move Z99; end")
    assert [command["type"] for command in (await recorded(store))[len(before) :]] == ["move"]
    *public, notice = reply.all()
    assert [m.private for m in public] == [False] and f"{mover} moves" in public[0].text
    assert notice.private
    assert notice.text.startswith("Step 2 ('move Z99'): Z99 is off the map")
    assert notice.text.endswith("Step 1 is done; steps 2 to 3 are not.")


async def test_a_line_that_cannot_be_read_or_is_refused_at_once_changes_nothing(
    store: Store,
) -> None:
    service = service_on(store)
    await started(service)
    member, mover, square = await first_move(service)
    before = await recorded(store)
    with pytest.raises(
        ServiceError, match=r"^Step 2 \('fly C4'\): 'fly' is not an action.*Nothing was done\.$"
    ):
        await service.orders(CHANNEL, member, f"{mover} move {square}; fly C4")
    with pytest.raises(ServiceError, match=rf"^Step 1 \('{mover} move Z99'\): Z99 is off the map"):
        await service.orders(CHANNEL, member, f"{mover} move Z99; end")
    opponent = BOB if member == ALICE else ALICE
    with pytest.raises(NotAllowed, match="not your turn"):
        await service.orders(CHANNEL, opponent, "end")
    with pytest.raises(NotAllowed, match="Only the two players"):
        await service.orders(CHANNEL, EVE, "end")
    with pytest.raises(ServiceError, match="Write the steps"):
        await service.orders(CHANNEL, member, " ; ")
    assert await recorded(store) == before


def dice_of(situation: Situation, shot: commands.Shoot) -> int:
    card = situation.state.units[shot.unit].card
    return next(weapon.roa for weapon in card.weapons if weapon.name == shot.weapon)


async def test_a_roll_waiting_for_a_decision_stops_the_line_after_its_step(tmp_path: Any) -> None:
    """Rulebook Tactical Orders (re-rolls): an attack roll with a failed die and TO to spend
    waits for its player; the steps after it are not sent. The seed is the first of a few whose
    shot at the barrel fails a die (found by playing, not fixed by hand)."""
    for seed in range(12):
        store = await Store.open(str(tmp_path / f"seed-{seed}.db"))
        try:
            service = service_on(store, seed)
            await started(service)
            situation = await service.situation(CHANNEL, ALICE)
            shots = [
                c
                for c in situation.rules.legal_commands(situation.state, 0)
                if isinstance(c, commands.Shoot)
            ]
            if situation.state.to_act != 0 or not shots:
                continue
            shot = max(shots, key=lambda c: dice_of(situation, c))  # most dice: likeliest to fail
            line = f"{shot.unit} shoot {shot.target} with {shot.weapon}; end"
            reply = await service.orders(CHANNEL, ALICE, line)
            state = (await service.situation(CHANNEL, ALICE)).state
            if state.activation is None or state.activation.pending is None:
                continue
            notice = reply.all()[-1]
            assert notice.private and notice.text.startswith(
                f"Stopped after step 1 ('{shot.unit} shoot"
            )
            assert "roll waits for your decision: accept it or re-roll a die" in notice.text
            assert "accept" in reply.choices  # the Accept and Re-roll buttons go with the roll
            assert (await recorded(store))[-1]["type"] == "shoot"  # the end was not sent
            return
        finally:
            await store.close()
    raise AssertionError("no seed gave a shot that waits for a decision")


async def test_a_line_plays_in_skirm_lite_too(store: Store) -> None:
    service = service_on(store)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB, rules="lite")
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "vigil-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-stalkers")
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)
    member, mover, square = await first_move(service)
    before = await recorded(store)
    reply = await service.orders(CHANNEL, member, f"{mover} move {square}; end")
    done = (await recorded(store))[len(before) :]
    # Lite rulebook Activation: one action, then the activation ends by itself; the "end"
    # after it asks for what is so already, and is not sent (rulings: One-line orders).
    assert [command["type"] for command in done] == ["move"]
    assert reply.picture is not None and [m.private for m in reply.all()] == [False]
    assert f"{mover}'s activation ends" in reply.text


async def test_the_console_plays_a_line_and_its_single_commands_with_the_same_parser(
    tmp_path: Path,
) -> None:
    """Halden (3 ACT) moves twice, 1 + 2 ACT: the Dash after them needs a Tactical Order the
    line did not offer, so it stops there; the same step offering 1 TO goes on."""
    start, first, second, third = walk("Halden", 3)
    ask, said = scripted(
        [
            "auto",
            "auto",
            f"halden move {first.lower()}; move to {second}; dash {third}; end",
            f"dash {third} 1 TO; end",
            "status",
        ]
    )
    assert await run_console(False, tmp_path, ask=ask, say=said.append, seed=SEED) == 0
    text = "\n".join(said)
    lines = text.split("\n")
    assert f"Halden moves {start} → {first} (1 movement)." in lines
    assert f"Halden moves {first} → {second} (1 movement)." in lines
    assert (
        f"Step 3 ('dash {third}'): Dash costs 1 and Halden has 0 ACT left: spend 1 Tactical "
        f"Order to do it (your squad has 2). Offer them in the step: 'dash {third} 1 TO'. "
        "Steps 1 to 2 are done; steps 3 to 4 are not."
    ) in lines
    assert f"Halden dashes {second} → {third} (1 movement)." in lines
    assert "Halden's activation ends (ended by its player)." in text
    assert "Next: Player 2" in text


async def test_the_console_asks_before_a_line_spends_tactical_orders_at_its_first_step(
    tmp_path: Path,
) -> None:
    """As for a single command: asked, then spent, then the rest of the line is played."""
    _, first, second, third = walk("Halden", 3)
    ask, said = scripted(
        ["auto", "auto", f"Halden move {first}; move {second}", f"dash {third}; end", "y"]
    )
    assert await run_console(False, tmp_path, ask=ask, say=said.append, seed=SEED) == 0
    lines = "\n".join(said).split("\n")
    question = (
        f"Step 1 ('dash {third}'): Dash costs 1 and Halden has 0 ACT left: spend 1 Tactical "
        "Order to do it (your squad has 2). Spend them? [y/N]> "
    )
    assert question in lines
    after = lines[lines.index(question) :]
    assert f"Halden dashes {second} → {third} (1 movement)." in after
    assert "Halden's activation ends (ended by its player)." in after


# --- review: what a line must never do ---------------------------------------------------------
def test_a_step_naming_the_opponents_unit_first_says_it_is_not_yours() -> None:
    """A step "Kor move C4" with Kor on the other side: not "'Kor' is not an action"."""
    situation = two_word_names()
    for typed in ("Kor move C4", "ash scout shoot Brann", "KOR"):
        with pytest.raises(ServiceError, match=r"^(Kor|Ash Scout) is not one of your units; "):
            read_command(situation, typed)
    assert read_command(situation, "shoot Kor", "Brann") == actions.Shoot(0, "Brann", "Kor", None)
    with pytest.raises(ServiceError, match="yours are Iron Warden 2, Brann"):
        read_command(situation, "Kor")


def test_odd_digits_and_huge_numbers_are_refused_in_words_not_by_a_crash() -> None:
    situation = two_word_names()
    assert read_command(situation, "shoot Kor ² TO", "Brann") == actions.Shoot(
        0, "Brann", "Kor", None, 2
    )  # read as the plain 2, as names are (NFKC)
    huge = read_command(situation, "shoot Kor " + "9" * 5000 + " TO", "Brann")
    assert isinstance(huge, actions.Shoot) and huge.orders == 0  # a weapon the rules refuse
    with pytest.raises(ServiceError, match="is not a whole number"):
        read_command(situation, "move C4 " + "9" * 5000, "Brann")


def test_names_and_squares_are_read_as_squad_names_are_full_width_and_invisible_aside() -> None:
    """Rulings: Squad files: names and keys (names compared without width or zero-width)."""
    situation = two_word_names()
    assert read_command(situation, "ｂｒａｎｎ move ｃ４\u200b") == actions.Move(0, "Brann", "C4")
    assert read_command(situation, "iron\u200b warden 2 end") == actions.EndActivation(
        0, "Iron Warden 2"
    )


def test_a_name_that_is_the_start_of_another_is_not_taken_for_it() -> None:
    """Units "Kor" and "Kora" on one side: each step names the one it spells whole."""
    match = skirm_match({0: [unit("Kor", "C3"), unit("Kora", "D3")], 1: [unit("Vex", "C8")]})
    situation = Situation(match.state, 0, ruleset("skirm"))
    assert read_command(situation, "kora move C4") == actions.Move(0, "Kora", "C4")
    assert read_command(situation, "Kor move C4") == actions.Move(0, "Kor", "C4")
    assert read_command(situation, "move kora C4") == actions.Move(0, "Kora", "C4")
    with pytest.raises(UnknownWord):
        read_command(situation, "Kor a move C4")


def test_the_tactical_orders_offered_again_replace_those_offered() -> None:
    """A step that offered too few TO is shown offering what it needs, and that reads."""
    assert offering("dash C5 1 TO", 2) == "dash C5 2 TO"
    assert offering("dash C5", 1) == "dash C5 1 TO"
    situation = two_word_names()
    assert read_command(situation, offering("move C4 1 to ", 2), "Brann") == actions.Move(
        0, "Brann", "C4", 2
    )


def test_very_long_lines_and_empty_steps_are_read_like_short_ones() -> None:
    assert split_steps(";; end ;\n;") == ["end"]
    long = "; ".join(["Brann move C4"] * 80)  # over 1000 characters
    assert len(long) > 1000 and split_steps(long) == ["Brann move C4"] * 80


async def practice_started(service: MatchService) -> None:
    await service.create(GUILD, CHANNEL, ALICE, practice=True)
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.deploy(CHANNEL, ALICE)


async def test_a_line_goes_no_further_than_its_activation_when_the_turn_passes(
    store: Store,
) -> None:
    """Rulings: One-line orders (a line stops when the turn passes): hot-seat, the step after
    the "end" is not sent, and the player reads why."""
    service = service_on(store)
    await started(service)
    member, mover, square = await first_move(service)
    side = (await service.situation(CHANNEL, member)).side
    assert side is not None
    before = await recorded(store)
    other = next(u for u in (await service.situation(CHANNEL, member)).state.units.values()
                 if u.side == side and u.id != mover)  # fmt: skip
    reply = await service.orders(
        CHANNEL, member, f"{mover} move {square}; end; end; {other.id} move C4"
    )
    assert [c["type"] for c in (await recorded(store))[len(before) :]] == ["move", "end"]
    notice = reply.all()[-1]
    assert notice.private and notice.text == (
        "Stopped after step 2 ('end'): it is your opponent's turn now; the steps after it are "
        "not played. Steps 1 to 3 are done; step 4 is not."
    )


async def test_a_line_stops_when_the_automatic_player_has_played_since(store: Store) -> None:
    """Rulings: One-line orders: the steps after the automatic player's activation were
    written before it, so they are not played (against the bot it is Alice's turn again)."""
    service = service_on(store)
    await practice_started(service)
    situation = await service.situation(CHANNEL, ALICE)
    assert situation.state.to_act == 0  # the bot plays at once when it has the initiative
    legal = situation.rules.legal_commands(situation.state, 0)
    move = next(c for c in legal if isinstance(c, commands.Move))
    other = next(u.id for u in situation.state.ready_units(0) if u.id != move.unit)
    before = await recorded(store)
    reply = await service.orders(CHANNEL, ALICE, f"{move.unit} move {move.square}; end; {other}")
    done = (await recorded(store))[len(before) :]
    assert [c["type"] for c in done][:2] == ["move", "end"] and len(done) > 2  # the bot's too
    assert "activate" not in [c["type"] for c in done[2:] if c.get("side") == 0]
    assert reply.all()[-1].text == (
        "Stopped after step 2 ('end'): your opponent has played since; look at the map before "
        "going on; the steps after it are not played. Steps 1 to 2 are done; step 3 is not."
    )


async def test_a_line_stops_cleanly_when_the_automatic_player_ends_the_match(
    store: Store,
) -> None:
    """The last activation of the last turn: Alice's "end" lets the bot play its last ones and
    the match ends in the bot's reply; the line says so and keeps every message (the result
    too), instead of failing on a match no longer there."""
    service = service_on(store)
    await practice_started(service)
    while True:
        state = (await service.situation(CHANNEL, ALICE)).state
        ready = state.ready_units(0)
        if state.turn == state.mission.turns and len(ready) == 1:
            break
        await service.act(CHANNEL, ALICE, commands.EndActivation(0, ready[0].id))
    last = ready[0].id
    reply = await service.orders(CHANNEL, ALICE, f"{last} end; {last} move C4")
    assert any(message.match_over for message in reply.all())
    assert reply.all()[-1].private and reply.all()[-1].text == (
        "The match is over after step 1; the steps after it are not played. Step 1 is done; "
        "step 2 is not."
    )
    assert await store.active_match(CHANNEL) is None


# --- property: a line is its steps one by one --------------------------------------------------
UNREADABLE = ("fly C4", "move", "reroll x")
REFUSED = ("move Z99", "shoot Nobody", "end Nobody", "accept")


async def _record_text(store: Store) -> str:
    row = await store.active_match(CHANNEL)
    assert row is not None
    return json.dumps(row.record, sort_keys=True)


async def _one_by_one(service: MatchService, member: Member, steps: list[str]) -> None:
    """Each step sent as its own line, up to the first refused, or the first after which the
    line stops: a roll waits, the turn passed, the match is over."""
    for text in steps:
        try:
            await service.orders(CHANNEL, member, text)
        except ServiceError:
            return
        row, match = await service.view(CHANNEL)
        side = row.players.index(member.id)
        state = None if match is None else match.state
        if (
            state is None
            or state.to_act != side
            or (state.activation is not None and state.activation.pending is not None)
        ):
            return


async def _line_against_steps(seed: int, picks: list[int], spoil: int | None) -> None:
    """Play the line made of `picks` (from the legal moves of one unit, "end", and steps the
    rules refuse), with a step the parser cannot read at `spoil` if given, on one match; and
    its steps one by one on another match with the same dice."""
    line_store, step_store = await Store.open(":memory:"), await Store.open(":memory:")
    try:
        line_service, step_service = service_on(line_store, seed), service_on(step_store, seed)
        await started(line_service)
        await started(step_service)
        member, mover, _ = await first_move(line_service)
        situation = await line_service.situation(CHANNEL, member)
        assert situation.side is not None
        squares = [c.square for c in situation.rules.legal_commands(situation.state, situation.side)
                   if isinstance(c, commands.Move) and c.unit == mover][:4]  # fmt: skip
        pool = [
            *(f"{mover} move {square}" for square in squares),
            *(f"move {square.lower()}" for square in squares),
            "end",
            "end",
            *REFUSED,
        ]
        first, *rest = picks  # the first step is mostly a legal one: the line gets played
        steps = [pool[first % len(squares) if first % 4 else first % len(pool)]]
        steps += [pool[pick % len(pool)] for pick in rest]
        if spoil is not None:
            steps.insert(spoil % (len(steps) + 1), UNREADABLE[spoil % len(UNREADABLE)])
        before = await _record_text(line_store)
        try:
            await line_service.orders(CHANNEL, member, "; ".join(steps))
        except ServiceError:
            assert await _record_text(line_store) == before  # refused whole: nothing changed
            if not any(step in UNREADABLE for step in steps):
                with pytest.raises(ServiceError):  # it was its first step the rules refused
                    await step_service.orders(CHANNEL, member, steps[0])
            return
        assert not any(step in UNREADABLE for step in steps)  # read whole before anything
        await _one_by_one(step_service, member, steps)
        assert await _record_text(line_store) == await _record_text(step_store)
    finally:
        await line_store.close()
        await step_store.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 50),
    picks=st.lists(st.integers(0, 100), min_size=1, max_size=6),
    spoil=st.none() | st.integers(0, 20),
)
def test_a_line_is_the_record_of_its_steps_one_by_one_up_to_where_it_stops(
    seed: int, picks: list[int], spoil: int | None
) -> None:
    """Rulings: One-line orders (a line is its steps sent one by one; read whole before
    anything is played; a line refused at its first step changes nothing)."""
    asyncio.run(_line_against_steps(seed, picks, spoil))


async def test_the_console_line_spending_at_its_first_step_keeps_its_step_numbers(
    tmp_path: Path,
) -> None:
    """After the console's question the line is played again with its first step offering the
    TO: a refused step later on is told by its own number, as in the line typed."""
    _, first, second, third = walk("Halden", 3)
    ask, said = scripted(
        ["auto", "auto", f"Halden move {first}; move {second}", f"dash {third}; move Z99", "y"]
    )
    assert await run_console(False, tmp_path, ask=ask, say=said.append, seed=SEED) == 0
    lines = "\n".join(said).split("\n")
    assert f"Halden dashes {second} → {third} (1 movement)." in lines
    assert any(
        line.startswith("Step 2 ('move Z99'): Z99 is off the map")
        and line.endswith("Step 1 is done; step 2 is not.")
        for line in lines
    ), lines[-6:]


async def test_a_line_before_deployment_is_over_or_after_the_end_changes_nothing(
    store: Store,
) -> None:
    service = service_on(store)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-runners")
    await service.deploy(CHANNEL, ALICE)
    before = await recorded(store)
    with pytest.raises(ServiceError, match="units are still deploying"):
        await service.orders(CHANNEL, ALICE, "end")
    assert await recorded(store) == before
    await service.deploy(CHANNEL, BOB)
    await service.concede(CHANNEL, BOB)
    with pytest.raises(ServiceError, match="There is no match in this channel"):
        await service.orders(CHANNEL, ALICE, "end")
