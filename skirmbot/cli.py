"""The `skirmbot` command line: replay records and play the offline demo.

A mistake in what the user asked for (a missing or unreadable file, a folder given as a file, a
record that is not one, a bad number, an unknown unit) prints one plain line to stderr and exits
with 2; a record whose replay meets an illegal command exits with 1 and says which command.
`db copy` exits with 2 when it refuses (no source, a destination that is not empty) and with 1
when the copy fails or does not verify. `verify` exits with 0 when a record's dice check out
(it prints what it checked), 1 when something does not match (it says what), 2 when the file
cannot be read as a record.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

from skirmbot.rules.errors import RulesError
from skirmbot.rules.record import MatchRecord, ReplayError, replay
from skirmbot.rules.ruleset import DEFAULT_RULESET, PlayedMatch, ruleset, rulesets
from skirmbot.rules.view import SETUP

EXIT_ILLEGAL = 1  # a replay met an illegal command
EXIT_UNVERIFIED = 1  # db copy: the copy does not verify; verify: the record's dice do not
EXIT_USAGE = 2  # the user's mistake: arguments, files
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report it
MAX_SEED = 2**63 - 1  # seeds are kept in SQLite and JSON as whole numbers
MAX_VERIFIED_BYTES = 64 * 2**20  # `verify` reads no bigger file: a long match's record is < 1 MB


class UsageError(Exception):
    """The user asked for something that cannot be done; the message says what and why."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports a mistake as a UsageError (one line) instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _seed(text: str) -> int:
    try:
        seed = int(text)
    except ValueError:
        seed = -1
    if not 0 <= seed <= MAX_SEED:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a seed: use a whole number from 0 to {MAX_SEED}"
        )
    return seed


