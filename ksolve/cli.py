"""The ``ksolve`` command line: thin click commands that parse, call the
library and print.  Heavy modules (numba kernels) are imported inside the
commands so that ``ksolve --help`` starts fast.

Exit codes: 0 success, 2 bad input (one ``ksolve: error:`` line on stderr).
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Iterator, NoReturn

import click

EXIT_SOLVED, EXIT_NO_SOLUTION, EXIT_BAD_INPUT, EXIT_UNKNOWN = 0, 1, 2, 3


def fail(message: str) -> NoReturn:
    """Print one clear error line and exit with the bad-input code."""
    click.echo(f"ksolve: error: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def write_output(path: str, text: str, option: str = "-o") -> None:
    """Write ``text`` to ``path``, or fail with one line naming the option."""
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as error:
        fail(f"{option}: cannot write {path}: {error.strerror}")


@contextmanager
def game_errors(file: str) -> Iterator[None]:
    """Turn what reading a game and estimating its belief can raise into one error line."""
    from ksolve.games.estimate import BeliefTooLarge

    try:
        yield
    except OSError as error:
        fail(f"{file}: cannot read: {error.strerror}")
    except BeliefTooLarge as error:
        fail(f"{file}: {error} (raise --max-positions)")
    except ValueError as error:  # PGNError, InconsistentHistory, a game over or Black to move
        message = str(error)
        fail(message if message.startswith(file) else f"{file}: {message}")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ksolve")
def main() -> None:
    """ksolve: a Kriegspiel problem solver and composer's tool."""


@main.command()
@click.option("--fen", default="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
              show_default=True, help="The position to count from.")
@click.option("--depth", type=click.IntRange(0, 12), required=True, help="Plies to count.")
@click.option("--divide", is_flag=True, help="Print the count below each root move.")
@click.option("--fog", is_flag=True, help="Fog-of-War moves (king capture, no check rules).")
@click.option("--bulk", is_flag=True, help="Count the last ply without making its moves.")
def perft(fen: str, depth: int, divide: bool, fog: bool, bulk: bool) -> None:
    """Count the leaf nodes of the move tree (the engine self-test)."""
    from ksolve.board import PositionError, expand, move_to_uci, position_from_fen
    from ksolve.board import perft as count_leaves

    try:
        position = position_from_fen(fen, fog=fog)
    except PositionError as error:
        fail(f"--fen: {error}")
    start = time.perf_counter()
    if divide and depth > 0:
        import numpy as np

        children, _, moves = expand(position[np.newaxis, :], fog)
        total = 0
        for child, move in sorted(zip(children, moves), key=lambda pair: move_to_uci(pair[1])):
            count = int(count_leaves(child, depth - 1, fog, bulk))
            total += count
            click.echo(f"{move_to_uci(move)}: {count}")
        click.echo("")
    else:
        total = int(count_leaves(position, depth, fog, bulk))
    elapsed = time.perf_counter() - start
    click.echo(f"Nodes: {total}")
    click.echo(f"Time: {elapsed:.3f} s ({total / max(elapsed, 1e-9):,.0f} nodes/s)", err=True)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--moves", type=click.IntRange(1, 60), help="Prove mate in at most N (default: the stipulation).")
@click.option("--ply", type=click.IntRange(1, 119), help="For a game (.pgn): mate within D plies.")
@click.option("--max-positions", type=click.IntRange(min=1), default=2_000_000, show_default=True,
              help="For a game (.pgn): the largest belief to estimate.")
@click.option("--rules", "rules_name", help="Solve under this rule set instead of the file's.")
@click.option("--timeout", type=click.FloatRange(min=0.1), help="Give up after S seconds (status unknown).")
@click.option("--max-nodes", type=click.IntRange(min=1), help="Give up after N search nodes (status unknown).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--certificate", "certificate_path", type=click.Path(dir_okay=False, writable=True),
              help="Write the proven strategy as a certificate for `ksolve check`.")
@click.option("--search", type=click.Choice(["pn", "dfs"]), default="pn", show_default=True,
              help="Proof-number search, or the depth-first prover alone (same results).")
@click.option("--at-most", is_flag=True,
              help="Prove mate in at most N without looking for a shorter mate (much faster on long problems).")
