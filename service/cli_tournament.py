"""`domino-table tournament`, found by the lazy CLI here; it lives in `tournament.cli`."""

from __future__ import annotations

from tournament.cli import tournament

__all__ = ["tournament"]
