"""``parlour``: the command line (``parlour serve | play | arena | bench | replay | cards``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import parlour.art as art
from parlour.games.registry import names


def write_cards(game: str, out: Path, colour_blind: bool = False) -> list[Path]:
    """Write every card drawing of ``game`` as SVG files into ``out``; returns the files written.

    The files are the game's art's ``drawings`` (:mod:`parlour.art`; for SCAN: one file per design,
    ``shape-00.svg`` … ``colour-22.svg``, a sheet per category, the Bluffo card and two sample
    cards). Creates ``out`` if needed. Raises ``ValueError`` for a game without card drawings and
    ``OSError`` if a file cannot be written.
    """
    drawn = games_with_drawings()
    if game not in drawn:
        raise ValueError(f"no card drawings for game {game!r}; only {', '.join(drawn)} has them")
    drawings = art.drawings(game, colour_blind)
    assert drawings is not None
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in drawings.items():
        path = out / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def games_with_drawings() -> list[str]:
    """The games whose card drawings ``parlour cards`` can write."""
    return [name for name in names() if art.has_drawings(name)]


def main(argv: list[str] | None = None) -> int:
    """Run the ``parlour`` command; returns the process exit code."""
    parser = argparse.ArgumentParser(prog="parlour", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser(
        "serve",
        help="run the web server: play in the browser",
        description="Run Parlour's web server. Every option can also be set in the environment "
        "(PARLOUR_HOST, PARLOUR_PORT, PARLOUR_DB, PARLOUR_BOT_DELAY_MIN_MS, …); options win.",
    )
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default 8000)")
    serve.add_argument(
        "--db",
        help="the database: an SQLite file or sqlite:///path (default "
        "parlour.db in this folder), or postgresql://user@host:port/name "
        "(also PARLOUR_DB)",
    )
    serve.add_argument(
        "--redis",
        metavar="URL",
        help="one of many processes sharing the database: leases and messages in this Redis "
        "(redis://host:6379/0); default: a single process",
    )
    serve.add_argument(
        "--workers",
        type=int,
        help="server processes on this port (default 1); more than one needs --redis, and a "
        "worker that dies is replaced",
    )
    serve.add_argument("--lease-ms", type=int, help="a table owner's lease (default 5000)")
    serve.add_argument("--renew-ms", type=int, help="how often it is renewed (default 1000)")
    serve.add_argument(
        "--no-tables-follow", dest="tables_follow", action="store_const", const=False,
        help="keep a table with the process that made it (default: a table nobody is at moves "
        "to the process its next socket reaches)",
    )  # fmt: skip
    serve.add_argument(
        "--bot-delay-ms",
        metavar="MIN-MAX",
        help="how long computer opponents pause before they move (default 600-1500)",
    )
    serve.add_argument("--anim-ms", type=int, help="move animations in the browser (default 450)")
    serve.add_argument(
        "--bot-workers", type=int, help="processes bots think in (default: one per core)"
    )
    serve.add_argument(
        "--game-speed",
        type=float,
        help="game ms per wall ms on real-time tables (default 1.0; tests play faster)",
    )
    serve.add_argument(
        "--start-countdown-ms",
        type=int,
        help="countdown before a real-time game starts (default 3000)",
    )
    serve.add_argument(
        "--turn-timer-s",
        type=float,
        help="turn-based tables with two or more people: seconds for a move before a computer "
        "plays "
        "for the absent person (default 60; 0: no turn timers)",
    )
    serve.add_argument(
        "--flip-timer-s",
        type=float,
        help="the same for the round-start flip decision (default 30)",
    )
    serve.add_argument(
        "--host-away-s",
        type=float,
        help="before the start, anyone seated may start once the host has been gone this long "
        "(default 30)",
    )
    serve.add_argument(
        "--tutor-ms",
        type=int,
        help="'Learn to play' in real time: how soon a tutorial opponent acts once the learner "
        "has had their go (default 1500)",
    )
    serve.add_argument(
        "--tutor-patience-ms",
        type=int,
        help="the same: how long it leaves the learner to find a match or call first "
        "(default 40000)",
    )
    cards = sub.add_parser("cards", help="write a game's card drawings as SVG files")
    cards.add_argument("game", choices=games_with_drawings(), help="the game whose cards to draw")
    cards.add_argument("--out", type=Path, required=True, help="folder to write into")
    cards.add_argument(
        "--colour-blind", action="store_true", help="add a letter to each colour stripe"
    )
    arena = sub.add_parser(
        "arena",
        help="play seeded games between bots and report win rates",
        description="Play seeded games between any mix of bots (duplicate deals: each deal is "
        "replayed with the lineup rotated through the seats) and report per-bot statistics.",
    )
    arena.add_argument("--game", default=names()[0], help=f"the game (default {names()[0]})")
    arena.add_argument(
        "--bots",
        required=True,
        help="comma-separated lineup, one per seat: random, greedy, heuristic[:noise], "
        "eval[:noise], oneply, ismcts[:seconds|:it=N], flat[:seconds] (= search), beginner, "
        "easy, medium, hard, expert (hard:it=N, expert:it=N: an iteration budget; the searches "
        "take settings after slashes, e.g. expert:it=2200/particles=512); "
        "policy:PATH (a policy file trained with parlour.rl, SCOUT only)",
    )
    arena.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    arena.add_argument("--seed", type=int, default=0, help="first deal's seed (default 0)")
    arena.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    arena.add_argument("--no-duplicate", action="store_true", help="fresh deal for every game")
    arena.add_argument("--json", type=Path, help="write one record per bot as JSON")
    arena.add_argument("--csv", type=Path, help="write one record per bot as CSV")
    args = parser.parse_args(argv)
    if args.command == "arena":
        return _arena(args)
    if args.command == "cards":
        try:
            written = write_cards(args.game, args.out, colour_blind=args.colour_blind)
        except OSError as error:
            print(f"parlour cards: cannot write to {args.out}: {error}", file=sys.stderr)
            return 1
        print(f"wrote {len(written)} SVG files to {args.out}")
        return 0
    if args.command == "serve":
        return _serve(args)
    return 0


def parse_delay(text: str | None) -> tuple[int | None, int | None]:
    """``"600-1500"`` → ``(600, 1500)``; ``"0"`` → ``(0, 0)``; ``None`` → ``(None, None)``.

    Raises ``ValueError`` for anything else.

    >>> parse_delay("600-1500")
    (600, 1500)
    """
    if text is None:
        return None, None
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def _serve(args: argparse.Namespace) -> int:
    from parlour.server import Settings, serve

    try:
        low, high = parse_delay(args.bot_delay_ms)
        settings = Settings.from_env(
            host=args.host,
            port=args.port,
            db=args.db,
            redis=args.redis,
            lease_ms=args.lease_ms,
            renew_ms=args.renew_ms,
            tables_follow=args.tables_follow,
            workers=args.workers,
            bot_delay_min_ms=low,
            bot_delay_max_ms=high,
            anim_ms=args.anim_ms,
            bot_workers=args.bot_workers,
            game_speed=args.game_speed,
            start_countdown_ms=args.start_countdown_ms,
            turn_timer_s=args.turn_timer_s,
            flip_timer_s=args.flip_timer_s,
            host_away_s=args.host_away_s,
            tutor_ms=args.tutor_ms,
            tutor_patience_ms=args.tutor_patience_ms,
        )
    except ValueError as error:
        print(f"parlour serve: {error}", file=sys.stderr)
        return 2
    from parlour.store import StorageError, open_store, refusal_hint

    try:  # refuse a damaged or unreachable database before anyone connects
        open_store(settings.db, settings.db_busy_timeout_s).close()
    except (StorageError, ValueError) as error:
        hint = refusal_hint(settings.db, error) if isinstance(error, StorageError) else ""
        print(f"parlour serve: {error}. Not starting. {hint}".rstrip(), file=sys.stderr)
        return 2
    print(f"Parlour: open http://{settings.host}:{settings.port} in your browser", flush=True)
    serve(settings)
    return 0


def _arena(args: argparse.Namespace) -> int:
    try:
        from rich.console import Console

        from parlour.cli.arena import render, run_arena, write_outputs
    except ImportError as error:  # the arena extra is not installed
        print(f"parlour arena: {error}; install the arena extra: pip install 'parlour[arena]'",
              file=sys.stderr)  # fmt: skip
        return 2

    lineup = [name.strip() for name in args.bots.split(",") if name.strip()]
    try:
        stats = run_arena(
            args.game,
            lineup,
            args.games,
            seed=args.seed,
            workers=args.workers,
            duplicate=not args.no_duplicate,
        )
    except (ValueError, KeyError, OSError) as error:
        print(f"parlour arena: {error}", file=sys.stderr)
        return 2
    title = f"{args.game}, {len(lineup)} players, {stats[0].games} games"
    Console(width=140).print(render(stats, title))
    write_outputs(stats, args.json, args.csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
