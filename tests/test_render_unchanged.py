"""Skirm and Skirm Lite pictures did not change when the pictures began to read views (issue
29): a few pictures of demo matches, a card of each ruleset and a preview, each by a digest of
its pixels and palette (not of its PNG bytes, which also depend on the host's zlib). The
digests were taken from the pictures drawn before the change, whose PNG bytes were equal."""

from __future__ import annotations

import hashlib
import io

import pytest
from PIL import Image

from skirmbot.demo import play_demo
from skirmbot.render.battlemap import MapRenderer
from skirmbot.render.card import card_png
from skirmbot.render.preview import PreviewRenderer
from skirmbot.render.replay import activation_steps, match_after
from skirmbot.rules.ruleset import ruleset

# (ruleset, seed): the digests of the battlemap as deployed, after the 5th activation and at
# the end; the card of the first unit at the end; the preview of the first unit on the map as
# deployed.
EXPECTED = {  # fmt: skip
    ("skirm", 1): (
        "d7f557b858bc790c",
        "5677774c3cfb97a2",
        "24669a2a1c5fe95d",
        "fb5ff83a6383fcb2",
        "aaf2af53b7bfffbc",
    ),
    ("lite", 24): (
        "8aed5a15c15c867b",
        "4c5146a96e4cc822",
        "c605d43bdcda5a39",
        "a83fc6a1ccd59c9c",
        "8bd2d7685a52006c",
    ),
}


def digest(png: bytes) -> str:
    image = Image.open(io.BytesIO(png))
    image.load()
    palette = bytes(image.getpalette() or [])
    drawn = f"{image.mode}{image.size}".encode() + palette + image.tobytes()
    return hashlib.sha256(drawn).hexdigest()[:16]


def pictures(rules: str, seed: int) -> tuple[str, ...]:
    played = ruleset(rules)
    match, record = play_demo(seed, rules)
    renderer = MapRenderer()
    maps = [renderer.png(view, events) for view, events in activation_steps(record)]
    card = card_png(played.card(match.state, next(iter(match.state.units))))
    deployed, _ = match_after(record, 0)
    unit = next(piece.id for piece in played.view(deployed.state).pieces if piece.on_map)
    found = played.preview(deployed.state, unit)
    preview = PreviewRenderer().png(played.view(deployed.state), found)
    return tuple(digest(png) for png in (maps[0], maps[5], maps[-1], card, preview))


@pytest.mark.parametrize(("rules", "seed"), list(EXPECTED))
def test_demo_pictures_are_drawn_as_before(rules: str, seed: int) -> None:
    assert pictures(rules, seed) == EXPECTED[(rules, seed)]
