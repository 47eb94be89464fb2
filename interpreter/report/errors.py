"""The error a balance report raises: matplotlib missing, records it cannot read, a folder it cannot write."""

from __future__ import annotations

from ..errors import CardrulesError


class ReportError(CardrulesError):
    """The report could not be made; the message names the folder or record it is about."""

    phase = "report"