def solve(file: str, moves: int | None, ply: int | None, max_positions: int, rules_name: str | None,
          timeout: float | None, max_nodes: int | None, as_json: bool, certificate_path: str | None,
          search: str, at_most: bool) -> None:
    """Prove that White wins whatever the hidden units and whatever Black plays,
    and print the strategy (exit 0), or that he cannot (exit 1); 3: unknown.
    FILE is a problem file (.toml) or a Kriegspiel game (.pgn, with --ply or
    --moves): the problem at the end of its history, from White's belief.

    \b
    Example:
      ksolve solve problems/rotenberg-1976.toml
      ksolve solve game.pgn --ply 5
    """
    from ksolve.problem import ProblemError
    from ksolve.search.prover import Limits
    from ksolve.solver import NO_SOLUTION, SOLVED, solve as solve_problem

    if certificate_path and file.endswith(".pgn"):
        fail("--certificate: certificates are checked against a problem file (.toml), not a game")
    problem = load_any_problem(file, ply, moves, max_positions)
    if file.endswith(".pgn"):
        moves = None  # the stipulation came from --ply/--moves
    try:
        rules = load_rules(rules_name) if rules_name else None
        result = solve_problem(problem, moves, rules, Limits(timeout, max_nodes), _progress_printer(),
                               search=search, shortest=not at_most)
    except ProblemError as error:
        fail(str(error))
    if certificate_path and result.status == SOLVED:
        _write_certificate(problem, result, certificate_path)
    if as_json:
        import json

        from ksolve.report.json import result_json

        click.echo(json.dumps(result_json(result, problem), indent=1))
    else:
        _print_result(problem, result)
    sys.exit({SOLVED: EXIT_SOLVED, NO_SOLUTION: EXIT_NO_SOLUTION}.get(result.status, EXIT_UNKNOWN))


def _write_certificate(problem, result, path: str) -> None:
    import json

    from ksolve.certificate import certificate

    write_output(path, json.dumps(certificate(problem, result), separators=(",", ":")), "--certificate")
    click.echo(f"ksolve: certificate written to {path}", err=True)


@main.command()
@click.argument("path", type=click.Path())
@click.option("--moves", type=click.IntRange(1, 60), help="Check mate in N (default: the stipulation).")
@click.option("--tries", "max_tries", type=click.IntRange(min=0), help="List only the best K tries.")
@click.option("--no-duals", is_flag=True, help="Skip the search for duals.")
@click.option("--timeout", type=click.FloatRange(min=0.1), help="Give up after S seconds per problem.")
@click.option("--json", "as_json", is_flag=True, help="Print the verification as JSON.")
def verify(path: str, moves: int | None, max_tries: int | None, no_duals: bool, timeout: float | None,
           as_json: bool) -> None:
    """Check a problem's soundness: keys, cooks, short solutions, tries with
    their refutations, duals.  PATH is a problem file or a folder of them
    (then a summary table).  Exit 0 sound, 1 cooked / short / no solution,
    3 unknown.

    \b
    Example:
      ksolve verify problems/rotenberg-1976.toml --tries 5
    """
    from pathlib import Path

    from ksolve.problem import ProblemError, load_problem
    from ksolve.search.prover import Limits
    from ksolve.verify import EXIT_CODES, verify as verify_problem

    if not Path(path).exists():
        fail(f"{path}: no such file or folder")
    files = sorted(Path(path).glob("*.toml")) if Path(path).is_dir() else [Path(path)]
    if not files:
        fail(f"{path}: no problem files (*.toml) in this folder")
    reports = []
    for file in files:
        try:
            problem = load_problem(str(file))
        except ProblemError as error:
            fail(str(error))
        report = verify_problem(problem, moves, None, Limits(timeout), max_tries, not no_duals,
                                _progress_printer())
        reports.append((problem, report))
    if as_json:
        import json

        data = [{"problem": problem.source, **report.as_dict()} for problem, report in reports]
        click.echo(json.dumps(data[0] if len(files) == 1 and not Path(path).is_dir() else data, indent=1))
    elif len(reports) == 1 and not Path(path).is_dir():
        from ksolve.report.text import render_verification_text

        click.echo(f"{reports[0][0].name}: {reports[0][0].stipulation}, rules {reports[0][0].rules.name}")
        click.echo(render_verification_text(reports[0][1].as_dict()))
    else:
        _print_verification_table(reports)
    worst = max(EXIT_CODES[report.verdict] for _, report in reports)
    sys.exit(worst)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("certificate_file", type=click.Path(dir_okay=False))
