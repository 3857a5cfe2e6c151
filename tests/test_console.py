"""`skirmbot console` (issue 4: everything a player can do in Discord can be done there).

The console is driven by feeding it the lines a player would type; running out of lines is the
end of input (Ctrl-D)."""

from __future__ import annotations

import io
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from skirmbot import content
from skirmbot.cli import main
from skirmbot.console import HELP, ConsoleError, help_for, plain_text, run_console
from skirmbot.demo import new_demo_match
from skirmbot.rules.commands import Move
from skirmbot.rules.movement import Mover, reachable
from skirmbot.rules.record import MatchRecord, replay
from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.skirm import autoplayer
from skirmbot.rules.skirm.engine import Match
from skirmbot.service import person, when

Ask = Callable[[str], str]
SEED = 3  # the console's dice seed in these tests: Iron Wardens (Player 1) win the initiative


def auto_deployment(side: int) -> list[str]:
    """What `auto` deploys for `side` in the console's match, as the help shows it ('Brann A2'):
    the automatic player's deployment of a fresh match of the shipped content."""
    match, _ = new_demo_match(SEED)
    placements = autoplayer.deployment(match.state, side).placements
    return [f"{unit} {square}" for unit, square in placements.items()]


def deployed() -> Match:
    """The console's match after both players typed `auto`: turn 1, Iron Wardens to act."""
    match, _ = new_demo_match(SEED)
    for side in (0, 1):
        match.apply(autoplayer.deployment(match.state, side))
    return match


def walk(unit: str, steps: int) -> list[str]:
    """Where `unit` (of Iron Wardens) can go in `steps` Moves of one square of movement each
    after `auto`, `auto`: the first square (in reading order) one movement point from the last,
    never back to a square already stood on. Derived from the match, not from where the
    automatic player happens to deploy."""
    match = deployed()
    state = match.state
    here = state.units[unit].square
    assert here is not None
    mover = Mover("0", fly=state.units[unit].card.has("FLY"))
    visited = [here]
    for step in range(steps):
        routes = reachable(state.board, visited[-1], 1, mover, state.occupancy())
        nxt = min(
            (s for s, route in routes.items() if route.cost == 1 and s not in visited),
            key=lambda s: (s.y, s.x),
        )
        visited.append(nxt)
        if step < steps - 1:  # the next square is worked out from where the unit now stands
            match.apply(Move(0, unit, str(nxt)))
    return [str(square) for square in visited]


def scripted(lines: list[str], then: type[BaseException] = EOFError) -> tuple[Ask, list[str]]:
    """An `ask` that types `lines` one per prompt, then raises `then` (EOFError: Ctrl-D); and
    the list that collects every prompt and every message, in order."""
    feed: Iterator[str] = iter(lines)
    said: list[str] = []

    def ask(prompt: str) -> str:
        said.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise then from None

    return ask, said


async def play(tmp_path: Path, lines: list[str]) -> tuple[int, str, list[str]]:
    """Run the hot-seat console on `lines`; its exit code, everything it said, the prompts."""
    ask, said = scripted(lines)
    code = await run_console(False, tmp_path, ask=ask, say=said.append, seed=3)
    prompts = [line for line in said if line.endswith("> ")]
    return code, "\n".join(said), prompts


async def test_hot_seat_plays_with_the_slash_command_words(tmp_path: Path) -> None:
    code, text, _ = await play(
        tmp_path,
        [
            "auto",
            "auto",
            "status",
            "move Nobody C4",
            "fly Halden C4",
            "end Halden",
            "log",
            "concede",
        ],
    )
    assert code == 0
    assert "Both squads deploy" in text
    assert "There is no unit called 'Nobody'" in text  # a refusal, shown and survived
    assert "'fly' is not a command" in text
    assert "activation ends" in text and "wins" in text
    assert sorted(p.name for p in tmp_path.glob("*.png"))  # pictures written after activations


async def test_practice_against_the_automatic_player_until_the_end(tmp_path: Path) -> None:
    wardens = ["end Brann", "end Tamsin", "end Corra", "end Osk", "end Pell", "end Halden"]
    ask, said = scripted(["auto"] + wardens * 5)
    code = await run_console(True, tmp_path, ask=ask, say=said.append, seed=5)
    assert code == 0
    assert any("The match ends" in line for line in said)


