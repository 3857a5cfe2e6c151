"""Catch-up recaps (issue 21, part 2; docs/rulings.md, Catch-up recaps): the GIF of the
activations since a player last acted and the summary, with the turn ping, the reminder, and on
demand (/match recap, the console's `recap`)."""

from __future__ import annotations

import functools
import io
import types
from pathlib import Path
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD, end_activations, end_one, started
from skirmbot.cogs.common import picture_files, send
from test_timers import FakeClock, Table, playing, waiting_for

from skirmbot import content
from skirmbot.demo import default_content, new_demo_match, play_demo, play_out
from skirmbot.render.battlemap import MapRenderer
from skirmbot.render.replay import Step, numbered_steps
from skirmbot.rules import commands
from skirmbot.rules.events import Event
from skirmbot.rules.record import MatchRecord, record_of, replay
from skirmbot.rules.ruleset import PlayedMatch, ruleset
from skirmbot.rules.skirm.costs import MOVE
from skirmbot.rules.skirm.legal import reachable_squares
from skirmbot.rules.skirm.secondaries import DECK
from skirmbot.service import MatchService, Member, Reply, ServiceError
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
        assert frames(found.animation) == found.last - found.first + 2  # and the one before
        assert found.text.startswith("📜 Catch-up: activation")
        assert len(found.text) <= SUMMARY_LIMIT


@pytest.mark.parametrize("rules", RULESETS)
def test_a_recap_from_an_activation_tells_every_one_and_draws_the_latest(rules: str) -> None:
    match, record = play_demo(3, rules)
    found = catch_up(record, None, start=2)
    assert found is not None and found.first == 2
    assert frames(found.animation) == 1 + min(MAX_FRAMES, found.last - 1)
    shown = [s for s, _ in numbered_steps(record)][2:]
    out = {e.data["unit"] for s in shown for e in s.events if e.kind == "taken_out"}
    taken_out = next(line for line in found.text.splitlines() if line.startswith("Taken Out"))
    for unit in out:
        assert match.state.units[unit].name in taken_out or "more." in taken_out
    score = found.text.splitlines()[-1]
    for squad in match.state.squads:
        assert f"{squad.name} 0 → {squad.mp} MP" in score or f"{squad.name} 0 MP" in score


def picture_after(record: MatchRecord, number: int) -> Image.Image:
    """The battlemap after step `number` of the record, as the channel showed it."""
    renderer = MapRenderer()
    for step, state in numbered_steps(record):
        if step.number == number:
            return renderer.render(state, step.events).convert("RGB")
    raise AssertionError(f"the record has no step {number}")


def frame_pictures(gif: bytes) -> list[Image.Image]:
    image = Image.open(io.BytesIO(gif))
    found = []
    for index in range(int(getattr(image, "n_frames", 1))):
        image.seek(index)
        found.append(image.convert("RGB"))
    return found


def same_picture(frame: Image.Image, picture: Image.Image) -> bool:
    """The frame (padded to the animation's size at the right and bottom) is the picture."""
    return frame.crop((0, 0, *picture.size)).tobytes() == picture.tobytes()


@pytest.mark.parametrize("rules", RULESETS)
def test_a_recap_of_one_activation_shows_the_change_from_where_the_player_left_off(
    rules: str,
) -> None:
    """Ruling (Catch-up recaps, the picture; issue 28): the first frame is the position the
    player last saw (after deployment, for activation #1; after their own activation before),
    then the activation recapped: two frames, never a still picture."""
    _, whole = play_demo(3, rules)
    data = whole.to_json()
    for number in (1, 2):
        record = _cut_after(data, number)
        found = catch_up(record, None, start=number)
        assert found is not None and (found.first, found.last) == (number, number)
        first, *rest = frame_pictures(found.animation)
        assert len(rest) == 1
        assert same_picture(first, picture_after(record, number - 1))
        assert same_picture(rest[0], picture_after(record, number))
        assert not same_picture(first, picture_after(record, number))
    player = _cut_after(data, 2)
    own = [step for step, _ in numbered_steps(player) if step.number == 1][0].side
    assert own is not None
    mine = catch_up(player, own)  # their opponent's activation #2, since their own #1
    assert mine is not None and (mine.first, mine.last) == (2, 2)
    assert same_picture(frame_pictures(mine.animation)[0], picture_after(player, 1))


