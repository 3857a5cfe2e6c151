"""Catch-up recaps (issue 21, part 2; docs/rulings.md, Catch-up recaps): the GIF of the
activations since a player last acted and the summary, with the turn ping, the reminder, and on
demand (/match recap, the console's `recap`)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD, started
from test_timers import FakeClock, Table, playing, waiting_for

from skirmbot.demo import play_demo
from skirmbot.render.replay import Step, numbered_steps
from skirmbot.rules import commands
from skirmbot.rules.events import Event
from skirmbot.rules.record import MatchRecord
from skirmbot.rules.skirm.secondaries import DECK
from skirmbot.service import MatchService, ServiceError
from skirmbot.service.recap import (
    MAX_FRAMES,
    SUMMARY_LIMIT,
    activation_key,
    activations_since,
    catch_up,
    numbered_log,
    show,
    summary,
    worth_a_recap,
)
from skirmbot.service.replies import MESSAGE_LIMIT
from skirmbot.store import Store
from skirmbot.timers.clock import HOUR, TimeControls

RULESETS = ["skirm", "lite"]


def frames(gif: bytes) -> int:
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF"
    return int(getattr(image, "n_frames", 1))


# --- numbering --------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", RULESETS)
def test_the_log_numbers_activations_as_the_replay_does(rules: str) -> None:
    """Ruling (Catch-up recaps, numbering): /match log's "#N" is the replay's step N, the one
    /match recap activation:N starts from, in both rulesets."""
    match, record = play_demo(3, rules)
    steps = [step for step, _ in numbered_steps(record)]
    numbered = [line for line in numbered_log(match.log) if line.startswith("#")]
    assert len(numbered) == len(steps) - 1 == steps[-1].number  # 0 is the match as deployed
    for line, step in zip(numbered, steps[1:], strict=True):
        number, text = line.split(" ", 1)
        assert number == f"#{step.number}"
        first = next(e for e in step.events if e.kind in ("activation_started", "activation_ended"))
        assert text == first.text.splitlines()[0]
        assert step.side == first.data["side"]


def test_the_log_is_the_events_in_words_with_the_numbers_added() -> None:
    match, _ = play_demo(3)
    plain = [line.split(" ", 1)[1] if line[:1] == "#" else line for line in numbered_log(match.log)]
    assert plain == [
        line for event in match.log if event.kind != "cost_paid" for line in event.text.splitlines()
    ]


# --- since the player last acted -------------------------------------------------------------
@pytest.mark.parametrize("rules", RULESETS)
def test_a_recap_starts_after_the_players_last_activation(rules: str) -> None:
    _, record = play_demo(3, rules)
    steps = [step for step, _ in numbered_steps(record)]
    for side in (0, 1):
        last_own = max(s.number for s in steps if s.side == side)
        found = catch_up(record, side)
        if last_own == steps[-1].number:
            assert found is None  # nothing happened since: nothing to catch up on
            continue
        assert found is not None
        assert (found.first, found.last) == (last_own + 1, steps[-1].number)
        assert frames(found.animation) == found.last - found.first + 1
        assert found.text.startswith("📜 Catch-up: activation")
        assert len(found.text) <= SUMMARY_LIMIT


@pytest.mark.parametrize("rules", RULESETS)
def test_a_recap_from_an_activation_tells_every_one_and_draws_the_latest(rules: str) -> None:
    match, record = play_demo(3, rules)
    found = catch_up(record, None, start=2)
    assert found is not None and found.first == 2
    assert frames(found.animation) == min(MAX_FRAMES, found.last - 1)
    shown = [s for s, _ in numbered_steps(record)][2:]
    out = {e.data["unit"] for s in shown for e in s.events if e.kind == "taken_out"}
    taken_out = next(line for line in found.text.splitlines() if line.startswith("Taken Out"))
    for unit in out:
        assert match.state.units[unit].name in taken_out or "more." in taken_out
    score = found.text.splitlines()[-1]
    for squad in match.state.squads:
        assert f"{squad.name} 0 → {squad.mp} MP" in score or f"{squad.name} 0 MP" in score


def test_an_activation_outside_the_match_is_refused_in_words() -> None:
    _, record = play_demo(3)
    last = [s for s, _ in numbered_steps(record)][-1].number
    for wrong in (0, last + 1):
        with pytest.raises(ServiceError, match=f"activations 1 to {last} so far"):
            catch_up(record, 0, start=wrong)
    with pytest.raises(ServiceError, match="give the activation"):
        catch_up(record, None)


def test_an_activation_played_after_a_miss_is_not_the_player_acting() -> None:
    """Ruling (Catch-up recaps): an activation the bot ended or played for a player who missed
    the deadline does not count as them acting: the recap goes back past it, and says so."""
    _, record = play_demo(3)
    mine = [s for s, _ in numbered_steps(record) if s.side == 0]
    missed_step = mine[-1]
    missed = {activation_key(missed_step.turn, missed_step.done_before, 0)}
    found = catch_up(record, 0, missed)
    assert found is not None and found.first == mine[-2].number + 1
    assert f"Missed deadline: #{missed_step.number} ended or played by the bot." in found.text
    assert activation_key(missed_step.turn, missed_step.done_before, 1) not in missed
    assert catch_up(record, 1, missed) == catch_up(record, 1)  # the other side's is unchanged


def test_the_cheap_count_from_the_log_agrees_with_the_replay() -> None:
    match, record = play_demo(3)
    steps = [s for s, _ in numbered_steps(record)]
    for side in (0, 1):
        mine = [s for s in steps if s.side == side]
        for missed_step in (None, mine[-1], mine[-2]):
            missed = (
                set()
                if missed_step is None
                else {activation_key(missed_step.turn, missed_step.done_before, side)}
            )
            since, was_missed = activations_since(match.log, side, missed)
            found = catch_up(record, side, missed)
            assert since == (0 if found is None else found.last - found.first + 1)
            assert was_missed == (missed_step is mine[-1])


def test_when_a_ping_carries_a_recap() -> None:
    """Ruling (Catch-up recaps): not after the single activation the map shows; against the
    automatic player, only after a miss."""
    assert not worth_a_recap(1, False, False)
    assert not worth_a_recap(1, True, True)
    assert worth_a_recap(2, False, False)
    assert not worth_a_recap(3, True, False)
    assert worth_a_recap(2, True, True)


# --- the summary --------------------------------------------------------------------------------
def test_the_summary_tells_moves_attacks_results_taken_out_and_score() -> None:
    match, _ = play_demo(3)
    state = match.state
    events = [
        Event("activation_started", "Kor activates.", {"unit": "Kor", "side": 1}),
        Event("moved", "", {"unit": "Kor", "path": ["D11", "D10", "D9"], "action": "move"}),
        Event("moved", "", {"unit": "Kor", "path": ["D9", "D8"], "action": "dash"}),
        Event("attack", "", {"attacker": "Kor", "target": "Brann", "weapon": "Cleaver"}),
        Event("saves", "", {"unit": "Brann", "saved": 1, "lost": 2}),
        Event("attack", "", {"attacker": "Kor", "target": "Brann", "weapon": "Cleaver"}),
        Event("saves", "", {"unit": "Brann", "saved": 0, "lost": 1}),
        Event("taken_out", "", {"unit": "Brann", "by": "Kor", "side": 0}),
        Event("activation_ended", "", {"unit": "Kor", "side": 1}),
    ]
    steps = [Step(7, events, 1, 2, 6, (1, 3))]
    text = summary(steps, (1, 1), state, 0, set(), 1)
    names = [squad.name for squad in state.squads]
    assert text.splitlines() == [
        "📜 Catch-up: activation #7 (turn 2).",
        "Moved: Kor D11→D8.",
        "Attacks: Kor → Brann (Cleaver ×2): 3 HIT lost, 1 saved.",
        "Taken Out: Brann (by Kor).",
        f"Score: {names[0]} 1 MP, {names[1]} 1 → 3 MP.",
    ]


def test_a_long_summary_keeps_within_its_limit() -> None:
    match, _ = play_demo(3)
    moves = [
        Event("moved", "", {"unit": f"Unit {n}", "path": ["A1", "B2"], "action": "move"})
        for n in range(60)
    ]
    text = summary([Step(1, moves, 0, 1, 0, (0, 0))], (0, 0), match.state, 1, set(), 1)
    assert len(text) <= SUMMARY_LIMIT
    moved = text.splitlines()[1]
    assert moved.startswith("Moved: Unit 0 A1→B2; Unit 1 A1→B2;") and moved.endswith(" more.")


# --- with the service -----------------------------------------------------------------------
def service_on(store: Store) -> MatchService:
    return MatchService(store, seed_source=lambda: 1234)


async def end_one(service: MatchService) -> object:
    row, match = await service.view(CHANNEL)
    assert match is not None and match.state.to_act is not None
    side = match.state.to_act
    member = ALICE if row.players[side] == ALICE.id else BOB
    unit = match.state.ready_units(side)[0].id
    return await service.act(CHANNEL, member, commands.EndActivation(side, unit))


async def test_match_recap_on_demand_is_private_and_refuses_in_words(store: Store) -> None:
    service = service_on(store)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    await service.join(CHANNEL, BOB)
    with pytest.raises(ServiceError, match="not started"):
        await show(service, CHANNEL, ALICE)
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-runners")
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)
    row, match = await service.view(CHANNEL)
    assert match is not None
    first = ALICE if row.players[match.state.to_act or 0] == ALICE.id else BOB
    second = BOB if first == ALICE else ALICE
    nothing = await show(service, CHANNEL, first)
    assert nothing.private and nothing.animation is None and "caught up" in nothing.text
    await end_one(service)
    caught = await show(service, CHANNEL, second)
    assert caught.private and caught.animation is not None and frames(caught.animation) == 1
    assert "activation #1 (turn 1)" in caught.text
    with pytest.raises(ServiceError, match="do not play"):
        await show(service, CHANNEL, EVE)
    watched = await show(service, CHANNEL, EVE, 1, private=False)
    assert not watched.private and watched.animation is not None
    with pytest.raises(ServiceError, match="activations 1 to 1"):
        await show(service, CHANNEL, EVE, 5)


async def test_a_ping_after_one_activation_carries_no_recap(store: Store) -> None:
    service = service_on(store)
    await started(service)
    pinged = await end_one(service)
    assert pinged.ping and pinged.picture is not None  # type: ignore[attr-defined]
    assert pinged.animation is None and "Catch-up" not in pinged.text  # type: ignore[attr-defined]


async def test_the_reminder_carries_the_recap_and_the_ping_after_a_miss_too(store: Store) -> None:
    """Ruling (Catch-up recaps): every reminder carries what happened since the player last
    acted; a turn ping carries it when more than the activation its map shows happened (here:
    the pinged player's own missed activation, then the opponent's)."""
    table = Table(store, FakeClock())
    await playing(table, TimeControls(activation_seconds=10 * HOUR))
    service = table.service
    first, first_side = await waiting_for(table)
    [reminder] = await table.advance(8 * HOUR)  # nothing happened yet: nothing to catch up on
    assert reminder.animation is None  # type: ignore[attr-defined]
    await end_one(service)  # the first player acts: activation #1
    second, second_side = await waiting_for(table)
    [reminder] = await table.advance(8 * HOUR)
    assert reminder.ping == second.id  # type: ignore[attr-defined]
    assert reminder.animation is not None and frames(reminder.animation) == 1  # type: ignore[attr-defined]
    assert "📜 Catch-up: activation #1 (turn 1)." in reminder.text  # type: ignore[attr-defined]
    assert len(reminder.text) <= MESSAGE_LIMIT  # type: ignore[attr-defined]
    [missed] = await table.advance(2 * HOUR + 1)  # the second player misses activation #2
    assert "missed the deadline" in missed.text  # type: ignore[attr-defined]
    assert missed.animation is None  # type: ignore[attr-defined]  # the first: 1 since they acted
    row, match = await service.view(CHANNEL)
    assert match is not None
    assert match.state.to_act == first_side  # the activations alternate: #3 is the first's
    ping = await end_one(service)
    assert await waiting_for(table) == (second, second_side)
    assert ping.ping == second.id and ping.animation is not None  # type: ignore[attr-defined]
    assert frames(ping.animation) == 3  # type: ignore[attr-defined]
    recap = ping.text.split("\n\n")[-1]  # type: ignore[attr-defined]
    assert recap.splitlines()[:2] == [
        "📜 Catch-up: activations #1 to #3 (turn 1).",
        "Missed deadline: #2 ended or played by the bot.",
    ]
    assert ping.text.index("activate a unit") < ping.text.index("📜")  # type: ignore[attr-defined]


async def test_nothing_secret_is_in_a_recap(store: Store) -> None:
    """Rulebook Game Cycle: a squad's secondary objective is hidden until it scores; the recap
    never names one (the summary comes from the events' data, the frames draw none)."""
    service = service_on(store)
    await started(service)
    for _ in range(4):
        await end_one(service)
    found = await show(service, CHANNEL, EVE, 1)
    row = await store.active_match(CHANNEL)
    assert row is not None
    record = MatchRecord.from_json(row.record)
    assert record.commands and found.animation is not None
    for card in DECK:
        assert card.name not in found.text and card.id not in found.text


# --- the console --------------------------------------------------------------------------------
async def test_the_console_writes_the_recap_next_to_its_pictures(tmp_path: Path) -> None:
    from test_console import play

    code, text, _ = await play(
        tmp_path, ["auto", "auto", "end Halden", "recap", "recap 1", "recap 9", "concede"]
    )
    assert code == 0
    assert "Catch-up: activation #1 (turn 1)" in text
    assert "activations 1 to 1 so far" in text  # `recap 9` refused in words
    gifs = sorted(tmp_path.glob("recap-*.gif"))
    assert len(gifs) == 2 and all(frames(gif.read_bytes()) == 1 for gif in gifs)


async def test_a_skirm_lite_match_gets_its_recap_through_the_service_too(store: Store) -> None:
    """Issue 21: built once, for every ruleset."""
    service = service_on(store)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB, rules="lite")
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "ash-stalkers")
    await service.choose_squad(CHANNEL, BOB, "vigil-wardens")
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)
    row = await store.active_match(CHANNEL)
    assert row is not None and row.record["ruleset"] == "lite"
    for _ in range(2):
        await end_one(service)
    found = await show(service, CHANNEL, EVE, 1)
    assert found.animation is not None and frames(found.animation) == 2
    assert found.text.startswith("📜 Catch-up: activations #1 to #2 (turn 1).")
    log = await service.log(CHANNEL, 200)
    assert [line.split()[0] for line in log.text.splitlines() if line[:1] == "#"] == ["#1", "#2"]
