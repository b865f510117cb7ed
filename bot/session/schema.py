"""Database tables (the latest schema) and the migrations that build or upgrade it in place.

The move log (``moves``) is append-only and the source of truth; ``games.state`` is a cache that
can always be rebuilt from the log.  ``schema_version`` records the last migration applied.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.engine import Connection

metadata = MetaData()

ACTIVE_STATUSES = ("open", "active")

schema_version = Table(
    "schema_version",
    metadata,
    Column("version", Integer, nullable=False),
)

games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("guild_id", BigInteger, nullable=True),
    Column("channel_id", BigInteger, nullable=False),
    Column("game", String(32), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("status", String(16), nullable=False),  # open | active | finished | aborted
    Column("version", Integer, nullable=False, default=0),
    Column("ply", Integer, nullable=False, default=0),
    Column("state", JSON, nullable=True),
    Column("outcome", JSON, nullable=True),
    Column("creator_id", BigInteger, nullable=False),
    Column("max_players", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # added in migration 2: clocks and turn tracking
    Column("clock_days", Integer, nullable=True),
    Column("bank_days", Integer, nullable=True),
    Column("turn_seat", Integer, nullable=True),
    Column("turn_started_at", DateTime(timezone=True), nullable=True),
    Column("deadline", DateTime(timezone=True), nullable=True),
    Column("reminders_sent", Integer, nullable=False, server_default="0"),
    Column("wake_at", DateTime(timezone=True), nullable=True),  # next reminder or deadline
    Column("thread_id", BigInteger, nullable=True),
    Column("parent_channel_id", BigInteger, nullable=True),
    Column("tournament_id", Integer, nullable=True),
    Column("rated", Integer, nullable=False, server_default="1"),
)
Index(
    "one_live_game_per_channel",
    games.c.channel_id,
    unique=True,
    sqlite_where=games.c.status.in_(ACTIVE_STATUSES),
    postgresql_where=games.c.status.in_(ACTIVE_STATUSES),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", BigInteger, nullable=False),
    Column("display_name", String(100), nullable=False),
    # added in migration 2
    Column("bank_seconds", Integer, nullable=True),
    Column("missed_turns", Integer, nullable=False, server_default="0"),
    Column("removed", Integer, nullable=False, server_default="0"),
    # added in migration 6: the level of a computer player (easy, normal, hard); None for a person
    Column("ai_level", String(16), nullable=True),
    # added in migration 8: the person whose seat a computer player took over (/game bot); None otherwise
    Column("stands_in_for", BigInteger, nullable=True),
    # added in migration 11: that person's name, and the ply from which the computer player holds the seat
    Column("stood_down_name", String(100), nullable=True),
    Column("taken_over_at", Integer, nullable=True),
)
Index("seats_by_user", seats.c.user_id)

moves = Table(
    "moves",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("seat", Integer, nullable=True),
    Column("notation", Text, nullable=False),
    Column("description", Text, nullable=False),
    Column("kind", String(16), nullable=False),  # move | roll | resign | timeout
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# migration 2: player preferences (notifications, vacation) and pending undo requests
players = Table(
    "players",
    metadata,
    Column("guild_id", BigInteger, primary_key=True),
    Column("user_id", BigInteger, primary_key=True),
    Column("notify", String(8), nullable=False, server_default="dm"),  # dm | mention | off
    Column("vacation_until", DateTime(timezone=True), nullable=True),
    Column("vacation_year", Integer, nullable=True),
    Column("vacation_used_days", Integer, nullable=False, server_default="0"),
)

undo_requests = Table(
    "undo_requests",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, nullable=False),  # the ply of the move it would take back
    Column("requester_id", BigInteger, nullable=False),
    Column("accepted", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# migration 7: a table's proposal to hand a seat to a computer player, waiting for the players' consent
seat_requests = Table(
    "seat_requests",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("level", String(16), nullable=False),
    Column("requester_id", BigInteger, nullable=False),
    Column("accepted", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


# migration 3: ratings per server and game, and tournaments
ratings = Table(
    "ratings",
    metadata,
    Column("guild_id", BigInteger, primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("user_id", BigInteger, primary_key=True),
    Column("display_name", String(100), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False, server_default="0"),
    Column("wins", Integer, nullable=False, server_default="0"),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

rated_games = Table(  # one row per game whose result went into the ratings: a game is rated once
    "rated_games",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("guild_id", BigInteger, nullable=False),
    Column("game", String(32), nullable=False),
    Column("rated_at", DateTime(timezone=True), nullable=False),
)

rating_results = Table(  # each player's line of a rated game: place and rating before and after
    "rating_results",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", BigInteger, primary_key=True),
    Column("guild_id", BigInteger, nullable=False),
    Column("game", String(32), nullable=False),
    Column("place", Integer, nullable=False),
    Column("players", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
Index("rating_results_by_player", rating_results.c.guild_id, rating_results.c.user_id, rating_results.c.created_at)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("guild_id", BigInteger, nullable=False),
    Column("channel_id", BigInteger, nullable=False),  # announcements; match threads open under it
    Column("name", String(100), nullable=False),
    Column("game", String(32), nullable=False),
    Column("options", JSON, nullable=False),
    Column("format", String(16), nullable=False),  # swiss | roundrobin | elimination | tables
    Column("rounds", Integer, nullable=True),  # planned rounds (None: decided at the start)
    Column("clock_days", Integer, nullable=True),
    Column("round_days", Integer, nullable=True),  # round deadline
    Column("max_players", Integer, nullable=True),
    Column("table_size", Integer, nullable=True),  # preferred table size (table Swiss)
    Column("checkin_minutes", Integer, nullable=True),
    Column("start_at", DateTime(timezone=True), nullable=True),
    Column("checkin_until", DateTime(timezone=True), nullable=True),
    Column("status", String(16), nullable=False),  # registration | checkin | running | finished | cancelled
    Column("current_round", Integer, nullable=False, server_default="0"),
    Column("round_deadline", DateTime(timezone=True), nullable=True),
    Column("creator_id", BigInteger, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("data", JSON, nullable=True),  # format data fixed at the start (schedule, bracket seeds)
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # added in migration 9: the last milestone posted to the channel ("began", "round 3", "finished")
    Column("told", String(16), nullable=True),
)
Index("tournaments_by_guild", tournaments.c.guild_id, tournaments.c.status)

tournament_players = Table(
    "tournament_players",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", BigInteger, primary_key=True),
    Column("display_name", String(100), nullable=False),
    Column("seed", Integer, nullable=True),  # seeding order fixed at the start (1 = top)
    Column("checked_in", Integer, nullable=False, server_default="0"),
    Column("status", String(16), nullable=False, server_default="active"),  # active | dropped | kicked | absent
    Column("left_round", Integer, nullable=True),  # the round during which they dropped or were kicked
    Column("joined_at", DateTime(timezone=True), nullable=False),
)

tournament_matches = Table(
    "tournament_matches",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("board", Integer, nullable=False),  # table number within the round (bracket slot in elimination)
    Column("players", JSON, nullable=False),  # user ids in seat order (one for a bye)
    Column("status", String(16), nullable=False),  # pending | playing | finished | bye
    Column("game_id", Integer, nullable=True),
    Column("thread_id", BigInteger, nullable=True),
    Column("ranks", JSON, nullable=True),
    Column("points", JSON, nullable=True),  # set by adjudication (e.g. a double forfeit)
    Column("winner", BigInteger, nullable=True),  # elimination
    Column("note", String(200), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    # added in migration 10: 1 once the match's players were greeted in its thread (pinged, told the round)
    Column("greeted", Integer, nullable=False, server_default="1"),
    UniqueConstraint("tournament_id", "round", "board", name="one_match_per_board"),
)
Index("tournament_matches_by_game", tournament_matches.c.game_id)

# migration 4: one delivery record per committed event, written in the event's own transaction, so an
# event whose announcement was lost (the process stopped between commit and send) is announced after
# a restart, exactly once.
deliveries = Table(
    "deliveries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("channel_id", BigInteger, nullable=False),
    Column("ply", Integer, nullable=False),  # the game's ply once the event was committed
    Column("kind", String(16), nullable=False),  # report | reminder
    Column("origin", String(16), nullable=False),  # interaction (answered by its reply) | scheduler
    Column("user_id", BigInteger, nullable=True),  # who is pinged or reminded
    Column("payload", JSON, nullable=False),
    Column("token", String(200), nullable=True),  # the interaction's token, to edit its deferred answer
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("claimed_at", DateTime(timezone=True), nullable=True),
    Column("delivered_at", DateTime(timezone=True), nullable=True),
)
Index("deliveries_pending", deliveries.c.delivered_at, deliveries.c.created_at)
Index("deliveries_by_game", deliveries.c.game_id, deliveries.c.id)  # added in migration 8

# migration 5: the living message of each game (its lobby, then the board of the turn under way)
table_messages = Table(
    "table_messages",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("channel_id", BigInteger, nullable=False),
    Column("message_id", BigInteger, nullable=False),
    Column("kind", String(8), nullable=False),  # lobby | board
    Column("lines", JSON, nullable=False),  # what happened so far in the turn it shows
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# migration 9: the open question of each kind (an undo request, a seat proposal) of each game, so the
# question's buttons are taken off once it lapses, whatever made it lapse
table_questions = Table(
    "table_questions",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("kind", String(8), primary_key=True),  # undo | seat
    Column("channel_id", BigInteger, nullable=False),
    Column("message_id", BigInteger, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


# migration 12: the messages that carry a tournament's Join / Check in buttons (its card, the check-in
# call), so the buttons follow its registration: Check in added when check-in opens, all gone at the start
tournament_cards = Table(
    "tournament_cards",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("message_id", BigInteger, primary_key=True),
    Column("channel_id", BigInteger, nullable=False),
)


def _create(*tables: Table) -> Callable[[Connection], None]:
    def run(conn: Connection) -> None:
        for table in tables:
            table.create(conn, checkfirst=True)
            for index in table.indexes:
                index.create(conn, checkfirst=True)

    return run


def _migration_1(conn: Connection) -> None:
    """The first schema: games, seats and the move log."""
    conn.execute(
        text(
            "CREATE TABLE IF NOT EXISTS games ("
            " id INTEGER PRIMARY KEY AUTOINCREMENT, guild_id BIGINT, channel_id BIGINT NOT NULL,"
            " game VARCHAR(32) NOT NULL, options JSON NOT NULL, seed VARCHAR(64) NOT NULL,"
            " status VARCHAR(16) NOT NULL, version INTEGER NOT NULL, ply INTEGER NOT NULL,"
            " state JSON, outcome JSON, creator_id BIGINT NOT NULL, max_players INTEGER NOT NULL,"
            " created_at TIMESTAMP NOT NULL, updated_at TIMESTAMP NOT NULL)"
        )
        if conn.dialect.name == "sqlite"
        else text(
            "CREATE TABLE IF NOT EXISTS games ("
            " id SERIAL PRIMARY KEY, guild_id BIGINT, channel_id BIGINT NOT NULL,"
            " game VARCHAR(32) NOT NULL, options JSON NOT NULL, seed VARCHAR(64) NOT NULL,"
            " status VARCHAR(16) NOT NULL, version INTEGER NOT NULL, ply INTEGER NOT NULL,"
            " state JSON, outcome JSON, creator_id BIGINT NOT NULL, max_players INTEGER NOT NULL,"
            " created_at TIMESTAMP WITH TIME ZONE NOT NULL, updated_at TIMESTAMP WITH TIME ZONE NOT NULL)"
        )
    )
    conn.execute(
        text(
            "CREATE UNIQUE INDEX IF NOT EXISTS one_live_game_per_channel ON games (channel_id)"
            " WHERE status IN ('open', 'active')"
        )
    )
    conn.execute(
        text(
            "CREATE TABLE IF NOT EXISTS seats (game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
            " seat INTEGER NOT NULL, user_id BIGINT NOT NULL, display_name VARCHAR(100) NOT NULL,"
            " PRIMARY KEY (game_id, seat))"
        )
    )
    conn.execute(text("CREATE INDEX IF NOT EXISTS seats_by_user ON seats (user_id)"))
    conn.execute(
        text(
            "CREATE TABLE IF NOT EXISTS moves (game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
            " ply INTEGER NOT NULL, seat INTEGER, notation TEXT NOT NULL, description TEXT NOT NULL,"
            " kind VARCHAR(16) NOT NULL, created_at TIMESTAMP NOT NULL, PRIMARY KEY (game_id, ply))"
        )
    )


def _migration_2(conn: Connection) -> None:
    """Clocks, turn tracking, threads, tournaments link; player preferences and undo requests."""
    stamp = "TIMESTAMP" if conn.dialect.name == "sqlite" else "TIMESTAMP WITH TIME ZONE"
    for column in (
        "clock_days INTEGER",
        "bank_days INTEGER",
        "turn_seat INTEGER",
        f"turn_started_at {stamp}",
        f"deadline {stamp}",
        "reminders_sent INTEGER NOT NULL DEFAULT 0",
        f"wake_at {stamp}",
        "thread_id BIGINT",
        "parent_channel_id BIGINT",
        "tournament_id INTEGER",
        "rated INTEGER NOT NULL DEFAULT 1",
    ):
        conn.execute(text(f"ALTER TABLE games ADD COLUMN {column}"))
    for column in (
        "bank_seconds INTEGER",
        "missed_turns INTEGER NOT NULL DEFAULT 0",
        "removed INTEGER NOT NULL DEFAULT 0",
    ):
        conn.execute(text(f"ALTER TABLE seats ADD COLUMN {column}"))
    conn.execute(text("CREATE INDEX IF NOT EXISTS games_by_wake_at ON games (wake_at)"))
    _create(players, undo_requests)(conn)


def _migration_3(conn: Connection) -> None:
    """Ratings (per server and game, with each player's recent results) and tournaments."""
    sqlite = conn.dialect.name == "sqlite"
    stamp = "TIMESTAMP" if sqlite else "TIMESTAMP WITH TIME ZONE"
    serial = "INTEGER PRIMARY KEY AUTOINCREMENT" if sqlite else "SERIAL PRIMARY KEY"
    statements = [
        "CREATE TABLE IF NOT EXISTS ratings (guild_id BIGINT NOT NULL, game VARCHAR(32) NOT NULL,"
        " user_id BIGINT NOT NULL, display_name VARCHAR(100) NOT NULL, mu FLOAT NOT NULL, sigma FLOAT NOT NULL,"
        f" games INTEGER NOT NULL DEFAULT 0, wins INTEGER NOT NULL DEFAULT 0, updated_at {stamp} NOT NULL,"
        " PRIMARY KEY (guild_id, game, user_id))",
        "CREATE TABLE IF NOT EXISTS rated_games (game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
        f" guild_id BIGINT NOT NULL, game VARCHAR(32) NOT NULL, rated_at {stamp} NOT NULL, PRIMARY KEY (game_id))",
        "CREATE TABLE IF NOT EXISTS rating_results (game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
        " user_id BIGINT NOT NULL, guild_id BIGINT NOT NULL, game VARCHAR(32) NOT NULL, place INTEGER NOT NULL,"
        " players INTEGER NOT NULL, mu_before FLOAT NOT NULL, sigma_before FLOAT NOT NULL, mu_after FLOAT NOT NULL,"
        f" sigma_after FLOAT NOT NULL, created_at {stamp} NOT NULL, PRIMARY KEY (game_id, user_id))",
        "CREATE INDEX IF NOT EXISTS rating_results_by_player ON rating_results (guild_id, user_id, created_at)",
        f"CREATE TABLE IF NOT EXISTS tournaments (id {serial}, guild_id BIGINT NOT NULL, channel_id BIGINT NOT NULL,"
        " name VARCHAR(100) NOT NULL, game VARCHAR(32) NOT NULL, options JSON NOT NULL, format VARCHAR(16) NOT NULL,"
        " rounds INTEGER, clock_days INTEGER, round_days INTEGER, max_players INTEGER, table_size INTEGER,"
        f" checkin_minutes INTEGER, start_at {stamp}, checkin_until {stamp}, status VARCHAR(16) NOT NULL,"
        f" current_round INTEGER NOT NULL DEFAULT 0, round_deadline {stamp}, creator_id BIGINT NOT NULL,"
        f" seed VARCHAR(64) NOT NULL, data JSON, created_at {stamp} NOT NULL, updated_at {stamp} NOT NULL)",
        "CREATE INDEX IF NOT EXISTS tournaments_by_guild ON tournaments (guild_id, status)",
        "CREATE TABLE IF NOT EXISTS tournament_players ("
        " tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE, user_id BIGINT NOT NULL,"
        " display_name VARCHAR(100) NOT NULL, seed INTEGER, checked_in INTEGER NOT NULL DEFAULT 0,"
        f" status VARCHAR(16) NOT NULL DEFAULT 'active', left_round INTEGER, joined_at {stamp} NOT NULL,"
        " PRIMARY KEY (tournament_id, user_id))",
        f"CREATE TABLE IF NOT EXISTS tournament_matches (id {serial},"
        " tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE, round INTEGER NOT NULL,"
        " board INTEGER NOT NULL, players JSON NOT NULL, status VARCHAR(16) NOT NULL, game_id INTEGER,"
        " thread_id BIGINT, ranks JSON, points JSON, winner BIGINT, note VARCHAR(200),"
        f" created_at {stamp} NOT NULL, finished_at {stamp},"
        " CONSTRAINT one_match_per_board UNIQUE (tournament_id, round, board))",
        "CREATE INDEX IF NOT EXISTS tournament_matches_by_game ON tournament_matches (game_id)",
    ]
    for statement in statements:
        conn.execute(text(statement))


def _migration_4(conn: Connection) -> None:
    """Delivery records: every committed event is announced once, even across a restart."""
    _create(deliveries)(conn)


def _migration_5(conn: Connection) -> None:
    """The living message of each game."""
    _create(table_messages)(conn)


def _migration_6(conn: Connection) -> None:
    """Computer players: a seat may be held by a bot of a level."""
    conn.execute(text("ALTER TABLE seats ADD COLUMN ai_level VARCHAR(16)"))


def _migration_7(conn: Connection) -> None:
    """Proposals to hand a seat of a running game to a computer player."""
    _create(seat_requests)(conn)


def _migration_8(conn: Connection) -> None:
    """A computer player who took over a person's seat remembers whose it was; a game's newest event is
    found by an index (to tell an event told late from the current one)."""
    conn.execute(text("ALTER TABLE seats ADD COLUMN stands_in_for BIGINT"))
    conn.execute(text("CREATE INDEX IF NOT EXISTS deliveries_by_game ON deliveries (game_id, id)"))


def _migration_9(conn: Connection) -> None:
    """A tournament remembers the last milestone its channel was told, so a lost announcement is posted
    again (tournaments already under way count as told up to where they stand); a game remembers its
    open questions, so one that lapsed loses its buttons."""
    _create(table_questions)(conn)
    conn.execute(text("ALTER TABLE tournaments ADD COLUMN told VARCHAR(16)"))
    conn.execute(text("UPDATE tournaments SET told = 'finished' WHERE status = 'finished'"))
    conn.execute(text("UPDATE tournaments SET told = 'began' WHERE status = 'running' AND current_round = 0"))
    conn.execute(
        text(
            "UPDATE tournaments SET told = 'round ' || CAST(current_round AS VARCHAR(8))"
            " WHERE status = 'running' AND current_round > 0"
        )
    )


def _migration_10(conn: Connection) -> None:
    """A match remembers whether its players were greeted in its thread, so a greeting Discord refused is
    posted again (matches already under way count as greeted)."""
    conn.execute(text("ALTER TABLE tournament_matches ADD COLUMN greeted INTEGER NOT NULL DEFAULT 1"))
    conn.execute(text("UPDATE tournament_matches SET greeted = 0 WHERE status IN ('pending', 'launching')"))


def _migration_11(conn: Connection) -> None:
    """A computer player who took over a seat remembers its person's name and the ply it took over at,
    so the move list credits each move to whoever made it (seats taken over before keep neither)."""
    conn.execute(text("ALTER TABLE seats ADD COLUMN stood_down_name VARCHAR(100)"))
    conn.execute(text("ALTER TABLE seats ADD COLUMN taken_over_at INTEGER"))


def _migration_12(conn: Connection) -> None:
    """A tournament remembers the messages that carry its buttons (from now on: cards posted before keep
    theirs, which refuse once registration is over)."""
    _create(tournament_cards)(conn)


def _migration_13(conn: Connection) -> None:
    """A check-in window's opening is a milestone its channel is told (windows already open count as told)."""
    conn.execute(text("UPDATE tournaments SET told = 'checkin' WHERE status = 'checkin'"))


MIGRATIONS: list[Callable[[Connection], None]] = [
    _migration_1,
    _migration_2,
    _migration_3,
    _migration_4,
    _migration_5,
    _migration_6,
    _migration_7,
    _migration_8,
    _migration_9,
    _migration_10,
    _migration_11,
    _migration_12,
    _migration_13,
]
LATEST_VERSION = len(MIGRATIONS)


def current_version(conn: Connection) -> int:
    """The schema version of the connected database (0 when empty)."""
    schema_version.create(conn, checkfirst=True)
    row = conn.execute(schema_version.select()).first()
    return int(row.version) if row else 0


def migrate(conn: Connection, target: int = LATEST_VERSION) -> int:
    """Apply every migration after the database's version up to ``target``; returns the new version."""
    version = current_version(conn)
    for number in range(version + 1, target + 1):
        MIGRATIONS[number - 1](conn)
        conn.execute(schema_version.delete())
        conn.execute(schema_version.insert().values(version=number))
    return max(version, target)
