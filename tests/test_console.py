"""`skirmbot console` (issue 4: everything a player can do in Discord can be done there)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from skirmbot.console import run_console


def scripted(lines: list[str]) -> tuple[object, list[str]]:
    feed: Iterator[str] = iter(lines)
    said: list[str] = []

    def ask(prompt: str) -> str:
        said.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return ask, said


async def test_hot_seat_plays_with_the_slash_command_words(tmp_path: Path) -> None:
    ask, said = scripted(
        [
            "auto",
            "auto",
            "status",
            "move Nobody C4",
            "fly Halden C4",
            "end Halden",
            "log",
            "concede",
        ]
    )
    code = await run_console(False, tmp_path, ask=ask, say=said.append, seed=3)  # type: ignore[arg-type]
    text = "\n".join(said)
    assert code == 0
    assert "Both squads deploy" in text
    assert "There is no unit called 'Nobody'" in text  # a refusal, shown and survived
    assert "'fly' is not a command" in text
    assert "activation ends" in text and "wins" in text
    assert sorted(p.name for p in tmp_path.glob("*.png"))  # pictures written after activations


async def test_practice_against_the_automatic_player_until_the_end(tmp_path: Path) -> None:
    wardens = ["end Brann", "end Tamsin", "end Corra", "end Osk", "end Pell", "end Halden"]
    ask, said = scripted(["auto"] + wardens * 5)
    code = await run_console(True, tmp_path, ask=ask, say=said.append, seed=5)  # type: ignore[arg-type]
    assert code == 0
    assert any("The match ends" in line for line in said)
