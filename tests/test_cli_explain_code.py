"""`cardrules explain GAME NAME --code`: the generated Python of a card, procedure, function or
keyword, each form under a header naming the rule source it came from, run through main()."""

from __future__ import annotations

import ast as pyast
import re

import pytest

from interpreter import paths
from interpreter.cli.main import main


def _line_of(relative: str, start: str) -> int:
    """The 1-based line of a shipped file that starts with `start`."""
    lines = (paths.rulesets_dir().parent / relative).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith(start))


def _headers(out: str) -> list[str]:
    """The header lines: a definition's, then one per generated function."""
    return [line for line in out.splitlines() if re.match(r"# [a-z]", line) and line != "# constants:"]


def _code(capsys, *args: str) -> str:
    assert main(["explain", *args, "--code"]) == 0
    return capsys.readouterr().out


def test_a_procedure_that_never_stops_shows_its_resumable_and_direct_forms(capsys):
    out = _code(capsys, "bases", "deal")
    line = _line_of("rulesets/bases/bases.rules", "procedure deal(")
    assert out.startswith(f"# procedure deal: rulesets/bases/bases.rules:{line}\n\n"
                          "# lowered (IR): procedure deal\n#   procedure deal(target, amount):\n")
    assert f"\n\n# resumable: procedure deal (rulesets/bases/bases.rules:{line + 1})\ndef _g" in out
    assert (f"\n# direct (also its rollout form): procedure deal (rulesets/bases/bases.rules:{line + 1})\n"
            "def p_deal(g, f, v_target, v_amount):\n") in out
    assert (f"\n# rollout (as a frame of its own): procedure deal (rollout entry) (rulesets/bases/bases.rules:{line})\n"
            "def _g") in out
    assert "#   _k" in out and "# constants:\n" in out  # (what the constants it reads hold)


def test_a_procedure_that_asks_shows_where_it_resumes_and_its_rollout_form(capsys):
    out = _code(capsys, "bases", "mulligan")
    line = _line_of("rulesets/bases/bases.rules", "procedure mulligan(")
    headers = _headers(out)
    assert headers == [
        f"# procedure mulligan: rulesets/bases/bases.rules:{line}",
        "# lowered (IR): procedure mulligan",
        f"# resumable: procedure mulligan (rulesets/bases/bases.rules:{line + 1})",
        f"# resumable: procedure mulligan resuming at 1 (rulesets/bases/bases.rules:{line + 1})",
        f"# rollout: procedure mulligan (rollout) (rulesets/bases/bases.rules:{line})",
        f"# rollout: procedure mulligan (rollout, any values) (rulesets/bases/bases.rules:{line + 1})",
        f"# rollout (as a frame of its own): procedure mulligan (rollout entry) (rulesets/bases/bases.rules:{line})",
    ]
    assert "\ndef r_mulligan(g, f, v_p):\n" in out
    assert re.search(r"^#   _k\d+ = 'cards to put back \(mulligan\)'$", out, re.MULTILINE)
    assert f"= <the place rulesets/bases/bases.rules:{line + 1}:14>\n" in out


def test_a_card_shows_its_abilities_conditions_costs_and_blocks(capsys):
    out = _code(capsys, "bases", "Ember Slinger")
    line = _line_of("cards/bases/allies.cards", 'card "Ember Slinger"')
    act = _line_of("cards/bases/allies.cards", '  activate "sling an ember"')  # its condition and cost
    target = _line_of("cards/bases/allies.cards", '    self.targets = [choose "an enemy ally to hit for 1"')
    body = _line_of("cards/bases/allies.cards", "    if not self.tapped {")  # the effect's first statement
    headers = _headers(out)
    assert headers == [
        f"# card 'Ember Slinger': cards/bases/allies.cards:{line}",
        "# lowered (IR): card 'Ember Slinger'",
        f"# direct: activated Ember Slinger#0: its condition (cards/bases/allies.cards:{act})",
        f"# direct: activated Ember Slinger#0: its cost (cards/bases/allies.cards:{act})",
        f"# resumable: activated Ember Slinger#0 target (cards/bases/allies.cards:{target})",
        f"# resumable: activated Ember Slinger#0 target resuming at 1 (cards/bases/allies.cards:{target})",
        f"# rollout: activated Ember Slinger#0 target (rollout) (cards/bases/allies.cards:{target})",
        f"# resumable: activated Ember Slinger#0 (cards/bases/allies.cards:{body})",
        f"# rollout: activated Ember Slinger#0 (rollout) (cards/bases/allies.cards:{body})",
    ]


