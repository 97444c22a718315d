"""``parlour``: the command line (``parlour serve | play | arena | bench | replay``)."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    """Run the ``parlour`` command; returns the process exit code."""
    parser = argparse.ArgumentParser(prog="parlour", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the web server (not built yet)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", default="parlour.db")
    args = parser.parse_args(argv)
    if args.command == "serve":
        print(
            "parlour serve: the web server is not built yet (see the open issue 'Play SCOUT in "
            "the browser'). Today Parlour is a Python library: see README.md for an example.",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
