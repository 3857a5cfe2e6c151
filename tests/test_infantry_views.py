"""What the infantry rules show of a match: the view on dots, a trooper's card with every field of
the rulebook's sample card, who decides now (an arc's owner while a move waits: plan section 3),
status lines, buttons and the outcome (skirmbot.rules.infantry.views)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from skirmbot.rules.commands import Deploy, EndActivation
from skirmbot.rules.dice import SeededDice
from skirmbot.rules.dots import Dot
from skirmbot.rules.errors import RulesError
from skirmbot.rules.infantry import preview, views
from skirmbot.rules.infantry.card import Mark, Track
from skirmbot.rules.infantry.choices import InfantryChoices
from skirmbot.rules.infantry.commands import Arc as ArcOrder
from skirmbot.rules.infantry.commands import FireAt, Move, StandingOrders
from skirmbot.rules.infantry.engine import InfantryMatch
from skirmbot.rules.infantry.legal import legal_commands
from skirmbot.rules.infantry.setup import deploy, new_state
from skirmbot.rules.infantry.state import Item, Moving, State
from skirmbot.rules.view import (
    ACTIVATED,
    DOTS,
    MISSED,
    OUT,
    OVER,
    PLAYING,
    READY,
    SETUP,
    DotBoardView,
)
from tests.infantry_boards import LASERS, RIFLEMEN, arc_of, deployed, grenade
from tests.infantry_helpers import content, fresh, pass_turn, play, put


# --- the card ----------------------------------------------------------------------------------
def test_the_card_has_every_field_of_the_sample_card() -> None:
    """Unit Card ¶1-2, ¶7: "formatted in any way so long as it contains all the essential
    information": name, rank, squad position number, skill level, the squad leader and their
    leadership; the HP, AP and modifier rows; armour; weapons with damage, shots and ranges; 4
    hand grenades."""
    state = deployed()
    card = views.card(state, "Rossi")
    assert (card.name, card.kind, card.squad, card.side) == ("Rossi", "Corporal", "Riflemen", 0)
    stats = dict(card.stats)
    assert stats["No."] == "2" and stats["HP"] == "10/10" and stats["AP"] == "7/7"
    assert stats["MOD"] == "+0" and stats["ARM"] == "2/2" and stats["LVL"] == "0"
    notes = "\n".join(card.notes)
    assert "Rank Corporal, squad position 2, skill Regular" in notes
    assert "Squad leader: Hale (leadership 1)" in notes
    assert "Active weapon: Rifle" in notes and "Hand grenades: 4" in notes
    assert "Helmet" in notes
    hp, armour = card.tracks
    assert hp.title == "HP" and hp.labels == tuple(str(n) for n in range(10, 0, -1))
    assert hp.marks == ("",) * 10 and hp.column == 0
    rows = dict(hp.rows)
    assert rows["AP"] == ("7", "7", "7", "6", "6", "6", "5", "5", "5", "4")  # basic armour: -1
    assert rows["Modifier"] == ("+0", "+0", "+1", "+1", "+2", "+2", "+3", "+3", "+4", "+4")
    assert (armour.title, armour.note) == ("Armour", "Basic")
    assert card.costs == () and card.hit is None  # the track is the HP: one HP box, not two
    weapons = {w.name: dict(w.stats) for w in card.weapons}
    assert weapons["Rifle"] == {"DMG": "4X", "SH": "x1", "SR": "26", "LR": "85"}
    assert weapons["Pistol"] == {"DMG": "2X", "SH": "x2", "SR": "7", "LR": "20"}
    assert weapons["Hand Grenade"]["DMG"] == "6X/3X/1X"
    assert weapons["Hand Grenade"]["AMMO"] == "4/4"
    assert weapons["Fists"]["DMG"] == "(max AP/2)\\" and "Bayonet/Knife" in weapons
    assert card.points == 216 and not card.leader
    assert views.card(state, "Hale").leader


def test_the_hp_row_shows_crossed_and_half_crossed_cells() -> None:
    """Unit Card ¶3: "if the trooper has HP 9, 7, and 6 fully crossed out and HP 5 partially
    crossed out, then their current HP is 5"; the card draws X and \\ in those cells."""
    state = deployed()
    trooper = state.trooper("Ishida")
    cells = [Mark.CLEAN] * 10
    for hp, mark in ((9, Mark.FULL), (7, Mark.FULL), (6, Mark.FULL), (5, Mark.HALF)):
        cells[10 - hp] = mark
    trooper.track = Track(tuple(cells), 0)
    card = views.card(state, "Ishida")
    row = card.tracks[0]
    assert row.marks == ("", "full", "", "full", "full", "half", "", "", "", "")
    assert row.labels[row.marks.index("half")] == "5"
    assert row.column == 5 and row.labels[5] == "5"  # the AP and modifier of 5 HP apply
    assert dict(card.stats)["HP"] == "5/10" and dict(card.stats)["MOD"] == "+2"
    assert dict(card.stats)["AP"] == "7/7"
    assert dict(row.rows)["AP"][row.column] == "7" and dict(row.rows)["Modifier"][5] == "+2"