def _activation(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not an activation: use 0 (as deployed), 1 (after the first activation), 2, ..."
        )
    return number


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="skirmbot", description="Play Skirm play-by-post.")
    sub = parser.add_subparsers(dest="command")
    p_replay = sub.add_parser("replay", help="replay a match record and print its event log")
    p_replay.add_argument("record", type=Path)
    p_replay.add_argument(
        "--json", action="store_true", help="print the final state as JSON instead"
    )
    p_demo = sub.add_parser("demo", help="the automatic player plays a whole match against itself")
    p_demo.add_argument("--seed", type=_seed, default=1, help="the dice seed (default 1)")
    p_demo.add_argument("--ruleset", type=_ruleset, default=DEFAULT_RULESET, help=RULESET_HELP)
    p_demo.add_argument("--players", type=_players, default=None, help=PLAYERS_HELP)
    p_demo.add_argument("--map", default=None, help=MAP_HELP)
    p_demo.add_argument(
        "--out", type=Path, default=Path("out/demo"), help="the folder to write (default out/demo)"
    )
    p_demo.add_argument("--map-file", type=Path, default=None, help=MAP_FILE_HELP)
    p_console = sub.add_parser(
        "console", help="play a match here in the terminal (hot-seat or against the bot)"
    )
    p_console.add_argument(
        "--practice", action="store_true", help="play against the automatic player"
    )
    p_console.add_argument(
        "--out", type=Path, default=Path("out/console"), help="where the pictures and the record go"
    )
    p_console.add_argument(
        "--db", default=":memory:", help="SQLite file to keep the match in (run again to go on)"
    )
    p_console.add_argument("--seed", type=_seed, default=None, help="the dice seed")
    p_console.add_argument("--ruleset", type=_ruleset, default=DEFAULT_RULESET, help=RULESET_HELP)
    p_console.add_argument("--players", type=_players, default=None, help=PLAYERS_HELP)
    p_console.add_argument("--map", default=None, help=MAP_HELP)
    p_console.add_argument("--map-file", type=Path, default=None, help=MAP_FILE_HELP)
    p_console.add_argument(
        "--clock",
        default=None,
        help="a new match's clock: activation[:HOURS], fischer[:BANK+INCREMENT], days[:DAYS]",
    )
    p_verify = sub.add_parser(
        "verify",
        help="check a finished match's dice: the seed against its commitment, every die, the result",
        description=(
            "Check the record of a finished match (/match export): its revealed seed hashes to "
            "the commitment posted at the start, both salts match their seals, every die comes "
            "from the seed and salts, and the replay ends with the recorded result."
        ),
    )
    p_verify.add_argument("record", type=Path)
    p_verify.add_argument(
        "--commitment",
        metavar="HEX",
        help="the commitment the bot posted at the start, to hold the record's against",
    )
    p_render = sub.add_parser(
        "render", help="draw the battlemap (or a stat card) from a match record"
    )
    p_render.add_argument("record", type=Path)
    p_render.add_argument(
        "--after",
        type=_activation,
        default=None,
        help="after this activation (0: as deployed; default: the end)",
    )
    p_render.add_argument(
        "--card", metavar="UNIT", help="draw this unit's stat card instead of the map"
    )
    p_render.add_argument(
        "--out", type=Path, required=True, help="the PNG file to write (its folder is made)"
    )
    sub.add_parser("run", help="run the Discord bot (DISCORD_TOKEN from the environment or .env)")
    p_web = sub.add_parser(
        "web", help="serve the published league and match pages, without Discord"
    )
    p_web.add_argument(
        "--db", default=None, help="the database (default SKIRMBOT_DB or skirmbot.db)"
    )
    p_web.add_argument(
        "--listen", default="127.0.0.1:8080", help="host:port (default 127.0.0.1:8080)"
    )
    p_league = sub.add_parser("league", help="community leagues offline")
    league_sub = p_league.add_subparsers(dest="league_command")
    p_sim = league_sub.add_parser(
        "simulate", help="play a whole league season with automatic players"
    )
    p_sim.add_argument("--players", type=_count, default=12, help="how many (default 12)")
    p_sim.add_argument("--rounds", type=_count, default=5, help="Swiss rounds (default 5)")
    p_sim.add_argument(
        "--format", choices=("swiss", "round_robin"), default="swiss", help="default swiss"
    )
    p_sim.add_argument("--seed", type=_seed, default=1, help="the seed (default 1)")
    p_sim.add_argument(
        "--out", type=Path, default=Path("out/league"), help="the folder (default out/league)"
    )
    p_sim.add_argument(
        "--quick", action="store_true", help="draw results with the seed instead of playing"
    )
    p_sim.add_argument("--ruleset", type=_ruleset, default=DEFAULT_RULESET, help=RULESET_HELP)
    _map_parser(sub)
    p_db = sub.add_parser("db", help="the database: copy a community's data to another one")
    db_sub = p_db.add_subparsers(dest="db_command")
    p_copy = db_sub.add_parser(
        "copy",
        help="copy every table from SRC_URL into the empty DST_URL (SQLite to PostgreSQL or back)",
        description=(
            "Copy a community's data, ids included, from one database into another, empty one, "
            "and verify the copy. SRC_URL and DST_URL are SKIRMBOT_DB values: a file path, "
            "sqlite:///file.db or postgresql://user:password@host/name. Stop the bot first: "
            "what it writes to SRC_URL after the copy begins is not copied."
        ),
    )
    p_copy.add_argument("source", metavar="SRC_URL", help="the database to copy (must exist)")
    p_copy.add_argument("destination", metavar="DST_URL", help="the empty database to fill")
    return parser


def _map_parser(sub: argparse._SubParsersAction[_Parser]) -> None:
    """`skirmbot map check FILE`: a map file checked offline, as an upload is, and drawn."""
    p_map = sub.add_parser("map", help="map files: check one offline and draw it")
    map_sub = p_map.add_subparsers(dest="map_command")
    p_check = map_sub.add_parser(
        "check",
        help="check a map file as /map upload does, and write its picture",
        description=(
            "Check a map file (the README's Map files) as a server's upload is checked: its "
            "size, its names, its squares and edges, and which shipped missions fit on it. "
            "Prints what it found, or what is wrong (exit status 2), and writes the picture of "
            "the empty map with a mission's deployment zones and objectives."
        ),
    )
    p_check.add_argument("file", type=Path, metavar="FILE", help="the map file (JSON)")
    p_check.add_argument(
        "--ruleset",
        type=_ruleset,
        default=None,
        help="check it for this ruleset alone (default: every ruleset that plays its kind)",
    )
    p_check.add_argument(
        "--mission", default=None, help="the mission drawn (default: the first that fits)"
    )
    p_check.add_argument(
        "--out", type=Path, default=None, help="the picture to write (default out/maps/NAME.png)"
    )


