"""Tools for developing domino-table that are not part of the product (never installed)."""
