"""What the table keeps on disk: the journal (`journal`, SQLite, the single source of
truth) and the seq mark beside it (`seq_mark`), so that no `seq` is ever used twice."""
