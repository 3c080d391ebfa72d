"""Playing Kriegspiel and Fog of War: game sessions, each side's view, the
computer opponent and the terminal game.

- ``session``: ``GameSession``, one game kept by the referee (the Kriegspiel
  rule sets and Fog of War): attempts, announcements in the rule set's own
  words, each side's view, draws, the record and its PGN.
- ``moves``: moves in SAN, and the moves players type (UCI or SAN).
- ``rulebook``: what each rule set's referee says, in its words.
- ``views``: what one side sees (Fog-of-War visibility for either colour).
- ``mirror``: the colour-swapped game, so that Black's thinking reuses the
  White-side estimator and prover.
- ``belief``: one side's belief (exact, sampled past a budget).
- ``computer``: ``ComputerPlayer``, the belief-state opponent.
- ``records``: the PGN of a game (Kriegspiel PGN, Fog-of-War PGN with views).
- ``terminal``: the terminal game behind ``ksolve play``.

>>> from ksolve.play.session import GameSession
>>> game = GameSession("wild16")
>>> game.attempt("e2e5").words, game.attempt("e2e4").words
('Illegal move', 'Silent')
"""
