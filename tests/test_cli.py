"""The command line as a user runs it (issue 2: `skirmbot demo`, `skirmbot replay`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skirmbot.cli import main


def test_demo_writes_a_record_that_is_byte_identical_for_the_same_seed(tmp_path: Path) -> None:
    """Issue 2 item 10: the same seed gives a byte-identical record."""
    assert main(["demo", "--seed", "5", "--out", str(tmp_path / "a")]) == 0
    assert main(["demo", "--seed", "5", "--out", str(tmp_path / "b")]) == 0
    first = (tmp_path / "a" / "match.json").read_bytes()
    assert first == (tmp_path / "b" / "match.json").read_bytes()
    record = json.loads(first)
    assert record["format"] == "skirmbot-record" and record["dice"] == {"seed": 5}
    assert record["commands"][0]["type"] == "deploy"


def test_demo_record_replays_to_a_finished_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 2 item 8: replaying the demo's record prints the log, ending with the result."""
    main(["demo", "--seed", "2", "--out", str(tmp_path)])
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "match.json")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(".") and "deploys" in lines[0]
    assert "Turn 1 of 4 begins." in lines
    assert lines[-1].startswith("The match ends")
    assert main(["replay", str(tmp_path / "match.json"), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["phase"] == "ended" and state["result"]["reason"] == lines[-1]


def test_replay_of_a_missing_file_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_replay_of_something_that_is_not_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"hello": 1}')
    assert main(["replay", str(path)]) == 2
    assert "not a skirmbot match record" in capsys.readouterr().err


# --- a user's mistakes: one plain line, no traceback (issue: a new user reaches a rendered
# match without a traceback, whatever they type) ----------------------------------------------
@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of good and bad inputs: a real record, records broken in every way, a file
    where a folder belongs, a file that is not a database."""
    from skirmbot.demo import play_demo

    folder = tmp_path_factory.mktemp("files")
    _, record = play_demo(2)
    good = json.loads(record.dumps())
    (folder / "match.json").write_text(record.dumps(), encoding="utf-8")
    (folder / "bom.json").write_text("\ufeff" + record.dumps(), encoding="utf-8")
    (folder / "binary.json").write_bytes(bytes(range(256)))
    (folder / "notes.txt").write_text("Skirm night on Thursday\n", encoding="utf-8")
    (folder / "empty.json").write_text("", encoding="utf-8")
    (folder / "other.json").write_text('{"hello": 1}', encoding="utf-8")
    broken = {
        "players.json": {**good, "players": 5},
        "content.json": {**good, "content": {"map": 5}},
        "dice.json": {**good, "dice": {"seed": "x"}},
        "version.json": {**good, "version": 99},
        "commands.json": {**good, "commands": "deploy"},
        "command.json": {**good, "commands": [5]},
        "illegal.json": {**good, "commands": [*good["commands"][:3], {"type": "end", "side": 1}]},
        "undeployed.json": {**good, "commands": []},
    }
    for name, data in broken.items():
        (folder / name).write_text(json.dumps(data), encoding="utf-8")
    (folder / "a-file").write_text("in the way\n", encoding="utf-8")
    return folder


ANY_RECORD = [
    "replay",
    "replay --json",
    "render --out OUT/x.png",
    "render --card Halden --out OUT/x.png",
]
BAD_RECORDS = [
    ("missing.json", "cannot read FILES/missing.json: there is no such file."),
    ("", "FILES is a folder, not a match record (such as FILES/match.json)."),
    ("binary.json", "FILES/binary.json is not a match record: it is not text"),
    ("notes.txt", "FILES/notes.txt: The record is not valid JSON"),
    ("empty.json", "FILES/empty.json: The record is not valid JSON"),
    (
        "other.json",
        'FILES/other.json: This is not a skirmbot match record (it needs "format": "skirmbot-record").',
    ),
    ("players.json", "FILES/players.json: A record's 'players' must list the two players' names."),
    ("content.json", "FILES/content.json: "),
    (
        "dice.json",
        """FILES/dice.json: The record's dice must be {"key": HEX}, {"seed": N} or {"script": [faces]}.""",
    ),
    ("version.json", "FILES/version.json: Record version 99 is not supported"),
    (
        "commands.json",
        "FILES/commands.json: A record needs 'content' and 'dice' objects and a 'commands' list.",
    ),
]
USAGE_MISTAKES = [
    (
        "render FILES/match.json",
        "the following arguments are required: --out (see 'skirmbot render --help')",
    ),
    (
        "render FILES/match.json --out FILES",
        "--out FILES is a folder; give a file name, such as FILES/battlemap.png.",
    ),
    (
        "render FILES/match.json --out FILES/a-file/x.png",
        "--out FILES/a-file is a file, not a folder.",
    ),
    (
        "render FILES/match.json --after x --out OUT/x.png",
        "argument --after: 'x' is not an activation: use 0 (as deployed)",
    ),
    (
        "render FILES/match.json --after -1 --out OUT/x.png",
        "argument --after: '-1' is not an activation",
    ),
    (
        "render FILES/match.json --after 9999 --out OUT/x.png",
        "FILES/match.json: The match has no activation 9999: it has activations 0 (deployment) to",
    ),
    (
        "render FILES/match.json --card Nobody --out OUT/x.png",
        "There is no unit called 'Nobody'. Units: Halden,",
    ),
    (
        "render FILES/undeployed.json --out OUT/x.png",
        "FILES/undeployed.json: the match has not been deployed yet, so there is nothing to draw.",
    ),
    ("replay", "the following arguments are required: record (see 'skirmbot replay --help')"),
    ("replay FILES/match.json --color", "unrecognized arguments: --color (see 'skirmbot --help')"),
    ("demo --seed x", "argument --seed: 'x' is not a seed: use a whole number from 0 to"),
    ("demo --seed -1", "argument --seed: '-1' is not a seed"),
    ("demo --seed 1.5", "argument --seed: '1.5' is not a seed"),
    ("demo --seed 99999999999999999999", "argument --seed: '99999999999999999999' is not a seed"),
    ("demo --out FILES/a-file", "--out FILES/a-file is a file, not a folder."),
    ("demo --out FILES/a-file/deeper", "cannot make the folder FILES/a-file/deeper for --out"),
    ("console --out FILES/a-file", "--out FILES/a-file is a file, not a folder."),
    (
        "console --out OUT --db FILES",
        "--db FILES is a folder; give a file name, such as FILES/skirmbot.db.",
    ),
    ("console --out OUT --db FILES/a-file/x.db", "--db FILES/a-file is a file, not a folder."),
    (
        "console --out OUT --db FILES/notes.txt",
        "cannot use FILES/notes.txt as the console's database: file is not a database",
    ),
    ("console --seed many", "argument --seed: 'many' is not a seed"),
    ("play", "argument command: invalid choice: 'play'"),
]


