"""The web app: lobby, authoritative tables over websockets, history, stats and scorekeeper."""