async def test_the_record_is_written_when_the_match_is_over_and_replays(tmp_path: Path) -> None:
    code, text, _ = await play(tmp_path, ["auto", "auto", "end Halden", "concede"])
    assert code == 0
    record = tmp_path / "skirm-match-1.json"
    assert f"The match is over. Its record: {record}" in text
    assert f"skirmbot render {record} --out" in text
    match = replay(MatchRecord.loads(record.read_text(encoding="utf-8")))
    assert match.state.result is not None


# --- help and mistakes at every prompt ------------------------------------------------------
async def test_help_and_mistakes_at_the_deployment_prompt_ask_again(tmp_path: Path) -> None:
    """The issue: `help` at the deployment prompt crashed with a ServiceError."""
    code, text, prompts = await play(
        tmp_path,
        [
            "help",
            "",
            "nonsense",
            "Halden",
            "Halden C2 Brann D2",
            "Halden Z99",
            "Halden C9, Brann D2",
            "/deploy auto",
            "HELP",
            "auto",
        ],
    )
    assert code == 0
    assert "Traceback" not in text
    assert "Deploy Iron Wardens: put each of Halden" in text  # the help names the units
    assert "the 2 rows at the top of the map (A1 to L2)" in text  # ... and the zone
    wardens, runners = auto_deployment(0), auto_deployment(1)
    assert f"For example: {', '.join(wardens)}\n" in text
    assert "'nonsense' should be a unit and a square, like 'Halden C2'" in text
    assert "'Halden' should be a unit and a square" in text
    assert "separate the units with commas" in text
    assert "! Z99 is off the map: squares run from A1 to L12." in text
    assert "! Halden must deploy in your zone, the 2 rows at the top; C9 is not in it." in text
    assert "Type help for how to deploy." in text
    assert "Player 1 has deployed" in text  # '/deploy auto' as typed in Discord
    assert "Deploy Ash Runners: put each of Vex" in text  # player 2's own units and zone
    assert "Both squads deploy" in text
    assert (
        prompts[0]
        == f"Player 1, deploy Iron Wardens (auto, help, or like '{', '.join(wardens[:2])}')> "
    )
    assert (
        prompts[-2]
        == f"Player 2, deploy Ash Runners (auto, help, or like '{', '.join(runners[:2])}')> "
    )


async def test_help_and_mistakes_at_the_match_prompt_ask_again(tmp_path: Path) -> None:
    start, first = walk("Halden", 1)
    code, text, prompts = await play(
        tmp_path,
        [
            "auto",
            "auto",
            "help",
            "help move",
            "help fly",
            "",
            "move Halden",
            "move Halden C4 lots",
            'move "Halden C4',
            "card",
            "standing",
            "standing many",
            "reroll",
            "reroll x",
            "modify 1",
            "activate",
            "timer show",
            "/match status",
            "match log",
            f"move Halden to {first}",
        ],
    )
    assert code == 0
    said = text.split("\n")
    assert "Now, Player 1: activate a unit (Halden, Corra, Brann, Tamsin, Osk, Pell)" in text
    assert "Usage: move UNIT SQUARE [TO]" in said
    assert "'fly' is not a command. Type help for the list." in said
    assert "! Usage: move UNIT SQUARE [TO]" in said
    assert "! 'lots' is not a whole number. Usage: move UNIT SQUARE [TO]" in text
    assert "No closing quotation" in text
    assert "! Usage: card UNIT" in said
    assert "! Usage: standing N|never [PER_ATTACK]" in said
    assert "! 'many' is not a whole number." in text
    assert "! Usage: reroll DIE" in said
    assert "! 'x' is not a whole number." in text
    assert "! Usage: modify DIE +1|-1" in said
    assert "! Usage: activate UNIT" in said
    assert "The console keeps no clock" in text
    assert "Match #1, turn 1 of 4." in text  # /match status
    assert f"Halden moves {start} → {first} (1 movement)." in said  # 'move Halden to ...'
    assert all(p == "[Iron Wardens] Player 1> " for p in prompts[2:])  # asked again each time


