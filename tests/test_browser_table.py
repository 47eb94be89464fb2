"""Issue 35.8 and 35.9 in a real browser (Selenium, headless chromium, the real server in a
thread): an unordered pick (the Bases mulligan) is made by clicking cards and confirming, and
an agent's move shows a thinking indicator, then highlights the cards it touched.

With CARDRULES_SCREENSHOTS=1 the pages are saved as docs/screenshots/pick-then-confirm.png and
agent-move-highlight.png. Skipped where no chromium/chromedriver is installed.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="cardrules serve needs the extra 'serve': pip install 'cardrules[serve]'")
pytest.importorskip("selenium", reason="the browser tests need selenium (the extra 'test')")

from browser import headless_chromium, needs_chromium  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from interpreter import load  # noqa: E402
from interpreter.agents import make_agent  # noqa: E402
from interpreter.server import TableSession, create_app  # noqa: E402
from interpreter.server.app import ServerThread  # noqa: E402

SCREENSHOTS = os.environ.get("CARDRULES_SCREENSHOTS") == "1"
SHOTS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
pytestmark = needs_chromium


@pytest.fixture(scope="module")
def driver():
    browser = headless_chromium()
    yield browser
    browser.quit()


def wait(driver, script: str, timeout: float = 30):
    WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: d.execute_script(script))


def shot(driver, name: str) -> None:
    if SCREENSHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / name))


def test_a_mulligan_is_picked_card_by_card_then_confirmed(driver):
    rules = load("bases")
    session = TableSession(rules, 1, ["human", "random"], [None, make_agent("random", seed=2)])
    hand = [int(o.id[1:]) for o in session.game.pending if o.id != "nothing" and "+" not in o.id]
    first, second, third = hand[:3]
    server = ServerThread(create_app(session)).start()
    try:
        driver.get(server.seat_url(1))
        wait(driver, "return document.body.dataset.yours === '1'")
        # one confirmation and six cards to pick, not 64 (or 48) buttons
        assert len(driver.find_elements(By.CSS_SELECTOR, "#moves button.move")) == 1
        assert driver.find_element(By.CSS_SELECTOR, "#moves button.move").get_attribute("id") == "pick-confirm"
        assert len(driver.find_elements(By.CSS_SELECTOR, "#moves button.pick-card")) == 6
        confirm = driver.find_element(By.ID, "pick-confirm")
        assert confirm.text == "confirm: nothing" and confirm.is_enabled()  # (up to 6: none is a pick)
        # the third card, then the first, on the table; a card clicked twice is unpicked
        driver.find_element(By.CSS_SELECTOR, f'#table .card[data-card-id="{third}"]').click()
        driver.find_element(By.CSS_SELECTOR, f'#table .card[data-card-id="{second}"]').click()
        driver.find_element(By.CSS_SELECTOR, f'#moves button.pick-card[data-pick-id="{second}"]').click()
        driver.find_element(By.CSS_SELECTOR, f'#table .card[data-card-id="{first}"]').click()
        picked = driver.execute_script("return [...document.querySelectorAll('#table .card.picked')]"
                                       ".map(c => Number(c.dataset.cardId))")
        assert sorted(picked) == sorted([first, third])
        assert confirm.text == "confirm: Spark Lash, Pyre Warlord 4/4"
        shot(driver, "pick-then-confirm.png")
        before = len(session.game.log)
        confirm.click()
        wait(driver, "return document.body.dataset.version !== '0' && !document.getElementById('pick-confirm')")
        taken = session.game.log[before]
        assert (taken["player"], taken["option"]) == (1, f"c{first}+c{third}")
        assert taken["label"] == "Spark Lash + Pyre Warlord 4/4"
    finally:
        server.stop()


class SlowAgent:
    """The random agent, thinking `seconds` before each move (as a searching agent does)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.inner = make_agent("random", seed=1)

    def act(self, view):
        time.sleep(self.seconds)
        return self.inner.act(view)


def test_an_agent_is_seen_thinking_then_its_move_is_highlighted(driver):
    session = TableSession(load("lanes"), 3, ["human", "slow"], [None, SlowAgent(1.5)])
    server = ServerThread(create_app(session)).start()
    try:
        driver.get(server.seat_url(1))
        wait(driver, "return document.body.dataset.yours === '1'")
        assert not driver.find_element(By.ID, "thinking").is_displayed()
        driver.find_element(By.CSS_SELECTOR, "#moves button.move").click()  # P1 drafts; then P2 thinks
        wait(driver, "return !document.getElementById('thinking').hidden", timeout=10)
        assert driver.find_element(By.ID, "thinking").text == "P2 (slow) is thinking"
        assert driver.find_element(By.CSS_SELECTOR, ".owner.thinking").get_attribute("data-owner") == "P2"
        assert session.version == 1  # (shown while the agent thinks, before it has moved)
        # its move: the card it drafted highlighted, what it did said above the table
        wait(driver, "return document.body.dataset.version === '2'", timeout=10)
        moved = driver.execute_script("return [...document.querySelectorAll('#table .card.moved')]"
                                      ".map(c => Number(c.dataset.cardId))")
        assert moved == session.state(1)["last_move"]["cards"] == [51]
        assert driver.find_element(By.ID, "last-move").text == "P2 (slow) chooses: Warhorn Charge"
        assert driver.find_element(By.ID, "thinking").is_displayed()  # (it thinks again: its next decision)
        shot(driver, "agent-move-highlight.png")
        wait(driver, "return document.body.dataset.yours === '1'", timeout=15)
        assert not driver.find_element(By.ID, "thinking").is_displayed()
        assert driver.execute_script("return [...document.querySelectorAll('#table .card.moved')]"
                                     ".map(c => Number(c.dataset.cardId))") == [20]  # (its last move's card)
        # a few seconds later the highlight is gone; the line stays, plain
        wait(driver, "return !document.querySelector('.card.moved')", timeout=10)
        assert driver.find_element(By.ID, "last-move").text == "P2 (slow) chooses: Harbor Pike 2/2"
    finally:
        server.stop()


def test_a_replays_address_counts_its_steps_as_its_counter_does(driver, tmp_path, capsys):
    from interpreter.cli.main import main
    from interpreter.cli.replay import read_log
    from interpreter.server import ReplaySession

    path = tmp_path / "game.jsonl"
    assert main(["play", "initiative", "--seed", "1", "--players", "random,random", "--log", str(path), "--quiet"]) == 0
    capsys.readouterr()
    header, entries = read_log(str(path))
    replay = ReplaySession(load("initiative"), header, entries, str(path))
    server = ServerThread(create_app(replay)).start()
    shown = ("return {step: document.body.dataset.step, counter: document.getElementById('step-counter').innerText, "
             "address: new URL(location.href).searchParams.get('step')}")
    try:
        driver.get(server.url + "?step=3&view=full")
        wait(driver, "return document.body.dataset.step === '2'")
        assert driver.execute_script(shown) == {"step": "2", "counter": f"step 3 of {len(replay.steps)}",
                                                "address": "3"}
        driver.find_element(By.ID, "step-forward").click()
        wait(driver, "return document.body.dataset.step === '3'")
        assert driver.execute_script(shown) == {"step": "3", "counter": f"step 4 of {len(replay.steps)}",
                                                "address": "4"}
        driver.get(server.url + f"?step={len(replay.steps) + 5}&view=1")  # (past the end: the last step)
        wait(driver, f"return document.body.dataset.step === '{len(replay.steps) - 1}'")
        assert driver.execute_script(shown)["address"] == str(len(replay.steps))
    finally:
        server.stop()
