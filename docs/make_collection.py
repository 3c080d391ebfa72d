"""Write the certified collection's verdicts: ``docs/collection/verdicts.json``.

For every problem file of ``problems/`` and ``problems/composed/``: ``ksolve.verify``
(the verdict, keys, tries with their refutations, duals), then the whole verdict's
certificate written and replayed by the independent checker.  A problem is marked C+
in the collection only where the checker verified that certificate with no part left
out.  The docs build (``docs/collection_pages.py``) turns this file and the problem
files into the collection's pages; it runs nothing itself, so the site builds in
seconds.  Rerun this after a problem file or the engine changes:

    python docs/make_collection.py [--seconds 60] [--only ID ...]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ksolve  # noqa: E402
from ksolve.search.run import Limits, SearchAborted  # noqa: E402
from ksolve.verdict_certificates import verdict_certificate  # noqa: E402

OUTPUT = ROOT / "docs" / "collection" / "verdicts.json"


def problem_files() -> list[Path]:
    """The collection's problem files: the bundled ones, then the composed ones."""
    return sorted((ROOT / "problems").glob("*.toml")) + sorted((ROOT / "problems" / "composed").glob("*.toml"))


def verification_summary(data: dict[str, Any]) -> dict[str, Any]:
    """``Verification.as_dict`` without the search's internals: each try keeps its move and
    its refutation in words (``Nxc2! (no mate in 1)``), not the refuting branch's data."""
    for first in data["keys"] + data["short"] + data["tries"]:
        first.pop("refuted_by", None)
    return data


def entry(path: Path, seconds: float) -> dict[str, Any]:
    """One problem's verdict and its certificate's fate (see the module docstring)."""
    problem = ksolve.load_problem(path)
    row: dict[str, Any] = {"id": problem.id, "file": str(path.relative_to(ROOT)), "rules": problem.rules.name,
                           "limit_seconds": seconds}
    started = time.perf_counter()
    report = ksolve.verify(problem, jobs=1, limits=Limits(seconds=seconds))
    row["verify_seconds"] = round(time.perf_counter() - started, 2)
    row["verification"] = verification_summary(report.as_dict())
    if report.verdict == "unknown":
        row["certificate"] = {"result": f"not written: verify undecided within {seconds:g} s"}
        return row
    if problem.rules.probes:
        row["certificate"] = {"result": "not written: refutations under Modern Kriegspiel are not checked"}
        return row
    try:
        written = verdict_certificate(problem, report, limits=Limits(seconds=seconds))
    except SearchAborted as stop:
        row["certificate"] = {"result": f"not written: {stop}"}
        return row
    text = json.dumps(written.data, separators=(",", ":"), sort_keys=True)
    certificate: dict[str, Any] = {"bytes": len(text), "sha256": hashlib.sha256(text.encode()).hexdigest()}
    if written.left_out:
        certificate.update(result="parts left out", left_out=written.left_out)
    else:
        started = time.perf_counter()
        checked = ksolve.check(path, written.data)
        certificate.update(result="verified" if checked.verified else "not verified", checker=checked.format(),
                           check_seconds=round(time.perf_counter() - started, 2))
    row["certificate"] = certificate
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="limit of verify and of the certificate, each")
    parser.add_argument("--only", nargs="*", help="problem file stems: measure these again, keep the others' rows")
    args = parser.parse_args()
    previous = {row["file"]: row for row in json.loads(OUTPUT.read_text())["problems"]} if OUTPUT.exists() else {}
    files = [str(path.relative_to(ROOT)) for path in problem_files()]
    measured = dict(previous)
    for file in files:
        if args.only and Path(file).stem not in args.only and file in previous:
            continue
        row = entry(ROOT / file, args.seconds)
        measured[file] = row
        write([measured[name] for name in files if name in measured])
        print(f"{row['id']}: {row['verification']['line']} | {row['certificate']['result']}", flush=True)


def write(rows: list[dict[str, Any]]) -> None:
    """The rows so far (after each problem: a run cut short keeps what it measured)."""
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(json.dumps({"ksolve": ksolve.__version__, "problems": rows}, indent=1, ensure_ascii=False)
                      + "\n")


if __name__ == "__main__":
    main()