def check(file: str, certificate_file: str) -> None:
    """Replay a certificate against every initial position of FILE and every
    Black reply, with python-chess and an independent referee: prints
    "verified" (exit 0) or the first counterexample (exit 1).

    \b
    Example:
      ksolve solve problems/rotenberg-1976.toml --certificate rotenberg.json
      ksolve check problems/rotenberg-1976.toml rotenberg.json
    """
    from ksolve.check import CertificateError, ProblemFileError, check_certificate_file

    try:
        result = check_certificate_file(file, certificate_file)
    except CertificateError as error:
        fail(f"{certificate_file}: {error}")
    except ProblemFileError as error:
        fail(str(error))
    except OSError as error:
        fail(f"{error.filename}: cannot read: {error.strerror}")
    click.echo(result.format())
    sys.exit(EXIT_SOLVED if result.verified else EXIT_NO_SOLUTION)


REPORT_FORMATS = ("text", "json", "html", "dot", "graphml")


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--format", "output_format", type=click.Choice(REPORT_FORMATS), default="text", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write the report here (default: standard output).")
@click.option("--moves", type=click.IntRange(1, 60), help="Mate in N (default: the stipulation).")
@click.option("--ply", type=click.IntRange(1, 119), help="For a game (.pgn): mate within D plies.")
@click.option("--rules", "rules_name", help="Solve under this rule set instead of the file's.")
@click.option("--timeout", type=click.FloatRange(min=0.1), help="Give up after S seconds (each of solve and verify).")
@click.option("--no-verify", is_flag=True, help="Leave out the verification (tries, cooks, duals).")
@click.option("--tries", "max_tries", type=click.IntRange(min=0), help="List only the best K tries.")
def report(file: str, output_format: str, output: str | None, moves: int | None, ply: int | None,
           rules_name: str | None,
           timeout: float | None, no_verify: bool, max_tries: int | None) -> None:
    """Solve FILE and write its solution tree as text (composers' conventions,
    with the tries), JSON, one self-contained HTML page with diagrams, or a
    graph (DOT, GraphML).  Exit codes as for ``solve``.

    \b
    Example:
      ksolve report problems/rotenberg-1976.toml --format html -o rotenberg.html
    """
    from ksolve.problem import ProblemError
    from ksolve.search.prover import Limits
    from ksolve.solver import NO_SOLUTION, SOLVED, solve as solve_problem
    from ksolve.verify import verify as verify_problem

    problem = load_any_problem(file, ply, moves)
    if file.endswith(".pgn"):
        moves = None
    try:
        rules = load_rules(rules_name) if rules_name else None
        result = solve_problem(problem, moves, rules, Limits(timeout), _progress_printer())
    except ProblemError as error:
        fail(str(error))
    verification = None
    if not no_verify and output_format in ("text", "json", "html") and result.status != "unknown":
        verification = verify_problem(problem, moves, rules, Limits(timeout), max_tries, True,
                                      _progress_printer()).as_dict()
    if output_format in ("dot", "graphml") and result.tree is None:
        fail(f"{file}: no strategy tree to draw ({result.status})")
    text = _report_text(problem, result, verification, output_format)
    if output:
        write_output(output, text)
        click.echo(f"ksolve: {output_format} report written to {output}", err=True)
    else:
        click.echo(text, nl=not text.endswith("\n"))
    sys.exit({SOLVED: EXIT_SOLVED, NO_SOLUTION: EXIT_NO_SOLUTION}.get(result.status, EXIT_UNKNOWN))


def _report_text(problem, result, verification: dict | None, output_format: str) -> str:
    """The report in one of ``REPORT_FORMATS``."""
    if output_format == "html":
        from ksolve.report.html import render_html

        return render_html(problem, result, verification)
    if output_format == "json":
        import json

        from ksolve.report.json import result_json

        return json.dumps({**result_json(result, problem), "verification": verification}, indent=1)
    if output_format == "dot":
        from ksolve.report.graph import to_dot

        return to_dot(result.tree)
    if output_format == "graphml":
        from ksolve.report.graph import to_graphml

        return to_graphml(result.tree)
    from ksolve.report.text import render_text, render_verification_text

    lines = [f"{problem.name}: {problem.stipulation}, rules {result.tree.graph['rules'] if result.tree else problem.rules.name}"]
    if verification is not None:
        lines.append(render_verification_text(verification))
    lines.append(render_text(result.tree) if result.tree is not None else f"Status: {result.status}")
    return "\n".join(lines) + "\n"


