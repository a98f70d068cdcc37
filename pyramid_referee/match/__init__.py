"""The match: the store, the session, replays, the game record and the reports."""
