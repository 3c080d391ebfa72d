"""Check any certificate: a strategy, a refutation or a whole verdict.

The one entry point of the checker: it reads what kind of certificate it was
given and hands it to the module that checks that kind (``replay`` for a
strategy, ``refutation`` for a Black choice against every White strategy,
``verdict`` for a composer's whole verdict).

>>> problem = 'stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n'
>>> result = check_certificate_text(problem, {
...     "format": "ksolve-certificate", "version": 1, "rules": "berkeley", "goal": "mate", "moves": 1,
...     "positions": 1, "initial": [[{}, {"attempt": "h1h8", "answers": [[{"end": "checkmate"}, "win"]]}]]})
>>> result.verified
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ksolve.checker.refutation import check_refutation, check_refutation_text
from ksolve.checker.replay import CheckResult, WrongProblem, check_strategy, check_strategy_text, read_certificate
from ksolve.checker.schema import is_refutation, is_verdict, validate
from ksolve.checker.verdict import check_verdict, check_verdict_text


def check_certificate(problem_path: str | Path, certificate: dict[str, Any]) -> CheckResult:
    """Check ``certificate`` of any kind against the problem file at ``problem_path``.

    Raises ``CertificateError`` for a malformed certificate (``WrongProblem``
    for one written for another problem) and ``ProblemFileError`` for an
    unreadable problem file (all ``ValueError``).
    """
    validate(certificate)
    if is_refutation(certificate):
        return check_refutation(problem_path, certificate)
    if is_verdict(certificate):
        return check_verdict(problem_path, certificate)
    return check_strategy(problem_path, certificate)


def check_certificate_text(problem_text: str, certificate: dict[str, Any], name: str = "<problem>") -> CheckResult:
    """``check_certificate`` with the problem given as TOML text (``name``: its file, for messages)."""
    validate(certificate)
    if is_refutation(certificate):
        return check_refutation_text(problem_text, certificate, name)
    if is_verdict(certificate):
        return check_verdict_text(problem_text, certificate, name)
    return check_strategy_text(problem_text, certificate, name)


def check_certificate_file(problem_path: str | Path, certificate_path: str | Path) -> CheckResult:
    """``check_certificate`` on a certificate file (``CertificateError`` naming
    the file if it is not a certificate, or one for another problem)."""
    certificate = read_certificate(certificate_path)
    try:
        return check_certificate(problem_path, certificate)
    except WrongProblem as error:
        raise WrongProblem(f"{certificate_path}: {error}") from None
