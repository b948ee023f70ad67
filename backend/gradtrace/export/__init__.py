"""Traces written for other tools: Graphviz DOT (dot.py) and a standalone HTML page (html.py,
from the built frontend)."""