def _count(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = 0
    if not 2 <= number <= 256:
        raise argparse.ArgumentTypeError(f"'{text}' is not a count from 2 to 256")
    return number


RULESET_HELP = (
    "the ruleset to play: "
    + ", ".join(f"{r.name} ({r.title})" for r in rulesets().values())
    + f" (default {DEFAULT_RULESET})"
)


MAP_FILE_HELP = "play on this map file (JSON, checked as 'skirmbot map check' does)"
PLAYERS_HELP = "how many players, one per seat (default: as many as the ruleset's demo seats)"
MAP_HELP = "a shipped map of the ruleset, by its name (default: the mission's, else the ruleset's)"


def _players(text: str) -> int:
    """A number of players; whether the ruleset takes it is the command's to say."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of players") from None


def _seated(args: argparse.Namespace) -> int:
    """The players asked for, else as many as the ruleset seats in its demo (`demo_players`)."""
    from skirmbot.demo import seated

    return seated(args.ruleset, args.players)


def _ruleset(text: str) -> str:
    """A ruleset's name, from its name or title."""
    try:
        return ruleset(text).name
    except RulesError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        if args.command == "replay":
            return _replay(args.record, args.json)
        if getattr(args, "map", None) and getattr(args, "map_file", None):
            raise UsageError("give --map (a shipped map) or --map-file (a map file), not both.")
        if args.command == "demo" and args.map_file is not None:
            return _demo_on_file(args.seed, args.out, args.ruleset, _seated(args), args.map_file)
        if args.command == "demo":
            return _demo(args.seed, args.out, args.ruleset, _seated(args), args.map)
        if args.command == "console":
            return _console(
                args.practice,
                args.out,
                args.db,
                args.seed,
                args.ruleset,
                clock=args.clock,
                players=_seated(args),
                battle_map=args.map,
                map_file=args.map_file,
            )
        if args.command == "render":
            return _render(args.record, args.after, args.card, args.out)
        if args.command == "verify":
            return _verify(args.record, args.commitment)
        if args.command == "run":
            return _run_bot()
        if args.command == "web":
            return _web(args.db, args.listen)
        if args.command == "league":
            if args.league_command != "simulate":
                raise UsageError("use 'skirmbot league simulate' (see 'skirmbot league --help')")
            return _league_simulate(args)
        if args.command == "map":
            if args.map_command != "check":
                raise UsageError("use 'skirmbot map check FILE' (see 'skirmbot map --help')")
            return _map_check(args.file, args.ruleset, args.mission, args.out)
        if args.command == "db":
            if args.db_command != "copy":
                raise UsageError(
                    "use 'skirmbot db copy SRC_URL DST_URL' (see 'skirmbot db --help')"
                )
            return _db_copy(args.source, args.destination)
        return _default()
    except SystemExit as done:  # --help
        return done.code if isinstance(done.code, int) else EXIT_USAGE
    except ReplayError as error:
        print(
            f"skirmbot: replay stopped at command {error.position}: {error.reason}", file=sys.stderr
        )
        print(f"  the command: {json.dumps(error.command)}", file=sys.stderr)
        return EXIT_ILLEGAL
    except (UsageError, RulesError) as error:
        print(f"skirmbot: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\nskirmbot: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`skirmbot replay x.json | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as error:  # a file we were told to write cannot be written
        where = f"{error.filename}: " if error.filename else ""
        print(f"skirmbot: {where}{error.strerror or error}", file=sys.stderr)
        return EXIT_USAGE


# --- files -----------------------------------------------------------------------------------
def _read_record(path: Path) -> MatchRecord:
    if path.is_dir():
        raise UsageError(f"{path} is a folder, not a match record (such as {path / 'match.json'}).")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError(f"cannot read {path}: there is no such file.") from None
    except UnicodeDecodeError:
        raise UsageError(
            f"{path} is not a match record: it is not text (a record is JSON, like the match.json "
            "that skirmbot demo writes)."
        ) from None
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}.") from None
    with _record_errors(path):
        return MatchRecord.loads(text)


def _replayed(path: Path, record: MatchRecord) -> PlayedMatch:
    """The match at the end of the record; ReplayError for an illegal command in it."""
    with _record_errors(path):
        return replay(record)


@contextlib.contextmanager
def _record_errors(path: Path) -> Iterator[None]:
    """A record's content the rules reject, named with its file; a malformed one the checks
    missed is still the file's fault, not a crash."""
    try:
        yield
    except ReplayError:
        raise
    except RulesError as error:
        raise UsageError(f"{path}: {error}") from error
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise UsageError(
            f"{path} is not a valid match record ({type(error).__name__}: {error})."
        ) from error


def _folder(folder: Path, option: str) -> Path:
    """Make the folder (and its parents) to write into; UsageError when it cannot be one."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{option} {folder} is a file, not a folder.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(
            f"cannot make the folder {folder} for {option}: {error.strerror or error}."
        ) from None
    return folder


def _write(path: Path, data: bytes | str, option: str) -> None:
    if path.is_dir():
        raise UsageError(
            f"{option} {path} is a folder; give a file name, such as {path / 'battlemap.png'}."
        )
    _folder(path.parent, option)
    try:
        if isinstance(data, str):
            path.write_text(data, encoding="utf-8")
        else:
            path.write_bytes(data)
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}.") from None


# --- the commands ----------------------------------------------------------------------------
def _replay(path: Path, as_json: bool) -> int:
    record = _read_record(path)
    match = _replayed(path, record)
    if as_json:
        rules = ruleset(record.ruleset)
        print(json.dumps(rules.state_json(match.state), indent=1, ensure_ascii=False))
    else:
        for event in match.log:
            if event.kind != "cost_paid":
                print(event.text)
    return 0


def _verify(path: Path, commitment: str | None) -> int:
    """Check a record's dice (skirmbot.rules.verify); what held on stdout, what does not
    match on stderr."""
    from skirmbot.rules.verify import verify

    with contextlib.suppress(OSError):  # (a file that cannot be read is _read_record's to say)
        if path.is_file() and path.stat().st_size > MAX_VERIFIED_BYTES:
            raise UsageError(
                f"{path} is not a match record: it is {path.stat().st_size // 2**20} MB, and a "
                f"record is far smaller (verify reads up to {MAX_VERIFIED_BYTES // 2**20} MB)."
            )
    record = _read_record(path)
    try:
        with _record_errors(path):
            verdict = verify(record, commitment)
    except RecursionError:
        raise UsageError(f"{path} is not a valid match record: it nests too deeply.") from None
    for line in verdict.checked:
        print(f"ok: {line}")
    if not verdict.ok:
        for line in verdict.problems:
            print(f"skirmbot verify: {path}: {line}", file=sys.stderr)
        return EXIT_UNVERIFIED
    print(
        f"{path} verifies. Compare the commitment and the salts above with those the bot "
        "posted in the match's channel: the record is sound only if they are the same."
    )
    return 0


def _demo(
    seed: int,
    out: Path,
    rules: str = DEFAULT_RULESET,
    players: int = 2,
    battle_map: str | None = None,
) -> int:
    """Play the demo; write the record, a picture after every activation and the animation."""
    from skirmbot.demo import PlayersError, check_players, play_demo, write_demo

    try:
        check_players(rules, players)
    except PlayersError as error:
        raise UsageError(str(error)) from None
    battle_map = _shipped_map(battle_map, rules)
    _folder(out, "--out")
    match, record = play_demo(seed, rules, players, battle_map)
    last = write_demo(record, out)
    outcome = ruleset(rules).outcome(match.state)
    assert outcome is not None
    print(outcome.reason)
    print(
        f"{len(record.commands)} commands, {last} activations; wrote {out}/match.json, "
        f"activation-000.png to activation-{last:03d}.png and replay.gif"
    )
    return 0


def _shipped_map(typed: str | None, rules: str) -> str | None:
    """The file name of the shipped map `--map` names (any spelling a player may type), before
    anything is written; a name that is none of the ruleset's maps is a usage error listing
    them (ContentError, a RulesError)."""
    from skirmbot import content

    return None if typed is None else content.find("maps", typed, rules)


def _render(path: Path, after: int | None, card: str | None, out: Path) -> int:
    from skirmbot.render.battlemap import MapRenderer
    from skirmbot.render.card import card_png
    from skirmbot.render.replay import match_after

    if out.is_dir():
        raise UsageError(
            f"--out {out} is a folder; give a file name, such as {out / 'battlemap.png'}."
        )
    record = _read_record(path)
    if ruleset(record.ruleset).view(_replayed(path, record).state).phase == SETUP:
        raise UsageError(
            f"{path}: the match has not been deployed yet, so there is nothing to draw."
        )
    with _record_errors(path):
        match, events = match_after(record, after)
    rules = ruleset(record.ruleset)
    if card is None:
        picture = MapRenderer().png(rules.view(match.state), events)
    else:
        picture = card_png(rules.card(match.state, card))
    _write(out, picture, "--out")
    print(f"wrote {out}")
    return 0


def _read_map(path: Path) -> dict[str, object]:
    """A map file given by path, read as an upload is (`mapfiles.read_map_file`); UsageError
    for a file that cannot be read."""
    from skirmbot.mapfiles import MAP_FILE_LIMIT, read_map_file

    try:
        with path.open("rb") as file:
            raw = file.read(MAP_FILE_LIMIT + 1)  # one byte past the cap tells it is too large
    except OSError as error:
        raise UsageError(f"cannot read the map file {path}: {error.strerror or error}.") from None
    return read_map_file(raw, path.name)


def _on_map_file(path: Path | None, rules: str) -> dict[str, Any]:
    """The console's map and mission for `--map-file`: the file's data, checked for the ruleset,
    and the ruleset's quick mission if it fits, else the first shipped one that does."""
    if path is None:
        return {}
    from skirmbot import content
    from skirmbot.mapfiles import check_map

    checked = check_map(_read_map(path), rules)
    fitting = checked.fits[rules]
    if not fitting:
        raise UsageError(f"no shipped mission of {ruleset(rules).title} fits on {checked.name}.")
    mission = content.defaults(rules)[0]
    return {"map_data": checked.data, "mission": mission if mission in fitting else fitting[0]}


def _demo_on_file(seed: int, out: Path, rules: str, players: int, path: Path) -> int:
    """The demo on a map file: its default squads and the mission `_on_map_file` picks."""
    from skirmbot.demo import (
        PlayersError,
        check_players,
        default_content,
        new_demo_match,
        play_out,
        write_demo,
    )
    from skirmbot.rules.record import record_of

    try:
        check_players(rules, players)
    except PlayersError as error:
        raise UsageError(str(error)) from None
    chosen = _on_map_file(path, rules)
    data = default_content(mission_name=chosen["mission"], rules=rules, players=players)
    data["map"] = chosen["map_data"]
    _folder(out, "--out")
    match, data = new_demo_match(seed, data, rules, players)
    play_out(match, rules)
    names = [f"Automatic player {seat + 1}" for seat in range(players)]
    record = record_of(match, data, names, rules)
    last = write_demo(record, out)
    outcome = ruleset(rules).outcome(match.state)
    assert outcome is not None
    print(outcome.reason)
    print(
        f"{len(record.commands)} commands, {last} activations on {chosen['map_data']['name']}; wrote {out}/match.json"
    )
    return 0


def _map_check(path: Path, rules: str | None, mission: str | None, out: Path | None) -> int:
    """Check a map file offline: what was found on stdout, the picture written; RulesError
    (exit 2) in words for what is wrong."""
    from skirmbot.mapfiles import check_map, empty_map

    checked = check_map(_read_map(path), rules)
    print(checked.summary())
    drawn = rules or next(name for name, fits in checked.fits.items() if fits)
    picture, alt = empty_map(checked.data, drawn, mission)
    target = out or Path("out/maps") / f"{path.stem or 'map'}.png"
    _write(target, picture, "--out")
    print(alt)
    print(f"wrote {target}")
    return 0


def _console(
    practice: bool,
    out: Path,
    db: str,
    seed: int | None,
    rules: str = DEFAULT_RULESET,
    clock: str | None = None,
    players: int = 2,
    battle_map: str | None = None,
    map_file: Path | None = None,
) -> int:
    import asyncio

    from skirmbot.console import ConsoleError, run_console

    battle_map = _shipped_map(battle_map, rules)
    _folder(out, "--out")
    if db != ":memory:":
        if Path(db).is_dir():
            raise UsageError(
                f"--db {db} is a folder; give a file name, such as {Path(db) / 'skirmbot.db'}."
            )
        _folder(Path(db).parent, "--db")
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing and history at the prompts)
    try:
        with _interrupts_at_the_prompt():
            return asyncio.run(
                run_console(
                    practice, out, db, battle_map=battle_map, seed=seed, rules=rules,
                    clock=clock, players=players, **_on_map_file(map_file, rules),
                )
            )  # fmt: skip
    except ConsoleError as error:
        raise UsageError(str(error)) from error