def _print_verification_table(reports) -> None:
    click.echo(f"{'problem':<28} {'stip':>4} {'rules':<12} {'verdict':<15} {'keys':<22} {'tries':>5} "
               f"{'duals':>5} {'published':<10} {'seconds':>8}")
    for problem, report in reports:
        keys = ",".join(key.move for key in report.keys) or "-"
        published = ("-" if report.published_key is None else
                     "key" if report.published_key_matches else "not a key")
        click.echo(f"{problem.id:<28} {problem.stipulation:>4} {problem.rules.name:<12} {report.verdict:<15} "
                   f"{keys:<22} {report.tries_total:>5} {len(report.duals) if report.duals_checked else '-':>5} {published:<10} "
                   f"{report.seconds:>8.1f}")


def _progress_printer():
    """A progress callback that writes to stderr at most once a second, after the first second."""
    last = [0.0]

    def report(stats, depth: int) -> None:
        if stats.seconds >= 1.0 and stats.seconds - last[0] >= 1.0:
            last[0] = stats.seconds
            click.echo(f"ksolve: depth {depth}, {stats.nodes:,} nodes, {stats.seconds:.1f} s", err=True)

    return report


def _print_result(problem, result) -> None:
    from ksolve.report.text import render_text

    goal = "mate" if problem.goal == "mate" else "king capture"
    rules = result.tree.graph["rules"] if result.tree is not None else problem.rules.name
    click.echo(f"{problem.name}: {problem.stipulation}, rules {rules}, belief {result.belief_size} positions")
    if result.status == "solved" and not result.shortest:
        click.echo(f"White forces {goal} in at most {result.moves} (a shorter {goal} was not looked for)"
                   f"; key {result.key or 'per first announcement'}{_published(problem, result)}")
        click.echo(render_text(result.tree))
    elif result.status == "solved":
        click.echo(f"White forces {goal} in {result.moves}"
                   f"{' (the stipulation is ' + str(result.max_moves) + ')' if result.moves < result.max_moves else ''}"
                   f"; key {result.key or 'per first announcement'}"
                   f"{_published(problem, result)}")
        click.echo(render_text(result.tree))
    elif result.status == "no solution":
        click.echo(f"No forced {goal} in {result.max_moves} or fewer moves.")
    else:
        click.echo(f"Unknown: {result.reason}")
    click.echo(f"{result.nodes:,} nodes, {result.seconds:.2f} s", err=True)


def _published(problem, result) -> str:
    if not problem.published_key or not result.key:
        return ""
    verdict = "agrees" if problem.published_key == result.key else "differs"
    return f" (published key {problem.published_key}: {verdict})"


def load_any_problem(file: str, ply: int | None = None, moves: int | None = None,
                     max_positions: int | None = None):
    """A problem file (.toml), or the problem at the end of a game (.pgn; the
    depth from ``ply`` or ``moves``); bad input ends in one error line."""
    from ksolve.problem import ProblemError, load_problem

    if not file.endswith(".pgn"):
        if ply is not None:
            fail("--ply: only for a game (.pgn); a problem file has its stipulation")
        try:
            return load_problem(file)
        except ProblemError as error:
            fail(str(error))
    if ply is None and moves is None:
        fail(f"{file}: a game needs the depth: --ply D or --moves N")
    if ply is not None and moves is not None:
        fail("--ply/--moves: give one of them")
    from ksolve.games.pgn import read_game_file
    from ksolve.games.problem import game_problem

    with game_errors(file):
        return game_problem(read_game_file(file), ply, moves, max_positions, source=file)


def load_rules(name: str):
    """The rule set called ``name``, or a one-line error naming the valid ones."""
    from ksolve.rules import UnknownRules, get_rules

    try:
        return get_rules(name)
    except UnknownRules as error:
        fail(f"--rules: {error}")


