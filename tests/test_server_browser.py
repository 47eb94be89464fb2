"""The browser table in a real browser: Selenium drives Debian's chromium (headless) against the
real server (uvicorn in a thread, port 0). A whole game of each shipped game is played by
clicking (P1 human, picking buttons and cards at random, seeded; P2 random); after every click
the page must show no card the seat may not see (judged against the true game) and the face-down
piles must have the true counts. A replay of the Initiative game is stepped forwards and
backwards, from the full view and from a seat. The real command's printed address opens P1's
seat and plays by clicking; the page without its token, with a wrong one, or at the agent's seat
shows no card and says why.

Initiative always runs; Lanes, Bases, Hearts and Harvest (longer games) with CARDRULES_LONG=1. With
CARDRULES_SCREENSHOTS=1 the tables are saved as docs/screenshots/<game>.png (and replay.png).
Skipped where no chromium/chromedriver is installed (`apt-get install chromium chromium-driver`).
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="cardrules serve needs the extra 'serve': pip install 'cardrules[serve]'")
pytest.importorskip("selenium", reason="the browser tests need selenium (the extra 'test')")

from browser import headless_chromium, needs_chromium  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402
from servecli import ServeCommand  # noqa: E402
from tablecheck import hidden_counts, leaked_names, unseen_ids  # noqa: E402

from interpreter import load  # noqa: E402
from interpreter.agents import make_agent  # noqa: E402
from interpreter.logs import write_log  # noqa: E402
from interpreter.server import ReplaySession, TableSession, create_app  # noqa: E402
from interpreter.server.app import ServerThread  # noqa: E402

LONG = os.environ.get("CARDRULES_LONG") == "1"
SCREENSHOTS = os.environ.get("CARDRULES_SCREENSHOTS") == "1"
SHOTS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
pytestmark = needs_chromium

# What the page shows, read in one call after each click.
PAGE_STATE = """
const body = document.body;
const faces = [...document.querySelectorAll('#table .card.face, #moves .card.face')].map(c => Number(c.dataset.cardId));
const piles = [...document.querySelectorAll('.owner')].flatMap(owner =>
  [...owner.querySelectorAll('.zone')].flatMap(zone =>
    [...zone.querySelectorAll('.row')].filter(row => row.querySelector('.facedown')).map(row =>
      [owner.dataset.owner, zone.dataset.zone + (row.dataset.row ? '.' + row.dataset.row : ''),
       Number(row.querySelector('.facedown').dataset.count)])));
return {version: body.dataset.version, yours: body.dataset.yours, thinking: body.dataset.thinking,
        over: body.dataset.over, busy: body.classList.contains('busy'), faces: faces, piles: piles,
        text: ['table', 'decision', 'players', 'header'].map(id => document.getElementById(id).innerText).join('\\n'),
        notice: document.getElementById('notice').hidden ? '' : document.getElementById('notice').innerText};
