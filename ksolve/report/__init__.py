"""Renderings of a solution: text in composers' conventions, JSON."""
