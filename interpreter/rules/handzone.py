"""Which zone the balance records read as each player's hand (opening hand, cards drawn) when the
ruleset's `statistics:` names none, and the load warning when that cannot be told for sure.

The default is the per-player zone visible to its owner alone or, in a game with no such zone, the
per-player zone seen by everyone but its owner (`visibility: others`: a hand held facing out, as
in a cooperative game). With exactly one such zone it is that zone; with none, the records have
no hand (no opening hand, nothing drawn); with two or more
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
    candidates: tuple[str, ...]  # the per-player zones of that visibility, in declared order
    visibility: str = "owner"  # of the candidates: owner, or others when no zone is owner-only

    @property
    def _seen(self) -> str:
        return "visible to its owner alone" if self.visibility == "owner" else "seen by all but its owner"

    def describe(self) -> str:
        """How the report's header states it: 'hand (the only zone visible to its owner alone)'."""
        if self.how == DECLARED:
            return f"{self.zone} (statistics.hand)"
        if self.how == ONLY:
            return f"{self.zone} (the only per-player zone {self._seen})"
        if self.how == FIRST:
            seen = "visible to their owner alone" if self.visibility == "owner" else "seen by all but their owner"
            return (f"{self.zone} (the first declared of {', '.join(self.candidates)}, all {seen}: declare "
                    "statistics.hand to choose)")
        return ("none: no per-player zone is visible to its owner alone (or seen by all but its owner) and "
                "statistics.hand names none, so no opening hand or draw is recorded")


def hand_choice(ruleset: Ruleset) -> HandChoice:
    visibility = "owner"
    candidates = _zones_seen(ruleset, visibility)
    if not candidates:
        visibility = "others"
        candidates = _zones_seen(ruleset, visibility)
    declared = ruleset.statistics.hand
    if declared is not None:
        return HandChoice(declared, DECLARED, candidates, visibility)
    if not candidates:
        return HandChoice(None, NONE, candidates)
    return HandChoice(candidates[0], ONLY if len(candidates) == 1 else FIRST, candidates, visibility)


def _zones_seen(ruleset: Ruleset, visibility: str) -> tuple[str, ...]:
    return tuple(z.name for z in ruleset.zones.values() if z.per_player and z.visibility == visibility)


def hand_warning(ruleset: Ruleset) -> RuleWarning | None:
    """The warning of a ruleset whose hand zone is a guess among several, located at the first
    zone passed over (the one that made the guess necessary, usually the later addition)."""
    choice = hand_choice(ruleset)
    if choice.how != FIRST:
        return None
    others = [name for name in choice.candidates if name != choice.zone]
    chosen = ruleset.zones[choice.zone]  # type: ignore[index]
    return RuleWarning(
        f"statistics: zones {', '.join(repr(n) for n in choice.candidates)} are each per player and "
        f"{'visible to their owner alone' if choice.visibility == 'owner' else 'seen by all but their owner'}, so the balance report cannot tell which is the hand: it reads {choice.zone!r} (declared "
        f"first, at {chosen.span}) as the hand (opening hand, cards drawn, GIH/OH/IWD)",
        ruleset.zones[others[0]].span,
        f"declare the hand to choose: 'statistics: {{hand: {choice.zone}}}' keeps this choice and silences the "
        f"warning; 'statistics: {{hand: {others[0]}}}' reads {others[0]!r} instead")
