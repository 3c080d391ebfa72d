"""The strategy tree as a graph file: DOT (Graphviz) and GraphML.

Attributes are flattened to scalars: nodes keep ``kind``, ``number``,
``moves_left``, ``size`` (the belief's size), ``known`` (board FEN),
``hidden`` and ``squares`` (``"bishop: b2 d2 f2"``; ``hidden`` counts the
squares when many), ``attempt`` (the move White makes there, e.g.
``Ra2-g2`` or ``Any?``; on attempt nodes too, with the UCI ``move``) and
``is_key``; edges keep ``kind``, ``label`` (the move or the announcement),
``announcement`` (answers, replies, first information), ``move`` (UCI, on
attempts) and ``code`` (the referee's key as ``"1024,0"``).  DOT needs no
Graphviz Python package: the text is written here.

>>> import networkx as nx
>>> tree = nx.DiGraph(moves=1, rules="berkeley")
>>> tree.add_node(0, kind="white", number=1, moves_left=1, size=1, known="k7/8/1K6/8/8/8/8/7R")
>>> tree.add_node(1, kind="attempt", number=1, move="h1h8")
>>> tree.add_node(2, kind="win", number=1, size=1)
>>> tree.add_edge(0, 1, kind="attempt", move="h1h8", label="Rh1-h8")
>>> tree.add_edge(1, 2, kind="answer", label="Checkmate", key=[16384, 0])
>>> flat = flatten(tree)
>>> flat.nodes[0]["attempt"], flat.nodes[0]["is_key"], flat.edges[1, 2]["code"]
('Rh1-h8', True, '16384,0')
>>> print(to_dot(tree).splitlines()[3])
  "0" [label="1. White [1]\\nRh1-h8!", shape=box, style="rounded,filled", fillcolor="#dbe9f8", kind="white", number=1, moves_left=1, size=1, known="k7/8/1K6/8/8/8/8/7R", attempt="Rh1-h8", is_key=true];
>>> nx.read_graphml(__import__("io").BytesIO(to_graphml(tree).encode())).nodes["0"]["size"]
1
"""

from __future__ import annotations

import io
from pathlib import Path

import networkx as nx

_NODE_STYLE = {
    "white": 'shape=box, style="rounded,filled", fillcolor="#dbe9f8"',
    "attempt": "shape=point, width=0.08",
    "ask": 'shape=diamond, style=filled, fillcolor="#fff3c4"',
    "black": 'shape=ellipse, style=filled, fillcolor="#e6e6e6"',
    "win": 'shape=doublecircle, style=filled, fillcolor="#c8e6c9"',
    "start": 'shape=box, style="filled", fillcolor="#f0f0f0"',
}


def _squares_text(value: dict) -> str:
    """``{"bishop": ["b2", "d2"], "king": 12}`` as ``bishop: b2 d2; king: 12 squares``."""
    return "; ".join(f"{name}: {' '.join(squares)}" if isinstance(squares, list) else f"{name}: {squares} squares"
                     for name, squares in value.items())


def _key_roots(tree: nx.DiGraph) -> set:
    """The White nodes whose attempt is a key: the root, or each first class's root."""
    if not tree.number_of_nodes():
        return set()
    root = next(iter(tree.nodes))
    if tree.nodes[root].get("kind") == "start":
        return {child for child in tree.successors(root)}
    return {root}