def run_cli(
    command: str, files: Path, out: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    argv = [word.replace("FILES", str(files)).replace("OUT", str(out)) for word in command.split()]
    code = main(argv)
    err = capsys.readouterr().err
    return code, err.replace(str(files), "FILES").replace(str(out), "OUT")


@pytest.mark.parametrize("command", ANY_RECORD)
@pytest.mark.parametrize(
    ("name", "message"), BAD_RECORDS, ids=[n or "folder" for n, _ in BAD_RECORDS]
)
def test_every_record_command_says_what_is_wrong_with_a_bad_record_file(
    command: str,
    name: str,
    message: str,
    files: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    words = command.split()
    code, err = run_cli(
        " ".join([words[0], f"FILES/{name}".rstrip("/"), *words[1:]]), files, tmp_path, capsys
    )
    assert "Traceback" not in err
    assert code == 2
    assert err.startswith(f"skirmbot: {message}")
    assert len(err.splitlines()) == 1
    assert not list(tmp_path.iterdir())  # nothing written


@pytest.mark.parametrize("command", ANY_RECORD)
@pytest.mark.parametrize("name", ["command.json", "illegal.json"])
def test_an_illegal_command_in_a_record_stops_with_exit_1_and_names_it(
    command: str, name: str, files: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """README: a replay that meets an illegal command exits 1 and says which command and why;
    `render` replays the record too, so it says the same."""
    words = command.split()
    code, err = run_cli(" ".join([words[0], f"FILES/{name}", *words[1:]]), files, tmp_path, capsys)
    position = 1 if name == "command.json" else 4
    assert code == 1 and "Traceback" not in err
    first, second = err.splitlines()
    assert first.startswith(f"skirmbot: replay stopped at command {position}: ")
    command_text = '{"type": "end", "side": 1}' if position == 4 else "5"
    assert second == f"  the command: {command_text}"


@pytest.mark.parametrize(("command", "message"), USAGE_MISTAKES, ids=[c for c, _ in USAGE_MISTAKES])
def test_every_subcommand_answers_a_mistake_with_one_plain_line(
    command: str, message: str, files: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run_cli(command, files, tmp_path / "out", capsys)
    assert "Traceback" not in err
    assert code == 2
    assert err.startswith(f"skirmbot: {message}")
    assert len(err.splitlines()) == 1


def test_run_without_a_token_says_how_to_give_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skirmbot: DISCORD_TOKEN is not set") and "Traceback" not in err


@pytest.mark.parametrize("db", ["folder", "notes.txt"])
def test_run_with_a_database_it_cannot_use_says_so_before_connecting(
    db: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SKIRMBOT_DB naming a folder or a file that is not a database: one line and exit 2,
    before any connection to Discord (the token is not even tried)."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "notes.txt").write_text("shopping list: dice, more dice\n" * 50)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("SKIRMBOT_DB", str(tmp_path / db))
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"skirmbot: SKIRMBOT_DB={tmp_path / db}: ") and "Traceback" not in err
    assert ("is a folder" if db == "folder" else "not a database") in err


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "--help"]) == 0
    assert "--after" in capsys.readouterr().out


def test_render_makes_the_folder_it_writes_into(
    files: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue: `render record.json --out missing-dir/x.png` ended in FileNotFoundError."""
    picture = tmp_path / "missing-dir" / "deeper" / "x.png"
    assert main(["render", str(files / "match.json"), "--out", str(picture)]) == 0
    assert picture.read_bytes().startswith(b"\x89PNG")
    card = tmp_path / "cards" / "halden.png"
    assert (
        main(
            [
                "render",
                str(files / "bom.json"),
                "--card",
                "halden",
                "--after",
                "0",
                "--out",
                str(card),
            ]
        )
        == 0
    )
    assert card.read_bytes().startswith(b"\x89PNG")
    assert capsys.readouterr().out.splitlines() == [f"wrote {picture}", f"wrote {card}"]


def test_an_interrupted_command_says_so_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(seed: int, rules: str, players: int, battle_map: str | None) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr("skirmbot.demo.play_demo", interrupted)
    assert main(["demo", "--out", str(tmp_path)]) == 130
    assert capsys.readouterr().err == "\nskirmbot: interrupted\n"


def test_the_demo_takes_as_many_players_as_its_ruleset_allows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 29: --players N (2 by default) is refused in words when the ruleset is not played
    by N, before anything is written; a number that is no number is a usage error too."""
    assert main(["demo", "--players", "3", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == "skirmbot: Skirm is played by 2 players, not 3.\n"
    assert main(["demo", "--players", "three", "--ruleset", "lite"]) == 2
    assert "'three' is not a number of players" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
