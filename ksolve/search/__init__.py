"""Search over belief states: the interface (``base``), the run's limits and
counters (``run``), the result table (``table``), the depth-first prover
(``prover``, with its last-move kernel ``leaves`` and orthodox bounds
``orthodox``) and proof-number search (``pns``)."""
