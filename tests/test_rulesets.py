"""Rulesets behind one interface (docs/rulesets.md): the registry, records that name their
ruleset, the demo, the console, the service and the pictures, for Skirm and Skirm Lite alike.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lite_builders import agent, gun, lite_match
from service_setup import ALICE, BOB, CHANNEL, GUILD, end_activations

from skirmbot import content
from skirmbot.cli import main
from skirmbot.console import run_console
from skirmbot.demo import new_demo_match, play_demo
from skirmbot.render.battlemap import MapRenderer
from skirmbot.render.caption import caption, squad_lines
from skirmbot.render.card import card_lines
from skirmbot.render.legend import match_entries
from skirmbot.rules.commands import Dash, EndActivation, Melee, Move, Shoot
from skirmbot.rules.errors import RulesError
from skirmbot.rules.lite.commands import Revive
from skirmbot.rules.record import MatchRecord, replay
from skirmbot.rules.ruleset import DEFAULT_RULESET, ruleset, rulesets
from skirmbot.rules.skirm.state import DOWNED
from skirmbot.rules.squares import Square
from skirmbot.service import MatchService, ServiceError, actions
from skirmbot.service.choices import Situation
from skirmbot.store import Store


# --- the registry --------------------------------------------------------------------------
def test_the_registry_holds_skirm_first_and_skirm_lite() -> None:
    assert list(rulesets()) == ["skirm", "lite", "d20", "companies", "infantry"]
    assert DEFAULT_RULESET == "skirm"
    assert ruleset("Skirm Lite") is ruleset("lite") is ruleset(" LITE ")


def test_an_unknown_ruleset_is_refused_with_the_list() -> None:
    with pytest.raises(
        RulesError,
        match=r"no ruleset called 'chess'\. Choose one of: Skirm, Skirm Lite, d20 Skirmish, Companies, Skirmishers\.$",
    ):
        ruleset("chess")


# --- records ---------------------------------------------------------------------------------
def test_a_record_names_its_ruleset_and_refuses_one_this_skirmbot_does_not_play() -> None:
    _, record = play_demo(2, "lite")
    data = json.loads(record.dumps())
    assert data["ruleset"] == "lite"
    assert MatchRecord.from_json(data).ruleset == "lite"
    with pytest.raises(RulesError, match="no ruleset called 'hexes'"):
        MatchRecord.from_json({**data, "ruleset": "hexes"})


def test_a_record_without_a_ruleset_is_skirm_as_the_first_release_wrote_it() -> None:
    _, record = play_demo(2)
    data = json.loads(record.dumps())
    del data["ruleset"]
    assert MatchRecord.from_json(data).ruleset == "skirm"


@pytest.mark.parametrize("rules", ["skirm", "lite"])
def test_a_demo_match_ends_and_its_record_replays_byte_identically(rules: str) -> None:
    match, record = play_demo(4, rules)
    assert match.state.result is not None
    again = replay(MatchRecord.loads(record.dumps()))
    assert json.dumps(again.state.to_json()) == json.dumps(match.state.to_json())
    assert [e.text for e in again.log] == [e.text for e in match.log]


# --- the command line ----------------------------------------------------------------------
def test_skirmbot_demo_ruleset_lite_writes_pictures_and_the_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--ruleset", "lite", "--seed", "5", "--out", str(tmp_path)]) == 0
    record = MatchRecord.loads((tmp_path / "match.json").read_text(encoding="utf-8"))
    assert record.ruleset == "lite"
    assert (tmp_path / "replay.gif").stat().st_size > 0
    assert (tmp_path / "activation-001.png").exists()
    assert "wins" in capsys.readouterr().out or "draw" in record.dumps()


def test_skirmbot_demo_with_an_unknown_ruleset_says_which_there_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--ruleset", "chess", "--out", str(tmp_path)]) == 2
    assert "Choose one of: Skirm, Skirm Lite, d20 Skirmish, Companies, Skirmishers." in capsys.readouterr().err


# --- the pictures: Skirm Lite's skin -------------------------------------------------------------
def downed_bo():
    """Ada (Red) has just Downed Bo (Blue) in melee; Di (Blue) stands two squares away."""
    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C4", hit=1), agent("Di", "D5")]},
        faces=[1, 6, 4, 4],  # a critical 1 (two hits) and a miss; both saves fail
        orders=(0, 2),
    )
    events = match.apply(Melee(0, "Ada", "Bo"))
    assert match.state.units["Bo"].status == DOWNED
    return match, events


def test_a_lite_card_shows_mov_and_weapon_skl_and_no_skirm_stats() -> None:
    match, _ = downed_bo()
    lines = card_lines(ruleset("lite").card(match.state, "Bo"))
    assert {"MOV", "ACT", "ARM", "HIT", "SKL"} <= set(lines)
    assert not {"MSK", "RSK", "EP"} & set(lines)
    assert any("Downed" in line for line in lines)
    # The same unit in Skirm's skin shows Skirm's stat boxes.
    assert "MSK" in card_lines(ruleset("skirm").card(match.state, "Bo"))


def test_a_downed_agent_is_told_in_the_caption_the_header_and_the_key() -> None:
    match, events = downed_bo()
    view = ruleset("lite").view(match.state)
    assert "Ada attacks Bo" in caption(events, view)
    assert "Downed" in caption(events, view)
    assert "1 up · 1 Downed" in squad_lines(view, 1)[0]
    assert "Downed" in [entry.text for entry in match_entries(view, events)]
    picture = MapRenderer().png(view, events)
    assert picture.startswith(b"\x89PNG")


# --- the ruleset's own actions ---------------------------------------------------------------
def test_the_actions_of_a_rulesets_own_are_offered_in_words_and_taken_back_as_commands() -> None:
    """/act and the console's `act` list Revive (Lite rulebook Revive, 2 TO) when it is legal."""
    match, _ = downed_bo()
    match.apply(Move(0, "Ada", "C1"))  # away from Bo, so Bo may be revived
    match.apply(EndActivation(0))
    situation = Situation(match.state, 1, ruleset("lite"))
    offered = situation.own_actions(actions.COMMON_KINDS)
    assert [words for _, words in offered] == ["Revive: Di, Bo (2 TO)"]
    command = actions.decode(offered[0][0], situation.rules)
    assert command == Revive(0, "Di", "Bo")
    # Nothing of Skirm's own vocabulary is offered through /act: it has commands of its own.
    assert Situation(match.state, 0, ruleset("lite")).own_actions(actions.COMMON_KINDS) == []


