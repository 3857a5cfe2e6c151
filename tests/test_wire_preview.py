"""Previews (issue 21) through the real bot process, against the loopback fake of Discord: the
Preview button under an activation's message and `/match preview unit: square:` answer only
the asker, with the picture, and change nothing (the End activation button still works).
"""

from __future__ import annotations

import asyncio

from fakediscord import FakeDiscord
from test_wire import (
    TEST_TIMEOUT,
    choices,
    clean,
    click,
    fake,
    move_someone,
    practice_match,
    say,
    settled,
    start_bot,
)

__all__ = ["fake", "start_bot"]  # the fixtures, shared with test_wire


async def test_preview_button_and_command_over_the_wire(fake: FakeDiscord, start_bot) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await start_bot()
        await practice_match(bot)
        unit, move = await move_someone(bot)
        posted = move.messages[-1]
        assert "Preview" in posted.buttons().values(), posted.buttons()

        # The button: the activating unit's options, for Alice only, with the picture.
        shown = await click(bot, posted, "Preview")
        await settled(bot, shown, lambda: shown.pngs, "the preview picture")
        assert all(m.ephemeral for m in shown.messages), shown.text
        assert f"Preview: {unit}" in shown.text and "Attacks" in shown.text, shown.text
        assert [a.filename for a in shown.pngs] == ["preview.png"]
        assert shown.pngs[0].data.startswith(b"\x89PNG")

        # Bob plays no unit here: refused, privately.
        refused = await click(bot, posted, "Preview", user=fake.bob)
        assert [m.ephemeral for m in refused.messages] == [True], refused.text
        assert not refused.pngs

        # The command, as if on a square autocomplete offers.
        units = await choices(bot, "match preview", "unit")
        assert units[0] == unit, units
        squares = await choices(bot, "match preview", "square", unit=unit)
        assert squares, "autocomplete offers no square to preview"
        as_if = await say(bot, "match preview", unit=unit, square=squares[0])
        await settled(bot, as_if, lambda: as_if.pngs, "the preview picture as if on a square")
        assert all(m.ephemeral for m in as_if.messages), as_if.text
        assert f"as if on {squares[0]}" in as_if.text and "Could attack" in as_if.text

        # A preview changed nothing: the activation's End button has not expired.
        end = await click(bot, posted, "End activation")
        await settled(bot, end, lambda: end.pngs, "the map picture after the activation ended")
        assert "expired" not in end.text, end.text
        clean(bot.log())


async def test_a_skirm_lite_preview_over_the_wire(fake: FakeDiscord, start_bot) -> None:
    """The same preview for Skirm Lite's units, with Lite's own odds (issue 21: every ruleset)."""
    async with asyncio.timeout(TEST_TIMEOUT):
        bot = await start_bot()
        new = await say(bot, "match new", ruleset="lite", practice=True)
        assert "Skirm Lite" in new.text, new.text
        squads = await choices(bot, "match squad", "name")
        await say(bot, "match squad", name=squads[0])
        deploy = await say(bot, "deploy", auto=True)
        await settled(
            bot,
            deploy,
            lambda: any(fake.alice.id in m.pings for m in deploy.messages),
            "the deployment and Alice's turn",
        )
        units = await choices(bot, "match preview", "unit")
        assert units, "autocomplete offers none of Alice's Agents"
        shown = await say(bot, "match preview", unit=units[0])
        await settled(bot, shown, lambda: shown.pngs, "the Lite preview picture")
        assert all(m.ephemeral for m in shown.messages), shown.text
        assert f"Preview: {units[0]}" in shown.text and "Move (" in shown.text, shown.text
        clean(bot.log())
