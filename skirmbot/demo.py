"""A whole match of the automatic player against itself, on the default content."""

from __future__ import annotations

from pathlib import Path

from skirmbot import autoplayer, content
from skirmbot.rules.record import MatchRecord, content_of, record_of, start_match
from skirmbot.rules.skirm.engine import Match
from skirmbot.rules.skirm.state import ENDED

# A 4-turn match takes a few hundred commands; this bound only catches a player that loops.
MAX_COMMANDS = 10_000


def default_content(
    map_name: str = content.DEFAULT_MAP,
    mission_name: str = content.DEFAULT_MISSION,
    squad_names: tuple[str, str] = content.DEFAULT_SQUADS,
) -> dict[str, object]:
    return content_of(
        content.raw("maps", map_name),
        content.raw("missions", mission_name),
        [content.raw("squads", squad_names[0]), content.raw("squads", squad_names[1])],
    )


def new_demo_match(
    seed: int, match_content: dict[str, object] | None = None
) -> tuple[Match, dict[str, object]]:
    data = match_content or default_content()
    record = MatchRecord(content=data, dice={"seed": seed})
    return start_match(record), data


def play_out(match: Match) -> None:
    """Let the automatic player take every decision until the match ends."""
    state = match.state
    for _ in range(MAX_COMMANDS):
        if state.phase == ENDED:
            return
        side = state.waiting_for()
        assert side is not None
        match.apply(autoplayer.choose(state, side))
    raise RuntimeError(
        f"The automatic players did not finish the match within {MAX_COMMANDS} commands."
    )


def play_demo(seed: int) -> tuple[Match, MatchRecord]:
    match, data = new_demo_match(seed)
    play_out(match)
    return match, record_of(match, data, ["Automatic player 1", "Automatic player 2"])


def write_demo(record: MatchRecord, out: Path) -> int:
    """Write the record (`match.json`), the battlemap after every activation
    (`activation-000.png` as deployed, then one per activation) and the animation (`replay.gif`)
    into the folder `out`, which must exist; the number of the last activation."""
    from skirmbot.render.battlemap import MapRenderer
    from skirmbot.render.replay import activation_steps, animation

    (out / "match.json").write_text(record.dumps(), encoding="utf-8")
    renderer = MapRenderer()
    last = 0
    for last, (state, events) in enumerate(activation_steps(record)):
        (out / f"activation-{last:03d}.png").write_bytes(renderer.png(state, events))
    (out / "replay.gif").write_bytes(animation(record, renderer))
    return last
