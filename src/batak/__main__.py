"""``python -m batak``: the ``batak`` command."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
