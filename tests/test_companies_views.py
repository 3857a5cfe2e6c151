"""What the group rules show (rulebook 003): the view's pieces, marks, teams and acting seats, a
Group's card, who decides now, the outcome, the export and taking an order back.

States are built by hand (`match`): seats alternate sides (seat n on side n % 2), each Company
fields Spearmen (the Captain's Group) and Archers of the shipped catalogue, on an open table.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skirmbot.rules.commands import Command, Deploy, Melee
from skirmbot.rules.companies import export, undo, views
from skirmbot.rules.companies.commands import ChooseAmbition, EndTurn, Interrupt
from skirmbot.rules.companies.geometry import table_of
from skirmbot.rules.companies.profiles import DEFIANT, shipped_catalogue
from skirmbot.rules.companies.ruleset import RULESET
from skirmbot.rules.companies.scenarios import Scenario, Scoring
from skirmbot.rules.companies.state import Group, PendingAttack, Seat, State
from skirmbot.rules.dice import ScriptedDice
from skirmbot.rules.errors import RulesError
from skirmbot.rules.maps import map_from_json
from skirmbot.rules.ruleset import Ruleset
from skirmbot.rules.squares import Square
from skirmbot.rules.view import ACTIVATED, MISSED, OUT, OVER, PLAYING, READY, SETUP

CATALOGUE = shipped_catalogue()
NAMES = ("Hill Wardens", "Red Band", "Iron Lances", "Ash Raiders", "Thornwatch", "Wild Hunt")


def _squares(*texts: str) -> list[Square]:
    return [Square.parse(text) for text in texts]


def match(seats: int = 2, *, scoring: tuple[Scoring, ...] = (), revealed: bool = True) -> State:
    """A match in round 1, side 0 attacking and to act, every Company on the table."""
    table = table_of(
        map_from_json(
            {"name": "Open Field", "rows": [" ".join(["."] * 12)] * 12, "objectives": ["F6"]}
        )
    )
    groups: dict[str, Group] = {}
    for seat in range(seats):
        row = 2 + seat * 3 if seat % 2 == 0 else 21 - seat * 3
        for column, (key, captain) in enumerate((("spearmen", True), ("archers", False))):
            profile = CATALOGUE.profiles[key]
            name = f"{profile.name}{seat + 1}"
            start = 2 + column * 10
            models = [Square(start + n, row) for n in range(profile.models)]
            groups[name.lower()] = Group(
                name, profile.name, seat, profile, profile.r, models, captain=captain
            )
    scenario = Scenario("Clash", "Fight.", 6, 24, "attackers", scoring)
    state = State(
        board=table.board, map_name=table.name, scenario=scenario, catalogue=CATALOGUE,
        objectives=table.objectives, seats=[Seat(NAMES[n], 8) for n in range(seats)],
        groups=groups, zones=(), battle_map=table,
    )  # fmt: skip
    if revealed:
        state.attackers, state.round, state.active, state.turns = 0, 1, 0, 1
        for player in state.seats:
            player.ambition = "glory"
            player.placed = True
    return state


def never(state: State, seat: int) -> Command:
    raise AssertionError("the automatic player is asked only for a Reckless Group's Attack")


# --- the view -------------------------------------------------------------------------------
def test_a_group_is_one_piece_standing_on_each_of_its_models_squares() -> None:
    """General: "Distance and Range are measured between the closest models in each Group" -
    a Group is drawn as all its models, its R as hit points, the Captain's Group as leader."""
    state = match()
    piece = views.view(state, "companies").piece("Spearmen1")
    assert piece is not None
    assert piece.group and piece.squares == tuple(state.group("Spearmen1").models)
    assert len(piece.squares) == CATALOGUE.profiles["spearmen"].models
    assert (piece.hit, piece.max_hit) == (7, 7) and piece.leader and piece.side == 0
    assert piece.kind == "Spearmen" and piece.name == "Spearmen"
    archers = views.view(state, "companies").piece("Archers1")
    assert archers is not None and not archers.leader


