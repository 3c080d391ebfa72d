"""Many independent proofs at once: the tasks of a collection's verification,
a generated benchmark set, a compose or mend search, run on Dask
(``dask.distributed``) with their results appended to a JSON-lines file as
they finish, so that a re-run with the same file skips what is done.

- ``results.py``: the results file (``ResultsFile``);
- ``tasks.py``: what one task computes (verify a problem, play and examine
  one game), as plain functions a Dask worker imports;
- ``runner.py``: the cluster (``cluster_client``: a local cluster of N worker
  processes, or an existing scheduler) and ``run_tasks``;
- ``verify.py``: ``ksolve verify FOLDER`` as one task per problem;
- ``generate.py``: ``ksolve generate`` as one task per game.

The composer's searches (``ksolve.compose``) run their candidates through
``run_tasks`` too.
"""
