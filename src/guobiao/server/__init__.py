"""``guobiao serve``: play MCR in the browser (FastAPI + WebSockets; the ``web`` extra).

:mod:`.rooms` (tables, timers, bots; pure Python), :mod:`.protocol` (messages), :mod:`.store`
(SQLite persistence) and :mod:`.app` (the FastAPI application, ``create_app``). Importing this
package loads no web framework: only :mod:`.app` does.
"""
