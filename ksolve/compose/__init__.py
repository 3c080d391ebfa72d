"""The composer's searches: ``mend`` (small changes that make a cooked or
unsound problem sound, keeping its key) and ``compose`` (new sound problems
of a given material).

- ``edits.py``: the small changes of a problem, each a new problem text;
- ``checks.py``: one candidate's checks, cheapest first, as a task a Dask
  worker runs (the key wins, the cooks fail, then the full verification and
  the certificate replayed by the checker);
- ``mend.py``: ``mend``; ``material.py``, ``ranking.py``, ``compose.py``: ``compose``.
"""
