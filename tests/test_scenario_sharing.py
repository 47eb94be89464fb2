"""`cardrules test` and `cardrules validate` load each ruleset (with its options) once per run and
share it between scenarios; a scenario's own cards go into a ruleset of its own and never reach
another scenario; many scenarios run in worker processes, with the same output and exit code as
one process (issue 35, point 1)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.cli import testrun, validate
from interpreter.errors import RulesError
from interpreter.scenarios import loading

ROOT = Path(__file__).resolve().parent.parent
HEADER = "ruleset: lanes\ncites: [L-1.1]\n"
TURN = "given:\n  turn: {number: 5, phase: assault, active: 1}\n  players:\n    1:\n"
OWN = {  # (sorted by name: the order they run in)
    "a-defines.yaml": HEADER + 'cards: |\n  card "Leak Probe" : creature { cost = 1 attack = 1 health = 1 }\n'
                      + TURN + "      hand: [Leak Probe]\nwhen: []\nthen:\n  players.1.hand: [Leak Probe]\n",
    "b-uses.yaml": HEADER + TURN + "      hand: [Leak Probe]\nwhen: []\nthen:\n  players.1.hand: [Leak Probe]\n",
    "c-defines-other.yaml": HEADER + 'cards: |\n  card "Leak Probe" : creature { cost = 3 attack = 4 health = 5 }\n'
                            + TURN + "      hand: [{card: Leak Probe, as: p}]\nwhen: []\nthen:\n  cards.$p.attack: 4\n",
    "d-wrong.yaml": HEADER + TURN + "      hand: [Keep]\nwhen: []\nthen:\n  players.1.hand: []\n",
}


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """Scenarios that pass and fail, with cards of their own, and a few shipped Lanes ones."""
    for name, text in OWN.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    shipped = sorted((ROOT / "tests" / "scenarios" / "lanes").glob("*.yaml"))[:8]
    for path in shipped:
        shutil.copy(path, tmp_path / f"lanes-{path.name}")
    return tmp_path


@pytest.fixture(autouse=True)
def fresh_cache():
    loading._RULES_CACHE.clear()
    yield
    loading._RULES_CACHE.clear()


def run(capsys, *args, **kwargs) -> tuple[int, str]:
    code = testrun.run_tests(*args, **kwargs)
    return code, capsys.readouterr().out


def test_a_scenarios_own_cards_do_not_leak(folder: Path, capsys):
    code, out = run(capsys, [str(folder / n) for n in OWN], False, workers=1)
    assert code == 1
    assert out.splitlines()[:4] == [
        f"FAIL {folder / 'b-uses.yaml'}: the scenario file is malformed",
        f"    {folder / 'b-uses.yaml'}:7:14: rules error: no card named 'Leak Probe'",
        "              hand: [Leak Probe]",
        "                     ^",
    ]
    assert f"FAIL {folder / 'c-defines-other.yaml'}" not in out  # its own Leak Probe, not a's
    assert out.endswith("2 passed, 2 failed\n")


def test_the_ruleset_is_loaded_once_per_run(folder: Path, capsys, monkeypatch):
    calls = []
    real = loading.load_ruleset

    def counted(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(loading, "load_ruleset", counted)
    code, out = run(capsys, [str(folder / n) for n in OWN], False, workers=1)
    assert out.endswith("2 passed, 2 failed\n")
    assert calls == ["lanes"]  # (once; before: once for every scenario with cards of its own)


def test_shared_and_unshared_loads_give_the_same_results(folder: Path, capsys, monkeypatch):
    files = [str(folder)]
    shared = run(capsys, files, True, workers=1)

    def unshared(*_args):  # the scenario's ruleset loaded whole, with its cards, every time
        loading._RULES_CACHE.clear()
        raise RulesError("not shared")

    monkeypatch.setattr(loading, "_with_cards", unshared)
    real = loading.rules_for

    def fresh(*args):
        loading._RULES_CACHE.clear()
        return real(*args)

    monkeypatch.setattr(loading, "rules_for", fresh)
    assert run(capsys, files, True, workers=1) == shared
    assert shared[1].count("\nok   ") + shared[1].startswith("ok   ") == 8 + 2


@pytest.mark.parametrize("verbose", [False, True])
def test_workers_print_the_same_as_one_process(folder: Path, capsys, verbose: bool):
    files = [str(folder), str(ROOT / "tests" / "scenarios" / "hearts" / "no-such.yaml")]
    one = run(capsys, files, verbose, workers=1)
    assert run(capsys, files, verbose, workers=2) == one
    assert one[0] == 1 and one[1].endswith("10 passed, 3 failed\n")


def test_validate_with_workers_prints_the_same(folder: Path, capsys):
    outputs = []
    for workers in (1, 2):
        code = validate.run_validate([str(folder)], None, None, workers)
        outputs.append((code, capsys.readouterr().out))
    assert outputs[0] == outputs[1]
    code, out = outputs[0]
    assert code == 1 and f"error {folder / 'b-uses.yaml'}\n" in out
    assert out.endswith("12 files checked, 1 with errors\n")


def test_many_scenarios_use_the_cpus_by_default():
    from interpreter.cli.workers import MANY, cpu_count, default_workers

    assert default_workers(MANY, None) == 1
    assert default_workers(MANY + 1, None) == min(cpu_count(), MANY + 1)
    assert default_workers(5, 3) == 3 and default_workers(2, 8) == 2


def test_validate_reads_each_scenario_file_once(folder: Path, capsys, monkeypatch):
    from interpreter.rules import yamlload
    from interpreter.scenarios import plan

    reads: list[str] = []
    real = yamlload.load_yaml

    def counted(path, *args, **kwargs):
        reads.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(yamlload, "load_yaml", counted)
    monkeypatch.setattr(plan, "load_yaml", counted)
    code = validate.run_validate([str(folder)], None, None, 1)
    assert code == 1 and capsys.readouterr().out.endswith("12 files checked, 1 with errors\n")
    scenarios = sorted(p.name for p in folder.glob("*.yaml"))
    assert sorted(r for r in reads if r in scenarios) == scenarios  # (before: each twice)


def test_workers_get_the_scenarios_of_a_folder_together():
    """Runs of one folder (mostly one ruleset, loaded by each process that meets it), cut to at
    most half a worker's share; without groups, runs of a quarter share as before."""
    from interpreter.cli.workers import _chunks

    items = [("a", i) for i in range(30)] + [("b", i) for i in range(5)] + [("c", i) for i in range(9)]
    chunks = _chunks(items, 2, group=lambda item: item[0])
    assert [len(c) for c in chunks] == [11, 11, 8, 5, 9]
    assert all(len({g for g, _i in c}) == 1 for c in chunks)
    assert [x for c in chunks for x in c] == items
    assert [len(c) for c in _chunks(items, 2, None)] == [5] * 8 + [4]