def test_a_dead_troopers_track_has_no_column_of_now() -> None:
    """Our ruling (docs/plans/infantry.md §2): dead when cell 1 is fully crossed; no column of
    the AP and modifier rows applies then."""
    state = deployed()
    trooper = state.trooper("Ishida")
    trooper.track = Track((Mark.FULL,) * 10, 0)
    hp = views.card(state, "Ishida").tracks[0]
    assert hp.marks == ("full",) * 10 and hp.column is None


def test_unused_armour_cells_are_drawn_marked_off() -> None:
    """Unit Card ¶6: "Mark off any unused cells of armor before the game": the card has 6
    cells; basic armour uses 2, the rest are marked off; a destroyed cell is crossed."""
    state = deployed()

    def armour(unit: str) -> tuple[tuple[str, ...], str]:
        track = views.card(state, unit).tracks[1]
        assert track.title == "Armour" and track.labels == ("1", "2", "3", "4", "5", "6")
        return track.marks, track.note

    assert armour("Rossi") == (("", "") + ("unused",) * 4, "Basic")
    rossi = state.trooper("Rossi")
    rossi.track = replace(rossi.track, armour=1)
    assert armour("Rossi") == (("", "full") + ("unused",) * 4, "Basic")
    assert armour("Ishida") == (("unused",) * 6, "none")
    assert views.armour_cells(0, 6) == ("full",) * 6


def test_standard_armour_takes_2_from_every_ap_value_on_the_card() -> None:
    """Body Armor ¶2: "with standard body armor, leave 4 cells ... and reduce all values in the
    AP row by 2"."""
    assert " ".join(views.ap_values(2)) == "6 6 6 5 5 5 4 4 4 3"
    assert " ".join(views.ap_values(0)) == "8 8 8 7 7 7 6 6 6 5"


def test_a_card_of_no_trooper_is_refused_in_words() -> None:
    with pytest.raises(RulesError, match="no trooper called 'Nobody'"):
        views.card(deployed(), "Nobody")


# --- the view ----------------------------------------------------------------------------------
def test_a_trooper_shows_its_level() -> None:
    """Basic Movement ¶4: "the current level of the trooper must be tracked": the piece, its
    marks and its card show it; prone and armour too."""
    state = deployed()
    rossi = state.trooper("Rossi")
    rossi.level, rossi.prone = 1, True
    piece = views.view(state, "infantry").piece("Rossi")
    assert piece is not None
    assert (piece.level, piece.prone, piece.armour, piece.max_armour) == (1, True, 2, 2)
    assert "L1" in piece.marks
    assert dict(views.card(state, "Rossi").stats)["LVL"] == "1"
    assert "Level 1, prone" in views.card(state, "Rossi").notes


def test_the_view_is_a_board_of_dots_with_its_features() -> None:
    state = deployed()
    shown = views.view(state, "infantry")
    assert shown.grid == DOTS and shown.phase == PLAYING and shown.turn_word == "Round"
    board = shown.board
    assert isinstance(board, DotBoardView)
    assert (board.width, board.height) == (14, 12)
    assert ("C1", "impassable") in board.ground
    assert any((e.a, e.b, e.kind) == ("B3", "C3", "low") for e in board.edges)
    assert shown.turns == 8 and shown.title == "Firefight" and shown.to_act == 0
    hale = shown.piece("Hale")
    assert hale is not None and hale.square == Dot.parse("B1") and hale.leader
    assert hale.hit == 10 and hale.max_hit == 10 and hale.status == READY


def test_the_view_hides_the_troopers_until_both_squads_deploy() -> None:
    """Our ruling (plan section 2): each side deploys in secret."""
    state = new_state(content())
    deploy(state, 0, RIFLEMEN)
    shown = views.view(state, "infantry")
    assert shown.phase == SETUP and shown.to_act is None
    assert all(not piece.squares for piece in shown.pieces)
    assert views.deciding(state, _no_automatic) == ()


