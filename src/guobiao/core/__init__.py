"""The rules core: tiles, melds, hands and their notation, the win context, winning shapes,
waits and shanten. Pure Python, no I/O; imports nothing outside the standard library."""