def test_deployment_stays_secret_until_the_roll_off_reveals_it() -> None:
    """Setup 6: deployment is secret and simultaneous (our ruling); the view shows no model and
    is in set-up until every Company is revealed, then play begins."""
    hidden = views.view(match(revealed=False), "companies")
    assert hidden.phase == SETUP and all(piece.squares == () for piece in hidden.pieces)
    assert views.view(match(), "companies").phase == PLAYING


def test_shaken_and_bloodied_groups_wear_their_marks() -> None:
    """Shaken Groups; our ruling Bloodied ("at half its starting R or less, rounded down")."""
    state = match()
    spearmen = state.group("Spearmen1")
    spearmen.shaken, spearmen.r = True, 3  # R 7: Bloodied at 3
    archers = state.group("Archers1")
    archers.r = 4  # R 6: 4 is above half
    view = views.view(state, "companies")
    assert view.piece("Spearmen1").marks == ("SHK", "BLD")  # type: ignore[union-attr]
    assert view.piece("Archers1").marks == ()  # type: ignore[union-attr]
    assert view.piece("Spearmen1").hit == 3  # type: ignore[union-attr]


def test_a_routed_group_is_removed_from_play() -> None:
    """Retreating: "the entire Group counts as having Routed and is removed from play"."""
    state = match()
    gone = state.group("Archers2")
    gone.routed, gone.models = True, []
    view = views.view(state, "companies")
    piece = view.piece("Archers2")
    assert piece is not None and piece.status == OUT and not piece.on_map
    assert (view.out_word, view.casualty_word, view.down_word) == ("Routed", "Routed", "Shaken")


def test_only_the_side_in_its_turn_shows_groups_activated() -> None:
    """Activation: "Each Group may activate only once each turn" - done for the turn in its
    side's turn; the other side's Groups are not dimmed."""
    state = match()
    state.group("Spearmen1").activated = True
    state.group("Spearmen2").activated = True  # left from side 1's last turn
    view = views.view(state, "companies")
    assert view.piece("Spearmen1").status == ACTIVATED  # type: ignore[union-attr]
    assert view.piece("Spearmen2").status == READY  # type: ignore[union-attr]


def test_team_play_groups_seats_into_two_sides() -> None:
    """Setup 5: "Players arrange themselves into two sides" - seat n on side n % 2."""
    assert views.view(match(4), "companies").teams == ((0, 2), (1, 3))
    assert views.view(match(6), "companies").teams == ((0, 2, 4), (1, 3, 5))
    assert views.view(match(2), "companies").teams == ()


def test_every_seat_of_the_side_in_its_turn_acts_until_it_ends_its_part() -> None:
    """Turns: "The active side attempts to activate Groups until an activation is failed or
    they choose to end their turn" - both players of a side act; one who ended is done."""
    state = match(4)
    view = views.view(state, "companies")
    assert view.acting == (0, 2) and view.to_act == 0 and view.seats_acting() == (0, 2)
    state.seats[0].ended = True
    view = views.view(state, "companies")
    assert view.acting == (2,) and view.to_act == 2


def test_a_seat_with_no_group_left_to_activate_does_not_act() -> None:
    """Activation: "Each Group may activate only once each turn"."""
    state = match(4)
    for group in state.groups_of(2):
        group.activated = True
    assert views.view(state, "companies").acting == (0,)


def test_each_seat_stands_as_its_side_with_its_sides_vp_and_groups() -> None:
    """Setup 5 attackers and defenders; End of Game "total VP ... to determine the winning
    side": a seat shows its side's VP, said to be the side's in team play (routed scoring counts
    the enemy Groups Routed so far)."""
    state = match(4, scoring=(Scoring("routed", 1),))
    gone = state.group("Archers2")
    gone.routed, gone.models = True, []
    state.seats[3].out = True
    view = views.view(state, "companies")
    archers = CATALOGUE.profiles["archers"].points
    assert view.sides[0].standing == f"Attackers · {archers} VP as a side · 2 Groups"
    assert view.sides[1].standing == "Defenders · 0 VP as a side · 1 Group, 1 Routed"
    assert view.sides[3].standing == "Defenders · conceded" and view.sides[3].out
    assert [side.score for side in view.sides] == [archers, 0, archers, 0]
    assert view.sides[2].name == "Iron Lances"