def test_arcs_tokens_and_dropped_weapons_are_on_the_view() -> None:
    """Firing Arcs ¶1 (a wedge from the vertex with its shots), Explosives ¶3 ("Place a token
    ... resolve ... after all troopers on your side have activated"), Special Actions ¶2 (a
    dropped weapon lies on the dot)."""
    state = deployed()
    arc = arc_of(state, "Varga", "D6")
    state.tokens.append(grenade("Hale", "D8"))
    state.items.append(Item(Dot.parse("E5"), 0, "Pistol"))
    shown = views.view(state, "infantry")
    (drawn,) = shown.arcs
    assert (drawn.owner, drawn.side, drawn.vertex, drawn.width, drawn.shots) == (
        "Varga", 1, "D12", 60, 2,
    )  # fmt: skip
    assert drawn.facing == arc.facing
    kinds = {(m.kind, str(m.square), m.label) for m in shown.markers}
    assert ("grenade", "D8", "grenade on D8: resolves at the end of the turn") in kinds
    assert ("item", "E5", "Pistol on E5") in kinds
    assert "ARC" in (shown.piece("Varga") or pytest.fail()).marks
    assert "1 explosive waiting for the turn's end" in shown.notes


def test_a_trooper_put_out_is_out_and_lies_prone() -> None:
    """Our ruling (plan section 2): dead or unconscious, it lies prone and never acts again."""
    state = deployed()
    varga = state.trooper("Varga")
    varga.track = Track((Mark.FULL,) * 10, 0)
    piece = views.view(state, "infantry").piece("Varga")
    assert piece is not None and piece.status == OUT and piece.prone
    assert views.card(state, "Varga").status == "Dead"
    state.trooper("Hale").activated = True
    assert (views.view(state, "infantry").piece("Hale") or pytest.fail()).status == ACTIVATED


# --- who decides -------------------------------------------------------------------------------
def _no_automatic(state: State, seat: int) -> EndActivation:
    raise AssertionError("the infantry rules' deadlines do not ask the automatic player")


def test_a_prompted_arc_is_a_reaction_of_its_owner() -> None:
    """Plan section 3: while a move waits for an arc's owner, only that owner decides - a
    reaction in the other side's turn (turn=False), whose missed deadline answers by the arc's
    order (FireAt), under a key of its own."""
    state = deployed()
    arc_of(state, "Varga", "D6", order="hold")
    rossi = state.trooper("Rossi")
    rossi.dot = Dot.parse("D6")
    state.activating = "Rossi"
    state.moving = Moving("Rossi", (Dot.parse("D7"),), ("Varga",), "move")
    (decision,) = views.deciding(state, _no_automatic)
    assert decision.side == 1 and not decision.turn
    assert decision.on_timeout == (FireAt(1, "Varga", False),)
    assert "Varga's arc: Rossi enters D6" in decision.why and "fire or hold" in decision.why
    assert "needs" in decision.why
    assert decision.missed == "the arc's order (hold) holds"
    assert ":arc:Varga:" in decision.key
    # The owner answers with a click: Fire or Hold for Varga's arc, not the mover's End.
    assert views.buttons(state) == ("fire:Varga", "hold:Varga")
    # the order "every" fires when the deadline passes
    state.arcs[0] = replace(state.arcs[0], order="every")
    (decision,) = views.deciding(state, _no_automatic)
    assert decision.on_timeout == (FireAt(1, "Varga", True),)


def test_a_prompted_arc_paused_by_the_engine_decides_by_its_deadline() -> None:
    """Plan section 3, through the engine: a move stops in a prompted arc; only the owner's
    seat decides (turn=False); sending its `on_timeout` plays on as the arc's order would (a
    2 on 2D6 misses: the move goes on to its last dot)."""
    match = fresh([1, 1])
    put(match, "Okafor", "G2")
    play(match, ArcOrder(0, "Okafor", 30, "G10"), EndActivation(0), StandingOrders(0, True))
    pass_turn(match)
    put(match, "Sorensen", "J6")
    match.apply(Move(1, "Sorensen", path="I6 H6 G6 F6"))
    (decision,) = views.deciding(match.state, _no_automatic)
    assert (decision.side, decision.turn) == (0, False)
    assert decision.why.startswith("Okafor's arc: Sorensen enters G6 (4 dots, short range")
    assert decision.on_timeout == (FireAt(0, "Okafor", True),)
    assert views.buttons(match.state) == ("fire:Okafor", "hold:Okafor")
    events = play(match, *decision.on_timeout)
    assert [e.kind for e in events] == ["attack", "arc_removed", "moved"]
    assert str(match.state.trooper("Sorensen").dot) == "F6"
    (decision,) = views.deciding(match.state, _no_automatic)
    assert decision.side == 1 and decision.turn


