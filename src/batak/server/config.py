"""Server settings: every limit and time in one place, with the defaults the issue asks for."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

#: SQLite's choices of flush at each commit (WAL mode): ``full`` forces the log onto the disk
#: before a commit returns, so a committed move survives a power cut; ``normal`` does not (SQLite
#: forces it only at its checkpoints, and the operating system writes it back when it likes), so
#: a committed move survives the process's own crash or kill, but the last ones before a power
#: cut or an OS crash may be lost (the database stays consistent).
SQLITE_SYNC = ("full", "normal")

#: the most ``commit_gap`` may be (seconds): a move's reply waits up to this long more
MAX_COMMIT_GAP = 0.1

__all__ = ["MAX_COMMIT_GAP", "MODES", "SQLITE_SYNC", "ServerConfig", "is_wildcard"]

#: The lobby's modes and the preset each one plays.
MODES: dict[str, str] = {
    "ihaleli": "standard",
    "kozmaca": "cetinsgame-kozmaca",
    "esli": "cetinsgame-esli",
    "kitty": "zipi-kitty",
    "acik": "esli-acik",  # açık eşli: the chip-table site's game, with its kasa (issue 12)
}


@dataclass
class ServerConfig:
    """How one server process behaves. Times are in seconds."""

    host: str = "127.0.0.1"
    port: int = 8000
    data: Path = field(default_factory=lambda: Path("batak-data"))
    database: str | None = None  # None: SQLite in ``data``; or "postgresql://…"
    sqlite_sync: str = "full"  # one of SQLITE_SYNC (see there); ignored with PostgreSQL
    # the least time between two commits (group commit under load: storage.Storage.commit_gap);
    # a move waits at most this long more for its commit, and only when moves come faster
    commit_gap: float = 0.050
    # -- clocks -------------------------------------------------------------------------
    decision_seconds: float = 25.0  # time for one bid, bury, trump choice or card
    bank_seconds: float = 60.0  # time bank per seat per match
    bank_step: float = 15.0  # the bank is drawn in steps of this size
    hold_seconds: float = 45.0  # a disconnected seat is held this long, then a bot plays it
    quick_fill_seconds: float = 8.0  # quick play: bots fill the empty seats after this wait
    # a bot "thinks" about this long before its move (so people can follow): each wait is this
    # times a factor drawn between bot_spread's bounds, so that bots do not tick like a metronome
    bot_delay: float = 1.0
    bot_spread: tuple[float, float] = (0.6, 1.5)
    deal_pause: float = 4.0  # after a deal: the next deal's first decision waits this long more
    trick_pause: float = 1.5  # after a trick: the next decision waits this long more (it is seen)
    bot_level: str = "medium"  # preferred bot; falls back to what is installed
    hide_bots: bool = False  # public tables: bots get people's names and are not labelled
    quick_deals: int | None = None  # public tables: match length (None: the preset's own)
    linger_seconds: float = 600.0  # a finished table stays in memory this long
    archive_tables: int = 100  # finished matches opened again from storage, in memory at once
    abandon_seconds: float = 1800.0  # a private room never started, with nobody there: closed
    lonely_seconds: float = 180.0  # the same for a room nobody but its host ever came to
    adjourned_unload_seconds: float = 30 * 86400.0  # an adjourned room nobody visits: unloaded
    reap_every: float = 30.0  # how often the hub looks for tables to drop
    retry_base: float = 0.25  # a bot's or timeout's move that could not be stored is retried
    retry_max: float = 30.0  # after retry_base, doubling up to retry_max seconds
    # -- limits -------------------------------------------------------------------------
    max_message_bytes: int = 4096  # larger messages are refused with an error
    transport_max_bytes: int = 65536  # larger websocket frames close the connection
    rate_per_second: float = 20.0  # messages per second per connection (token bucket)
    rate_burst: float = 40.0
    rate_strikes: int = 50  # refused messages in a row before the connection is closed
    chat_max_chars: int = 200
    chat_per_second: float = 1.0
    chat_burst: float = 5.0
    hint_per_second: float = 1.0  # "hint" requests per player per table (token bucket)
    hint_burst: float = 3.0
    # deal reviews (``review``): solved in worker processes, each stopped after review_seconds
    review_workers: int = 1  # reviews computed at once (worker processes)
    review_queue: int = 2  # reviews waiting beyond these are refused with ``busy``
    review_seconds: float = 20.0  # a review stops here and says it is incomplete
    name_max_chars: int = 24
    send_queue: int = 2048  # messages waiting for a slow client before it is dropped
    event_buffer: int = 512  # events kept in memory per table for reconnects
    max_tables: int = 20000
    # -- quotas (against one script filling the server) ------------------------------------
    max_room_tables: int = 10000  # tables made with ``create`` (quick play keeps the rest)
    rooms_per_guest: int = 3  # rooms not yet started that one guest may have
    rooms_per_account: int = 10  # ... that one account may have
    rooms_per_address: int = 20  # ... that one network address may have (all its players)
    create_per_minute: float = 6.0  # ``create`` per player (bursts of create_burst)
    create_burst: float = 5.0
    create_per_minute_address: float = 30.0  # ``create`` per address
    create_burst_address: float = 20.0
    # -- codes and logins (lockouts: free failures, then base seconds doubling up to cap) --
    code_failures_free: int = 10  # unknown room codes per player / address before a lockout
    code_failures_free_address: int = 30
    login_failures_free: int = 5  # wrong passwords per account name before a lockout
    login_failures_free_address: int = 20  # ... per address
    lockout_base: float = 30.0
    lockout_cap: float = 900.0
    lockout_window: float = 900.0  # failures further apart than this are forgotten
    register_per_hour_address: float = 10.0  # ``register`` attempts per address (bursts of 5)
    password_checks: int = 2  # argon2 hashes computed at once (each takes argon2_memory_kib)
    password_queue: int = 64  # logins waiting for a check beyond this are told ``busy``
    argon2_memory_kib: int = 19456  # 19 MiB, t=2, p=1 (OWASP's argon2id minimum)
    argon2_time_cost: int = 2
    # a session token known in memory is looked up in the database again after this long, so
    # that one ended elsewhere (batak admin password, another process) stops opening the account
    session_recheck_seconds: float = 30.0
    # -- guests -----------------------------------------------------------------------------
    guest_unused_seconds: float = 86400.0  # a guest who never sat at a table is deleted
    # -- chips (issue 12; virtual: nothing bought, nothing transferable) ------------------
    stakes: tuple[int, ...] = (100, 1000, 10000)  # the lobby's staked salons (per mode)
    daily_grant: int = 1000  # chips a player with an account may have once per UTC day
    fee_percent: int = 5  # the table fee on a Batak Sultan pot ("5% for regular members")
    vip_fee_percent: int = 3  # ... for a player an operator marked VIP (nothing is sold)
    dumping_min_matches: int = 3  # the report flags a pair met at this many staked rooms
    dumping_one_sided: float = 0.8  # ... of which one lost this share to the other
    # -- origin -------------------------------------------------------------------------
    allowed_origins: tuple[str, ...] = ()  # besides the server's own address
    public_url: str | None = None  # the address printed and used in invite links
    # -- tournaments ------------------------------------------------------------------------
    operators: tuple[str, ...] = ()  # accounts that may schedule any number of tournaments
    # -- cluster (batak.server.cluster; all None: one process, as ever) ----------------------
    node: str | None = None  # this process's name in a cluster (needs PostgreSQL)
    redis: str | None = None  # redis://… for forwarding between processes, lobby, quick play
    lease_seconds: float = 6.0  # a process that has not renewed its lease this long is dead

    @property
    def base_url(self) -> str:
        if self.public_url:
            return self.public_url.rstrip("/")
        host = self.host
        if is_wildcard(host):  # it listens on IPv4 too (serve.listen): this computer's own
            host = "127.0.0.1"
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    @property
    def database_url(self) -> str:
        if self.database:
            return self.database
        return f"sqlite:///{(Path(self.data) / 'batak.sqlite3').resolve()}"


def is_wildcard(host: str) -> bool:
    """Whether a server listening at ``host`` listens on every network interface: an empty
    host, or the unspecified address however it is written (``0.0.0.0``, ``::``, ``::0``,
    ``0:0:0:0:0:0:0:0``).

    >>> [is_wildcard(h) for h in ("0.0.0.0", "::", "::0", "0:0:0:0:0:0:0:0", "", "[::]")]
    [True, True, True, True, True, True]
    >>> [is_wildcard(h) for h in ("127.0.0.1", "::1", "localhost", "192.168.1.5")]
    [False, False, False, False]
    """
    import ipaddress

    if not host:
        return True
    try:
        return ipaddress.ip_address(host.removeprefix("[").removesuffix("]")).is_unspecified
    except ValueError:  # a name
        return False
