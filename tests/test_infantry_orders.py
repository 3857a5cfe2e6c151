"""Typed orders under the infantry rules (issue 31, branch iorders): a firing arc faces any dot
with any order, a throw aims at any dot and level, written in one-line orders and the console
as a player says them ("arc Hale 60 F7 first 2", "Hale throw I7 level 1"); what the rules refuse
is refused in their words and changes nothing. The console's help lists only this ruleset's
words, and the infantry words say "1 shot"."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from infantry_helpers import fresh, of_kind, play, put

from skirmbot.console import HELP, help_for, run_console
from skirmbot.rules.commands import Command
from skirmbot.rules.dots import Dot, bearing
from skirmbot.rules.errors import RulesError
from skirmbot.rules.infantry import arcs, legal
from skirmbot.rules.infantry.choices import InfantryChoices, command_words
from skirmbot.rules.infantry.commands import Arc, ChangeWeapon, Throw
from skirmbot.rules.infantry.engine import InfantryMatch
from skirmbot.rules.ruleset import ruleset
from skirmbot.service import ServiceError
from skirmbot.service.choices import Situation
from skirmbot.service.orderline import read_command
from tests.test_console import scripted

RULES = ruleset("infantry")


def situation(match: InfantryMatch, seat: int = 0) -> Situation:
    return Situation(match.state, seat, RULES)


def read(match: InfantryMatch, text: str) -> Command:
    found = read_command(situation(match), text)
    assert found is not None
    return found


# --- one-line orders: a typed arc ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("Hale arc 60 F7", Arc(0, "Hale", 60, "F7", "every", 0)),
        ("arc Hale 60 F7 first 2", Arc(0, "Hale", 60, "F7", "first", 2)),
        ("Hale arc 150 toward J6 short", Arc(0, "Hale", 150, "J6", "short", 0)),
        ("hale ARC 30 toward j6 hold", Arc(0, "Hale", 30, "J6", "hold", 0)),
    ],
)
def test_a_typed_arc_takes_each_order_as_written(typed: str, expected: Arc) -> None:
    """Firing Arcs ¶1: "A trooper may establish a 30 degree, 60 degree, or 150 degree firing
    arc"; the order it fires by unasked is our ruling (docs/plans/infantry.md §3): every, first
    N, short, hold. The words typed are the command's fields in order, and the engine sets it."""
    match = fresh()
    command = read(match, typed)
    assert command == expected
    events = play(match, command)
    (arc,) = of_kind(events, "arc_set")
    assert (arc["unit"], arc["width"]) == ("Hale", expected.width)
    set_arc = match.state.arc_of("Hale")
    assert set_arc is not None and set_arc.order == expected.order and set_arc.n == expected.n


def test_an_arc_faces_any_dot_even_one_behind_the_trooper() -> None:
    """Firing Arcs ¶1: the arc's vertex "is the dot the trooper is standing on and can be
    oriented in any direction": Hale on E5, the enemy ahead on row 11, faces E2 behind him -
    a facing /act's list never offers (one arc per width, toward the nearest enemy)."""
    match = fresh()
    put(match, "Hale", "E5")
    assert not any(
        isinstance(c, Arc) and c.toward == "E2" for c in legal.legal_commands(match.state, 0)
    )
    play(match, read(match, "Hale arc 60 toward E2 first 1"))
    arc = match.state.arc_of("Hale")
    assert arc is not None
    assert arc.facing == bearing(Dot.parse("E5"), Dot.parse("E2"))
    assert arcs.covers(arc, Dot.parse("E3")) and not arcs.covers(arc, Dot.parse("E8"))


def test_a_typed_dot_is_never_taken_for_a_longer_one_offered() -> None:
    """Firing Arcs ¶1 ("any direction"): /act offers Hale's arcs toward the nearest enemy, on
    A11; "Hale arc 60 A1" faces A1, not A11. With no dot typed, the offered arc is taken."""
    match = fresh()
    put(match, "Hale", "B2")
    assert read(match, "Hale arc 60 A1") == Arc(0, "Hale", 60, "A1", "every", 0)
    assert read(match, "Hale arc 60") == Arc(0, "Hale", 60, "A11", "every", 0)


