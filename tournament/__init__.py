"""The tournament desk: standings across many tables (see docs/tournament.md)."""
