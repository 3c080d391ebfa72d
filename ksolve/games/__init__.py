"""Kriegspiel game histories: the game model (``model``), Kriegspiel PGN
(``pgn``; the announcements' tokens are the rule set's, ``ksolve.rules.notation``),
playing games between simple policies (``play``), state estimation from White's
filtered history (``estimate``; refusal counts in ``ksolve.rules.counts``), mate
problems generated from play (``generate``) and a game's problem (``problem``).

The whole path, from a game to White's belief:

>>> import random
>>> from ksolve.games.estimate import estimate
>>> from ksolve.games.model import filter_game
>>> from ksolve.games.pgn import read_game, write_game
>>> from ksolve.games.play import play_game, random_policy
>>> game = play_game("berkeley", random_policy, random_policy, plies=4, rng=random.Random(7))
>>> seen = read_game(write_game(filter_game(game, True)))   # White's filtered PGN, read back
>>> seen.turns[1].move is None                              # Black's moves are hidden
True
>>> len(estimate(seen)) > 1                                 # the positions White cannot tell apart
True
"""
