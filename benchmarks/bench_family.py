"""The long-problem family (``problems/family/``): whole-process solve, verify and check.

Per problem, each run one ``python -m ksolve.cli`` process (its wall time and
its own peak resident size, read with ``os.wait4``):

- ``at-most``: ``solve --at-most`` (prove the stipulation, any strategy within
  it), with ``--jobs 1`` and ``--jobs 2``; the ``--jobs 1`` run writes a
  certificate, which ``ksolve check`` replays;
- ``quarter``: ``solve --at-most --jobs 1`` with ``--max-memory`` a quarter of
  the way from the problem's floor to the unbounded peak.  The floor is the
  least budget ksolve accepts for the problem (what the process holds when
  the search starts, the interpreter, kernels and belief, plus the 32 MB a
  search is started with), as its refusal of a 1 MB budget states;
- ``shortest``: ``solve`` (the fewest moves, every shorter depth disproven),
  with ``--jobs 1`` and ``--jobs 2``, on the members of at most
  ``--shortest-up-to`` moves (11: the 13-mover's depth 12 alone takes 45 minutes);
- ``verify`` (with ``--verify``): ``verify --jobs 2 --tries 3``: keys, each
  key's fewest moves, tries, duals.  ``--verify-only`` runs that alone and
  writes ``benchmarks/results/family-verify.json``;
- ``cores`` (with ``--cores``, alone): the shortest mate and the verification
  each with ``--jobs 1`` and ``--jobs 2`` on the members of at most
  ``--shortest-up-to`` moves, their speed-ups on two cores and whether both
  answer alike, into ``benchmarks/results/family-cores.json``.

    python benchmarks/bench_family.py [--only ID ...] [--timeout S] [--verify] [--shortest-up-to N] [-o OUT.json]
    python benchmarks/bench_family.py --verify-only [--only ID ...] [--timeout S]
    python benchmarks/bench_family.py --cores [--only ID ...] [--timeout S] [-o OUT.json]
    python benchmarks/bench_family.py --table     # the README's table from the JSON
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine, measured_process  # noqa: E402

FAMILY = ROOT / "problems" / "family"
RESULTS = ROOT / "benchmarks" / "results" / "family.json"
VERIFY_RESULTS = ROOT / "benchmarks" / "results" / "family-verify.json"
CORES_RESULTS = ROOT / "benchmarks" / "results" / "family-cores.json"


def least_budget_mb(path: Path) -> int:
    """The least ``--max-memory`` ksolve accepts for ``path``, read from its
    one-line refusal of 1 MB ("it holds H MB before searching and needs N MB more")."""
    error = run(["solve", str(path), "--json", "--jobs", "1", "--max-memory", "1M"], None).get("error", "")
    found = re.search(r"holds (\d+) MB before searching and needs (\d+) MB more", error)
    if found is None:
        raise SystemExit(f"unexpected answer to a 1 MB budget: {error!r}")
    return int(found[1]) + int(found[2])


def run(arguments: list[str], timeout: float | None) -> dict:
    """One ksolve process: exit code, seconds, peak MB and its JSON output (if any)."""
    command = [sys.executable, "-m", "ksolve.cli", *arguments] + ([] if timeout is None else ["--timeout", str(timeout)])
    process = measured_process(command, ROOT)
    row = {"exit": process.exit, "seconds": process.seconds, "peak_mb": process.peak_mb}
    try:
        row["output"] = json.loads(process.stdout)
    except json.JSONDecodeError:
        row["error"] = (process.stderr.strip().splitlines() or [""])[-1]
    return row


def solve_row(path: Path, timeout: float, *options: str) -> dict:
    """``ksolve solve PATH --json`` with ``options``: status, moves, key, nodes, seconds, peak."""
    row = run(["solve", str(path), "--json", *options], timeout)
    output = row.pop("output", {})
    row.update(status=output.get("status"), moves=output.get("moves"), key=output.get("key"),
               nodes=output.get("nodes"), reason=output.get("reason") or "")
    return row


def check_row(path: Path, certificate: Path) -> dict:
    """``ksolve check PATH CERTIFICATE``: verified (exit 0), seconds, peak."""
    row = run(["check", str(path), str(certificate)], None)
    row.pop("error", None)
    row["verified"] = row["exit"] == 0
    return row


def verify_row(path: Path, timeout: float, jobs: int = 2) -> dict:
    row = run(["verify", str(path), "--json", "--jobs", str(jobs), "--tries", "3"], timeout)
    output = row.pop("output", {})
    row.update(verdict=output.get("verdict"), line=output.get("line"), nodes=output.get("nodes"),
               keys=[(key["san"], key["moves"]) for key in output.get("keys", [])],
               short=output.get("short"), tries=[t.get("san") for t in output.get("tries", [])][:3],
               tries_total=output.get("tries_total"), duals=len(output.get("duals", [])),
               main_line_duals=sum(1 for dual in output.get("duals", []) if dual.get("main_line")),
               dual_turns=[f"{dual['move_number']}.{dual['played']} ({', '.join(dual['also'])}) after {dual['after']}"
                           for dual in output.get("duals", [])],
               duals_checked=output.get("duals_checked"), reason=output.get("reason") or "")
    return row


def verify_table(report: dict) -> str:
    """The README's table of the verifications."""
    lines = ["| problem | #n | verdict | keys (fewest moves) | tries | duals (main line) | seconds | peak MB |",
             "|---|---|---|---|---|---|---|---|"]
    for r in report["results"]:
        v = r["verify"]
        keys = ", ".join(f"1.{san}! (#{moves})" for san, moves in v.get("keys") or []) or "-"
        duals = (f"{v['duals']} ({v['main_line_duals']})" if v.get("duals_checked")
                 else "-" if len(v.get("keys") or []) != 1 else "not all checked")
        lines.append(f"| {r['problem']} | {r['moves']} | {v.get('verdict') or 'error'} | {keys} "
                     f"| {v.get('tries_total') or '-'} | {duals} | {v['seconds']:.0f} | {v['peak_mb']} |")
    return "\n".join(lines)


