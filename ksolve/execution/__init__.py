"""How work runs: the one home of executors and processes.

- ``workers.py``: local worker processes sharing one proof's tables (``Workers``).
"""
