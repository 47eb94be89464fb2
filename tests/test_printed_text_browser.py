"""Issue 32.9 in a real browser (Selenium, headless chromium, the real server in a thread): a card
with printed text shows it on its face and as its tooltip (a card the seat may play: the move,
then the text). Skipped where no chromium/chromedriver is installed."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="cardrules serve needs the extra 'serve': pip install 'cardrules[serve]'")
pytest.importorskip("selenium", reason="the browser tests need selenium (the extra 'test')")

from browser import headless_chromium, needs_chromium  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from interpreter import load  # noqa: E402
from interpreter.agents import make_agent  # noqa: E402
from interpreter.server import TableSession, create_app  # noqa: E402
from interpreter.server.app import ServerThread  # noqa: E402

pytestmark = needs_chromium


def test_a_cards_printed_text_is_on_its_face_and_in_its_tooltip():
    rules = load("initiative")
    session = TableSession(rules, 1, ["human", "random"], [None, make_agent("random", seed=2)])
    server = ServerThread(create_app(session)).start()
    driver = headless_chromium()
    try:
        driver.get(server.seat_url(1))
        WebDriverWait(driver, 30, poll_frequency=0.02).until(
            lambda d: d.execute_script("return document.body.dataset.yours === '1'"))
        faces = driver.execute_script(
            "return [...document.querySelectorAll('#table .card.face')].map(c => ({name: c.dataset.name, "
            "text: (c.querySelector('.text') || {}).textContent || null, title: c.title, "
            "playable: c.classList.contains('playable')}))")
        hand = [f for f in faces if rules.card_defs.get(f["name"]) is not None and rules.card_defs[f["name"]].text]
        assert len(hand) >= 5  # (every Initiative card in the hand prints text)
        for face in hand:
            text = rules.card_defs[face["name"]].text
            assert face["text"] == text
            assert face["title"].endswith(text) and face["title"] != text
    finally:
        driver.quit()
        server.stop()
