"""``ksolve play``: a terminal game against the computer, fed through click's
CliRunner: moves answered, bad input answered in one line with the game going
on, the end of input and Ctrl-C leaving cleanly, the PGN written."""

from __future__ import annotations

import chess
from click.testing import CliRunner

from ksolve.cli import main
from ksolve.games.pgn import read_game_file
from ksolve.play.session import GameSession
from ksolve.play.terminal import play_in_terminal


def test_play_wild16_against_the_computer(tmp_path):
    out = tmp_path / "game.pgn"
    moves = "\n".join(["zz", "e2e5", "e2e4", "any", "rules", "Nf3", "Bc4", "b1c3", "d3", "resign"]) + "\n"
    result = CliRunner().invoke(main, ["play", "--rules", "wild16", "--seed", "3", "-o", str(out)], input=moves)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any(line.endswith("? move: 'zz' is no move of your men on your board (UCI e2e4, or SAN Nf3, exd5, O-O)")
               for line in lines)
    assert any(line.endswith("Illegal move") for line in lines)            # e2e5: the ICC's words
    assert any("'Rank check': a check along the rank" in line for line in lines)  # 'rules': the referee's words
    assert any(line.startswith("2. Nf3: ") for line in lines) and any(line.startswith("3. Bc4: ") for line in lines)
    assert any("any: the wild16 rules have no 'Any?' question" in line for line in lines)
    assert any("Black moved:" in line for line in lines)                   # the computer answered
    assert "White resigns. 0-1" in result.output
    game = read_game_file(str(out))
    assert game.rules == "wild16" and game.result == "0-1" and len(game.turns) >= 3
    assert [turn.move for turn in game.turns if turn.white][:4] == ["e2e4", "g1f3", "f1c4", "b1c3"]  # SAN read back


def test_end_of_input_leaves_the_game_and_writes_the_pgn(tmp_path):
    out = tmp_path / "game.pgn"
    result = CliRunner().invoke(main, ["play", "--rules", "fog-of-war", "--side", "black", "--seed", "1",
                                       "-o", str(out)], input="a7a6\n")
    assert result.exit_code == 0, result.output
    assert "Game left (end of input)." in result.output and "~" in result.output
    assert '[Rules "fog-of-war"]' in out.read_text()


def test_bad_options_are_one_line():
    result = CliRunner().invoke(main, ["play", "--rules", "chess960"])
    assert result.exit_code == 2
    assert result.output.strip() == ("ksolve: error: --rules: unknown rule set 'chess960'; played here: berkeley, "
                                     "berkeley-any, english, cincinnati, rand, wild16, fog-of-war")
    result = CliRunner().invoke(main, ["play", "--rules", "modern"])  # not offered: no probes in a game
    assert result.exit_code == 2 and result.output.startswith("ksolve: error: --rules: modern is not played here;")
    result = CliRunner().invoke(main, ["play", "--rules", "fog-of-war", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"])
    assert result.exit_code == 2 and "standard start" in result.output


def test_ctrl_c_leaves_cleanly(monkeypatch, tmp_path):
    def interrupt(*args) -> str:
        raise KeyboardInterrupt

    game, out = GameSession("berkeley"), []
    try:
        play_in_terminal(game, chess.WHITE, 1, interrupt, out.append)
    except KeyboardInterrupt:
        pass
    assert out and out[0].startswith("Berkeley")
    monkeypatch.setattr("ksolve.play.terminal.play_in_terminal", interrupt)
    out_file = tmp_path / "left.pgn"
    result = CliRunner().invoke(main, ["play", "--rules", "berkeley", "-o", str(out_file)], input="")
    assert result.exit_code == 130 and result.stderr == "ksolve: interrupted: game left after 0 moves\n"
    assert '[Rules "berkeley"]' in out_file.read_text()


def test_ctrl_c_inside_a_kernel_while_the_computer_moves_leaves_cleanly(monkeypatch):
    """numba reports Ctrl-C in a kernel's Python callback as a ``SystemError`` chained from it."""
    def interrupt_in_a_kernel(*args) -> str:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise SystemError("CPUDispatcher(<function legal_moves>) returned a result with an exception set") \
                from interrupt

    monkeypatch.setattr("ksolve.play.terminal.play_in_terminal", interrupt_in_a_kernel)
    result = CliRunner().invoke(main, ["play", "--rules", "berkeley"], input="")
    assert result.exit_code == 130 and result.stderr == "ksolve: interrupted: game left after 0 moves\n"


def test_the_level_reaches_the_computer(monkeypatch):
    import ksolve.play.terminal as terminal

    made = []

    class Recorded(terminal.ComputerPlayer):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            made.append(self.level.name)

    monkeypatch.setattr(terminal, "ComputerPlayer", Recorded)
    for options, level in ((["--level", "easy"], "easy"), ([], "normal"), (["--level", "strong"], "strong")):
        result = CliRunner().invoke(main, ["play", "--rules", "berkeley", "--seed", "2", *options], input="resign\n")
        assert result.exit_code == 0, result.output
        assert made[-1] == level
        assert result.output.startswith(f"Berkeley (Russell & Wolfe): you play White against the computer ({level}).")
    assert made == ["easy", "normal", "strong"]


def test_a_bad_level_is_one_line_and_the_levels_are_the_computers():
    from ksolve.cli_play import LEVELS
    from ksolve.play.computer import DEFAULT_LEVEL
    from ksolve.play.computer import LEVELS as COMPUTER_LEVELS

    result = CliRunner().invoke(main, ["play", "--level", "hard"])
    assert result.exit_code == 2
    assert result.output.strip() == "ksolve: error: --level: 'hard' is not one of 'easy', 'normal', 'strong'"
    assert LEVELS == tuple(COMPUTER_LEVELS) and DEFAULT_LEVEL == "normal"
    help_text = " ".join(CliRunner().invoke(main, ["play", "--help"]).output.split())
    assert all(f"{name}:" in help_text for name in LEVELS) and "[default: normal]" in help_text