@main.command()
@click.option("--rules", "rules_name", default="berkeley", show_default=True, help="Referee rule set.")
@click.option("--fen", required=True, help="The true position.")
@click.argument("attempts", nargs=-1)
def referee(rules_name: str, fen: str, attempts: tuple[str, ...]) -> None:
    """Print the referee's answer to each attempt (UCI, or "any" for Any?),
    the side to move making them in turn.

    \b
    Example:
      ksolve referee --rules wild16 --fen "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1" e4e5 e4d5
    """
    from ksolve.board import PositionError, move_from_uci, position_from_fen
    from ksolve.rules.referee import Referee

    rules = load_rules(rules_name)
    try:
        game = Referee(rules, position_from_fen(fen, fog=rules.fog))
    except PositionError as error:
        fail(f"--fen: {error}")
    for number, token in enumerate(attempts, 1):
        side = "White" if game.turn == 0 else "Black"
        if token.lower() in ("any", "any?"):
            answer = game.ask_any()
        else:
            try:
                move = move_from_uci(token)
            except ValueError as error:
                fail(f"attempt {number}: {error}")
            answer = game.attempt(move)
        click.echo(f"{side} {token}: {answer.words}")


@main.command()
@click.option("--rules", "rules_name", default="berkeley", show_default=True, help="Referee rule set.")
@click.option("--fen", help="The visible position (hidden units left out).")
@click.option("--hidden", "hidden", multiple=True,
              help="A hidden unit PIECES:SQUARES, e.g. b:dark, k:e2,e5, p?:a-file, q|r|b|n:e1.")
@click.option("--max-positions", type=click.IntRange(min=1), default=2_000_000, show_default=True,
              help="For a game: the largest belief to estimate.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="For a game: write an SVG heatmap of Black's possible squares.")
@click.argument("events", nargs=-1)
def belief(rules_name: str, fen: str | None, hidden: tuple[str, ...], max_positions: int, output: str | None,
           events: tuple[str, ...]) -> None:
    """Print the size of White's belief and where Black's men may stand: at
    the end of a Kriegspiel game (``ksolve belief GAME.pgn``: White's belief
    estimated from his filtered history, a text heatmap per black man type),
    or from a visible position after a sequence of events: White's attempts
    as UCI:ANSWER (e.g. a2g2:No, d3f2:"Capture at f2") and Black's replies as
    black:ANSWER.  The answer may be left out when only one is possible.

    \b
    Example:
      ksolve belief game.pgn -o heatmap.svg
      ksolve belief --fen "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1" --hidden b:dark a2g2:No
    """
    from ksolve.belief import BeliefState

    if fen is None:
        if len(events) != 1 or not events[0].endswith(".pgn"):
            fail("give a game (GAME.pgn) or a position (--fen) with its events")
        if output and not output.lower().endswith(".svg"):
            fail(f"-o: {output}: the heatmap is written as SVG (name the file .svg); PNG is not supported")
        _game_belief(events[0], max_positions, output)
        return
    if output:
        fail("-o: the heatmap is for a game's belief (GAME.pgn)")
    rules = load_rules(rules_name)
    try:
        state = BeliefState.from_hidden(fen, list(hidden))
    except ValueError as error:
        fail(f"--hidden/--fen: {error}")
    click.echo(f"Belief: {len(state)} positions ({rules.name})")
    for number, event in enumerate(events, 1):
        state = _apply_event(state, rules, number, event)
        click.echo(f"after {event}: {len(state)} positions")
    _print_hidden_squares(state)


@main.command(name="filter")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--side", type=click.Choice(["white", "black"]), default="white", show_default=True,
              help="Whose view to keep.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Default: standard output.")
def filter_command(file: str, side: str, output: str | None) -> None:
    """Write a Kriegspiel game (PGN) as one side heard it: the other side's
    moves become ``??`` with what was heard of them (refusal counts).

    \b
    Example:
      ksolve filter game.pgn -o game-white.pgn
    """
    from ksolve.games.model import filter_game
    from ksolve.games.pgn import read_game_file, write_game

    with game_errors(file):
        text = write_game(filter_game(read_game_file(file), side == "white"))
    if output is None:
        click.echo(text, nl=not text.endswith("\n"))
    else:
        write_output(output, text)


