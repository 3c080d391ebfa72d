"""ksolve: a Kriegspiel problem solver and composer's tool."""

__version__ = "0.1.0"