def test_the_header_names_the_attackers_and_the_reckless_groups() -> None:
    """Turns 2: Reckless Groups "must attempt to activate to Attack"."""
    state = match(4)
    state.reckless = ["spearmen2"]
    state.active = 1
    notes = views.view(state, "companies").notes
    assert notes == ("Attackers: Hill Wardens and Iron Lances", "Reckless: Spearmen2 must attack")


def test_the_view_counts_orders_and_keeps_the_table() -> None:
    state = match()
    state.orders = 5
    view = views.view(state, "companies")
    assert view.activations == 5 and view.battle_map is state.battle_map
    assert (view.turn, view.turns, view.turn_word, view.title) == (1, 6, "Round", "Clash")


# --- the card -------------------------------------------------------------------------------
def test_the_card_shows_the_profile_and_each_orders_activation_minimum() -> None:
    """Activation 3: "Roll 2d6, attempting to meet or exceed the Group's minimum activation
    result for their given order"."""
    state = match()
    card = views.card(state, "archers1")
    archers = CATALOGUE.profiles["archers"]
    assert dict(card.stats) == {
        "MO": f'{archers.mo}"', "MI": f'{archers.mi}+ {archers.range}"',
        "ME": f"{archers.me_attack}+/{archers.me_defend}+", "T": str(archers.t),
        "R": f"{archers.r}/{archers.r}",
    }  # fmt: skip
    assert dict(card.costs) == {
        order.title(): f"2d6 ≥ {minimum}" for order, minimum in archers.activation.items()
    }
    assert card.squad == "Hill Wardens" and card.points == archers.points and not card.leader


def test_the_card_shows_the_captains_trait_acting_on_its_numbers() -> None:
    """Setup 4: "Roll for Captain's trait" (our content: hardy, T + 1; swift, MO + 2")."""
    state = match()
    state.seats[0].captain_trait = CATALOGUE.captain_traits[4]  # hardy
    card = views.card(state, "Spearmen1")
    spearmen = CATALOGUE.profiles["spearmen"]
    assert dict(card.stats)["T"] == str(spearmen.t + 1)
    assert "Captain: Hardy" in card.rules and card.leader
    assert card.codes[card.rules.index("Captain: Hardy")] == "CPT"
    assert card.rules[0] == CATALOGUE.traits[DEFIANT].name


def test_a_shaken_captains_trait_does_not_act() -> None:
    """Shaken Groups: "If the Captain's Group is Shaken, none of their special rules affect
    play"."""
    state = match()
    state.seats[0].captain_trait = CATALOGUE.captain_traits[5]  # swift
    spearmen = state.group("Spearmen1")
    spearmen.shaken = True
    card = views.card(state, "Spearmen1")
    assert dict(card.stats)["MO"] == f'{spearmen.profile.mo}"'
    assert any("no effect while Shaken" in note for note in card.notes)
    assert card.status == "Shaken"


def test_the_card_says_a_group_is_in_melee() -> None:
    """Attacking: "If already in melee, the Group may attempt to activate and either Attack or
    Retreat"."""
    state = match()
    state.group("Spearmen2").models = _squares("C4", "D4", "E4", "F4")  # next to row 3
    state.group("Spearmen1").r = 3
    assert views.card(state, "Spearmen1").status == "Bloodied, in melee with Spearmen2"


