"""The rules kernel: trick play on card masks for compiled loops (rules.py), below the bots and the
research environments."""