def out_of_act() -> list[str]:
    """Halden (3 ACT) moves twice, 1 + 2 ACT: none left; then a Dash needs a Tactical Order."""
    _, first, second, third = walk("Halden", 3)
    return ["auto", "auto", f"move Halden {first}", f"move Halden {second}", f"dash Halden {third}"]


async def test_spending_tactical_orders_asks_yes_or_no_and_explains(tmp_path: Path) -> None:
    *_, second, third = walk("Halden", 3)
    code, text, prompts = await play(
        tmp_path, [*out_of_act(), "help", "maybe", "n", f"dash Halden {third}", "y"]
    )
    assert code == 0
    question = "Dash costs 1 and Halden has 0 ACT left: spend 1 Tactical Order to do it (your squad has 2). Spend them? [y/N]> "
    assert prompts.count(question) == 4
    assert "Type y (yes) or n (no; Enter says no too), or quit." in text
    assert "! Answer y (yes) or n (no); Enter says no." in text
    assert "Not done." in text
    assert f"Halden dashes {second} → {third} (1 movement)." in text.split("\n")


async def test_a_draw_offer_is_answered_by_the_other_player_at_once(tmp_path: Path) -> None:
    code, text, prompts = await play(tmp_path, ["auto", "auto", "draw", "help", "", "draw", "y"])
    assert code == 0
    assert prompts.count("Player 2, accept the draw? [y/N]> ") == 3
    assert "Player 2 says no." in text
    assert "The match is over." in text and (tmp_path / "skirm-match-1.json").exists()


async def test_an_undo_is_agreed_by_the_other_player_at_once(tmp_path: Path) -> None:
    _, first = walk("Halden", 1)
    code, text, prompts = await play(
        tmp_path, ["auto", "auto", f"move Halden {first}", "undo", "y"]
    )
    assert code == 0
    assert "Player 2, agree to take the action back? [y/N]> " in prompts
    assert "Player 2 agrees: the last action is taken back." in text


async def test_infiltrators_are_placed_at_their_own_prompt(tmp_path: Path) -> None:
    runners = content.raw("squads", "ash-runners")
    runners["units"][1]["specials"] = [*runners["units"][1].get("specials", []), "INF"]
    name = runners["units"][1]["name"]
    ask, said = scripted(["auto", "help", "auto", "help", name, "auto", "status"])
    code = await run_console(
        False, tmp_path, squads=("iron-wardens", runners), ask=ask, say=said.append, seed=3
    )
    text = "\n".join(said)
    assert code == 0
    others = ", ".join(unit["name"] for unit in runners["units"] if unit["name"] != name)
    assert f"Deploy Ash Runners: put each of {others} on" in text
    assert f"'{name}' should be a unit and a square" in text
    assert f"{name} (INF) will infiltrate after both deployments." in text
    assert f"Player 2, place the infiltrators of Ash Runners (auto, help, or like '{name} " in text
    assert f"Place the infiltrators of Ash Runners ({name})" in text
    assert "The infiltrators appear" in text
    assert "Match #1, turn 1 of 4." in text


# --- leaving ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "typed",
    [
        pytest.param([], id="first-deployment"),
        pytest.param(["auto"], id="second-deployment"),
        pytest.param(["auto", "auto"], id="match"),
        pytest.param(["auto", "auto", "draw"], id="draw-question"),
        pytest.param(out_of_act(), id="orders-question"),
    ],
)
@pytest.mark.parametrize(
    ("leaving", "code", "words"),
    [
        pytest.param(EOFError, 0, "End of input: goodbye.", id="ctrl-d"),
        pytest.param(KeyboardInterrupt, 130, "Interrupted: goodbye.", id="ctrl-c"),
    ],
)
async def test_ctrl_d_and_ctrl_c_leave_cleanly_at_every_prompt(
    tmp_path: Path, typed: list[str], leaving: type[BaseException], code: int, words: str
) -> None:
    ask, said = scripted(typed, then=leaving)
    assert await run_console(False, tmp_path, ask=ask, say=said.append, seed=3) == code
    assert (
        said[-1]
        == f"\n{words} The match was not saved (skirmbot console --db FILE keeps a match to go on with later)."
    )