def _game_belief(file: str, max_positions: int, output: str | None) -> None:
    """White's belief at the end of a game, as text heatmaps (and an SVG one)."""
    from ksolve.board.layout import COLUMN_TURN
    from ksolve.games.estimate import estimate
    from ksolve.games.pgn import read_game_file
    from ksolve.report.heatmap import heatmap_svg, heatmap_text, square_counts

    with game_errors(file):
        game = read_game_file(file)
        state = estimate(game, max_positions)
    side = "White" if int(state.positions[0, COLUMN_TURN]) == 0 else "Black"
    click.echo(f"{file}: {len(state):,} position{'s' if len(state) != 1 else ''} ({game.rules}), {side} to move")
    counts = square_counts(state)
    for name, grid in counts.items():
        click.echo(f"\nblack {name}:")
        click.echo(heatmap_text(grid, len(state)))
    if output:
        write_output(output, heatmap_svg(counts, len(state)))
        click.echo(f"ksolve: heatmap written to {output}", err=True)


@main.command()
@click.option("--rules", "rules_name", default="berkeley", show_default=True, help="Referee rule set.")
@click.option("--games", type=click.IntRange(min=1), required=True, help="Games to play.")
@click.option("--ply", type=click.IntRange(1, 15), required=True, help="Mate within D plies.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the games and starts.")
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False), required=True,
              help="Folder for mate/, near-miss/ and stats.csv.")
@click.option("--start", type=click.Choice(["endgame", "initial"]), default="endgame", show_default=True,
              help="Random endgame positions, or the standard start.")
@click.option("--seconds", type=click.FloatRange(min=0.01), default=2.0, show_default=True,
              help="Time limit of one proof.")
@click.option("--max-positions", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="A game's belief larger than this ends its examination.")
def generate(rules_name: str, games: int, ply: int, seed: int, out_dir: str, start: str, seconds: float,
             max_positions: int) -> None:
    """Play seeded games between a greedy White and a random Black, estimate
    White's belief at each of his turns and write the instances where he
    forces mate within D plies ("mate") or nearly does ("near-miss") as
    filtered PGN, with a CSV of statistics.

    \b
    Example:
      ksolve generate --rules berkeley --games 100 --ply 3 --seed 1 -o bench3
    """
    from ksolve.games.generate import endgame_starts, generate as generate_games

    rules = load_rules(rules_name)
    if rules.fog or rules.name == "orthodox":
        fail(f"--rules: games are Kriegspiel games; use one of the six Kriegspiel rule sets, not {rules.name}")
    fens = endgame_starts(games, seed) if start == "endgame" else None
    counts = {"mate": 0, "near-miss": 0}

    def progress(row: dict) -> None:
        if row["result"] in counts:
            counts[row["result"]] += 1
        click.echo(f"ksolve: game {row['game'] + 1}/{games}, ply {row['ply']}: {row['result']} "
                   f"(belief {row['belief_size']:,})", err=True)

    try:
        rows = generate_games(rules.name, games, ply, seed, out_dir, fens=fens, seconds=seconds,
                              max_positions=max_positions, progress=progress)
    except OSError as error:
        fail(f"-o: {error.filename}: {error.strerror}")
    click.echo(f"{len(rows)} turns examined: {counts['mate']} mate, {counts['near-miss']} near-miss "
               f"instances written to {out_dir}")


def _apply_event(state, rules, number: int, event: str):
    """The belief after one ``UCI:ANSWER`` or ``black:ANSWER`` event."""
    from ksolve.board import move_from_uci

    action, _, wanted = event.partition(":")
    if action.lower() == "black":
        classes = state.replies(rules)
    else:
        try:
            classes = state.attempt(rules, move_from_uci(action))
        except ValueError as error:
            fail(f"event {number} {event!r}: {error}")
    answers = [(rules.describe(key), part) for key, part in classes]
    if not wanted and len(answers) == 1:
        return answers[0][1]
    matching = [part for words, part in answers if _normal(words) == _normal(wanted)]
    if not matching:
        possible = "; ".join(f"{action}:{words!r}" for words, _ in answers) or "none (no legal move)"
        fail(f"event {number} {event!r}: {'no' if wanted else 'which'} answer"
             f"{' ' + repr(wanted) if wanted else ''}; possible: {possible}")
    return matching[0]


def _normal(words: str) -> str:
    return "".join(c for c in words.lower() if c.isalnum())


def _print_hidden_squares(state) -> None:
    import chess

    for piece, squares in state.hidden_squares():
        names = " ".join(chess.square_name(s) for s in chess.scan_forward(squares))
        click.echo(f"{chess.COLOR_NAMES[piece.color]} {chess.piece_name(piece.piece_type)}: {names}")


if __name__ == "__main__":
    main()
