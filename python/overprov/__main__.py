"""`python -m overprov`: the same command line as the `overprov` script."""

from overprov.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
