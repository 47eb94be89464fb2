"""`cardrules envs describe GAME`: the fixed observation encoding of a ruleset (docs/envs.md), as
its sections, the fixed action space's ids per decision site with what the site can offer, and
then one line per index of the observation (`--sections`: all but those lines). Needs no extra: the encoding and the action space are plain Python."""

from __future__ import annotations

import sys

from .common import UsageError, shown


def parse_slots(pairs: list[str] | None) -> dict[str, int]:
    out: dict[str, int] = {}
    for pair in pairs or ():
        zone, sep, number = pair.partition("=")
        if not sep or not number.strip().isdigit():
            raise UsageError(f"--slots {pair!r}: expected ZONE=N (a whole number of slots)")
        out[zone.strip()] = int(number)
    return out


def run_envs_describe(rules, sections_only: bool = False, slots: list[str] | None = None) -> int:
    from ..envs.actions import ActionCatalogue
    from ..envs.encoding import ObservationEncoding
    from ..envs.site_offers import describe_offers

    try:
        encoding = ObservationEncoding(rules, slots=parse_slots(slots))
    except ValueError as err:
        raise UsageError(f"--slots: {err}") from None
    catalogue = ActionCatalogue(rules)
    write = sys.stdout.write
    write(f"{rules.name}: observation vector of {encoding.size:,} entries; action space of "
          f"{catalogue.size:,} ids over {catalogue.site_count} decision sites\n\n")
    width = len(str(encoding.size - 1))
    write(f"{'from':>{width}}  {'to':>{width}}  section\n")
    for what, start, end in encoding.sections():
        write(f"{start:>{width}}  {max(start, end - 1):>{width}}  {what}\n")
    write(f"\n{'site':>4}  {'ids':>6}  what it can offer (worked out from its rule code)\n")
    for site, offers in enumerate(catalogue.offers):
        if site < len(catalogue.sites):
            span = catalogue.sites[site].span
            label = f"{catalogue.sites[site].label or 'choose'} ({shown(span.file)}:{span.line}:{span.column})"
        else:
            label = "any other decision"
        write(f"{site:>4}  {len(catalogue.site_slots[site]):>6}  {label}: {describe_offers(offers)}\n")
    if sections_only:
        return 0
    write(f"\n{'index':>{width}}  what\n")
    for index, label in enumerate(encoding.labels):
        write(f"{index:>{width}}  {label}\n")
    return 0