"""
# 'resolved': the page shows a human decision or the end, and no move is on its way
SETTLED = ("return document.body.dataset.version !== '' && !document.body.classList.contains('busy') && "
           "document.body.dataset.thinking === '0' && "
           "(document.body.dataset.yours === '1' || document.body.dataset.over === '1')")


@pytest.fixture(scope="module")
def driver():
    browser = headless_chromium()
    yield browser
    browser.quit()


def settle(driver, after: str | None = None, timeout: float = 30) -> dict:
    """Wait until the page shows a new state (version other than `after`) that waits for the
    human or shows the end; returns what the page shows."""
    def ready(d):
        return d.execute_script(SETTLED) and (after is None or d.execute_script("return document.body.dataset.version")
                                              != after)
    WebDriverWait(driver, timeout, poll_frequency=0.02).until(ready)
    return driver.execute_script(PAGE_STATE)


def check_page(page: dict, game, seat: int) -> None:
    """The page shows no card `seat` may not see, and the piles have the true counts."""
    assert not page["notice"], page["notice"]
    assert not unseen_ids(page["faces"], game, seat), "the page shows a card hidden from the seat"
    assert not leaked_names(page["text"], game, seat), "the page names a card hidden from the seat"
    assert {(o, z): n for o, z, n in page["piles"]} == hidden_counts(game, seat)


def play_by_clicking(driver, game_name: str, seed: int, pick_seed: int,
                     options: dict | None = None) -> tuple[TableSession, int]:
    rules = load(game_name, options)
    others = rules.player_count - 1
    session = TableSession(rules, seed, ["human"] + ["random"] * others,
                           [None] + [make_agent("random", seed=seed + i) for i in range(1, others + 1)])
    server = ServerThread(create_app(session)).start()
    pick = random.Random(pick_seed)
    clicks = 0
    try:
        driver.get(server.seat_url(1))  # (the address `cardrules serve` prints for P1: its token in it)
        page = settle(driver)
        while page["over"] != "1":
            game = session.game  # (the server waits for this page: nothing changes it meanwhile)
            assert game.pending.seat == 1 and str(session.version) == page["version"]
            check_page(page, game, 1)
            targets = driver.find_elements(By.CSS_SELECTOR, "#moves button.move, #table .card.playable")
            assert targets, "a human decision with nothing to click"
            target = pick.choice(targets)
            expected = game.pending[int(target.get_attribute("data-option"))].id
            before = len(session.game.log)
            target.click()
            clicks += 1
            page = settle(driver, after=page["version"])
            assert session.game.log[before]["option"] == expected  # the click took that option
            if SCREENSHOTS and clicks == 6:
                SHOTS.mkdir(parents=True, exist_ok=True)
                driver.save_screenshot(str(SHOTS / f"{game_name}.png"))
        check_page(page, session.game, 1)
        assert session.game.is_over
        result = driver.find_element(By.ID, "result")
        assert result.is_displayed() and result.text == "result: " + session.state(1)["result_text"]
    finally:
        server.stop()
    return session, clicks


GAMES = [("initiative", 21, 1, None)] + [pytest.param(name, seed, pick, options, marks=pytest.mark.skipif(
    not LONG, reason="a full game of it by clicking runs with CARDRULES_LONG=1")) for name, seed, pick, options in
    (("lanes", 22, 2, None), ("bases", 23, 3, None), ("hearts", 24, 4, {"target": 30}), ("harvest", 25, 5, None),
     ("spades", 26, 6, None), ("expedition", 27, 7, None))]


@pytest.fixture(scope="module")
def played() -> dict:
    return {}


@pytest.mark.parametrize("game_name, seed, pick_seed, options", GAMES)
def test_a_whole_game_by_clicking(driver, played, game_name, seed, pick_seed, options):
    started = time.perf_counter()
    session, clicks = play_by_clicking(driver, game_name, seed, pick_seed, options)
    played[game_name] = session
    print(f"{game_name}: {clicks} clicks, {session.version} decisions, "
          f"{time.perf_counter() - started:.1f} s")
    assert clicks > 3


def test_a_replay_steps_forwards_and_backwards(driver, played, tmp_path):
    session = played.get("initiative")
    if session is None:
        session, _ = play_by_clicking(driver, "initiative", 21, 1)
    path = tmp_path / "initiative.jsonl"
    write_log(path, session.game, session.names)
    from interpreter.cli.replay import read_log

    header, entries = read_log(str(path))
    replay = ReplaySession(load("initiative"), header, entries, str(path))
    decisions = [e for e in session.game.log if e["type"] == "decision"]
    server = ServerThread(create_app(replay)).start()

    def shown() -> dict:
        return driver.execute_script("return {step: document.body.dataset.step, view: document.body.dataset.view, "
                                     "taken: document.getElementById('taken').innerText, "
                                     "counter: document.getElementById('step-counter').innerText};")

    def wait_step(step: int, view: str) -> dict:
        WebDriverWait(driver, 10, poll_frequency=0.02).until(
            lambda d: shown()["step"] == str(step) and shown()["view"] == view)
        return shown()

    try:
        driver.get(server.url + "?view=full")
        assert wait_step(0, "full")["taken"] == f"decision taken: P{decisions[0]['player']} chooses: {decisions[0]['label']}"
        for k in range(1, 5):
            driver.find_element(By.ID, "step-forward").click()
            page = wait_step(k, "full")
            entry = decisions[k]
            assert page["taken"] == f"decision taken: P{entry['player']} chooses: {entry['label']}"
            assert page["counter"] == f"step {k + 1} of {len(replay.steps)}"
        # Two clicks faster than the server answers, the first answer coming last: the page
        # lands two steps back, on the last step asked for.
        quick_state = replay.state

        def slow_state(step: int, viewer):
            time.sleep(0.6 if step == 3 else 0.2)
            return quick_state(step, viewer)

        replay.state = slow_state
        driver.find_element(By.ID, "step-back").click()
        driver.find_element(By.ID, "step-back").click()
        wait_step(2, "full")
        time.sleep(0.8)
        assert shown()["step"] == "2"
        replay.state = quick_state
        faces = driver.execute_script("return [...document.querySelectorAll('.card.face')].map(c => Number(c.dataset.cardId))")
        assert set(faces) == set(replay.steps[2]["game"].state.cards)  # the full view: every card
        Select(driver.find_element(By.ID, "view-select")).select_by_value("2")
        wait_step(2, "2")
        check_page(driver.execute_script(PAGE_STATE), replay.steps[2]["game"], 2)
        assert not driver.find_elements(By.CSS_SELECTOR, "#moves button.move")  # a replay takes no moves
        driver.find_element(By.TAG_NAME, "body").send_keys("\ue014")  # the right arrow key
        wait_step(3, "2")
        check_page(driver.execute_script(PAGE_STATE), replay.steps[3]["game"], 2)
        if SCREENSHOTS:
            driver.save_screenshot(str(SHOTS / "replay.png"))
        driver.find_element(By.ID, "step-last").click()
        page = wait_step(len(replay.steps) - 1, "2")
        assert page["taken"] == "the end"
        assert json.loads(json.dumps(replay.state(len(replay.steps) - 1, 2)["result"])) == session.game.result.observed()
        assert driver.find_element(By.ID, "step-forward").get_attribute("disabled") == "true"
    finally:
        server.stop()


def test_the_printed_address_plays_and_no_other_address_shows_a_card(driver):
    served = ServeCommand("initiative", "--players", "human,random", "--seed", "21", "--no-browser", "--port", "0")
    try:
        url = served.read_until("^serving on ").split()[2]
        seat_url = served.seat_urls(1)[1]
        refusals = {url: "the addresses cardrules serve printed", url + "?seat=2": "the addresses cardrules serve printed",
                    url + "?seat=1&token=wrong": "the table refused this address",
                    seat_url.replace("seat=1", "seat=2"): "the table refused this address"}
        for address, says in refusals.items():
            driver.get(address)
            WebDriverWait(driver, 10, poll_frequency=0.02).until(
                lambda d: d.find_element(By.ID, "notice").is_displayed())
            assert says in driver.find_element(By.ID, "notice").text, address
            assert not driver.find_elements(By.CSS_SELECTOR, ".card.face") and driver.execute_script(
                "return document.body.dataset.version") == "", address
        driver.get(seat_url)  # as if clicked in the terminal
        page = settle(driver)
        for _ in range(3):
            if page["over"] == "1":
                break
            driver.find_element(By.CSS_SELECTOR, "#moves button.move").click()
            page = settle(driver, after=page["version"])
            assert not page["notice"], page["notice"]
        assert int(page["version"]) >= 3 and page["faces"]
    finally:
        served.stop()
