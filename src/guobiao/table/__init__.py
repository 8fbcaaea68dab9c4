"""The table: rules of a competition, the wall, one hand played action by action (``Game``),
settlement, the 16-hand session, agents playing a session, and replayable logs. Imports only the
core, scoring and the standard library."""