@contextlib.contextmanager
def _interrupts_at_the_prompt() -> Iterator[None]:
    """asyncio.run turns Ctrl-C into a cancellation the blocked prompt never sees; with a
    handler of our own it raises KeyboardInterrupt at the prompt, which the console answers."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGINT, interrupt)
    except ValueError:  # not the main thread: leave the signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _league_simulate(args: argparse.Namespace) -> int:
    """A whole league season offline: the pairings, the standings, and the files."""
    import asyncio

    from skirmbot.leagues_simulation import simulate
    from skirmbot.service.errors import ServiceError

    out = _folder(args.out, "--out")
    try:
        asyncio.run(
            simulate(
                args.players, args.rounds, args.format, args.seed, out, args.quick, args.ruleset
            )
        )
    except ServiceError as error:
        raise UsageError(str(error)) from error
    print(f"wrote {out}/standings.png, {out}/league.csv and {out}/league.json")
    return 0


def _web(db: str | None, listen: str) -> int:
    """Serve the web pages from the database until Ctrl-C or SIGTERM."""
    import asyncio

    from skirmbot.store import Store
    from skirmbot.web.app import listen_address, serve

    try:
        host, port = listen_address(listen)
    except ValueError as error:
        raise UsageError(f"--listen: {error}") from error
    path = db or os.environ.get("SKIRMBOT_DB") or "skirmbot.db"
    if path != ":memory:" and not Path(path).is_file():
        raise UsageError(f"--db: there is no database at {path}")

    async def serving() -> None:
        store = await Store.open(path)
        runner = await serve(store, host, port)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        print(f"serving the pages of {path} on http://{host}:{port}/ (Ctrl-C stops)")
        try:
            await stop.wait()
        finally:
            await runner.cleanup()
            await store.close()

    asyncio.run(serving())
    return 0


def _db_copy(source: str, destination: str) -> int:
    """Copy one database into another, empty one; a line per table, then the verification."""
    import asyncio

    from skirmbot.store.copy import CopyError, CopyRefused, copy_database

    try:
        report = asyncio.run(copy_database(source, destination, _say))
    except CopyRefused as error:
        raise UsageError(str(error)) from error
    except CopyError as error:
        print(f"skirmbot: the copy failed, nothing was written: {error}", file=sys.stderr)
        return EXIT_UNVERIFIED
    if not report.ok:
        more = len(report.problems) - 1
        also = f" (and {more} more problem{'s' if more > 1 else ''}" if more else ""
        if more and len(report.unreplayable) > 1:
            ids = ", ".join(str(match_id) for match_id in report.unreplayable)
            also += f"; the matches that do not replay: {ids}"
        also += ")" if more else ""
        print(f"skirmbot: the copy does not verify: {report.problems[0]}{also}", file=sys.stderr)
        return EXIT_UNVERIFIED
    print(
        f"verified: every table's rows are there; checked {report.replayed:,} records, "
        "and every match record replays"
    )
    return 0


def _say(line: str) -> None:
    print(line, flush=True)


def _default() -> int:
    """No sub-command: the Discord bot when DISCORD_TOKEN is set, else the offline demo."""
    if os.environ.get("DISCORD_TOKEN"):
        return _run_bot()
    return _demo(1, Path("out/demo"))


def _run_bot() -> int:
    from skirmbot.bot import run

    return run()


if __name__ == "__main__":
    raise SystemExit(main())
