"""What a home-page queue is: a titled count linking to its filtered list, and its first items."""

from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urlencode

from django.urls import reverse

SHOWN = 8


def url(name: str, *args, **query) -> str:
    """The URL of `name`, with `query` as its filter (a list's GET parameters)."""
    path = reverse(name, args=args)
    return f"{path}?{urlencode(query, doseq=True)}" if query else path


@dataclass(frozen=True)
class Item:
    label: str
    url: str
    count: int | None = None
    note: str = ""
    when: datetime | None = None


@dataclass(frozen=True)
class Queue:
    key: str
    title: str
    count: int
    url: str | None
    noun: str
    items: list[Item] = field(default_factory=list)
    rows: int = 0  # how many items there are in all (a count may be of more: rounds of a table's day)

    @property
    def more(self) -> int:
        """How many items are not listed."""
        return max(0, self.rows - len(self.items))