# --- the service -----------------------------------------------------------------------------
async def test_a_skirm_lite_match_through_the_service(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 7)
    created = await service.create(GUILD, CHANNEL, ALICE, opponent=BOB, rules="Skirm Lite")
    assert "New Skirm Lite match" in created.text
    assert "Ash Stalkers, Vigil Wardens" in created.text
    await service.join(CHANNEL, BOB)
    with pytest.raises(ServiceError, match="cannot play Skirm Lite"):
        await service.choose_squad(CHANNEL, ALICE, content.raw("squads", "iron-wardens"))
    with pytest.raises(ServiceError, match="Choose one of: Ash Stalkers, Vigil Wardens"):
        await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, ALICE, "vigil-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-stalkers")
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)
    assert "Revive" in await service.rules_text(CHANNEL)
    card = await service.card(CHANNEL, "Kesh")
    assert card.picture is not None
    ended = await end_activations(service)
    assert ended is not None and ended.match_over
    row = await store.last_match(CHANNEL)
    assert row is not None and row.record["ruleset"] == "lite"
    assert replay(MatchRecord.from_json(row.record)).state.result is not None


async def test_an_unknown_ruleset_is_refused_by_the_service(store: Store) -> None:
    service = MatchService(store)
    with pytest.raises(ServiceError, match="Choose one of: Skirm"):
        await service.create(GUILD, CHANNEL, ALICE, rules="chess")
    assert await store.active_match(CHANNEL) is None


async def test_the_rules_of_the_default_ruleset_are_shown_where_no_match_is(store: Store) -> None:
    text = await MatchService(store).rules_text(CHANNEL)
    assert text.startswith("**Skirm**") and "Leap" in text and "Skirm Lite" in text


# --- the console ---------------------------------------------------------------------------
async def test_the_console_plays_skirm_lite_against_the_automatic_player(tmp_path: Path) -> None:
    lines = iter(["auto", "rules", "act", "act 1", "concede"])
    said: list[str] = []

    def ask(prompt: str) -> str:
        said.append(prompt)
        return next(lines)

    code = await run_console(True, tmp_path, ask=ask, say=said.append, seed=3, rules="lite")
    text = "\n".join(said)
    assert code == 0
    assert "New Skirm Lite match" in text
    assert "Revive (2 TO)" in text  # rules
    assert "No action of this match's rules is open to you now" in text  # act, nothing to revive
    assert "There is no action 1" in text
    assert "wins" in text