def _cut_after(data: dict[str, Any], number: int) -> MatchRecord:
    """The record up to the end of step `number` (its activation ended, no command after)."""
    for cut in range(len(data["commands"]) + 1):
        record = MatchRecord.from_json({**data, "commands": data["commands"][:cut]})
        if [step.number for step, _ in numbered_steps(record)][-1:] == [number]:
            return record
    raise AssertionError(f"the record never ends step {number}")


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
    text = summary(steps, (1, 1), ruleset("skirm").view(state), 0, set(), 1)
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
    text = summary(
        [Step(1, moves, 0, 1, 0, (0, 0))], (0, 0), ruleset("skirm").view(match.state), 1, set(), 1
    )
    assert len(text) <= SUMMARY_LIMIT
    moved = text.splitlines()[1]
    assert moved.startswith("Moved: Unit 0 A1→B2; Unit 1 A1→B2;") and moved.endswith(" more.")


def _demo(seed: int, rules: str = "skirm", **named: str) -> tuple[PlayedMatch, MatchRecord]:
    match, data = new_demo_match(seed, default_content(rules=rules, **named), rules)
    play_out(match, rules)
    return match, record_of(match, data, ["A", "B"], rules)


def test_a_turns_hazard_is_not_told_as_the_last_attack() -> None:
    """Rulebook Missions, the turn's event (a hazard: damage to every unit on difficult ground,
    as the turn begins): its saves belong to no attack. Demo, Breakthrough, seed 8: Brann fires
    at a barrel as turn 2 ends; Falling Rubble then hurts Brann himself, which the summary told
    as "Brann → Brann (Sidearm): 1 HIT lost"."""
    match, record = _demo(8, mission_name="breakthrough")
    steps = [s for s, _ in numbered_steps(record)]
    shown = steps[18:20]
    assert any(e.kind == "event_effect" for s in shown for e in s.events)
    text = summary(shown, steps[17].mp, ruleset("skirm").view(match.state), None, set(), 2)
    attacks = next(line for line in text.splitlines() if line.startswith("Attacks: "))
    assert "Brann → an item on D6 (Sidearm): no HIT lost" in attacks
    assert "Falling Rubble → Brann (turn event): 1 HIT lost" in attacks
    assert "Brann → Brann" not in attacks


def test_a_revived_unit_is_told_revived() -> None:
    """Skirm Lite, Revive: a Downed Agent brought back is not left in the summary as if out
    for good (demo seed 24: Tamsin downs Nyra, and Gorr revives her, in the activations
    recapped from #28)."""
    _, record = play_demo(24, "lite")
    found = catch_up(record, None, start=28)
    assert found is not None
    out = next(line for line in found.text.splitlines() if line.startswith("Taken Out: "))
    assert "Nyra (Downed by Tamsin; revived by Gorr)" in out


def test_twenty_frames_on_the_largest_map_stay_small() -> None:
    """Discord takes files up to 25 MB; a recap of MAX_FRAMES activations on the largest
    shipped map stays far below (a few hundred KB), the first frame being the match as
    deployed."""
    sizes = {}
    for name in content.names("maps"):
        rows = content.raw("maps", name)["rows"]
        sizes[name] = len(rows) * len(rows[0].split())
    largest = max(sizes, key=lambda name: sizes[name])
    for rules in RULESETS:
        _, record = _demo(1, rules, map_name=largest)
        found = catch_up(record, None, start=1)
        assert found is not None and found.last >= MAX_FRAMES
        assert frames(found.animation) == 1 + MAX_FRAMES
        assert len(found.animation) < 2 * 1024 * 1024  # 25 MB is Discord's limit


