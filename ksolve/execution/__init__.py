"""How work runs: the one home of executors and processes (nothing else starts one).

- ``options.py``: ``RunOptions``, one run description validated once;
- ``executors.py``: where one proof runs (in this process, or local workers), chosen
  by the API, never by the algorithms;
- ``workers.py`` and ``shared_block.py``: local worker processes sharing one proof's
  tables (``Workers``) and the shared memory they share;
- ``jobs.py``: the job contract ``Job -> run_job(job, progress) -> JobResult`` of web
  jobs, Dask tasks and compose/mend, and a job in its own process;
- ``cluster.py``, ``results.py``, ``collection.py``: many jobs on a Dask cluster (or in
  this process) with a resumable results file, and ``verify FOLDER``;
- ``processes.py``: the process primitives every worker kind uses.
"""
