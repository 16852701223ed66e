"""The kamon server: a FastAPI app over a store of game records (see app.py)."""