def test_a_routed_groups_card_says_so_and_an_unknown_group_is_refused() -> None:
    state = match()
    state.group("Archers1").routed = True
    card = views.card(state, "Archers1")
    assert (card.status, card.status_kind) == ("Routed", OUT)
    with pytest.raises(RulesError, match="no Group called 'Nobody'"):
        views.card(state, "Nobody")


# --- who decides ----------------------------------------------------------------------------
def test_nobody_decides_during_the_secret_deployment() -> None:
    assert views.deciding(match(revealed=False), never) == ()


def test_after_the_reveal_every_seat_chooses_its_ambition() -> None:
    """Setup 7: "Choose ambitions" - every seat at once, each in its own time (our ruling); a
    missed deadline chooses as the automatic player would."""
    state = match(4)
    state.round, state.active = 0, None
    for player in state.seats:
        player.ambition = None
    state.seats[1].ambition = "regicide"
    decisions = views.deciding(state, lambda _, seat: ChooseAmbition(seat, "unbroken"))
    assert [d.side for d in decisions] == [0, 2, 3]
    assert all(d.turn for d in decisions)
    assert decisions[0].on_timeout == (ChooseAmbition(0, "unbroken"),)
    assert decisions[0].why.startswith("choose Hill Wardens' ambition (Glory, ")
    assert len({d.key for d in decisions}) == 3
    view = views.view(state, "companies")
    assert view.notes[-1] == "Choosing ambitions: Hill Wardens, Iron Lances, Ash Raiders"
    assert view.phase == PLAYING and view.seats_acting() == ()


def test_each_seat_of_the_side_in_its_turn_decides_and_a_miss_ends_its_part() -> None:
    """Activation 4: "choose another friendly Group to activate, or choose to end your turn"."""
    state = match(4)
    decisions = views.deciding(state, never)
    assert [(d.side, d.turn, d.on_timeout) for d in decisions] == [
        (0, True, (EndTurn(0, reason=MISSED),)),
        (2, True, (EndTurn(2, reason=MISSED),)),
    ]
    assert decisions[0].key != decisions[1].key
    # what "missed the deadline: ..." says, in this rulebook's words (not Skirm's activation)
    assert {d.missed for d in decisions} == {"their part of the turn ends"}


def test_a_seats_deadline_is_new_after_its_own_order_not_its_teammates() -> None:
    """Each seat's clock is its own: an order of its teammate leaves its time running."""
    state = match(4)
    before = {d.side: d.key for d in views.deciding(state, never)}
    state.group("Spearmen1").activated = True
    state.acted = 1
    after = {d.side: d.key for d in views.deciding(state, never)}
    assert after[0] != before[0] and after[2] == before[2]


def test_a_reckless_groups_missed_attack_is_the_automatic_players() -> None:
    """Turns 2: Reckless Groups "must attempt to activate to Attack an enemy Group of your
    choice in range" - until they have, no other order; a miss attacks as the automatic
    player chooses."""
    state = match(4)
    state.reckless = ["spearmen3"]
    attack = Melee(2, "Spearmen3", "Spearmen2")
    decisions = {d.side: d for d in views.deciding(state, lambda _, seat: attack)}
    assert decisions[2].on_timeout == (attack,) and "Reckless" in decisions[2].why
    assert decisions[0].on_timeout == (EndTurn(0, reason=MISSED),)


def test_an_attack_waits_for_the_prompted_defender_alone() -> None:
    """Attacking 1: "If the defending Group has the Defiant or Elusive traits, they may test to
    activate that trait" - a reaction in another side's turn; its standing order answers."""
    state = match(4)
    state.pending = PendingAttack("Archers1", "Spearmen2", DEFIANT)
    state.seats[1].defiant = False
    decisions = views.deciding(state, never)
    assert len(decisions) == 1
    decision = decisions[0]
    assert (decision.side, decision.turn, decision.on_timeout) == (1, False, (Interrupt(1, False),))
    assert views.buttons(state) == ()


def test_nobody_decides_once_the_match_is_over() -> None:
    state = match()
    state.over = True
    assert views.deciding(state, never) == () and views.buttons(state) == ()
    assert views.buttons(match()) == ("end",)


