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


ROTENBERG = "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"


def test_belief_command_after_a_refusal() -> None:
    result = run("belief", "--fen", ROTENBERG, "--hidden", "b:dark", "a2g2:No")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["Belief: 30 positions (berkeley)", "after a2g2:No: 3 positions",
                                          "black bishop: b2 d2 f2"]


def test_belief_command_lists_possible_answers_when_ambiguous() -> None:
    result = run("belief", "--fen", ROTENBERG, "--hidden", "b:dark", "a2g2")
    assert result.exit_code == 2
    assert "possible: a2g2:'Silent'; a2g2:'No'" in result.stderr


def test_referee_command_answers_in_turn() -> None:
    result = run("referee", "--rules", "wild16", "--fen", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e1d1", "d5d4")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["White e1d1: 1 pawn try", "Black d5d4: Silent"]  # the ICC's words


def test_referee_any_question() -> None:
    result = run("referee", "--rules", "berkeley-any", "--fen", "4k3/8/8/8/8/2n4n/1P5P/4K3 w - - 0 1",
                 "any", "e1d1", "b2c3")
    assert result.stdout.splitlines() == ["White any: Try", "White e1d1: Impossible", "White b2c3: Capture at c3"]


def test_unknown_rule_set_lists_the_valid_ones() -> None:
    result = run("referee", "--rules", "bekreley", "--fen", ROTENBERG)
    assert result.exit_code == 2
    assert result.stderr.strip() == ("ksolve: error: --rules: unknown rule set 'bekreley'; valid: berkeley, "
                                     "berkeley-any, english, cincinnati, rand, wild16, orthodox, fog-of-war, modern")


def test_bad_hidden_unit_is_one_line() -> None:
    result = run("belief", "--fen", ROTENBERG, "--hidden", "x:e4")
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "unknown piece 'x'" in result.stderr


def test_report_in_every_format(tmp_path) -> None:
    import json
    from html.parser import HTMLParser

    import networkx as nx

    problem = "problems/foster-1996.toml"
    outputs = {}
    for output_format in ("text", "json", "html", "dot", "graphml"):
        out = tmp_path / f"report.{output_format}"
        result = run("report", problem, "--format", output_format, "-o", str(out), "--tries", "3")
        assert result.exit_code == 0, result.output
        outputs[output_format] = out.read_text()
    assert "1.Ra4!" in outputs["text"] and "?" in outputs["text"] and "Verdict: sound" in outputs["text"]
    data = json.loads(outputs["json"])
    assert data["key"] == "a8a4" and data["verification"]["verdict"] == "sound"
    assert len(data["verification"]["tries"]) == 3
    HTMLParser().feed(outputs["html"])
    assert "<svg" in outputs["html"] and "<details" in outputs["html"]
    assert outputs["dot"].startswith("digraph")
    graph = nx.read_graphml(tmp_path / "report.graphml")
    assert graph.number_of_nodes() == len(data["tree"]["nodes"])
    assert graph.number_of_edges() == outputs["dot"].count(" -> ") == len(data["tree"]["edges"])


def test_report_unwritable_output_is_one_error_line(tmp_path) -> None:
    result = run("report", "problems/foster-1996.toml", "--no-verify", "-o", str(tmp_path / "missing" / "out.txt"))
    assert result.exit_code == 2 and result.output.count("\n") == 1 and "cannot write" in result.output


GAME = """[Variant "Kriegspiel"]
[Rules "berkeley"]
[Filter "White"]
[SetUp "1"]
[FEN "8/8/Q1N5/3K4/8/8/8/4k3 w - - 0 1"]
[Result "*"]

1. Nb8 ?? 2. Qe2+ {L} ?? {:3} *
"""


def test_solve_a_game_at_the_end_of_its_history(tmp_path) -> None:
    game = tmp_path / "game.pgn"
    game.write_text(GAME)
    result = run("solve", str(game), "--ply", "3")
    assert result.exit_code == 1 and "No solution: White cannot force mate in 2" in result.stdout
    result = run("solve", str(game), "--ply", "5")
    assert result.exit_code == 0 and "White mates in 3" in result.stdout
    result = run("belief", str(game), "-o", str(tmp_path / "heat.svg"))
    assert result.exit_code == 0 and "1 position (berkeley), White to move" in result.stdout
    assert "1  .  .  #" in result.stdout  # the black king is on c1 in the one position
    assert (tmp_path / "heat.svg").read_text().startswith("<svg")


def test_game_input_errors_are_one_line(tmp_path) -> None:
    game = tmp_path / "game.pgn"
    game.write_text(GAME)
    for args, words in [(["solve", str(game)], "--ply D or --moves N"),
                        (["solve", "problems/foster-1996.toml", "--ply", "3"], "--ply: only for a game"),
                        (["solve", str(game), "--ply", "3", "--certificate", str(tmp_path / "c.json")],
                         "not a game")]:
        result = run(*args)
        assert result.exit_code == 2 and result.output.count("\n") == 1 and words in result.output, result.output
    broken = tmp_path / "broken.pgn"
    broken.write_text(GAME.replace("Qe2+", "Qz9"))
    result = run("solve", str(broken), "--ply", "3")
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert result.output.startswith(f"ksolve: error: {broken}:") and ":8:" in result.output, result.output


def test_generate_writes_instances_and_statistics(tmp_path) -> None:
    result = run("generate", "--games", "2", "--ply", "3", "--seed", "5", "-o", str(tmp_path), "--seconds", "0.5")
    assert result.exit_code == 0, result.output
    assert "turns examined" in result.stdout
    assert (tmp_path / "stats.csv").read_text().startswith("game,ply,rules,belief_size,result")
    result = run("generate", "--games", "1", "--ply", "3", "--rules", "fog-of-war", "-o", str(tmp_path))
    assert result.exit_code == 2 and "Kriegspiel" in result.output


def test_filter_a_game_for_white(tmp_path) -> None:
    game = tmp_path / "game.pgn"
    game.write_text('[Variant "Kriegspiel"]\n[Rules "berkeley"]\n[SetUp "1"]\n'
                    '[FEN "8/8/8/8/8/2k5/8/KQ6 w - - 0 1"]\n[Result "*"]\n\n'
                    "1. Qb3+ {R} Kd2 2. Qb4+ {S} Kd1 *\n")
    result = run("filter", str(game))
    assert result.exit_code == 0, result.output
    assert "1. Qb3+ {R} ?? 2. Qb4+ {S} ?? *" in result.stdout and '[Filter "White"]' in result.stdout
    filtered = tmp_path / "white.pgn"
    assert run("filter", str(game), "-o", str(filtered)).exit_code == 0
    result = run("belief", str(filtered))
    assert result.exit_code == 0 and "positions (berkeley), White to move" in result.stdout