# --- one-line orders: a typed throw -------------------------------------------------------------
def test_a_typed_throw_aims_at_a_dot() -> None:
    """Explosives ¶1 (a hand grenade is thrown at a dot, 1 AP a dot): "throw Hale G4" with the
    grenade made active throws it at G4."""
    match = fresh()
    play(match, ChangeWeapon(0, "Hale", "Hand Grenade"))
    command = read(match, "throw Hale C3")
    assert command == Throw(0, "Hale", "C3", None)
    (thrown,) = of_kind(play(match, command), "thrown")
    assert thrown["target"] == "C3"


def test_a_typed_throw_up_the_stairs_takes_its_level() -> None:
    """Explosives ¶2: "A trooper can throw a hand grenade or satchel charge down a ladder or
    stairs any number of levels or up one level, at a cost of 3 AP. The trooper must be
    standing on the stairwell". Hale on the farmhouse's stairs (I7) throws up to level 1."""
    match = fresh(battle_map="farmhouse", mission="the-farmhouse")
    put(match, "Hale", "I7")
    play(match, ChangeWeapon(0, "Hale", "Hand Grenade"))
    command = read(match, "Hale throw I7 level 1")
    assert command == Throw(0, "Hale", "I7", 1)
    (thrown,) = of_kind(play(match, command), "thrown")
    assert thrown["level"] == 1


# --- refusals in words, nothing changed ---------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("Hale arc 45 F7", "30, 60 or 150"),  # no such width: the engine's words
        ("Hale arc 60 F7 sometimes", "order is one of every, first, short, hold"),
        ("throw Hale C3", "change to an explosive first"),  # the rifle is active
    ],
)
def test_an_order_the_rules_refuse_is_refused_in_their_words_and_changes_nothing(
    typed: str, words: str
) -> None:
    """Our ruling (docs/plans/infantry.md §2): a refused command changes nothing; the typed
    words go to the engine as they are, and its refusal names what is wrong."""
    match = fresh()
    before = (len(match.commands), match.state.trooper("Hale").spent, list(match.state.arcs))
    command = read(match, typed)
    with pytest.raises(RulesError, match=words):
        match.apply(command)
    after = (len(match.commands), match.state.trooper("Hale").spent, list(match.state.arcs))
    assert after == before


def test_words_that_are_not_the_commands_fields_are_refused_before_the_rules() -> None:
    """More words than the arc has fields, or no unit at all, are told in words."""
    match = fresh()
    with pytest.raises(ServiceError, match="A arc takes width, toward, order, n, in that order"):
        read(match, "Hale arc 60 F7 first 2 now")
    with pytest.raises(ServiceError, match="Name the unit: arc UNIT WIDTH TOWARD ORDER N"):
        read(match, "arc 60 F7")


def test_an_enemy_trooper_named_goes_to_the_rules_which_say_whose_it_is() -> None:
    """Our ruling (docs/plans/infantry.md §2): a seat commands only its own troopers."""
    match = fresh()
    command = read(match, "arc Ishida 60 F7")
    assert command == Arc(0, "Ishida", 60, "F7", "every", 0)
    with pytest.raises(RulesError, match="Ishida"):
        match.apply(command)


# --- the console --------------------------------------------------------------------------------
def test_the_help_of_an_infantry_match_lists_only_its_words() -> None:
    """No shoot (skirmishers fire from arcs), no secondary objective, no Revive; arc and throw
    with their fields; the one-line example names the match's own troopers."""
    match = fresh()
    text = help_for(RULES, match.state, 0)
    assert "arc UNIT WIDTH [toward] SQUARE [ORDER] [N]   throw UNIT SQUARE [level LEVEL]" in text
    assert "e.g. Change level" in text and "Revive" not in text
    assert "Hale move C5; melee Ishida; end" in text and "Halden" not in text
    for word in ("shoot", "secondary", "dash", "turret", "[TO]", "reroll"):
        assert word not in text
    assert help_for(ruleset("skirm")) == HELP  # Skirm's help is the whole list, as it was
    assert "arc UNIT" not in help_for(ruleset("companies"))