# --- outcome --------------------------------------------------------------------------------
def test_the_side_with_more_vp_wins_and_both_sides_are_named() -> None:
    """End of Game: "total VP according to the scenario guidelines to determine the winning
    side" - placings per side."""
    state = match(4)
    state.attackers = 1
    state.vp, state.over, state.reason = [3, 5], True, "rounds"
    outcome = views.outcome(state)
    assert outcome is not None
    assert (outcome.placings, outcome.scores, outcome.winner) == ((2, 1), (3, 5), 1)
    assert outcome.reason == (
        "Red Band and Ash Raiders (attackers) win (after the last round): "
        "Defenders (Hill Wardens and Iron Lances) 3 VP, Attackers (Red Band and Ash Raiders) 5 VP"
    )
    assert views.view(state, "companies").phase == OVER
    assert views.view(state, "companies").outcome == "Red Band and Ash Raiders (attackers) win"


def test_equal_vp_is_a_draw() -> None:
    state = match()
    state.vp, state.over, state.reason = [4, 4], True, "rounds"
    outcome = views.outcome(state)
    assert outcome is not None and outcome.placings == (1, 1) and outcome.winner is None
    assert outcome.reason.startswith("Draw (after the last round)")


def test_a_side_whose_every_player_conceded_loses_whatever_the_vp() -> None:
    """Our ruling (team play): when every seat of a side has conceded, the other side wins."""
    state = match(4)
    state.seats[0].out = state.seats[2].out = True
    state.vp, state.over, state.reason = [6, 1], True, "conceded"
    outcome = views.outcome(state)
    assert outcome is not None and outcome.placings == (2, 1)
    assert "every player of a side conceded" in outcome.reason
    assert views.outcome(match()) is None


# --- export and undo ------------------------------------------------------------------------
def test_the_state_exports_as_json_and_a_finished_match_keeps_its_result() -> None:
    state = match(4)
    state.seats[0].captain_trait = CATALOGUE.captain_traits[0]
    data = json.loads(json.dumps(export.state_json(state)))
    assert data["seats"][0]["captain_trait"] == "bold"
    assert data["groups"][0]["models"][:2] == ["C3", "D3"]
    assert export.recorded_result(state) is None
    state.vp, state.over, state.reason = [2, 0], True, "routed"
    assert export.recorded_result(state) == {
        "winner": 0, "placings": [1, 2], "scores": [2, 0], "reason": "routed",
    }  # fmt: skip


def _end(seat: int) -> dict[str, object]:
    return EndTurn(seat).to_json()


def test_a_seat_takes_back_its_last_order_of_its_sides_turn() -> None:
    """Our ruling (Undo): the seat's last order, passing over decisions about it (the service
    refuses it if a die was rolled since: rulings, Rolled dice stand)."""
    state = match(4)
    state.acted = 1
    recorded = [{"type": "deploy", "side": 0}, _end(0), {"type": "standing_orders", "side": 1}]
    assert undo.undo_point(state, recorded, 0) == 1


def test_an_order_is_not_taken_back_past_a_teammates_later_one_or_the_turn() -> None:
    state = match(4)
    state.acted = 2
    recorded = [_end(0), {"type": "melee", "side": 2, "unit": "Archers3", "target": "Archers2"}]
    with pytest.raises(RulesError, match="Nothing to take back"):
        undo.undo_point(state, recorded, 0)
    with pytest.raises(RulesError, match="your side's turn in progress"):
        undo.undo_point(state, recorded, 1)
    state.acted = 0
    with pytest.raises(RulesError, match="Nothing to take back"):
        undo.undo_point(state, [_end(0)], 0)


def test_an_ambition_is_taken_back_before_the_first_round() -> None:
    state = match(4)
    state.round, state.active = 0, None
    recorded = [ChooseAmbition(2, "glory").to_json()]
    assert undo.undo_point(state, recorded, 2) == 0
    state.seats[0].ambition = None
    with pytest.raises(RulesError, match="Nothing to take back"):
        undo.undo_point(state, recorded, 0)


