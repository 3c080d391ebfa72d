"""The command line: perft output and one-line errors with exit code 2."""

from __future__ import annotations

from click.testing import CliRunner

from ksolve.cli import main
from positions import PERFT_SUITE


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_perft_prints_the_node_count() -> None:
    result = run("perft", "--fen", PERFT_SUITE["kiwipete"], "--depth", "3")
    assert result.exit_code == 0
    assert "Nodes: 97862" in result.stdout


def test_perft_divide_lists_every_root_move() -> None:
    result = run("perft", "--depth", "2", "--divide")
    lines = [line for line in result.stdout.splitlines() if ": " in line and not line.startswith("Nodes")]
    assert len(lines) == 20 and all(line.endswith(": 20") for line in lines)
    assert "Nodes: 400" in result.stdout


def test_perft_fog() -> None:
    result = run("perft", "--depth", "1", "--fog", "--fen", "r3k2r/8/8/8/4q3/8/8/R3K2R w KQkq - 0 1")
    assert result.exit_code == 0 and "Nodes: 26" in result.stdout  # 10 + 9 rook moves, 5 king moves, both castlings


def test_bad_fen_is_one_line_and_exit_2() -> None:
    result = run("perft", "--depth", "1", "--fen", "8/8/8/8/8/8/8/K7 w - - 0 1")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip() == ("ksolve: error: --fen: illegal position "
                                     "8/8/8/8/8/8/8/K7 w - - 0 1: no black king")
