"""The ``ksolve`` command line: thin click commands that parse, call the
library and print.  Heavy modules (numba kernels) are imported inside the
commands so that ``ksolve --help`` starts fast.

Exit codes: 0 success, 2 bad input (one ``ksolve: error:`` line on stderr).
"""

from __future__ import annotations

import sys
import time
from typing import NoReturn

import click

EXIT_BAD_INPUT = 2


def fail(message: str) -> NoReturn:
    """Print one clear error line and exit with the bad-input code."""
    click.echo(f"ksolve: error: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


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


if __name__ == "__main__":
    main()
