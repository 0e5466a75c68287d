"""The pictures of the README and the documentation (docs/images/), made, not drawn by hand.

- ``terminal.svg``: the terminal game at 80x24, in the middle of a deal (Textual's own
  screenshot, drawn here from a seeded game);
- ``web-table.png`` and ``web-phone.png``: the web table on a desktop and on a 390 px phone,
  from the screenshots the browser tests write (run ``pytest tests/browser/test_browser_table.py``
  first), shrunk to a few tens of kilobytes.

    python scripts/docs_pictures.py
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
ARTIFACTS = ROOT / "test-artifacts"

# (screenshot the browser tests write, the part kept (left, top, right, bottom) or None, width)
WEB = {
    "web-table.png": ("issue32-to-call-desktop.png", (60, 50, 1140, 740), 640),
    "web-phone.png": ("issue32-calls-phone-390.png", None, 240),
}


def web_pictures() -> None:
    for name, (source, box, width) in WEB.items():
        path = ARTIFACTS / source
        if not path.exists():
            sys.exit(f"{path} is missing: run the browser tests first (tests/browser)")
        image = Image.open(path).convert("RGB")
        if box is not None:
            image = image.crop(box)
        image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
        image.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(IMAGES / name, optimize=True)
        print(f"{IMAGES / name}: {(IMAGES / name).stat().st_size // 1024} KB")


async def terminal_picture() -> None:
    from callbreak.cli.tui.app import PlayApp
    from callbreak.cli.tui.session import Session

    session = Session.new(opponents=["heuristic"], seed=12, save=False)
    app = PlayApp(session, delay=0.0, think=0.02)
    async with app.run_test(size=(80, 24)) as pilot:
        # Call, then play until the fifth trick is under way (the person plays by Enter: the
        # highlighted card, the hint's choice).
        while len(session.game.tricks) < 4 or not session.game.trick:
            await pilot.press("enter")
            await pilot.pause(0.05)
        app.save_screenshot(filename="terminal.svg", path=str(IMAGES))
    print(f"{IMAGES / 'terminal.svg'}: {(IMAGES / 'terminal.svg').stat().st_size // 1024} KB")


if __name__ == "__main__":
    IMAGES.mkdir(parents=True, exist_ok=True)
    web_pictures()
    asyncio.run(terminal_picture())
