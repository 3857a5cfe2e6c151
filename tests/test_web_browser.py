"""The match page in a real headless Chromium (issue 18): it loads, the slider and the
previous/next buttons step through the pictures, the log follows, and a screenshot is kept
as a test artefact (tests/artefacts/match-page.png)."""

from __future__ import annotations

from pathlib import Path

from browser import headless_chromium
from test_web import World, world  # the store with a finished league match, published

from tests.service_setup import GUILD

__all__ = ["world"]  # the fixture, shared with test_web
ARTEFACTS = Path(__file__).parent / "artefacts"


async def test_the_match_page_steps_through_the_replay_in_chromium(world: World) -> None:
    url = str(world.client.make_url(f"/g/{GUILD}/match/{world.finished}"))
    async with headless_chromium() as browser:
        page = await browser.new_page(viewport={"width": 420, "height": 900})  # a phone
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(url)
        image, log = page.locator("#step-image"), page.locator("#step-log")
        await image.wait_for(state="visible")
        last = int(await page.locator("#slider").get_attribute("max") or "0")
        assert last >= 2, "a finished match has several activations"
        first_src, first_log = await image.get_attribute("src"), await log.text_content()
        assert first_src is not None and "/step/0.png" in first_src

        await page.click("#next")
        assert "/step/1.png" in (await image.get_attribute("src") or "")
        assert await page.locator("#slider").input_value() == "1"
        assert await log.text_content() != first_log  # the log follows the picture
        name = await page.locator("#step-name").text_content()
        assert name == f"Activation 1 (picture 2 of {last + 1})"  # what the step is, not "of N"

        await page.fill("#slider", str(last))  # drag the slider to the end
        assert f"/step/{last}.png" in (await image.get_attribute("src") or "")
        heading = await page.locator(f"#step-{last} h2").text_content()  # what the step is
        name = await page.locator("#step-name").text_content()
        assert name == f"{heading} (picture {last + 1} of {last + 1})"
        await page.click("#prev")
        assert f"/step/{last - 1}.png" in (await image.get_attribute("src") or "")

        await page.wait_for_function(  # the picture of that step, drawn and loaded
            "() => { const i = document.getElementById('step-image');"
            " return i.complete && i.naturalWidth > 0; }",
            timeout=10_000,
        )
        width = await page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 420, "the page is wider than a phone's screen"
        assert errors == [], errors
        ARTEFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(ARTEFACTS / "match-page.png"), full_page=True)
