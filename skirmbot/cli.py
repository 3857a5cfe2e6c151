"""The `skirmbot` command line: replay records and play the offline demo."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from skirmbot.rules.errors import RulesError
from skirmbot.rules.record import MatchRecord, ReplayError, replay


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="skirmbot", description="Play Skirm play-by-post.")
    sub = parser.add_subparsers(dest="command")
    p_replay = sub.add_parser("replay", help="replay a match record and print its event log")
    p_replay.add_argument("record", type=Path)
    p_replay.add_argument(
        "--json", action="store_true", help="print the final state as JSON instead"
    )
    p_demo = sub.add_parser("demo", help="the automatic player plays a whole match against itself")
    p_demo.add_argument("--seed", type=int, default=1)
    p_demo.add_argument("--out", type=Path, default=Path("out/demo"))
    p_console = sub.add_parser("console", help="play a match here in the terminal (hot-seat or against the bot)")
    p_console.add_argument("--practice", action="store_true", help="play against the automatic player")
    p_console.add_argument("--out", type=Path, default=Path("out/console"), help="where the pictures go")
    p_console.add_argument("--db", default=":memory:", help="SQLite file to keep the match in")
    p_console.add_argument("--seed", type=int, default=None)
    p_render = sub.add_parser(
        "render", help="draw the battlemap (or a stat card) from a match record"
    )
    p_render.add_argument("record", type=Path)
    p_render.add_argument(
        "--after",
        type=int,
        default=None,
        help="after this activation (0: as deployed; default: the end)",
    )
    p_render.add_argument(
        "--card", metavar="UNIT", help="draw this unit's stat card instead of the map"
    )
    p_render.add_argument("--out", type=Path, required=True, help="the PNG file to write")
    sub.add_parser("run", help="run the Discord bot (DISCORD_TOKEN from the environment or .env)")
    args = parser.parse_args(argv)
    try:
        if args.command == "replay":
            return _replay(args.record, args.json)
        if args.command == "demo":
            return _demo(args.seed, args.out)
        if args.command == "console":
            return _console(args.practice, args.out, args.db, args.seed)
        if args.command == "render":
            return _render(args.record, args.after, args.card, args.out)
        if args.command == "run":
            return _run_bot()
        return _default()
    except RulesError as error:
        print(f"skirmbot: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`skirmbot replay x.json | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _read_record(path: Path) -> MatchRecord:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RulesError(f"cannot read {path}: {error.strerror}") from error
    return MatchRecord.loads(text)


def _replay(path: Path, as_json: bool) -> int:
    record = _read_record(path)
    try:
        match = replay(record)
    except ReplayError as error:
        print(
            f"skirmbot: replay stopped at command {error.position}: {error.reason}", file=sys.stderr
        )
        print(f"  the command: {json.dumps(error.command)}", file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps(match.state.to_json(), indent=1, ensure_ascii=False))
    else:
        for event in match.log:
            if event.kind != "cost_paid":
                print(event.text)
    return 0


def _demo(seed: int, out: Path) -> int:
    """Play the demo; write the record, a picture after every activation and the animation."""
    from skirmbot.demo import play_demo
    from skirmbot.render.battlemap import MapRenderer
    from skirmbot.render.replay import activation_steps, animation

    match, record = play_demo(seed)
    out.mkdir(parents=True, exist_ok=True)
    (out / "match.json").write_text(record.dumps(), encoding="utf-8")
    renderer = MapRenderer()
    for number, (state, events) in enumerate(activation_steps(record)):
        (out / f"activation-{number:03d}.png").write_bytes(renderer.png(state, events))
    (out / "replay.gif").write_bytes(animation(record, renderer))
    assert match.state.result is not None
    print(match.state.result.reason)
    print(
        f"{len(record.commands)} commands, {number} activations; wrote {out}/match.json, "
        f"activation-000.png to activation-{number:03d}.png and replay.gif"
    )
    return 0


def _render(path: Path, after: int | None, card: str | None, out: Path) -> int:
    from skirmbot.render.battlemap import MapRenderer
    from skirmbot.render.card import card_png
    from skirmbot.render.replay import match_after

    match, events = match_after(_read_record(path), after)
    if card is None:
        out.write_bytes(MapRenderer().png(match.state, events))
    else:
        unit = match.state.unit(card)
        out.write_bytes(card_png(unit, match.state.squads[unit.side].name))
    print(f"wrote {out}")
    return 0


def _console(practice: bool, out: Path, db: str, seed: int | None) -> int:
    import asyncio

    from skirmbot.console import run_console

    return asyncio.run(run_console(practice, out, db, seed=seed))


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
