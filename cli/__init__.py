"""The `domino-table` command line, above every other package: it may import them all,
and none of them imports it. `cli.main` is the root (`domino-table = cli.main:main`)."""
