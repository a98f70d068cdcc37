"""The rules engine: game state, outcome of a stroke, judging, scoring (RULES.md)."""
