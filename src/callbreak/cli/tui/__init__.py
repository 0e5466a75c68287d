"""The terminal interface: ``callbreak play`` and ``callbreak replay FILE --step``."""