@pytest.mark.parametrize("typed", [["quit"], ["auto", "exit"], ["auto", "auto", "quit"]])
async def test_quit_leaves_at_every_prompt(tmp_path: Path, typed: list[str]) -> None:
    code, text, _ = await play(tmp_path, typed)
    assert code == 0 and text.endswith(
        "Goodbye. The match was not saved (skirmbot console --db FILE keeps a match to go on with later)."
    )


async def test_a_match_kept_in_a_database_goes_on_where_it_was_left(tmp_path: Path) -> None:
    db = str(tmp_path / "console.db")
    kept = f"The match is kept in {db}: skirmbot console --db {db} goes on with it."
    ask, said = scripted(["auto", "quit"])
    assert await run_console(False, tmp_path, db, ask=ask, say=said.append, seed=3) == 0
    assert said[-1] == f"Goodbye. {kept}"
    ask, said = scripted(["auto"])  # --practice does not change a hot-seat match
    assert await run_console(True, tmp_path, db, ask=ask, say=said.append) == 0
    assert said[0] == f"Going on with match #1 (hot-seat), kept in {db}."
    assert said[1].startswith("Player 2, deploy Ash Runners")  # only the missing deployment
    assert said[-1] == f"\nEnd of input: goodbye. {kept}"
    ask, said = scripted(["end Halden"])
    assert await run_console(False, tmp_path, db, ask=ask, say=said.append) == 0
    assert "Halden's activation ends" in "\n".join(said)
    pictures = sorted(p.name for p in tmp_path.glob("battlemap-*.png"))
    assert pictures == ["battlemap-000.png", "battlemap-001.png"]  # numbered on


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "notes.txt"
    db.write_text("not a database\n" * 100)
    with pytest.raises(ConsoleError, match="cannot use .*notes.txt as the console's database"):
        await run_console(False, tmp_path, str(db), ask=scripted([])[0])
    with pytest.raises(sqlite3.Error):  # the file is left as it was
        sqlite3.connect(db).execute("SELECT * FROM sqlite_master").fetchall()


async def test_a_mission_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConsoleError, match="cannot start the match: .*nowhere"):
        await run_console(False, tmp_path, mission="nowhere", ask=scripted([])[0])