@pytest.mark.parametrize("rules", RULESETS)
@settings(max_examples=12, deadline=None, derandomize=True)
@given(data=st.data())
def test_a_recap_from_n_covers_n_to_the_last_activation(rules: str, data: st.DataObject) -> None:
    """For any moment of a match (a prefix of its record; a prefix that stops inside an
    activation is that activation taken back by undo), the recap from activation N tells
    exactly N to the last activation ended, draws the position before N and then
    min(MAX_FRAMES, last - N + 1) frames, and
    its score goes from each squad's MP before N to the MP now; the recap since a player last
    acted starts right after their last activation; /match log numbers the same activations."""
    _, whole = _demo_of(rules)
    cut = data.draw(st.integers(0, len(whole.commands)), label="commands kept")
    data_of = whole.to_json()
    record = MatchRecord.from_json({**data_of, "commands": data_of["commands"][:cut]})
    steps = [s for s, _ in numbered_steps(record)]
    last = steps[-1].number if steps else 0
    now = replay(record)
    numbered = [line for line in numbered_log(now.log) if line.startswith("#")]
    going = 1 if now.state.activation is not None else 0  # the log shows the one in progress
    assert [line.split()[0] for line in numbered] == [f"#{n}" for n in range(1, last + 1 + going)]
    if last < 1:
        assert catch_up(record, 0) is None
        return
    start = data.draw(st.integers(1, last), label="from activation")
    found = catch_up(record, None, start=start)
    assert found is not None and (found.first, found.last) == (start, last)
    assert frames(found.animation) == 1 + min(MAX_FRAMES, last - start + 1)
    span = f"#{start}" if start == last else f"#{start} to #{last}"
    assert found.text.startswith(f"📜 Catch-up: activation{'s' if start < last else ''} {span} (")
    assert len(found.text) <= SUMMARY_LIMIT
    score = found.text.splitlines()[-1]
    state = now.state
    for squad, was, mp in zip(state.squads, steps[start - 1].mp, steps[-1].mp, strict=True):
        told = f"{squad.name} {was} → {mp} MP" if was != mp else f"{squad.name} {mp} MP"
        assert told in score
    side = data.draw(st.sampled_from([0, 1]), label="side")
    own = max((s.number for s in steps if s.side == side), default=0)
    mine = catch_up(record, side)
    assert (mine.first, mine.last) == (own + 1, last) if mine else own == last
    assert activations_since(now.log, side, ())[0] == last - own  # the ping's cheap count


@functools.cache
def _demo_of(rules: str) -> tuple[PlayedMatch, MatchRecord]:
    return play_demo(3, rules)


def test_a_long_absence_keeps_the_heading_the_misses_and_the_score() -> None:
    """Ruling (Catch-up recaps, the summary): a player away for a whole match (every activation
    of theirs missed) still reads which activations the recap covers, which were played for
    them and the score; the lists are what gets cut ("and N more"). The summary used to keep
    only its latest lines, cutting the heading and the misses off."""
    _, record = play_demo(1)
    steps = [s for s, _ in numbered_steps(record)]
    missed = {activation_key(s.turn, s.done_before, 0) for s in steps if s.side == 0}
    found = catch_up(record, 0, missed)
    assert found is not None and len(found.text) <= SUMMARY_LIMIT
    lines = found.text.splitlines()
    assert lines[0] == f"📜 Catch-up: activations #1 to #{steps[-1].number} (turns 1 to 4); " + (
        f"the picture shows the position before, then the last {MAX_FRAMES}."
    )
    numbers = ", ".join(f"#{s.number}" for s in steps if s.side == 0)
    assert lines[1] == f"Missed deadline: {numbers} ended or played by the bot."
    assert lines[-2:] == ["The match ends after the last turn: 3 MP to 3 MP, a draw.", lines[-1]]
    assert lines[-1].startswith("Score: ")
    assert [line.split(":")[0] for line in lines[2:-2]] == ["Moved", "Attacks", "Taken Out"]
    assert all(line.endswith(" more.") for line in lines[2:-2])


_NAMES = st.text(alphabet="abcdefghij KLMNOP", min_size=1, max_size=64)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    moved=st.lists(_NAMES, max_size=30),
    attackers=st.lists(st.tuples(_NAMES, _NAMES, _NAMES), max_size=30),
    missed=st.integers(0, 200),
)
def test_a_summary_always_fits_with_its_heading_first_and_its_score_last(
    moved: list[str], attackers: list[tuple[str, str, str]], missed: int
) -> None:
    """Ruling (Catch-up recaps, the summary): whatever happened (names up to 64 characters,
    any number of moves, attacks and missed activations), the summary holds in SUMMARY_LIMIT
    and keeps its heading, the misses and the score."""
    match, _ = _demo_of("skirm")
    events = [
        Event("moved", "", {"unit": name, "path": ["A1", "B2"], "action": "move"}) for name in moved
    ] + [
        Event("attack", "", {"attacker": a, "target": t, "weapon": w}) for a, t, w in attackers
    ]
    steps = [
        Step(n, events if n == 1 else [], 0, 1, n - 1, (0, 0), activation_key(1, n - 1, 0))
        for n in range(1, missed + 2)
    ]
    keys = {activation_key(s.turn, s.done_before, 0) for s in steps[:missed]}
    view = ruleset("skirm").view(match.state)
    text = summary(steps, (0, 0), view, 0, keys, min(MAX_FRAMES, len(steps)))
    lines = text.splitlines()
    assert len(text) <= SUMMARY_LIMIT
    assert lines[0].startswith("📜 Catch-up: activation") and lines[-1].startswith("Score: ")
    assert (lines[1].startswith("Missed deadline: #1") and "by the bot." in lines[1]) == bool(
        missed
    )


