"""Issue 33.1: a balance run states its agents per seat in its headline (report.md, index.html,
`simulate --json`), cautions when a seat played randomly, and `--robust` marks the verdicts that
change at a second agent strength on the same seeds."""

from __future__ import annotations

import json
import re

import pytest

from interpreter.cli.main import main
from interpreter.report import write_report


def _records(games: int, agents: tuple[str, str], star_wins: bool) -> list[dict]:
    """Seat 1 has the card Star in its opening hand in the even games, seat 2 in the odd ones (each
    seat's deck holds Star in every game), and the first player alternates likewise. With
    `star_wins` the seat with Star in hand wins (so Star's opening-hand effect within its deck and
    the first player are "higher"); without, the winner alternates by pairs of games (no clear
    difference). Plain is in every opening hand: it has no opening-hand effect."""
    records = []
    for i in range(games):
        saw = 1 if i % 2 == 0 else 2
        winner = saw if star_wins else (1 if (i // 2) % 2 == 0 else 2)
        players = [{"seat": seat, "agent": agents[seat - 1], "won": winner == seat,
                    "deck": {"Star": 1, "Plain": 1},
                    "opening": {"Plain": 1, "Star": 1} if seat == saw else {"Plain": 1}, "drawn": {}, "played": {}, "picked": {}, "counters": {}}
                   for seat in (1, 2)]
        records.append({"seed": 100 + i, "ruleset": "toy", "title": "Toy", "options": {}, "agents": list(agents),
                        "winner": winner, "draw": False, "aborted": False, "reason": "Goal", "rule": None,
                        "timeout": False, "first_player": saw, "turns": 5, "decisions": 20, "lead_changes": 0,
                        "players": players, "offers": []})
    return records


def _report(tmp_path, records, **kwargs) -> tuple[str, str]:
    out = tmp_path / "report"
    write_report(records, out, title="Toy", meta={}, min_sample=10, **kwargs)
    return (out / "report.md").read_text(encoding="utf-8"), (out / "index.html").read_text(encoding="utf-8")


def test_the_headline_names_the_agents_of_each_seat(tmp_path):
    markdown, page = _report(tmp_path, _records(40, ("random", "greedy"), True))
    assert markdown.splitlines()[2] == "**Agents by seat: seat 1: random · seat 2: greedy**"
    assert '<h1>Toy</h1>\n<p class="headline">Agents by seat: seat 1: random · seat 2: greedy</p>' in page


def test_a_random_seat_carries_a_caution_and_greedy_seats_none(tmp_path):
    markdown, page = _report(tmp_path / "random", _records(40, ("random", "greedy"), True))
    caution = [line for line in markdown.splitlines() if line.startswith("> Caution:")]
    assert len(caution) == 1 and "seat 1 was played by the agent random" in caution[0]
    # no figures of another game: the general fact, and where measured figures are kept
    assert "first-player advantage" in caution[0] and not re.search(r"\d\.\d", caution[0])
    assert ("How much depends on the game: this run did not measure it (--robust plays the same seeds at a "
            "second strength and says); docs/balance.md, \"Which agents for which question\", gives a shipped "
            "game's figures under random and greedy play.") in caution[0]
    assert page.count('<div class="caution" role="note">Caution: seat 1 was played by the agent random') == 1
    markdown, page = _report(tmp_path / "greedy", _records(40, ("greedy", "greedy"), True))
    assert "Caution" not in markdown and 'class="caution"' not in page


def test_robust_marks_the_verdicts_that_change(tmp_path):
    run = _records(40, ("random", "random"), star_wins=True)
    second = _records(40, ("greedy", "greedy"), star_wins=False)
    markdown, page = _report(tmp_path, run, robust_agents=["greedy", "greedy"], robust_records=second)
    section = markdown.split("## Robustness: the same seeds played by greedy vs greedy\n", 1)[1].split("\n## ")[0]
    rows = {cells[0]: cells for cells in ([c.strip() for c in line.strip("|").split("|")]
                                          for line in section.splitlines() if line.startswith("| "))}
    assert rows["Star"][4:] == ["higher", "no clear difference", "CHANGED"]
    assert rows["first player"][4:] == ["higher", "no clear difference", "CHANGED"]
    assert rows["seat 1"][4:] == ["no clear difference", "no clear difference", ""]
    assert rows["Star"][1] == "opening-hand effect"  # the measure the card table ranks by, not IWD
    assert rows["Plain"][4:] == ["not measured", "not measured", ""]  # in every opening hand: nothing to compare
    assert ("> Caution: 2 verdicts change when the same seeds are played by greedy vs greedy: first player "
            "(higher → no clear difference), Star (higher → no clear difference)") in markdown
    assert "Robustness: rerun on the same seeds by greedy vs greedy: 2 of 5 verdicts change." in page


def test_with_robust_the_caution_quotes_the_change_measured_on_the_seeds(tmp_path):
    """The random run's first player always wins (40 of 40: +50 points over an even share); replayed
    by greedy, half (+0): the caution gives both, from these records, and the change."""
    run = _records(40, ("random", "random"), star_wins=True)
    second = _records(40, ("greedy", "greedy"), star_wins=False)
    markdown, page = _report(tmp_path, run, robust_agents=["greedy", "greedy"], robust_records=second)
    caution = next(line for line in markdown.splitlines() if line.startswith("> Caution: every seat"))
    assert ("Measured on these seeds, replayed by greedy vs greedy (--robust, 95% intervals): the first-player "
            "advantage is +50.0 pp [+41.2, +50.0] here and +0.0 pp [-14.8, +14.8] under greedy vs greedy, a change "
            "of -50.0 points; the largest gap between seats is seat 1 − seat 2: +0.0 pp [-31.4, +31.4] here and "
            "seat 1 − seat 2: +0.0 pp [-31.4, +31.4] under greedy vs greedy.") in caution
    assert "docs/balance.md" not in caution and caution.endswith(
        "trust a verdict about cards or seats only where the rerun gives the same one (Robustness).")
    data = json.loads((tmp_path / "report" / "report.json").read_text(encoding="utf-8"))
    assert data["cautions"][0] == caution[2:]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_json_summary_names_the_agents_and_cautions_only_random(capsys):
    code, out, err = run(capsys, "simulate", "bases", "--games", "3", "--json")
    assert code == 0, err
    headline = json.loads(out)["headline"]
    assert headline["agents_by_seat"] == {"1": "random", "2": "random"}
    assert len(headline["cautions"]) == 1 and headline["cautions"][0].startswith(
        "Caution: every seat was played by the agent random")
    code, out, err = run(capsys, "simulate", "bases", "--games", "3", "--json", "--agents", "greedy,greedy")
    assert json.loads(out)["headline"] == {"agents_by_seat": {"1": "greedy", "2": "greedy"}, "cautions": []}


@pytest.mark.parametrize("seating", [(), ("--no-swap-seats",)])
def test_robust_plays_the_same_seeds_with_greedy_by_default(capsys, tmp_path, seating):
    """The rerun plays the run's plan: a report run swaps the seats by default (each seed from
    both seats, cli/decks.py), so the greedy rerun does too; with --no-swap-seats neither does."""
    code, out, err = run(capsys, "simulate", "initiative", "--games", "6", "--seed", "4", "--json", "--robust",
                         "--report", str(tmp_path / "r"), *seating)
    assert code == 0, err
    summary = json.loads(out)
    robust = summary["robust"]
    assert robust["agents"] == ["greedy", "greedy"] and robust["games"] == 6
    # the greedy run of the same seeds in the same seats
    same = ("--swap-seats",) if not seating else ()
    code, out, err = run(capsys, "simulate", "initiative", "--games", "6", "--seed", "4", "--json", "--agents", "greedy",
                         *same)
    greedy = json.loads(out)
    assert greedy["seating"] == summary["seating"]
    by_name = {v["name"]: v for v in robust["verdicts"]}
    for seat, wins in enumerate(greedy["wins"], start=1):
        assert by_name[f"seat {seat}"]["robust"][0] == pytest.approx(wins / 6 - 0.5)
    text = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert re.search(r"^## Robustness: the same seeds played by greedy vs greedy$", text, re.M)
    # the random run's caution quotes the gap between seats measured under both (Initiative's turns
    # name no first player: no advantage to quote), the greedy one as the greedy run of these seeds gives it
    caution = summary["headline"]["cautions"][0]
    assert caution.startswith("Caution: every seat was played by the agent random")
    low, high = sorted(greedy["wins"])
    best = 1 + greedy["wins"].index(high) if low != high else 1
    gap = f"seat {best} − seat {3 - best}: {100 * (high - low) / 6:+.1f} pp ["
    assert re.search(r"Measured on these seeds, replayed by greedy vs greedy \(--robust, 95% intervals\): the "
                     r"largest gap between seats is seat \d − seat \d: [-+]\d+\.\d pp \[[^]]*\] here and "
                     + re.escape(gap), caution)
    assert "first-player advantage is" not in caution
    assert caution in text.replace("\n", " ")


@pytest.mark.parametrize("argv, message", [
    (("--robust", "random"), "--robust random: the run already plays random,random; name another strength"),
    (("--robust", "greedy,greedy,greedy"), "--robust: this game has 2 players, but 3 were given"),
    (("--robust", "nosuch"), "unknown agent"),
])
def test_a_bad_robust_spec_is_a_usage_error_before_any_game(capsys, argv, message):
    code, out, err = run(capsys, "simulate", "bases", "--games", "2", *argv)
    assert code == 2 and message in err and out == ""
