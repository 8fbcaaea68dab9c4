"""Botzone: the bot protocol (``protocol``), the local judge and duplicate arena (``arena``), and
Botzone match logs (``log``)."""