@pytest.mark.parametrize("rules", ["skirm", "lite"])
def test_autocomplete_offers_exactly_the_legal_move_and_dash_squares(rules: str) -> None:
    """The squares /move and /dash offer are the ruleset's legal ones, each with its cost
    (Skirm Lite's Move reaches MOV squares and its Dash 2: its own routes, not Skirm's)."""
    match, _ = new_demo_match(6, rules=rules)
    played = ruleset(rules)
    while match.state.phase == "deployment":
        side = match.state.waiting_for()
        match.apply(played.automatic_placement(match.state, side))
    side = match.state.to_act
    situation = Situation(match.state, side, played)
    legal = played.legal_commands(match.state, side)
    for unit in match.state.ready_units(side):
        for kind, action in ((Move, "move"), (Dash, "dash")):
            wanted = {c.square for c in legal if isinstance(c, kind) and c.unit == unit.id}
            offered = situation.squares(unit.id, kind, action)
            assert {value for value, _ in offered} == wanted, (unit.id, action)
            assert all(label.startswith(f"{value} (") for value, label in offered)


def test_odds_in_a_lite_match_are_the_previews_and_offer_its_targets() -> None:
    """Issue 28: /odds in a Skirm Lite match gives Lite's exact odds from the one source the
    preview uses, for the targets the preview sees: a Downed Agent is no target (Lite rulebook
    Downed), a Standing one is."""
    match, _ = downed_bo()
    lite = ruleset("lite")
    situation = Situation(match.state, 1, lite)  # whoever asks: here Ada's opponent
    previewed = lite.preview(match.state, "Ada").attacks
    assert [c.target for c in previewed] == ["Di"]
    assert situation.any_targets("Ada") == [("Di", "Di (2 sq)")]
    text = situation.odds("Ada", "di", 0, detail=False)
    assert text.splitlines()[1:] == [f"- {chance.words()}" for chance in previewed]
    assert "Skirm Lite" in text.splitlines()[0]
    with pytest.raises(ServiceError, match="Ada cannot attack 'Bo' now"):
        situation.odds("Ada", "Bo", 0, detail=False)


GRENADE = gun("Grenade", "ranged", 1, 3, 1, "RG6", "XPL")


def test_shoot_offers_the_empty_squares_an_xpl_weapon_may_aim_at_and_one_plays() -> None:
    """Issue 28, Lite rulebook XPL: the weapon "can target an unoccupied Square", so /shoot's
    target autocomplete offers those squares (in range and sight, not adjacent), after the
    Agents, with a plain label; choosing one plays: the blast hits Bo next to it."""
    match = lite_match(
        {0: [agent("Ada", "C3", weapons=[GRENADE])], 1: [agent("Bo", "C8")]}, faces=[3, 5]
    )
    situation = Situation(match.state, 0, ruleset("lite"))
    offered = dict(situation.targets("Ada", Shoot, "Grenade"))
    assert list(offered)[:2] == ["Bo", "A1"]  # the Agent first, then squares in reading order
    assert offered["D8"] == "D8 (empty square, 5 sq)"
    assert {"C3", "D4", "C10", "C9"}.isdisjoint(offered)  # its own, adjacent, RG6, behind Bo
    assert ("D8", "D8 (empty square, 5 sq)") in situation.targets("Ada", Shoot)
    assert [w for w, _ in situation.weapons("Ada", Shoot, "D8")] == ["Grenade"]
    events = match.apply(Shoot(0, "Ada", "D8", "Grenade"))
    assert [e.data["square"] for e in events if e.kind == "blast"] == ["D8"]
    assert match.state.units["Bo"].hit == 2


def test_an_xpl_weapons_empty_squares_never_keep_an_activation_open() -> None:
    """Our ruling (docs/rulings.md, Skirm Lite): an activation with nothing left but aiming an
    XPL weapon at an empty square ends by itself, as it did before those squares were listed,
    so saved matches replay as they were played."""
    match = lite_match({0: [agent("Ada", "C3", weapons=[GRENADE])], 1: [agent("Bo", "C12")]})
    match.apply(Move(0, "Ada", "B3"))
    assert match.state.activation is not None
    match.apply(Dash(0, "Ada", "A3"))  # Bo is 9 squares away (RG6); empty squares are in reach
    assert match.state.activation is None


def test_a_downed_agent_neither_holds_nor_contests_an_objective() -> None:
    """Our ruling (docs/rulings.md, Skirm Lite): a Downed agent holds and contests no objective,
    so the picture never shows one held by an agent lying on it."""
    from skirmbot.rules.skirm.scoring import objective_controller

    match = lite_match(
        {0: [agent("Ada", "C3")], 1: [agent("Bo", "C4", hit=1), agent("Di", "J10")]},
        objectives=["C4", "C3"],
        faces=[1, 6, 4, 4],
    )
    assert objective_controller(match.state, 1) is None  # Bo, Standing, contests Ada's C3
    match.apply(Melee(0, "Ada", "Bo"))
    assert match.state.units["Bo"].status == DOWNED
    assert objective_controller(match.state, 1) == 0  # Bo, Downed, contests nothing
    match.state.units["Ada"].square = Square.parse("J1")
    assert objective_controller(match.state, 0) is None  # and holds nothing