def test_a_function_and_a_keyword(capsys):
    out = _code(capsys, "bases", "enemy")
    line = _line_of("rulesets/bases/bases.rules", "function enemy(")
    assert out.startswith(f"# function enemy: rulesets/bases/bases.rules:{line}\n\n"
                          "# lowered (IR): function enemy\n#   function enemy(p) = ")
    assert (f"\n\n# direct: function enemy (rulesets/bases/bases.rules:{line})\n"
            "def fn_enemy(g, f, v_p):\n") in out
    out = _code(capsys, "lanes", "protection")
    line = _line_of("rulesets/lanes/keywords.rules", "keyword protection")
    assert out.startswith(f"# keyword protection: rulesets/lanes/keywords.rules:{line}\n")
    assert "# resumable: replacement keyword protection#0 on damage (rulesets/lanes/keywords.rules:" in out


@pytest.mark.parametrize("game, name", [("bases", "deal"), ("bases", "Ember Slinger"), ("lanes", "protection"),
                                        ("initiative", "Time Leech")])
def test_what_is_printed_is_python(capsys, game, name):
    out = _code(capsys, game, name)
    functions = re.split(r"^# .*\n", out, flags=re.MULTILINE)
    assert sum(1 for f in functions if f.startswith("def ")) >= 2
    for function in functions:
        pyast.parse(function)  # (each block: a def, its constants as comments)


def test_an_unknown_name_suggests_one(capsys):
    assert main(["explain", "bases", "dael", "--code"]) == 2
    err = capsys.readouterr().err
    assert ("bases has no card, procedure, function or keyword named 'dael' (did you mean 'deal'?) "
            "('cardrules cards bases' lists its cards)") in err


def test_help_names_the_flag(capsys):
    assert main(["explain", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # (argparse wraps to the terminal's width)
    assert "usage: cardrules explain [-h] [--code] [--option NAME=VALUE] GAME NAME" in out
    assert "--code print the generated Python instead (resumable, direct and rollout forms)" in out


def test_a_procedure_that_never_asks_with_a_rollout_form_for_players_shows_all_three(capsys):
    # Harvest's cleanup never asks, and its calls give it a player: besides its direct form it
    # has a rollout form written for a player and one for any value
    out = _code(capsys, "harvest", "cleanup")
    line = _line_of("rulesets/harvest/harvest.rules", "procedure cleanup(")
    headers = _headers(out)
    assert f"# direct: procedure cleanup (rulesets/harvest/harvest.rules:{line + 1})" in headers
    assert f"# rollout: procedure cleanup (rollout) (rulesets/harvest/harvest.rules:{line})" in headers
    assert f"# rollout: procedure cleanup (rollout, any values) (rulesets/harvest/harvest.rules:{line + 1})" in headers
    assert not any("also its rollout form" in h for h in headers)
    assert "def r_cleanup(g, f, v_p):\n    if type(v_p) is not _PlayerRef:\n        return ru_cleanup(g, f, v_p)\n" in out


def test_the_lowered_form_is_shown_before_the_python(capsys):
    """The IR each form is written from (lang/ir.py `describe`), as comments: names resolved
    (`game.turn` a global, `options.turn_limit` an option), an `elif` chained, a move's arguments
    by name."""
    out = _code(capsys, "harvest", "cleanup")
    lowered = out.split("\n\n")[1]
    assert lowered == "\n".join([
        "# lowered (IR): procedure cleanup",
        "#   procedure cleanup(p):",
        "#     move card=(hand(p) + play(p)), zone=discard(p), position=none",
        "#     call draw(p, 5)",
        "#     set p.actions = 0",
        "#     set p.buys = 0",
        "#     set p.coins = 0",
        "#     emit turn_over(player=p)",
        "#     if game_over():",
        "#       emit supply_out()",
        "#     elif (game.turn >= (options.turn_limit * count(players))):",
        "#       emit time_up()"])
    out = _code(capsys, "bases", "Ember Slinger")
    assert ("#     activated \"sling an ember\" cost 1 if (not self.tapped) target:\n"
            "#       set self.targets = [(ask one \"an enemy ally to hit for 1\" from enemy_allies(you))]\n"
            "#     effect:\n"
            "#       if (not self.tapped):\n") in out
