"""Chips: wallets, an append-only double-entry ledger, staked tables and the kasa jackpot.

Chips are virtual: nothing is bought, nothing is sold, and no player can give chips to another.
Every change of a balance is a *transaction* of two or more ledger rows (legs) whose amounts add up
to zero, written in the same database transaction as the event that causes it (a table's start,
its end, a daily grant; or, for a staked table whose log cannot be rebuilt at a restart, the
restart: its stakes go back). The ledger is only ever appended to; ``chip_accounts.balance`` is kept
equal to the sum of an account's legs (a test and ``batak admin ledger-check`` check both).

Accounts (``chip_accounts.account``):

- ``p:PLAYER`` a player's wallet (accounts only, not guests nor bot accounts);
- ``pot:TABLE`` the stakes of one staked match, from its start to its end;
- ``kasa:SALON`` the kasa jackpot of one açık eşli salon (``acik:1000``);
- ``grant`` the one **source**: its balance is minus every chip ever granted;
- ``fee`` and ``bots`` the two **sinks**: table fees, and what house bots won.

Only the source may go below zero; a leg that would take any other account below zero fails the
whole transaction (and so the event with it), which is how "a player who cannot cover the stake
cannot play" holds even when one player sits at two tables at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .storage import StorageError

__all__ = [
    "BOTS",
    "FEE",
    "GRANT",
    "Desk",
    "NotCovered",
    "Plan",
    "dumping_report",
    "kasa_account",
    "kasa_team",
    "ledger_check",
    "player_account",
    "post",
    "pot_account",
    "settlement",
]

GRANT = "grant"  # the source: daily grants
FEE = "fee"  # a sink: table fees (and the odd chip a split leaves)
BOTS = "bots"  # a sink: what house bots win leaves the game
KASA_TRICKS = 11  # "bir turda ilk önce 11 el alan takım" takes the kasa

_NEW_ACCOUNT = "INSERT INTO chip_accounts (account, balance) VALUES (?, 0) ON CONFLICT DO NOTHING"
Q = Callable[[str], str]  # turns '?' placeholders into the database's own


def player_account(player_id: str) -> str:
    return "p:" + player_id


def pot_account(table_id: str) -> str:
    return "pot:" + table_id


def kasa_account(salon: str) -> str:
    return "kasa:" + salon


class NotCovered(StorageError):
    """A leg would take an account (a wallet, a pot, a kasa) below zero. A
    :class:`~batak.server.storage.StorageError` (the transaction failed, nothing is written),
    which the storage hands on as it is, with its ``account``: a staked start tells by it whose
    chips went into another pot since their balance was read."""

    def __init__(self, account: str) -> None:
        self.account = account
        super().__init__(f"not covered: {account}")


def post(
    cur: Any,
    q: Q,
    txn: str,
    kind: str,
    table_id: str | None,
    legs: Sequence[tuple[str, int]],
    at: float | None = None,
) -> bool:
    """Append one transaction (``legs`` adding up to zero) and move the balances with it, inside
    the caller's database transaction. A transaction id is written once: posting it again does
    nothing and returns False (a retried table end pays once)."""
    if sum(a for _, a in legs) != 0:
        raise ValueError(f"unbalanced transaction {txn}: {legs}")
    cur.execute(q("SELECT 1 FROM ledger WHERE txn = ?"), (txn,))
    if cur.fetchone() is not None:
        return False
    now = time.time() if at is None else at
    ins_acc = q(_NEW_ACCOUNT)
    add_any = q("UPDATE chip_accounts SET balance = balance + ? WHERE account = ?")
    add_covered = q(
        "UPDATE chip_accounts SET balance = balance + ? WHERE account = ? AND balance + ? >= 0"
    )
    ins = q(
        "INSERT INTO ledger (txn, leg, account, amount, kind, table_id, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)"
    )
    leg = 0
    for account, amount in legs:
        if amount == 0:
            continue
        cur.execute(ins_acc, (account,))
        if account == GRANT:
            cur.execute(add_any, (amount, account))
        else:
            cur.execute(add_covered, (amount, account, amount))
            if cur.rowcount != 1:
                raise NotCovered(account)
        cur.execute(ins, (txn, leg, account, amount, kind, table_id, now))
        leg += 1
    return True


def balance(cur: Any, q: Q, account: str) -> int:
    cur.execute(q("SELECT balance FROM chip_accounts WHERE account = ?"), (account,))
    r = cur.fetchone()
    return int(r[0]) if r else 0


@dataclass
class Plan:
    """What a staked match's end needs to know, from the table (the ledger supplies the pot,
    the VIP flags and the kasa)."""

    table: str
    scoring: str  # "sultan": the pot to the winners less the fee; "acik": 3/4 and the kasa
    stake: int
    payers: dict[int, str]  # seat -> the player who paid the buy-in there
    winners: list[int]
    kasa: str | None = None  # the salon's kasa account (public açık eşli tables)
    kasa_team: list[int] | None = None  # the team that first took 11 tricks in a deal
    fee_percent: int = 5
    vip_fee_percent: int = 3


@dataclass
class Outcome:
    legs: list[tuple[str, int]]
    summary: dict[str, Any] = field(default_factory=dict)


def settlement(plan: Plan, pot: int, vip: Mapping[str, bool], kasa_balance: int) -> Outcome:
    """The legs that empty a match's pot (see docs/chips.md for the rules, with examples).

    >>> p = Plan("t1", "acik", 1000, {0: "a", 1: "b", 2: "c", 3: "d"}, [0, 2], kasa="kasa:x")
    >>> o = settlement(p, 4000, {}, 0)
    >>> o.summary["payouts"], o.summary["kasa_added"], o.summary["fee"]
    ({0: 1500, 2: 1500}, 1000, 0)
    >>> p = Plan("t2", "sultan", 1000, {0: "a", 1: "b", 2: "c", 3: "d"}, [1])
    >>> settlement(p, 4000, {"b": True}, 0).summary["payouts"], settlement(p, 4000, {}, 0).legs[1:]
    ({1: 3880}, [('fee', 200), ('p:b', 3800)])
    """
    potacc = pot_account(plan.table)
    legs: list[tuple[str, int]] = [(potacc, -pot)] if pot else []
    payouts: dict[int, int] = {}
    summary: dict[str, Any] = {
        "stake": plan.stake,
        "pot": pot,
        "scoring": plan.scoring,
        "refund": False,  # (no match refunds any more: a person who leaves is played for)
        "fee": 0,
        "bots": 0,
        "kasa_added": 0,
        "kasa_won": 0,
        "kasa_team": None,
        "payouts": payouts,
    }
    if pot == 0:
        return Outcome([], summary)
    fee = bots = 0
    fees: dict[int, int] = {}
    winners = plan.winners or sorted(plan.payers)
    # a house bot put nothing in and takes nothing out: the winning side's people share what it
    # wins; only a side of house bots alone wins for the bots (what people lost leaves the game)
    takers = [s for s in winners if s in plan.payers] or [-1]  # -1: the house bots as one
    k = len(takers)

    def give(seat: int, amount: int, with_fee: bool) -> None:
        nonlocal fee, bots
        pid = plan.payers.get(seat)
        if pid is None:  # a house bot's winnings leave the game
            bots += amount
            return
        cut = 0
        if with_fee:
            rate = plan.vip_fee_percent if vip.get(pid) else plan.fee_percent
            cut = amount * rate // 100
            fee += cut
            fees[seat] = cut
        legs.append((player_account(pid), amount - cut))
        payouts[seat] = payouts.get(seat, 0) + amount - cut

    if plan.scoring == "acik":
        to_winners = pot * 3 // 4
        share = to_winners // k
        quarter = pot - share * k  # the quarter, and the odd chip of an uneven split
        for seat in takers:
            give(seat, share, with_fee=False)
        if plan.kasa is None:
            fee += quarter
        else:
            legs.append((plan.kasa, quarter))
            summary["kasa_added"] = quarter
            # the kasa goes to the people of the team that took 11 tricks; a team of house bots
            # alone takes nothing out of it: it stays in the salon for the next match
            team = [s for s in plan.kasa_team or [] if s in plan.payers]
            if team:
                each = (kasa_balance + quarter) // len(team)
                legs.append((plan.kasa, -each * len(team)))
                for seat in team:
                    before = payouts.get(seat, 0)
                    give(seat, each, with_fee=False)
                    summary.setdefault("kasa_payouts", {})[seat] = payouts[seat] - before
                summary["kasa_won"] = each * len(team)
                summary["kasa_team"] = team
    else:
        share = pot // k
        fee += pot - share * k
        for seat in takers:
            give(seat, share, with_fee=True)
    summary["fees"] = fees
    summary["winners"] = [s for s in takers if s in plan.payers]  # the people paid as winners
    if fee:
        legs.insert(1, (FEE, fee))
    if bots:
        legs.append((BOTS, bots))
    summary["fee"] = fee
    summary["bots"] = bots
    return Outcome(legs, summary)


def kasa_team(rows: Sequence[Any], teams: Sequence[Sequence[int]]) -> list[int] | None:
    """The team that first took :data:`KASA_TRICKS` tricks in a deal (rows of a match's sheet)."""
    for row in rows:
        tricks = getattr(row, "tricks", None)
        if getattr(row, "redeal", False) or not tricks:
            continue
        for team in teams:
            if sum(tricks[s] for s in team) >= KASA_TRICKS:
                return sorted(team)
    return None


def ledger_check(cur: Any) -> list[str]:
    """Every way the ledger could be wrong, as sentences (empty: exact). Checks that each
    transaction adds up to zero, that each balance is the sum of its legs, and that no account
    but the source is below zero."""
    problems: list[str] = []
    cur.execute("SELECT txn, SUM(amount) FROM ledger GROUP BY txn HAVING SUM(amount) <> 0")
    for txn, total in cur.fetchall():
        problems.append(f"transaction {txn} adds up to {total}")
    cur.execute(
        "SELECT a.account, a.balance, COALESCE(SUM(l.amount), 0) FROM chip_accounts a"
        " LEFT JOIN ledger l ON l.account = a.account GROUP BY a.account, a.balance"
    )
    for account, bal, total in cur.fetchall():
        if int(bal) != int(total):
            problems.append(f"{account}: balance {bal} but its ledger adds up to {total}")
        if account != GRANT and int(bal) < 0:
            problems.append(f"{account}: balance {bal} below zero")
    cur.execute(
        "SELECT COUNT(*) FROM ledger l WHERE NOT EXISTS"
        " (SELECT 1 FROM chip_accounts a WHERE a.account = l.account)"
    )
    orphans = int(cur.fetchone()[0])
    if orphans:
        problems.append(f"{orphans} ledger rows name no account")
    return problems


def dumping_report(
    rows: Sequence[tuple[str, str, int]], min_matches: int = 3, one_sided: float = 0.8
) -> list[dict[str, Any]]:
    """Pairs of players who keep meeting at staked private tables with one-sided results.

    ``rows`` are (table, player, net chips at that table). For each pair that met at
    ``min_matches`` or more such tables, the chips that went from one to the other are added up;
    the pair is flagged when one of them lost at ``one_sided`` or more of the tables they shared
    while the other won.
    """
    by_table: dict[str, dict[str, int]] = {}
    for table, player, net in rows:
        by_table.setdefault(table, {})[player] = by_table.get(table, {}).get(player, 0) + net
    pairs: dict[tuple[str, str], dict[str, int]] = {}
    for nets in by_table.values():
        people = sorted(nets)
        for i, a in enumerate(people):
            for b in people[i + 1 :]:
                p = pairs.setdefault(
                    (a, b), {"matches": 0, "a_to_b": 0, "b_to_a": 0, "a_lost": 0, "b_lost": 0}
                )
                p["matches"] += 1
                if nets[a] < 0 < nets[b]:
                    p["a_to_b"] += min(-nets[a], nets[b])
                    p["a_lost"] += 1
                elif nets[b] < 0 < nets[a]:
                    p["b_to_a"] += min(-nets[b], nets[a])
                    p["b_lost"] += 1
    out = []
    for (a, b), p in pairs.items():
        n = p["matches"]
        if n < min_matches:
            continue
        frm, to, moved, lost = a, b, p["a_to_b"], p["a_lost"]
        if p["b_to_a"] > p["a_to_b"]:
            frm, to, moved, lost = b, a, p["b_to_a"], p["b_lost"]
        share = lost / n
        if share >= one_sided and moved > 0:
            out.append(
                {"from": frm, "to": to, "matches": n, "chips": moved, "one_sided": round(share, 2)}
            )
    out.sort(key=lambda r: (-float(str(r["chips"])), str(r["from"]), str(r["to"])))
    return out


# ---------------------------------------------------------------------- the server's side
class Desk:
    """The chips of one server: wallets, buy-ins, payouts, the salons' kasas (a cache of their
    balances for the lobby; the ledger is the truth), the grant, the leaderboard, the report."""

    def __init__(self, storage: Any, config: Any) -> None:
        self.storage = storage
        self.config = config
        self.kasa: dict[str, int] = {}  # salon -> its kasa's balance, as last read or written

    async def load(self) -> None:
        q = self.storage.q
        like = q("SELECT account, balance FROM chip_accounts WHERE account LIKE ?")

        def job(cur: Any) -> dict[str, int]:
            cur.execute(like, ("kasa:%",))
            return {str(a).removeprefix("kasa:"): int(b) for a, b in cur.fetchall()}

        self.kasa = await self.storage.run(job)

    async def balance(self, player_id: str) -> int:
        q = self.storage.q
        return int(await self.storage.run(lambda cur: balance(cur, q, player_account(player_id))))

    async def wallet(self, player_id: str, grant: bool = True) -> dict[str, Any]:
        """The player's balance, after the day's grant if it is due (one per UTC day)."""
        q = self.storage.q
        day = time.strftime("%Y-%m-%d", time.gmtime())
        amount = int(self.config.daily_grant)
        acc = player_account(player_id)

        def job(cur: Any) -> dict[str, Any]:
            granted = 0
            if grant and amount > 0:
                legs = [(GRANT, -amount), (acc, amount)]
                if post(cur, q, f"grant:{player_id}:{day}", "grant", None, legs):
                    granted = amount
            cur.execute(q("SELECT balance, vip FROM chip_accounts WHERE account = ?"), (acc,))
            r = cur.fetchone()
            return {
                "balance": int(r[0]) if r else 0,
                "vip": bool(r[1]) if r else False,
                "granted": granted,
                "grant": amount,
                "day": day,
            }

        return dict(await self.storage.run(job))

    def buyin(self, table_id: str, stake: int, payers: Mapping[int, str]) -> Callable[[Any], None]:
        """The job (for the start event's transaction) that moves each stake into the pot."""
        q = self.storage.q
        legs = [(player_account(pid), -stake) for _, pid in sorted(payers.items())]
        legs.append((pot_account(table_id), stake * len(payers)))

        def job(cur: Any) -> None:
            post(cur, q, f"buyin:{table_id}", "buyin", table_id, legs)

        return job

    def payout(self, plan: Plan) -> Callable[[Any], dict[str, Any]]:
        """The job (for the table's end, in its transaction) that empties the pot."""
        q = self.storage.q

        def job(cur: Any) -> dict[str, Any]:
            pot = balance(cur, q, pot_account(plan.table))
            vip: dict[str, bool] = {}
            for pid in plan.payers.values():
                cur.execute(
                    q("SELECT vip FROM chip_accounts WHERE account = ?"), (player_account(pid),)
                )
                r = cur.fetchone()
                vip[pid] = bool(r and r[0])
            kasa_bal = balance(cur, q, plan.kasa) if plan.kasa else 0
            out = settlement(plan, pot, vip, kasa_bal)
            post(cur, q, f"payout:{plan.table}", "payout", plan.table, out.legs)
            if plan.kasa:
                out.summary["kasa_after"] = balance(cur, q, plan.kasa)
            return out.summary

        return job

    async def refund_unrebuilt(self, table_id: str) -> dict[str, int]:
        """Give each person their stake back from the pot of a staked table whose stored log
        cannot be rebuilt (at a restart): the match will never be played to its end, and its
        stakes would stay in the pot for ever. One transaction, ``refund:TABLE`` of the kind
        ``refund_unrebuilt``, each wallet getting what its buy-in took (read from the ledger,
        not from the events, which are what cannot be read). Posted once: a pot already
        emptied (paid, or refunded at an earlier restart) gives nothing. Returns player ->
        chips given back (empty: nothing was in the pot)."""
        q = self.storage.q
        potacc = pot_account(table_id)
        paid = q("SELECT account, amount FROM ledger WHERE txn = ? AND account LIKE ?")

        def job(cur: Any) -> dict[str, int]:
            if balance(cur, q, potacc) <= 0:
                return {}
            cur.execute(paid, (f"buyin:{table_id}", "p:%"))
            back: dict[str, int] = {}
            for account, amount in cur.fetchall():
                back[str(account)] = back.get(str(account), 0) - int(amount)
            legs: list[tuple[str, int]] = [(potacc, -sum(back.values()))]
            legs.extend(sorted(back.items()))
            if not post(cur, q, f"refund:{table_id}", "refund_unrebuilt", table_id, legs):
                return {}
            return {a.removeprefix("p:"): n for a, n in back.items()}

        return dict(await self.storage.run(job))

    async def leaderboard(self, limit: int = 50) -> list[dict[str, Any]]:
        """Accounts by balance, richest first (bot accounts and banned ones are not in it)."""
        sql = self.storage.q(
            "SELECT p.id, p.name, p.username, a.balance FROM chip_accounts a JOIN players p"
            " ON a.account = 'p:' || p.id WHERE p.username IS NOT NULL AND p.is_bot = 0"
            " AND p.banned IS NULL"
            " ORDER BY a.balance DESC, p.name LIMIT ?"
        )

        def job(cur: Any) -> list[dict[str, Any]]:
            cur.execute(sql, (limit,))
            return [
                {"player": r[0], "name": r[1], "account": r[2], "balance": int(r[3])}
                for r in cur.fetchall()
            ]

        return list(await self.storage.run(job))

    async def check(self) -> list[str]:
        return list(await self.storage.run(ledger_check))

    async def report(self) -> list[dict[str, Any]]:
        """The chip-dumping report (staked private tables; see :func:`dumping_report`)."""
        sql = self.storage.q(
            "SELECT l.table_id, l.account, SUM(l.amount) FROM ledger l JOIN tables t"
            " ON t.id = l.table_id WHERE t.kind = 'private' AND l.account LIKE 'p:%'"
            " GROUP BY l.table_id, l.account"
        )
        names = self.storage.q("SELECT id, name, username FROM players")

        def job(cur: Any) -> tuple[list[tuple[str, str, int]], dict[str, str]]:
            cur.execute(sql)
            rows = [(str(t), str(a).removeprefix("p:"), int(n)) for t, a, n in cur.fetchall()]
            cur.execute(names)
            who = {str(r[0]): str(r[2] or r[1]) for r in cur.fetchall()}
            return rows, who

        rows, who = await self.storage.run(job)
        out = dumping_report(rows, self.config.dumping_min_matches, self.config.dumping_one_sided)
        for r in out:
            r["from_name"] = who.get(r["from"], r["from"])
            r["to_name"] = who.get(r["to"], r["to"])
        return out

    async def vips(self, player_ids: list[str]) -> set[str]:
        """Those of ``player_ids`` whose VIP flag is on (``batak admin players``)."""
        q = self.storage.q
        accounts = {player_account(pid): pid for pid in player_ids}

        def job(cur: Any) -> set[str]:
            found: set[str] = set()
            for acc, pid in accounts.items():  # an operator's page of accounts: a few dozen
                cur.execute(q("SELECT vip FROM chip_accounts WHERE account = ?"), (acc,))
                r = cur.fetchone()
                if r and r[0]:
                    found.add(pid)
            return found

        return set(await self.storage.run(job))

    async def set_vip(self, player_id: str, vip: bool) -> None:
        q = self.storage.q
        acc = player_account(player_id)

        def job(cur: Any) -> None:
            cur.execute(q(_NEW_ACCOUNT), (acc,))
            cur.execute(q("UPDATE chip_accounts SET vip = ? WHERE account = ?"), (int(vip), acc))

        await self.storage.run(job)
