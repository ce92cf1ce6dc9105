"""A room's life: one match's seats, watchers, decisions, clocks, snapshots, seeds, chat and history."""
# first: ``import engine`` puts the compiled build's importer in place (engine/_compiled.py), so that the clocks,
# compiled with the engine, load from the build whenever it is fresh, whatever a process imports first
import engine  # noqa: F401