def measure(path: Path, timeout: float, verify: bool, shortest_up_to: int, at_most_only: bool = False) -> dict:
    from ksolve.problem import load_problem

    problem = load_problem(path)
    result = {"problem": path.stem, "moves": problem.moves, "positions": len(problem.belief())}
    with tempfile.TemporaryDirectory() as scratch:
        certificate = Path(scratch) / "certificate.json"
        result["at_most"] = solve_row(path, timeout, "--at-most", "--jobs", "1", "--certificate", str(certificate))
        if certificate.exists():
            result["check"] = check_row(path, certificate)
    if at_most_only:
        return result
    result["at_most_jobs2"] = solve_row(path, timeout, "--at-most", "--jobs", "2")
    peak = result["at_most"]["peak_mb"]
    floor_mb = least_budget_mb(path)
    budget = floor_mb + max(0, (peak - floor_mb) // 4)
    result["quarter"] = dict(solve_row(path, timeout * 4, "--at-most", "--jobs", "1", "--max-memory", f"{budget}M"),
                             budget_mb=budget, floor_mb=floor_mb)
    if problem.moves <= shortest_up_to:
        result["shortest"] = solve_row(path, timeout, "--jobs", "1")
        result["shortest_jobs2"] = solve_row(path, timeout, "--jobs", "2")
    else:  # refuting every shorter depth takes far longer than the timeout (noted in the problem file)
        result["shortest"] = result["shortest_jobs2"] = {"status": "not run", "moves": problem.moves}
    if verify:
        result["verify"] = verify_row(path, timeout)
    return result


def table(report: dict) -> str:
    """The README's table."""
    lines = ["| problem | #n | positions | shortest | `--at-most` s / MB | `--jobs 2` s | quarter budget s / MB "
             "| shortest s | `--jobs 2` s | checked |",
             "|---|---|---|---|---|---|---|---|---|---|"]

    def cell(row: dict | None, peak: bool = False) -> str:
        if not row:
            return "-"
        if row.get("status") == "not run":
            return "not run"
        if row.get("status") != "solved":
            return f"{row.get('status') or 'error'} ({row['seconds']:.0f} s)"
        return f"{row['seconds']:.1f} / {row['peak_mb']}" if peak else f"{row['seconds']:.1f}"

    for r in report["results"]:
        shortest = r.get("shortest", {}).get("moves") or "?"
        lines.append(f"| {r['problem']} | {r['moves']} | {r['positions']} | {shortest} "
                     f"| {cell(r['at_most'], True)} | {cell(r.get('at_most_jobs2'))} | {cell(r.get('quarter'), True)} "
                     f"| {cell(r.get('shortest'))} | {cell(r.get('shortest_jobs2'))} "
                     f"| {'yes' if r.get('check', {}).get('verified') else 'no'} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="Problem ids to run.")
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--verify", action="store_true", help="Also verify each problem (--jobs 2).")
    parser.add_argument("--shortest-up-to", type=int, default=11,
                        help="Run the shortest-mate search only on members of at most this many moves "
                             "(a longer one's refutations take far longer than the timeout).")
    parser.add_argument("--verify-only", action="store_true",
                        help=f"Only verify each problem (--jobs 2), into {VERIFY_RESULTS.name}.")
    parser.add_argument("--at-most-only", action="store_true",
                        help="Only the --at-most proofs and their certificates (write them with -o elsewhere).")
    parser.add_argument("--cores", action="store_true",
                        help=f"Only the shortest mate and the verification with one and two jobs, into {CORES_RESULTS.name}.")
    parser.add_argument("--verify-cores", action="store_true",
                        help="With --cores: only the verifications (one job and two), not the shortest mates.")
    parser.add_argument("--table", action="store_true", help="Print the README's table from the JSON.")
    parser.add_argument("-o", "--output", default=str(RESULTS))
    args = parser.parse_args()
    if args.table:
        print(table(json.loads(Path(args.output).read_text())))
        if VERIFY_RESULTS.exists():
            print(verify_table(json.loads(VERIFY_RESULTS.read_text())))
        if CORES_RESULTS.exists():
            print(cores_table(json.loads(CORES_RESULTS.read_text())))
        return
    if args.verify_only:
        verify_only(args)
        return
    if args.cores:
        cores(args)
        return
    results = []
    for path in sorted(FAMILY.glob("*.toml")):
        if args.only and path.stem not in args.only:
            continue
        result = measure(path, args.timeout, args.verify, args.shortest_up_to, args.at_most_only)
        results.append(result)
        print(json.dumps(result), flush=True)
    report = {"benchmark": "family", "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "machine": machine(),
              "timeout": args.timeout, "results": results}
    Path(args.output).write_text(json.dumps(report, indent=2) + "\n")
    print(table(report))
    print(f"wrote {args.output}")


def verify_only(args: argparse.Namespace) -> None:
    """``ksolve verify --jobs 2`` of each member, into ``VERIFY_RESULTS``."""
    from ksolve.problem import load_problem

    results = []
    for path in sorted(FAMILY.glob("*.toml")):
        if args.only and path.stem not in args.only:
            continue
        problem = load_problem(path)
        result = {"problem": path.stem, "moves": problem.moves, "positions": len(problem.belief()),
                  "verify": verify_row(path, args.timeout)}
        results.append(result)
        print(json.dumps(result), flush=True)
    report = {"benchmark": "family-verify", "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "machine": machine(),
              "timeout": args.timeout, "jobs": 2, "results": results}
    VERIFY_RESULTS.write_text(json.dumps(report, indent=2) + "\n")
    print(verify_table(report))
    print(f"wrote {VERIFY_RESULTS}")


def cores(args: argparse.Namespace) -> None:
    """The shortest mate and the verification of each member with one job and
    two, into ``CORES_RESULTS``."""
    results = []
    for path in sorted(FAMILY.glob("*.toml")):
        moves = int(re.search(r'stipulation = "#(\d+)"', path.read_text())[1])
        if (args.only and path.stem not in args.only) or moves > args.shortest_up_to:
            continue
        result = {"problem": path.stem, "moves": moves}
        for jobs in (1, 2):
            if not args.verify_cores:
                result[f"shortest_jobs{jobs}"] = solve_row(path, args.timeout, "--jobs", str(jobs))
            result[f"verify_jobs{jobs}"] = verify_row(path, args.timeout, jobs)
        verified = result["verify_jobs1"], result["verify_jobs2"]
        result["same_answers"] = all(verified[0][name] == verified[1][name]
                                     for name in ("verdict", "keys", "tries_total", "dual_turns"))
        if not args.verify_cores:
            one, two = result["shortest_jobs1"], result["shortest_jobs2"]
            result["same_answers"] &= (one["status"], one["moves"]) == (two["status"], two["moves"])
        results.append(result)
        print(json.dumps(result), flush=True)
    report = {"benchmark": "family-cores", "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "machine": machine(),
              "timeout": args.timeout, "results": results}
    output = CORES_RESULTS if args.output == str(RESULTS) else Path(args.output)
    output.write_text(json.dumps(report, indent=2) + "\n")
    print(cores_table(report))
    print(f"wrote {output}")


def cores_table(report: dict) -> str:
    """The README's table of one job against two."""
    lines = ["| problem | #n | shortest s, 1 job | 2 jobs | speed-up | verify s, 1 job | 2 jobs | speed-up | same answers |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in report["results"]:
        cells = []
        for part in ("shortest", "verify"):
            if f"{part}_jobs1" not in r:
                cells += ["-", "-", "-"]
                continue
            one, two = r[f"{part}_jobs1"]["seconds"], r[f"{part}_jobs2"]["seconds"]
            cells += [f"{one:.1f}", f"{two:.1f}", f"{one / two:.2f}x"]
        lines.append(f"| {r['problem']} | {r['moves']} | " + " | ".join(cells) + f" | {'yes' if r['same_answers'] else 'no'} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
