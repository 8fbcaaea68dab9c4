"""Scoring: the 81 fans, the fan calculator with the five scoring principles, and what it
explains of a hand. Imports only the core and the standard library."""
