"""The table core: one game in table mode, judged, recorded and told (`table.TableCore`).

What comes in (commands, settled snapshots through the reconciler, the sources' status)
changes the game in one place; each change is journaled (`service.store`) as payloads
(`payloads`) before its typed events (`table_events`) go to the subscribers on the
core's `bus`.
"""
