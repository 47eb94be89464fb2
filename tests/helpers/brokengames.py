"""Games that never end by their rules, for tests of the cap of decisions: a copy of Hearts whose
deals are never scored, and the reason an unfinished game reports."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
END_LINE = "      end: score_deal()                       # H-4\n"


def broken_hearts(folder: Path, limits: str | None = None, name: str = "hearts") -> Path:
    """A copy of Hearts whose deals are never scored, so no one ever reaches the target: it
    validates, and its games never end by the rules. `limits`: a line added to the ruleset."""
    shutil.copytree(ROOT / "rulesets" / "hearts", folder / "rulesets" / "hearts")
    shutil.copytree(ROOT / "cards" / "hearts", folder / "cards" / "hearts")
    ruleset = folder / "rulesets" / "hearts" / "hearts.yaml"
    text = ruleset.read_text()
    assert END_LINE in text
    text = text.replace(END_LINE, "").replace("name: hearts\n", f"name: {name}\n")
    if limits is not None:
        text += limits + "\n"
    ruleset.write_text(text)
    return ruleset


def reason(cap: int) -> str:
    """The reason a game stopped at its cap of `cap` decisions reports."""
    return f"unfinished: the cap of {cap} decisions was reached"
