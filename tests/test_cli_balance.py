"""`simulate --report/--log-dir/--records` and `compare`: what they write is re-derived from the
records by hand here; bad input gets a clear error, exit 1 or 2, and nothing half-written."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from interrupting import ctrl_c_heard, stop_group

from interpreter.backends import game_seeds
from interpreter.backends.recordfile import read_records
from interpreter.cli.main import main

OVERRIDES = Path(__file__).parent / "data" / "overrides"
TIMING = ("games_per_s", "seconds", "workers", "backend")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _summary(out: str) -> dict:
    data = json.loads(out)
    return {k: v for k, v in data.items() if k not in TIMING}


def test_simulate_writes_records_logs_and_a_report_that_agree(capsys, tmp_path):
    report, logs, records_file = tmp_path / "report", tmp_path / "logs", tmp_path / "games.jsonl"
    code, out, err = run(capsys, "simulate", "lanes", "--games", "40", "--seed", "5", "--json", "--workers", "2",
                         "--report", str(report), "--log-dir", str(logs), "--records", str(records_file))
    assert code == 0, err
    summary = json.loads(out)
    records = read_records(records_file)
    seeds = game_seeds(5, 0, 40)  # (game i of --seed 5; the records in seed order)
    assert [r["seed"] for r in records] == sorted(seeds)
    wins = [sum(r["winner"] == s for r in records) for s in (1, 2)]
    assert summary["wins"] == wins and summary["games"] == 40
    # the report's seat-1 win rate is the hand count over the records
    text = (report / "report.md").read_text(encoding="utf-8")
    assert f"{100 * wins[0] / 40:.1f}%" in re.search(r"\| seat 1 \|[^\n]*", text).group(0)
    html = (report / "index.html").read_text(encoding="utf-8")
    for image in re.findall(r'src="([^"]+)"', html):
        assert (report / image).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "http://" not in html and "https://" not in html
    # one log per game, and each replays
    assert sorted(p.name for p in logs.iterdir()) == sorted(f"game-{s}.jsonl" for s in seeds)
    for seed in (seeds[0], seeds[-1]):
        code, out, err = run(capsys, "replay", str(logs / f"game-{seed}.jsonl"))
        assert code == 0, out + err


def test_simulate_with_one_or_two_workers_and_with_records_gives_one_summary(capsys, tmp_path):
    args = ("simulate", "bases", "--games", "24", "--seed", "3", "--json")
    one = _summary(run(capsys, *args, "--workers", "1")[1])
    two = _summary(run(capsys, *args, "--workers", "2", "--records", str(tmp_path / "r.jsonl"))[1])
    assert one == two and one["games"] == 24


def test_records_as_parquet_have_a_row_per_game(capsys, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "games.parquet"
    code, _out, err = run(capsys, "simulate", "initiative", "--games", "10", "--json", "--records", str(path))
    assert code == 0, err
    table = pq.read_table(path)
    assert table.num_rows == 10 and table.column("seed").to_pylist() == sorted(game_seeds(0, 0, 10))
    players = table.column("players").to_pylist()
    assert sum(c["count"] for c in players[0][0]["deck"]) == 40  # Initiative decks hold 40 cards


def test_aborted_games_are_counted_and_the_batch_goes_on(capsys):
    code, out, err = run(capsys, "simulate", "initiative", "--games", "4", "--json",
                         "--agents", "samplebots.bots:Crashing,random")
    assert code == 1, err  # (the summary is printed, and the status says games were aborted)
    data = json.loads(out)
    assert data["aborted"] == 4 and data["wins"] == [0, 0]
    assert [g["seed"] for g in data["aborted_games"]] == sorted(game_seeds(0, 0, 4))
    assert "divided by zero" in data["aborted_games"][0]["reason"]


@pytest.mark.parametrize("flags, message", [
    (["--report", "{file}"], "is a file, not a folder"),
    (["--report", "{foreign}"], "holds other files"),
    (["--report", "{missing}/deeper/report"], "does not exist"),
    (["--records", "{tmp}/r.csv"], "name it *.jsonl or *.parquet"),
    (["--workers", "0"], "expected 1 or more"),
    (["--address", "127.0.0.1:1"], "--address is for --backend ray"),
    (["--report", "{tmp}/same", "--log-dir", "{tmp}/same"], "different folders"),
])
def test_bad_outputs_are_usage_errors_before_any_game(capsys, tmp_path, flags, message):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "notes.txt").write_text("mine", encoding="utf-8")
    values = {"file": tmp_path / "file", "foreign": tmp_path / "foreign", "missing": tmp_path / "nope",
              "tmp": tmp_path}
    argv = [f.format(**values) for f in flags]
    code, out, err = run(capsys, "simulate", "initiative", "--games", "2", *argv)
    assert code == 2 and message in err and "Traceback" not in err, err
    assert (tmp_path / "foreign" / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "foreign"]  # nothing written


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_report_folder_is_refused(capsys, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    code, _out, err = run(capsys, "simulate", "initiative", "--games", "2", "--report", str(locked / "r"))
    assert code == 2 and "not writable" in err


def test_compare_finds_a_stronger_card_rising(capsys):
    code, out, err = run(capsys, "compare", "bases", str(OVERRIDES / "ember-slinger-strong.yaml"),
                         "--games", "1000", "--until-significant", "--json", "--workers", "2")
    assert code == 0, err
    data = json.loads(out)
    assert data["changed_cards"] == ["Ember Slinger"]
    main_difference = data["main"]
    assert main_difference["significant"] and main_difference["low"] > 0
    assert data["stopped_early"] == (data["games"] < 1000)
    card = next(r for r in data["rows"] if r["name"] == "Ember Slinger")
    assert card["variant_rate"] > card["base_rate"]
    # the main difference is the hand count over the paired games: the Ember Slinger deck is seat 1's
    seat1 = next(r for r in data["rows"] if r["name"] == "seat 1")
    assert seat1["difference"] == pytest.approx(main_difference["difference"])
    assert seat1["variant_wins"] - seat1["base_wins"] == round(main_difference["difference"] * data["games"])


def test_compare_of_options_on_the_same_seeds_pairs_every_game(capsys, tmp_path):
    code, out, err = run(capsys, "compare", "lanes", "--variant-option", "draft=random", "--games", "30",
                         "--json", "--report", str(tmp_path / "ab"))
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 30 and data["changed_cards"] == [] and data["main"]["pairs"] == 30
    assert data["main"]["measure"] == "seat 1 win rate"
    assert (tmp_path / "ab" / "index.html").is_file() and (tmp_path / "ab" / "report.md").is_file()
    base, variant = data["base_summary"], data["variant_summary"]
    seat1 = next(r for r in data["rows"] if r["name"] == "seat 1")
    assert (seat1["base_wins"], seat1["variant_wins"]) == (base["wins"][0], variant["wins"][0])


def test_compare_replace_reports_the_decks_that_held_the_card(capsys):
    code, out, err = run(capsys, "compare", "initiative", "--replace", "Sneak Attack=Twist Fate", "--games", "20",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["changed_cards"] == ["Sneak Attack"]
    assert data["main"]["measure"] == "win rate of the decks holding Sneak Attack"


@pytest.mark.parametrize("argv, code, message", [
    (["compare", "bases", "initiative", "--games", "2"], 2, "different games"),
    (["compare", "bases", "--games", "2"], 2, "the variant is the same as BASE"),
    (["compare", "bases", str(OVERRIDES / "unknown-card.yaml"), "--games", "2"], 1,
     f"{OVERRIDES / 'unknown-card.yaml'}:3:3: rules error: the override redefines 'Ember Slingr'"),
    (["compare", "initiative", "--replace", "Stabb=Bandage", "--games", "2"], 2, "did you mean 'Stab'"),
    (["compare", "initiative", "--replace", "Stab", "--games", "2"], 2, '--replace takes "CARD=OTHER"'),
    (["compare", "bases", "--variant-option", "format=skirmish", "--games", "2", "--alpha", "2"], 2, "--alpha"),
])
def test_compare_bad_input(capsys, argv, code, message):
    got, out, err = run(capsys, *argv)
    assert got == code and message in err and "Traceback" not in err, err


def test_replace_with_vanilla_strips_the_cards_abilities(capsys):
    from interpreter.backends import BatchSpec, rules_for
    from interpreter.cli.compare import _vanilla_text

    base, _ = rules_for(BatchSpec.of("bases"))
    text = _vanilla_text(base, "Ember Slinger")
    rules, _ = rules_for(BatchSpec.of("bases", override=(text,)))
    assert base.card_defs["Ember Slinger"].activated and not rules.card_defs["Ember Slinger"].activated
    assert rules.card_defs["Ember Slinger"].initial["offense"] == 1  # the attributes stay
    code, out, err = run(capsys, "compare", "bases", "--replace", "Ember Slinger=vanilla", "--games", "12", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["changed_cards"] == ["Ember Slinger"] and "override" in data["variant"]


def test_a_card_every_deck_holds_is_said_to_be_unmovable(capsys):
    code, out, err = run(capsys, "compare", "initiative", "--replace", "Stab=vanilla", "--games", "12", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["main"]["difference"] == 0 and "every deck holds it" in data["main"]["measure"]


def test_ctrl_c_stops_cleanly_with_the_partial_summary(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    records = tmp_path / "records.jsonl"
    script = ("import sys; from interpreter.cli.main import main; "
              "sys.exit(main(['simulate', 'bases', '--games', '100000', '--json', '--workers', '2', "
              f"'--records', {str(records)!r}]))")
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True, preexec_fn=ctrl_c_heard)
    try:
        deadline = time.monotonic() + 120  # (until a game has finished: a record is written per game)
        while time.monotonic() < deadline and process.poll() is None:
            if records.is_file() and records.read_text().count("\n") >= 2:
                break
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)  # (as a terminal does: the whole process group)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            stop_group(process)
    assert process.returncode == 130, err
    data = json.loads(out)
    assert data["interrupted"] and 0 < data["games"] < 100000
    assert f"interrupted after {data['games']} of 100000 games; kept the records of {data['games']} games" in err
    assert records.read_text().count("\n") == data["games"]
    assert sum(data["wins"]) + data["draws"] + data["aborted"] == data["games"]
    assert "interrupted after" in err and "Traceback" not in err
    assert _processes_in_group(process.pid) == []  # no worker left behind


def _processes_in_group(group: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found