# --- the ruleset ----------------------------------------------------------------------------
def test_the_ruleset_seats_two_sides_and_shares_a_sides_points_among_its_players() -> None:
    """Setup 1: "Choose points total for each side (typically 24)"; our ruling: each player's
    Company may cost the side's points shared by its players."""
    mission = {"name": "Clash", "briefing": "Fight.", "rounds": 6, "points": 24,
               "first": "attackers", "scoring": [{"kind": "routed", "vp": 1}]}  # fmt: skip
    assert RULESET.sides_of(4) == ((0, 2), (1, 3))
    assert [RULESET.points_limit(mission, players) for players in (2, 4, 6)] == [24, 12, 8]
    with pytest.raises(RulesError):
        RULESET.sides_of(3)
    stage = RULESET.set_up_stage(match(4, revealed=False))
    assert stage is not None and stage.sides == (0, 1, 2, 3)
    assert RULESET.set_up_stage(match(4)) is None


def test_the_ruleset_view_card_and_deciding_delegate() -> None:
    played: Ruleset = RULESET  # mypy checks the class against the Ruleset protocol
    state = match(4)
    assert played.name == "companies" and played.title == "Companies"
    assert RULESET.view(state).ruleset == "companies"
    assert RULESET.card(state, "Archers2").squad == "Red Band"
    assert [d.side for d in RULESET.deciding(state)] == [0, 2]
    assert RULESET.status_line(state, 1) == "Red Band: Defenders · 0 VP as a side · 2 Groups"
    state.seats[0].out = True
    assert RULESET.view(state).sides[0].out


def test_a_new_team_match_shows_every_company_after_the_reveal() -> None:
    """Setup 4-8 through the engine: Captain traits, the roll-off ("higher result is the
    attacker"), ambitions, then the attackers' players act together."""
    content = Path(__file__).resolve().parent.parent / "skirmbot" / "content"
    lists = ("ember-circle", "red-hounds", "iron-lances", "thornwatch")
    squads = [
        json.loads((content / "companies" / "squads" / f"{name}.json").read_text("utf-8"))
        for name in lists
    ]
    battle_map = json.loads(sorted((content / "maps").glob("*.json"))[0].read_text("utf-8"))
    mission = json.loads((content / "companies" / "missions" / "clash.json").read_text("utf-8"))
    data = RULESET.match_content({"map": battle_map, "mission": mission, "squads": squads})
    played = RULESET.new_match(data, ScriptedDice([1, 2, 3, 4, 6, 2]))  # traits, then 6 v 2
    for seat in range(4):
        zone = sorted(played.state.zones[seat], key=lambda square: (square.y, square.x))
        groups = played.state.groups_of(seat)
        first = 0 if seat % 2 == 0 else len(zone) - 5 * len(groups)
        placements = {g.id: str(zone[first + 5 * n]) for n, g in enumerate(groups)}
        played.apply(Deploy(seat, placements))
    assert [d.side for d in RULESET.deciding(played.state)] == [0, 1, 2, 3]
    for seat in range(4):
        played.apply(ChooseAmbition(seat, "glory"))
    view = RULESET.view(played.state)
    assert view.notes[0] == "Attackers: Ember Circle and Iron Lances"
    assert (view.phase, view.turn, view.acting) == (PLAYING, 1, (0, 2))
    assert all(piece.on_map and piece.group for piece in view.pieces)
    assert sum(len(piece.squares) for piece in view.pieces) == sum(
        group.profile.models for group in played.state.groups.values()
    )
    played.apply(EndTurn(0))
    assert RULESET.view(played.state).acting == (2,)
    recorded = [command.to_json() for command in played.commands]
    assert RULESET.undo_point(played.state, recorded, 0) == len(recorded) - 1
