"""Kriegspiel game histories: the game model (``model``), Kriegspiel PGN
(``pgn``, ``notation``), playing games between simple policies (``play``),
state estimation from White's filtered history (``estimate``) and mate
problems generated from play (``generate``).
"""
