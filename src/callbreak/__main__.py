"""``python -m callbreak``: the same as the ``callbreak`` command."""

from callbreak.cli.main import main

if __name__ == "__main__":
    main()