def test_the_console_plays_typed_arcs_and_throws_and_refuses_in_words(tmp_path: Path) -> None:
    """Firing Arcs ¶1 ("can be oriented in any direction"), at the console and in a line of
    steps: an arc facing back, a first-2 arc, a refused width in the engine's words."""
    # Seed 3: the roll-off gives Laser Team (Player 2: Ishida, Varga...) the first turn.
    lines = ["auto", "auto", "help", "Ishida arc 45 F4", "Ishida arc 60 toward B14 hold"]
    lines += ["end", "Varga arc 30 F4 first 2; end", "status", "quit"]
    ask, said = scripted(lines)
    code = asyncio.run(
        run_console(False, tmp_path, ask=ask, say=said.append, seed=3, rules="infantry")
    )
    text = "\n".join(said)
    assert code == 0
    assert "Ishida move C5; melee Hale; end" in text
    assert "! " in text and "30, 60 or 150" in text
    assert "Ishida sets a 60-degree firing arc toward B14" in text and "hold (4 AP)" in text
    assert (
        "Varga sets a 30-degree firing arc toward F4 with its Laser Rifle: 1 shot, first 2 (2 AP)."
        in text
    )
    assert "Varga's activation ends (ended by its player)." in text


# --- "1 shot" -----------------------------------------------------------------------------------
def test_an_arc_of_one_shot_says_shot() -> None:
    """Firing Arcs ¶1: a 30 degree arc has a base of 1 shot; with a rifle (x1): "1 shot"."""
    match = fresh()
    assert match.state.trooper("Hale").active == "Rifle"
    widths = dict(InfantryChoices(match.state, 0).values("Hale", "arc", "width"))
    assert widths["30"] == "30° (2 AP, 1 shot)" and widths["60"] == "60° (4 AP, 2 shots)"
    words = command_words(match.state, Arc(0, "Hale", 30, "F7"))
    assert words == "Arc: Hale 30° toward F7, every (2 AP, 1 shot)"
    (arc,) = [e.text for e in play(match, Arc(0, "Hale", 30, "F7")) if e.kind == "arc_set"]
    assert "with its Rifle: 1 shot, every (2 AP)." in arc
    assert arcs.shots_words(4) == "4 shots"


def test_toward_offers_the_enemies_first_then_every_dot_in_sight() -> None:
    """Firing Arcs ¶1 ("any direction"): /arc's toward offers each enemy's dot, labelled with who
    stands there, nearest first, then every other dot the trooper sees."""
    match = fresh()
    faces = InfantryChoices(match.state, 0).values("Hale", "arc", "toward")
    enemies = [t for t in match.state.troopers_of(1)]
    first = faces[: len(enemies)]
    assert {value for value, _ in first} == {str(t.dot) for t in enemies}
    assert all(any(t.id in label for t in enemies) for _, label in first)
    rest = [Dot.parse(value) for value, _ in faces[len(enemies) :]]
    here = Dot.parse("A1")
    assert rest and [here.distance(d) for d in rest] == sorted(here.distance(d) for d in rest)
    assert len(faces) > 25  # all of them: Discord's list keeps those matching what is typed
    orders = dict(InfantryChoices(match.state, 0).values("Hale", "arc", "order"))
    assert orders["first"] == "first: only the first N enemies"
    assert orders["hold"] == "hold: never unless you answer a prompt"


def test_the_console_previews_a_trooper_where_it_stands_and_as_if_on_a_dot(
    tmp_path: Path,
) -> None:
    """/match preview (the console's `preview`) of a trooper: the service copies the match for
    the preview; the infantry map of dots never changes, so it is shared, not copied (it has
    no doors), and the preview draws where the trooper can go, here and as if on another dot."""
    lines = ["auto", "auto", "preview Ishida", "preview Ishida C10", "preview Ishida Z40", "quit"]
    ask, said = scripted(lines)
    code = asyncio.run(
        run_console(False, tmp_path, ask=ask, say=said.append, seed=3, rules="infantry")
    )
    text = "\n".join(said)
    assert code == 0
    assert "as if on C10" in text, text
    # Skirmishers shoot only from arcs, in the enemy's turn: the lists say so.
    assert "Its arc's shots, when an enemy enters it (" in text and "Attacks (" not in text
    assert "Enemy arcs on Ishida's way to C10:" in text, text
    assert "Z40 is not on the map" in text, text
    assert len(list(tmp_path.glob("preview*.png"))) == 2, sorted(p.name for p in tmp_path.iterdir())