def test_a_missed_turn_ends_the_activation_where_it_stands() -> None:
    """Our ruling (as Skirm): the side to act decides; a missed deadline ends the activation in
    progress where it stands, or the next ready trooper's (it activates and ends at once)."""
    state = deployed()
    (decision,) = views.deciding(state, _no_automatic)
    assert decision.side == 0 and decision.turn
    assert decision.on_timeout == (EndActivation(0, "Hale", reason=MISSED),)
    assert decision.missed == "the next ready trooper's activation ends where it stands"
    state.activating = "Rossi"
    (decision,) = views.deciding(state, _no_automatic)
    assert decision.on_timeout == (EndActivation(0, "Rossi", reason=MISSED),)
    assert decision.missed == "the activation ends where it stands"
    assert "Rossi is activating (7 AP left)" in decision.why
    assert views.buttons(state) == ("end", "preview")


def test_a_missed_deadline_is_a_command_the_engine_takes() -> None:
    """The deadline's commands are sent as they are: the engine accepts them."""
    match = fresh()
    (decision,) = views.deciding(match.state, _no_automatic)
    (sent,) = decision.on_timeout
    assert isinstance(sent, EndActivation) and sent.unit is not None
    play(match, sent)
    assert match.state.trooper(sent.unit).activated and match.state.activating is None


# --- status, outcome ---------------------------------------------------------------------------
def test_the_status_line_gives_ap_arcs_and_explosives_waiting() -> None:
    """Plan part 6: "AP 5/7 · 2 arcs · 1 grenade waiting"."""
    state = deployed()
    state.activating = "Rossi"
    state.trooper("Rossi").spent = 2
    arc_of(state, "Hale", "D6")
    arc_of(state, "Brandt", "D6")
    state.tokens.append(grenade("Okafor", "D8"))
    line = views.status_line(state, 0)
    assert line == "Riflemen: AP 5/7 · 0 PV · 4 able, 0 out · 2 arcs · 1 explosive waiting"
    assert views.status_line(state, 1) == "Laser Team: 0 PV · 4 able, 0 out"


def test_the_outcome_places_the_winner_first_with_pv() -> None:
    """Our ruling (plan section 2, Victory): the PV of enemy troopers put out."""
    state = deployed()
    for name in LASERS:
        state.trooper(name).track = Track((Mark.FULL,) * 10, 0)
    assert views.outcome(state) is None
    state.over, state.winner, state.result = True, 0, "Laser Team has no trooper left standing"
    found = views.outcome(state)
    assert found is not None
    assert found.placings == (1, 2) and found.winner == 0
    assert found.scores == (sum(t.recruit.pv for t in state.troopers_of(1)), 0)
    # The result names each side's PV (the end-of-match message reads it).
    won = found.scores[0]
    assert found.reason.endswith(f"Riflemen {won} PV · Laser Team 0 PV."), found.reason
    assert views.view(state, "infantry").phase == OVER
    assert views.headline(state) == "Riflemen wins"


def test_a_match_won_on_points_says_each_sides_pv_once() -> None:
    """After the last round the result names the winner and each side's PV, once (the reason
    once said "686 PV to 432 PV" and then "Riflemen 686 PV · Laser Team 432 PV")."""
    state = deployed()
    state.trooper(next(iter(LASERS))).track = Track((Mark.FULL,) * 10, 0)
    state.round = state.scenario.rounds + 1
    state.over, state.winner = True, 0
    found = views.outcome(state)
    assert found is not None
    won = found.scores[0]
    rounds = state.scenario.rounds
    assert found.reason == (
        f"Riflemen wins after {rounds} rounds. Riflemen {won} PV · Laser Team 0 PV."
    ), found.reason


@pytest.mark.parametrize("seed", [3, 11])
def test_every_moment_of_a_played_match_is_shown(seed: int) -> None:
    """Through a seeded match played from the menu (prompts on, so moves pause for arcs): the
    view, every card, who decides, the status lines, the buttons, each command's words and
    the preview of the trooper activating are drawn at every moment, and agree."""
    match = InfantryMatch(new_state(content()), SeededDice(seed))
    play(match, Deploy(0, RIFLEMEN), Deploy(1, LASERS))
    play(match, StandingOrders(0, True), StandingOrders(1, True))
    for step in range(30):
        state = match.state
        if state.over:
            break
        shown = views.view(state, "infantry")
        assert {p.id for p in shown.pieces} == {t.id for t in state.troopers}
        for trooper in state.troopers:
            assert views.card(state, trooper.id).name == trooper.id
        (decision, *_) = views.deciding(state, _no_automatic)
        assert [views.status_line(state, seat) for seat in (0, 1)]
        offered = legal_commands(state, decision.side)
        assert all(InfantryChoices(state, decision.side).words(c) for c in offered)
        if state.activating is not None and state.moving is None:
            assert views.buttons(state) == ("end", "preview")
            assert preview.preview(state, state.activating).unit == state.activating
        match.apply(offered[(step * 7919) % len(offered)])
