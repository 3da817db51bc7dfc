"""Files that survive a power cut at any instant: written whole, or not at all.

Every file the programs keep in a state directory is written through here: the table's
seq mark, the camera's calibration and the enrolled set, the display's PIN, the desk's
files, the history's frames. A power cut (or a kernel panic, or a pulled SD card) may
come between any two system calls; what the disk holds afterwards is only what was
fsynced. Writing a file in place and fsyncing it afterwards can leave it empty or half
written; renaming a new file over the old one without fsyncing it first can leave an
empty file under the old name; a rename or a new file whose folder was not fsynced can
vanish. So, for a file `path`:

1. the new content goes into `<name>.tmp` beside it (created afresh, mode `mode`),
2. that file is fsynced,
3. it is renamed over `path` (the old file stays whole until this instant),
4. the folder is fsynced, so the rename itself is on disk when the call returns.

After a cut the file is the old one or the new one, never a mix and never empty; once
the call has returned it is the new one. A `<name>.tmp` left by a cut is overwritten by
the next write. One writer per file at a time (the callers serialize their writes).

How to use it (the package imports nothing of ours, so every package may):

    from durable import write_file, make_dirs
    make_dirs(state_dir)                        # folders made durably
    write_file(state_dir / "calibration.json", text)          # str: UTF-8
    write_file(frames / f"{seq}.jpg", jpeg_bytes, mode=0o600)  # bytes as they are

`create_file` is the same for a file that must not exist yet (it fails with
`FileExistsError` rather than replace one); `append_file` appends and fsyncs (a log
whose last line a cut may cut short: its reader skips a broken last line);
`sync_dir` fsyncs a folder after a change made some other way (SQLite creating its
database file, say). Errors are `OSError` as the system gave them, with nothing half
done left under `path`: callers say what could not be saved.
"""

from durable.files import append_file, create_file, make_dirs, sync_dir, write_file

__all__ = ["append_file", "create_file", "make_dirs", "sync_dir", "write_file"]
