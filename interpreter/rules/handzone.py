"""Which zone the balance records read as each player's hand (opening hand, cards drawn) when the
ruleset's `statistics:` names none, and the load warning when that cannot be told for sure.

The default is the per-player zone visible to its owner alone. With exactly one such zone it is
that zone; with none, the records have no hand (no opening hand, nothing drawn); with two or more
(a hand and a set-aside zone for a mulligan, say) the first declared is taken and a located
warning names the choice and how to declare another (`statistics: {hand: ZONE}`), so that the
report's figures are never silently missing or silently read from the wrong zone.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import RuleWarning
from .model import Ruleset

DECLARED, ONLY, FIRST, NONE = "declared", "only", "first", "none"


@dataclass(frozen=True)
class HandChoice:
    zone: str | None
    how: str  # DECLARED (statistics.hand), ONLY (the one owner-only zone), FIRST (of several), NONE
    candidates: tuple[str, ...]  # the per-player zones visible to their owner alone, in declared order

    def describe(self) -> str:
        """How the report's header states it: 'hand (the only zone visible to its owner alone)'."""
        if self.how == DECLARED:
            return f"{self.zone} (statistics.hand)"
        if self.how == ONLY:
            return f"{self.zone} (the only per-player zone visible to its owner alone)"
        if self.how == FIRST:
            return (f"{self.zone} (the first declared of {', '.join(self.candidates)}, all visible to their owner "
                    "alone: declare statistics.hand to choose)")
        return ("none: no per-player zone is visible to its owner alone and statistics.hand names none, so no "
                "opening hand or draw is recorded")


def hand_choice(ruleset: Ruleset) -> HandChoice:
    candidates = tuple(z.name for z in ruleset.zones.values() if z.per_player and z.visibility == "owner")
    declared = ruleset.statistics.hand
    if declared is not None:
        return HandChoice(declared, DECLARED, candidates)
    if not candidates:
        return HandChoice(None, NONE, candidates)
    return HandChoice(candidates[0], ONLY if len(candidates) == 1 else FIRST, candidates)


def hand_warning(ruleset: Ruleset) -> RuleWarning | None:
    """The warning of a ruleset whose hand zone is a guess among several, located at the first
    zone passed over (the one that made the guess necessary, usually the later addition)."""
    choice = hand_choice(ruleset)
    if choice.how != FIRST:
        return None
    others = [name for name in choice.candidates if name != choice.zone]
    chosen = ruleset.zones[choice.zone]  # type: ignore[index]
    return RuleWarning(
        f"statistics: zones {', '.join(repr(n) for n in choice.candidates)} are each per player and visible to their "
        f"owner alone, so the balance report cannot tell which is the hand: it reads {choice.zone!r} (declared "
        f"first, at {chosen.span}) as the hand (opening hand, cards drawn, GIH/OH/IWD)",
        ruleset.zones[others[0]].span,
        f"declare the hand to choose: 'statistics: {{hand: {choice.zone}}}' keeps this choice and silences the "
        f"warning; 'statistics: {{hand: {others[0]}}}' reads {others[0]!r} instead")