def test_the_command_line_console_answers_help_at_the_first_prompt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue, as a new user meets it: `skirmbot console`, then `help`, then Ctrl-D."""
    monkeypatch.setattr("sys.stdin", io.StringIO("help\n"))
    assert main(["console", "--out", str(tmp_path / "pictures"), "--seed", "3"]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and captured.err == ""
    example = ", ".join(auto_deployment(0)[:2])
    assert (
        f"Player 1, deploy Iron Wardens (auto, help, or like '{example}')> help\n" in captured.out
    )
    assert "Deploy Iron Wardens: put each of Halden" in captured.out
    assert "End of input: goodbye." in captured.out


# --- the service's texts as plain text --------------------------------------------------------
async def test_the_console_shows_no_discord_markup(tmp_path: Path) -> None:
    code, text, _ = await play(tmp_path, ["auto", "auto", "end Halden", "draw", "n", "concede"])
    assert code == 0
    for markup in ("**", "<@", "<t:", "`", "||", "__", "\x02", "\x03"):
        assert markup not in text
    assert "New Skirm match #1: Hold the Line on Foundry." in text
    assert "Player 1 fields Iron Wardens (6 units, 100 EP)." in text
    assert "Player 2: activate a unit (Vex, Kor" in text  # the mention is the name
    assert "Player 2 offers a draw. Player 1: /match draw to accept." in text
    assert "Time runs out" not in text and "Time controls" not in text  # no clock here


NAMES = {1: "Player 1", 2: "Ana", 0: "Automatic player"}
NOW = 1_700_000_000


@pytest.mark.parametrize(
    ("markup", "plain"),
    [
        ("**New Skirm match** #1", "New Skirm match #1"),
        (f"{person(1)}: activate a unit.", "Player 1: activate a unit."),
        (f"{person(2)} and {person(0)}", "Ana and Automatic player"),
        (f"{person(99)} joins", "@99 joins"),
        (f"Time runs out {when(1700010800)}.", "Time runs out in 3 hours."),
        (f"Missed {when(1699999910.7)}.", "Missed 2 minutes ago."),
        (when(1700259200), "in 3 days"),
        ("`/match join` now", "/match join now"),
        ('```json\n{"a": 1}\n```', '{"a": 1}'),
        ("`**not bold**`", "**not bold**"),
        ("||the secret|| is out", "the secret is out"),
        (
            "*italic* and _also_ and __underlined__ and ~~struck~~",
            "italic and also and underlined and struck",
        ),
        ("***both***", "both"),
        ("machine_gun and turret_MG stay", "machine_gun and turret_MG stay"),
        ("2 * 3 * 4 stays", "2 * 3 * 4 stays"),
        ("UNQ units and * gear once", "UNQ units and * gear once"),
        ("\\*not italic\\*", "*not italic*"),
        ("<:skull:1234567> and <a:fire:42>", ":skull: and :fire:"),
        ("# Heading\n-# small\n> quoted", "Heading\nsmall\nquoted"),
        (
            "[the rules](https://example.com/r) and <https://example.com>",
            "the rules (https://example.com/r) and https://example.com",
        ),
        ("</match status:123>, <@&5>, <#6>", "/match status, @role, #channel"),
        (
            "Initiative roll-off (lowest wins): 2, 5. [y/N] B1|C1 ⏰",
            "Initiative roll-off (lowest wins): 2, 5. [y/N] B1|C1 ⏰",
        ),
        (f"{person(2)}: **Bob** {person(1)}", "Ana: Bob Player 1"),
    ],
)
def test_plain_text_of_discord_markup(markup: str, plain: str) -> None:
    assert plain_text(markup, NAMES, now=NOW) == plain


def test_plain_text_of_names_that_look_like_markup() -> None:
    assert plain_text(f"{person(7)} wins", {7: "**Star**_"}) == "**Star**_ wins"
    assert plain_text("", NAMES) == ""


async def test_a_number_of_players_the_ruleset_does_not_take_is_refused(tmp_path: Path) -> None:
    """Issue 29: the console plays one seat per player, as many as the ruleset allows."""
    with pytest.raises(ConsoleError, match=r"^Skirm Lite is played by 2 players, not 4\.$"):
        await run_console(False, tmp_path, rules="lite", players=4, ask=scripted([])[0])


async def test_three_players_take_the_keyboard_in_turn_at_a_d20_match(tmp_path: Path) -> None:
    """Issue 29: hot-seat for three (rulebook 004: the initiative order of the round). The
    first to act ends its turn, the next two concede in turn: the one left wins."""
    ask, said = scripted(["auto", "auto", "auto", "act 5", "concede", "concede"])  # 5: End turn
    code = await run_console(
        False, tmp_path, ask=ask, say=said.append, seed=2, rules="d20", players=3
    )
    prompts = [line for line in said if line.endswith("> ")]
    assert prompts[3:] == [
        "[Gold Breakers] Player 2> ",
        "[Green Wardens] Player 3> ",
        "[Blue Hunters] Player 1> ",
    ]
    assert code == 0
    told = "\n".join(said)
    assert "Match #1 is over. Gold Breakers wins (Blue Hunters conceded)" in told
    assert "Player 1 (Blue Hunters, 2nd) · Player 2 (Gold Breakers, 1st) · Player 3" in told
    assert "No medals: d20 Skirmish keeps no campaign progress." in told  # none: no campaigns


def test_the_help_lists_only_what_the_matchs_rules_play() -> None:
    """Issue 29: the d20 rules have no turrets, leaps, doors or Tactical Orders, so the help of
    a d20 match does not offer them; Skirm's help is the whole list, as it always was."""
    assert help_for(ruleset("skirm")) == HELP
    d20 = help_for(ruleset("d20"))
    assert "move UNIT SQUARE   end [UNIT]" in d20 and "act [NUMBER]" in d20
    for word in ("turret", "leap", "door", "crate", "reroll", "standing", "[TO]", "Tactical"):
        assert word not in d20
    lite = help_for(ruleset("lite"))
    assert "reroll DIE" in lite and "standing N|never" in lite and "leap" not in lite
