"""The authority for one game in play: the record, validation, per-seat views, deadlines.

No I/O: the server feeds it inputs and times and stores what it accepts (DESIGN.md, "The
table")."""

from parlour.table.table import (
    Accepted,
    Mark,
    RecordEntry,
    Rejected,
    SeatInfo,
    Table,
    VersionMismatch,
    legacy_version,
    play_version,
)

__all__ = [
    "Accepted",
    "Mark",
    "RecordEntry",
    "Rejected",
    "SeatInfo",
    "Table",
    "VersionMismatch",
    "legacy_version",
    "play_version",
]
