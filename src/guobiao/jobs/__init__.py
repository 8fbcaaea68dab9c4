"""Seeded batch jobs (bot sessions, arena deals) run serially, in local processes or on Ray."""
