"""Parlour: SCOUT, SCAN and SNAP — rules engines, computer opponents and a web table."""

__version__ = "0.1.0"
