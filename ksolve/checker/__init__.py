"""An independent checker of solution certificates (``docs/certificate.md``).

It replays a certificate against every initial position of a problem and
every Black reply with python-chess and its own small referee, sharing no
code with ``ksolve.board``, ``ksolve.rules``, ``ksolve.search``,
``ksolve.hidden`` or ``ksolve.belief`` (and importing neither numba nor
numpy), so that a bug in the solver cannot hide behind the same bug in the
checker.

>>> from ksolve.checker import check_certificate
"""

from ksolve.checker.problem import CheckProblem, ProblemFileError, read_problem
from ksolve.checker.check import check_certificate, check_certificate_file, check_certificate_text
from ksolve.checker.replay import CertificateError, CheckResult, Counterexample, WrongProblem, read_certificate

__all__ = ["CertificateError", "CheckProblem", "CheckResult", "Counterexample", "ProblemFileError", "WrongProblem",
           "check_certificate", "check_certificate_file", "check_certificate_text", "read_certificate", "read_problem"]