def flatten(tree: nx.DiGraph) -> nx.DiGraph:
    """A copy of the tree with scalar attributes only (GraphML can hold them)."""
    flat = nx.DiGraph()
    flat.graph.update({k: v for k, v in tree.graph.items() if isinstance(v, (str, int, float, bool))})
    keys = _key_roots(tree)
    for node, data in tree.nodes(data=True):
        attributes = {}
        for name, value in data.items():
            if name in ("hidden", "squares") and isinstance(value, dict):
                attributes[name] = _squares_text(value)
            elif isinstance(value, (str, int, float, bool)):
                attributes[name] = value
            elif value is not None:
                attributes[name] = str(value)
        out = [edge for edge in tree.out_edges(node, data=True) if edge[2].get("kind") in ("attempt", "ask")]
        if out:
            attributes["attempt"] = out[0][2].get("label", "")
        if data.get("kind") == "attempt":
            incoming = [edge for edge in tree.in_edges(node, data=True)]
            if incoming:
                attributes["attempt"] = incoming[0][2].get("label", "")
        if data.get("kind") in ("white", "start"):
            attributes["is_key"] = node in keys
        flat.add_node(node, **attributes)
    for source, target, data in tree.edges(data=True):
        attributes = {}
        for name, value in data.items():
            if name == "key" and isinstance(value, (list, tuple)):
                attributes["code"] = ",".join(str(int(v)) for v in value)
            elif isinstance(value, (str, int, float, bool)):
                attributes[name] = value
            elif value is not None:
                attributes[name] = str(value)
        if data.get("kind") in ("answer", "reply", "info"):
            attributes["announcement"] = data.get("label", "")
        flat.add_edge(source, target, **attributes)
    return flat


def to_graphml(tree: nx.DiGraph) -> str:
    """The tree as GraphML text (``networkx.read_graphml`` reads it back)."""
    buffer = io.BytesIO()
    nx.write_graphml(flatten(tree), buffer, encoding="utf-8")
    return buffer.getvalue().decode("utf-8")


def quote(text: str) -> str:
    """A DOT double-quoted string.

    >>> print(quote('say "No" \\\\ then\\nmate'))
    "say \\"No\\" \\\\ then\\nmate"
    """
    escaped = str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\r", "")
    return '"' + escaped.replace("\n", "\\n") + '"'


def _dot_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return quote(str(value))


def _dot_attributes(attributes: dict) -> str:
    return ", ".join(f"{name}={_dot_value(value)}" for name, value in attributes.items())


def _node_label(data: dict) -> str:
    """What a node shows in a drawing: turn, belief size, White's move."""
    kind = data.get("kind", "")
    size = f" [{data['size']}]" if "size" in data else ""
    if kind == "white":
        move = data.get("attempt", "")
        return f"{data.get('number', '')}. White{size}" + (f"\n{move}{'!' if data.get('is_key') else ''}" if move else "")
    if kind == "black":
        return f"{data.get('number', '')}... Black{size}"
    if kind == "win":
        return f"#{size}"
    if kind == "start":
        return f"Start{size}"
    return data.get("attempt", "") if kind == "ask" else ""


def to_dot(tree: nx.DiGraph, name: str = "strategy") -> str:
    """The tree as Graphviz DOT text, every attribute kept, quoted."""
    flat = flatten(tree)
    lines = [f"digraph {quote(name)} {{"]
    graph_attributes = {"rankdir": "TB", **flat.graph}
    lines.append(f"  graph [{_dot_attributes(graph_attributes)}];")
    lines.append('  node [fontname="Helvetica", fontsize=10];  edge [fontname="Helvetica", fontsize=9];')
    for node, data in flat.nodes(data=True):
        style = _NODE_STYLE.get(data.get("kind", ""), "shape=ellipse")
        lines.append(f"  {quote(node)} [label={quote(_node_label(data))}, {style}, {_dot_attributes(data)}];")
    for source, target, data in flat.edges(data=True):
        lines.append(f"  {quote(source)} -> {quote(target)} [{_dot_attributes(data)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_graph(tree: nx.DiGraph, path: str | Path, format: str | None = None) -> Path:
    """Write ``tree`` as ``dot`` or ``graphml`` (default: from the file's suffix)."""
    path = Path(path)
    format = (format or path.suffix.lstrip(".")).lower()
    if format in ("dot", "gv"):
        path.write_text(to_dot(tree), encoding="utf-8")
    elif format in ("graphml", "xml"):
        path.write_text(to_graphml(tree), encoding="utf-8")
    else:
        raise ValueError(f"unknown graph format {format!r} (dot or graphml)")
    return path