def test_a_match_ended_between_activations_is_told_as_its_end() -> None:
    """Ruling (Catch-up recaps, numbering): a concession (a draw, a forfeit) between
    activations is a step of the replay of its own, numbered but no activation: the recap
    tells it as the end of the match, with how it ended, not as one more activation."""
    _, whole = play_demo(3)
    data = whole.to_json()
    for cut in range(len(data["commands"])):
        kept = MatchRecord.from_json({**data, "commands": data["commands"][:cut]})
        now = replay(kept)
        ended = any(e.kind == "activation_ended" for e in now.log)
        if ended and now.state.activation is None and now.state.turn == 1:
            break  # between two activations of turn 1
    record = MatchRecord.from_json(
        {**data, "commands": [*data["commands"][:cut], commands.Concede(1).to_json()]}
    )
    steps = [s for s, _ in numbered_steps(record)]
    end, before = steps[-1], steps[-2]
    assert end.side is None and [e.kind for e in end.events] == ["match_ended"]
    found = catch_up(record, None, start=before.number)
    assert found is not None and frames(found.animation) == 3
    lines = found.text.splitlines()
    assert lines[0] == (
        f"📜 Catch-up: activation #{before.number} (turn 1), then the end of the match "
        f"(#{end.number})."
    )
    assert lines[-2] == "Ash Runners conceded: Iron Wardens wins."
    alone = catch_up(record, None, start=end.number)
    assert alone is not None and frames(alone.animation) == 2  # the last activation, the end
    assert alone.text.splitlines()[:3] == [
        f"📜 Catch-up: the end of the match (#{end.number}).",
        "No unit moved or attacked.",
        "Ash Runners conceded: Iron Wardens wins.",
    ]


@pytest.mark.parametrize("rules", RULESETS)
def test_each_step_is_called_what_it_is_with_the_logs_numbers(rules: str) -> None:
    """Ruling (Catch-up recaps: the web replay heads each step by what it is): a concession
    between activations is "The end", not one more activation; one made during an activation
    cuts that activation short, which keeps the number /match log gives it."""
    _, whole = play_demo(3, rules)
    data = whole.to_json()
    between = inside = None
    for cut in range(len(data["commands"])):
        now = replay(MatchRecord.from_json({**data, "commands": data["commands"][:cut]}))
        if any(e.kind == "activation_ended" for e in now.log):
            if now.state.activation is None and between is None:
                between = cut
            elif now.state.activation is not None and inside is None:
                inside = cut
    assert between is not None and inside is not None
    for cut, end in ((between, ["The end"]), (inside, [])):
        record = MatchRecord.from_json(
            {**data, "commands": [*data["commands"][:cut], commands.Concede(0).to_json()]}
        )
        titles = [step.title for step, _ in numbered_steps(record)]
        log = numbered_log(replay(record).log)
        numbers = [line.split()[0][1:] for line in log if line.startswith("#")]
        assert titles == ["Deployment", *(f"Activation {n}" for n in numbers), *end]


# --- with the service -----------------------------------------------------------------------
def service_on(store: Store) -> MatchService:
    return MatchService(store, seed_source=lambda: 1234)


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
    assert caught.private and caught.animation is not None and frames(caught.animation) == 2
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
    assert pinged.ping and pinged.picture is not None
    assert pinged.animation is None and "Catch-up" not in pinged.text


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
    assert reminder.animation is not None and frames(reminder.animation) == 2  # type: ignore[attr-defined]
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
    assert ping.ping == second.id and ping.animation is not None
    assert frames(ping.animation) == 4
    recap = ping.text.split("\n\n")[-1]
    assert recap.splitlines()[:2] == [
        "📜 Catch-up: activations #1 to #3 (turn 1).",
        "Missed deadline: #2 ended or played by the bot.",
    ]
    assert ping.text.index("activate a unit") < ping.text.index("📜")


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
    assert len(gifs) == 2 and all(frames(gif.read_bytes()) == 2 for gif in gifs)


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
    assert found.animation is not None and frames(found.animation) == 3
    assert found.text.startswith("📜 Catch-up: activations #1 to #2 (turn 1).")
    log = await service.log(CHANNEL, 200)
    assert [line.split()[0] for line in log.text.splitlines() if line[:1] == "#"] == ["#1", "#2"]


