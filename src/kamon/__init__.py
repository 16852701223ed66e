"""kamon: rules-exact engines, bots and tools for The White Castle and I, Clansman."""

__version__ = "0.1.0"
