"""The rules engines: one package per game, each pure and importing only ``parlour.core``."""