async def test_match_recap_after_the_end_shows_the_last_activations(store: Store) -> None:
    """Ruling (Catch-up recaps, /match recap): once the match is over, until the channel's next
    one, /match recap gives its last activations (it answered "There is no match in this
    channel"); a match aborted before it was played has none, said in words."""
    service = service_on(store)
    await started(service)
    ended = await end_activations(service)
    assert ended is not None and ended.match_over
    row = await store.last_match(CHANNEL)
    assert row is not None and not row.active
    steps = [s for s, _ in numbered_steps(MatchRecord.from_json(row.record))]
    last = steps[-1]
    ended_it = ALICE if row.players[last.side or 0] == ALICE.id else BOB
    other = BOB if ended_it == ALICE else ALICE
    caught = await show(service, CHANNEL, other)
    assert caught.private and caught.animation is not None
    assert caught.text.startswith(f"🏁 Match #{row.id} is over.\n\n📜 Catch-up: activation")
    assert f"#{last.number} (turn {last.turn})." in caught.text.splitlines()[2]
    nothing = await show(service, CHANNEL, ended_it)
    assert nothing.animation is None and "is over, and nothing happened" in nothing.text
    watched = await show(service, CHANNEL, EVE, last.number, private=False)
    assert not watched.private and watched.animation is not None
    assert frames(watched.animation) == 2
    numbered = (await service.log(CHANNEL, 200)).text  # the numbers, after the end too
    assert any(line.startswith(f"#{last.number} ") for line in numbered.splitlines())

    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    await service.abort(CHANNEL, Member(EVE.id, EVE.name, moderator=True))
    with pytest.raises(ServiceError, match="ended before it was played"):
        await show(service, CHANNEL, ALICE)


async def test_after_an_undo_the_recap_follows_the_record(store: Store) -> None:
    """Ruling (Catch-up recaps): undo takes back an action of the activation in progress; the
    recap reads the record after it, so the numbers and "last acted" are those of the record
    as it stands (nothing of the action taken back, the activation not counted until it
    ends)."""
    service = service_on(store)
    await started(service)
    for _ in range(2):
        await end_one(service)
    row, match = await service.view(CHANNEL)
    assert match is not None and match.state.to_act is not None
    side = match.state.to_act
    mover = ALICE if row.players[side] == ALICE.id else BOB
    other = BOB if mover == ALICE else ALICE
    before = (await show(service, CHANNEL, mover)).text, (await show(service, CHANNEL, other)).text
    unit = match.state.ready_units(side)[0]
    square = sorted(reachable_squares(match.state, unit, MOVE))[0]
    await service.act(CHANNEL, mover, commands.Move(side, unit.id, str(square)))
    await service.request_undo(CHANNEL, mover)
    await service.accept_undo(CHANNEL, other)
    after = (await show(service, CHANNEL, mover)).text, (await show(service, CHANNEL, other)).text
    assert after == before
    assert before[0].startswith("📜 Catch-up: activation #2 (turn 1).") and "caught up" in before[1]
    await service.act(CHANNEL, mover, commands.EndActivation(side, unit.id))
    ended = await show(service, CHANNEL, other)
    assert ended.text.startswith("📜 Catch-up: activation #3 (turn 1).")
    assert "Moved:" not in ended.text  # the move taken back is not told


# --- the cogs -----------------------------------------------------------------------------------
async def test_an_expired_interaction_still_posts_the_map_and_the_recap_whole() -> None:
    """A turn ping answering an interaction Discord no longer takes (404: it waited 3 s) goes to
    the channel instead, with its files. discord.py has read each file to its end for the
    refused upload and does not rewind it for a new request: the channel got empty files."""
    def upload(files: list[discord.File]) -> list[bytes]:
        """What discord.py sends of the files on a first try (no rewind), then closes them."""
        sent = []
        for file in files:
            file.reset(seek=False)
            sent.append(file.fp.read())
            file.close()
        return sent

    posted: list[tuple[str, list[bytes]]] = []

    class Response:
        def is_done(self) -> bool:
            return False

        async def send_message(self, **options: object) -> None:
            upload(options["files"])  # type: ignore[arg-type]
            gone = types.SimpleNamespace(status=404, reason="Not Found")
            raise discord.NotFound(gone, {"code": 10062, "message": "Unknown interaction"})

    class Channel:
        async def send(self, **options: object) -> None:
            posted.append((str(options["content"]), upload(options["files"])))  # type: ignore[arg-type]

    interaction = types.SimpleNamespace(response=Response(), channel=Channel(), extras={})
    reply = Reply("Your turn.", picture=b"PNG" * 100, animation=b"GIF89a" + b"x" * 500)
    await send(interaction, reply.text, files=picture_files(reply), ping=ALICE.id)  # type: ignore[arg-type]
    [(text, files)] = posted
    assert text.endswith("Your turn.")
    assert files == [reply.picture, reply.animation]
