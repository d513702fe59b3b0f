"""The archive's refusals: a month that cannot be exported, verified or dropped, and why."""


class ArchiveError(Exception):
    """Said to the operator as it is (the command prints it; ArchivedMonth.error keeps it)."""
