"""Command line: `callbreak ...`."""
