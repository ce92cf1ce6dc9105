"""A room's life: one match's seats, watchers, decisions, clocks, snapshots, seeds, chat and history."""
