"""Table rules as data: every table option (see docs/rules.md) in one dataclass, and presets.

>>> r = Rules.preset("sultan-ihaleli")
>>> r.min_bid, r.scoring, r.deals
(4, 'sultan', 11)
>>> "standard" in Rules.preset_names()
True
>>> custom = dataclasses.replace(r, min_bid=5)
>>> custom.min_bid
5
>>> Rules.preset("zipi-kitty", partners=True)
Traceback (most recent call last):
...
batak.rules.RulesError: options clash: partners=yes needs players=4 (got players=3)

Each option's meaning is in its field's comment and in ``docs/rules.md``.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, Literal, get_args

from .cards import CardError, Suit
from .i18n import text

__all__ = ["PRESETS", "Rules", "RulesError"]

Bidding = Literal["auction", "kozmaca", "none"]
AllPass = Literal["dealer_takes_min", "redeal", "first_speaker_takes_min"]
TrumpLead = Literal["after_broken", "any_time"]
BrokenBy = Literal["any_trump", "ruff"]
Scoring = Literal["sultan", "simple", "tens", "primli", "acik"]
Tie = Literal["shared", "extra_deal", "last_deal_tricks"]
Direction = Literal["counterclockwise", "clockwise"]
ZeroTrick = Literal["none", "scheme", "min_bid", "bid"]
LastTrick = Literal["deal", "any_time"]
FirstDealer = Literal["random", "first_seated"]
FirstLead = Literal["bidder", "after_dealer"]
RedealDealer = Literal["same", "next"]
DownScoring = Literal["bid", "shortfall"]
KittyOrder = Literal["take_bury_trump", "bury_take_trump", "take_trump_bury"]


class RulesError(ValueError):
    """An impossible or unknown rules combination; the message names the clashing options.

    ``code`` and ``params`` say what is wrong; ``str()`` is the English sentence and
    :meth:`text` the sentence in another language of the catalog (keys ``rules_error.CODE``).
    Values are written as one types them (``batak play --option partners=yes``, the rules
    pages): yes, no, none, a suit's letter, a word without quotes.

    >>> try:
    ...     Rules(players=3, hand_size=16, kitty_size=4, partners=True)
    ... except RulesError as e:
    ...     error = e
    >>> error.code, str(error)
    ('partners_players', 'options clash: partners=yes needs players=4 (got players=3)')
    >>> error.text("tr")
    'seçenekler çelişiyor: partners=yes için players=4 gerekir (şu an players=3)'
    >>> str(RulesError("kitty_auction", kitty_size=4, bidding="none"))
    'options clash: kitty_size=4 needs bidding=auction (got bidding=none)'
    >>> str(RulesError("not_bool", key="must_trump", value="may be"))
    'must_trump must be yes or no, got "may be"'
    """

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        """Why, in ``lang``."""
        params = {k: _typed(v) for k, v in self.params.items()}
        return text(f"rules_error.{self.code}", lang, **params)


def _typed(value: Any) -> Any:
    """An option's value as one types it after ``OPTION=``: yes, no, none, a suit's letter, a
    word as it is (in plain double quotes if it is empty or has spaces); a list item by item.

    >>> _typed(True), _typed(None), _typed(Suit.SPADES), _typed("auction"), _typed(3)
    ('yes', 'none', 'S', 'auction', 3)
    >>> _typed("two words"), _typed(["a", False])
    ('"two words"', ['a', 'no'])
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, Suit):
        return value.value
    if isinstance(value, str):
        return value if value and not any(c.isspace() for c in value) else f'"{value}"'
    if isinstance(value, list | tuple):
        return [_typed(v) for v in value]
    if isinstance(value, int | float):
        return value
    try:  # a JSON object given as a value (the server's rules): shown as JSON
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


#: :meth:`Rules.to_dict` of rules met lately (the values are immutable: only the dict is copied)
_AS_DICT: dict[Rules, dict[str, Any]] = {}


@dataclass(frozen=True, slots=True)
class Rules:
    """Every table option. The defaults are the project's ``standard`` table (CetinsGame)."""

    name: str = "custom"
    # -- table ---------------------------------------------------------------------------
    players: int = 4  # 4, or 3 for kitty batak
    hand_size: int = 13  # cards dealt to each player (16 in kitty batak)
    kitty_size: int = 0  # cards left face down for the bidder (4 in kitty batak)
    kitty_order: KittyOrder = "take_bury_trump"  # the bidder's steps with the kitty
    partners: bool = False  # eşli: seats 0+2 against 1+3, contract and counts per partnership
    exposed_partner: bool = False  # açık eşli: bidder's partner plays face up once trump is named
    direction: Direction = "counterclockwise"  # display only: seats are numbered in play order
    first_dealer: FirstDealer = "random"  # who deals first: drawn by lot, or the first to sit
    last_trick: LastTrick = "any_time"  # deal: the last trick shows during its deal; any_time:
    # also at the start of the next deal, until that deal's first trick is complete
    # -- auction -------------------------------------------------------------------------
    bidding: Bidding = "auction"  # auction (ihale); kozmaca = one bid each, no pass; none
    min_bid: int = 4
    max_bid: int = 13
    all_pass: AllPass = "dealer_takes_min"
    redeal_dealer: RedealDealer = "same"  # all_pass="redeal": the same dealer deals again, or next
    fixed_trump: Suit | None = None  # Suit.SPADES in Koz Maça; None = the bidder names it
    first_lead: FirstLead = "bidder"  # who leads the first trick after an auction
    zero_bid: int | None = (
        None  # Koz Maça "el almam": a bid of 0 scores +this with no trick, else -
    )
    # -- compulsory play -----------------------------------------------------------------
    overtake: bool = True  # yükseltme: beat the highest card of the suit led if you can
    overtake_after_ruff: bool = False  # still overtake in the led suit after someone ruffed
    overtrump: bool = True  # beat a trump already in the trick if you can (apart from overtake)
    trump_if_cannot_overtrump: bool = True  # void and cannot beat the trump: still play a trump
    must_trump: bool = True  # void in the suit led: play a trump if you hold one (False: any card)
    trump_lead: TrumpLead = "after_broken"  # when trumps may be led
    broken_by: BrokenBy = "ruff"  # what breaks trumps: any trump played, or a ruff only
    # -- scoring -------------------------------------------------------------------------
    scoring: Scoring = "tens"
    # "batak": what a defender (team) with no tricks loses: nothing, the scheme's own figure,
    # what a contract of the minimum bid loses when down, or what this deal's contract loses.
    # True and False (older records) mean "scheme" and "none".
    zero_trick_penalty: ZeroTrick = "min_bid"
    overtricks_count: bool = True  # False: the bidder scores only the bid when made (Zipi variant)
    # eşli: a defending side with fewer tricks than this goes down and loses what the contract
    # loses when down; None: the scheme's own (2 under acik, none otherwise)
    defenders_minimum: int | None = None
    # the bid's figure plus this many points per trick over the bid (None: the scheme's own)
    overtrick_points: int | None = None
    down_scoring: DownScoring = "bid"  # a bidder down loses the bid's figure, or the shortfall only
    down_penalty: int | None = None  # a bidder down loses this fixed amount (None: down_scoring)
    overtrick_limit: int | None = None  # yan batar: more than bid + this many tricks is down too
    king: bool = False  # 13 bid and made wins the match; açık eşli also: 13 unbid: +13 / -13
    # -- match ---------------------------------------------------------------------------
    deals: int | None = 8  # match length in deals (None: play to target_score)
    target_score: int | None = None  # the match ends once a total reaches this
    tie: Tie = "last_deal_tricks"  # a tie at the top: shared, one more deal, or last deal's tricks

    def __post_init__(self) -> None:
        if isinstance(self.zero_trick_penalty, bool):  # the on/off switch of older records
            object.__setattr__(
                self, "zero_trick_penalty", "scheme" if self.zero_trick_penalty else "none"
            )
        if isinstance(self.fixed_trump, str) and not isinstance(self.fixed_trump, Suit):
            try:
                suit = Suit.parse(self.fixed_trump)
            except CardError:  # fixed_trump=X: said like any other refused option
                raise RulesError("not_suit", value=self.fixed_trump) from None
            object.__setattr__(self, "fixed_trump", suit)
        _validate(self)

    # -- derived -----------------------------------------------------------------------
    @property
    def tricks_per_deal(self) -> int:
        return self.hand_size

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The scoring units: ((0, 2), (1, 3)) with partners, else one seat each."""
        if self.partners:
            return ((0, 2), (1, 3))
        return tuple((s,) for s in range(self.players))

    def team_of(self, seat: int) -> tuple[int, ...]:
        return self.teams[seat % 2] if self.partners else (seat,)

    # -- constructors ----------------------------------------------------------------------
    @staticmethod
    def preset_names() -> list[str]:
        """The named tables: the thirteen guide presets and ``standard``."""
        return list(PRESETS)

    @staticmethod
    def preset(name: str, **overrides: Any) -> Rules:
        """A named table, optionally with some options changed."""
        base = PRESETS.get(name)
        if base is None:
            raise RulesError("unknown_preset", name=name, names=list(PRESETS))
        if not overrides:
            return base
        return base.replace(**overrides)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like any new table)."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise RulesError("unknown_options", names=sorted(unknown))
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every option (a new dict each time; made once per table's
        rules: every view carries it)."""
        d = _AS_DICT.get(self)
        if d is None:
            d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
            d["fixed_trump"] = self.fixed_trump.value if self.fixed_trump is not None else None
            if len(_AS_DICT) >= 1024:  # a bound: rooms may have rules of their own
                _AS_DICT.clear()
            _AS_DICT[self] = d
        return dict(d)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`; unknown or badly typed options are refused."""
        if not isinstance(data, dict):
            raise RulesError("not_object")
        return Rules().replace(**data)


_LITERALS: dict[str, tuple[Any, ...]] = {
    "direction": get_args(Direction),
    "bidding": get_args(Bidding),
    "all_pass": get_args(AllPass),
    "trump_lead": get_args(TrumpLead),
    "broken_by": get_args(BrokenBy),
    "scoring": get_args(Scoring),
    "tie": get_args(Tie),
    "zero_trick_penalty": get_args(ZeroTrick),
    "last_trick": get_args(LastTrick),
    "first_dealer": get_args(FirstDealer),
    "first_lead": get_args(FirstLead),
    "redeal_dealer": get_args(RedealDealer),
    "down_scoring": get_args(DownScoring),
    "kitty_order": get_args(KittyOrder),
}
_BOOLS = (
    "partners",
    "exposed_partner",
    "overtake",
    "overtake_after_ruff",
    "overtrump",
    "trump_if_cannot_overtrump",
    "must_trump",
    "overtricks_count",
    "king",
)
_INTS = ("players", "hand_size", "kitty_size", "min_bid", "max_bid")


def _validate(r: Rules) -> None:
    if not isinstance(r.name, str):
        raise RulesError("name_type")
    for key, allowed in _LITERALS.items():
        value = getattr(r, key)
        if value not in allowed:
            raise RulesError("not_allowed", key=key, value=value, allowed=list(map(str, allowed)))
    for key in _BOOLS:
        if not isinstance(getattr(r, key), bool):
            raise RulesError("not_bool", key=key, value=getattr(r, key))
    for key in _INTS:
        value = getattr(r, key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError("not_int", key=key, value=value)
    for key in ("deals", "target_score"):
        value = getattr(r, key)
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or value < 1
        ):
            raise RulesError("not_positive", key=key, value=value)
    if r.defenders_minimum is not None and (
        not isinstance(r.defenders_minimum, int)
        or isinstance(r.defenders_minimum, bool)
        or not 0 <= r.defenders_minimum <= 3
    ):
        raise RulesError("defenders_minimum_range", value=r.defenders_minimum)
    for key in ("overtrick_points", "down_penalty", "zero_bid"):
        value = getattr(r, key)
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 1000
        ):
            raise RulesError("points_range", key=key, value=value)
    if r.overtrick_limit is not None and (
        not isinstance(r.overtrick_limit, int)
        or isinstance(r.overtrick_limit, bool)
        or not 1 <= r.overtrick_limit <= 3
    ):
        raise RulesError("overtrick_limit_range", value=r.overtrick_limit)
    if r.fixed_trump is not None and not isinstance(r.fixed_trump, Suit):
        raise RulesError("not_suit", value=r.fixed_trump)

    if r.players not in (3, 4):
        raise RulesError("players", players=r.players)
    if r.players * r.hand_size + r.kitty_size != 52:
        raise RulesError("deck", players=r.players, hand_size=r.hand_size, kitty_size=r.kitty_size)
    if r.kitty_size < 0:
        raise RulesError("kitty_negative", kitty_size=r.kitty_size)
    if r.partners and r.players != 4:
        raise RulesError("partners_players", players=r.players)
    if r.exposed_partner and not r.partners:
        raise RulesError("exposed_partners")
    if r.kitty_size and r.bidding != "auction":
        raise RulesError("kitty_auction", kitty_size=r.kitty_size, bidding=r.bidding)
    if r.bidding != "auction" and r.fixed_trump is None:
        raise RulesError("no_trump_namer", bidding=r.bidding)
    if r.redeal_dealer != "same" and r.all_pass != "redeal":
        raise RulesError("redeal_dealer", all_pass=r.all_pass)
    if r.zero_bid is not None and r.bidding != "kozmaca":
        raise RulesError("zero_bid_kozmaca", bidding=r.bidding)
    if r.first_lead != "bidder" and r.bidding != "auction":
        raise RulesError("first_lead_auction", bidding=r.bidding)
    if r.kitty_order != "take_bury_trump" and not r.kitty_size:
        raise RulesError("kitty_order", order=r.kitty_order)
    if r.bidding == "kozmaca" and r.partners:
        raise RulesError("kozmaca_partners")
    if not 1 <= r.min_bid <= r.max_bid <= r.hand_size:
        raise RulesError("bid_range", min_bid=r.min_bid, max_bid=r.max_bid, hand_size=r.hand_size)
    # The compulsory-play options are independent (CetinsGame lists overtaking and overtrumping
    # as separate table settings), but two of them only qualify another one:
    if r.overtake_after_ruff and not r.overtake:
        raise RulesError("after_ruff_needs_overtake")
    if not r.trump_if_cannot_overtrump and not r.overtrump:
        raise RulesError("discard_needs_overtrump")
    if not r.must_trump and not r.trump_if_cannot_overtrump:
        raise RulesError("discard_needs_must_trump")
    if r.scoring == "acik" and not r.partners:
        raise RulesError("acik_partners")
    if r.scoring == "acik" and r.bidding != "auction":
        raise RulesError("acik_auction")
    if r.scoring == "acik" and r.zero_trick_penalty != "none":
        raise RulesError("acik_penalty", penalty=r.zero_trick_penalty)
    if r.bidding == "kozmaca" and r.zero_trick_penalty != "none":
        raise RulesError("kozmaca_penalty", penalty=r.zero_trick_penalty)
    if r.defenders_minimum is not None and not r.partners:
        raise RulesError("defenders_minimum_partners")
    if r.defenders_minimum and r.zero_trick_penalty != "none":
        raise RulesError(
            "defenders_minimum_penalty", minimum=r.defenders_minimum, penalty=r.zero_trick_penalty
        )
    if r.overtrick_points is not None and not r.overtricks_count:
        raise RulesError("overtrick_points_count", points=r.overtrick_points)
    if r.down_penalty is not None and r.down_scoring != "bid":
        raise RulesError("down_penalty_shortfall", penalty=r.down_penalty)
    if r.bidding == "none" and (
        r.overtrick_points is not None
        or r.down_scoring != "bid"
        or r.down_penalty is not None
        or r.overtrick_limit is not None
    ):
        raise RulesError("contract_scoring_needs_bids")
    if r.scoring == "sultan" and r.bidding == "none":
        raise RulesError("sultan_needs_bids")
    if r.king and not (r.players == 4 and r.bidding == "auction"):
        raise RulesError("king", players=r.players, bidding=r.bidding)
    if r.deals is None and r.target_score is None:
        raise RulesError("no_end")
    if r.tie == "last_deal_tricks" and r.deals is None:
        raise RulesError("tie_needs_deals")


def _preset(name: str, **options: Any) -> Rules:
    return Rules(name=name, **options)


# Each guide's table. The compulsory-play options are spelled out in full for every guide, so
# that changing a default never changes a guide's table.
_SULTAN: dict[str, Any] = dict(
    scoring="sultan",
    zero_trick_penalty="bid",  # "−(10 × bid)": what a failed contract of that bid loses
    broken_by="any_trump",
    overtake=True,
    overtake_after_ruff=False,
    overtrump=True,
    trump_if_cannot_overtrump=True,
    first_dealer="random",  # the guide is silent: drawn by lot
    last_trick="deal",  # the guide is silent
    deals=11,
    tie="shared",
)
_GAMELAKE: dict[str, Any] = dict(
    scoring="simple",
    zero_trick_penalty="none",
    broken_by="ruff",
    overtake=True,
    overtake_after_ruff=True,
    overtrump=True,
    trump_if_cannot_overtrump=True,
    first_dealer="random",  # the guide is silent: drawn by lot
    last_trick="deal",  # the guide is silent
    deals=5,
    tie="extra_deal",
)
# Zipi's one "overtake" menu switch covers both overtaking and overtrumping: its "overtake off"
# table is overtake=False, overtrump=False (see docs/rules.md).
_ZIPI: dict[str, Any] = dict(
    scoring="simple",
    zero_trick_penalty="none",
    broken_by="any_trump",
    overtake=True,
    overtake_after_ruff=False,
    overtrump=True,
    trump_if_cannot_overtrump=True,
    first_dealer="random",  # the guide is silent: drawn by lot
    last_trick="deal",  # the guide is silent
    deals=11,
    tie="shared",
)
_CETINSGAME: dict[str, Any] = dict(
    scoring="tens",
    zero_trick_penalty="min_bid",  # "taban ihale kadar eksi yazar": −10 × 4 = −40
    broken_by="ruff",
    overtake=True,
    overtake_after_ruff=False,
    overtrump=True,
    trump_if_cannot_overtrump=True,
    first_dealer="random",  # "İlk elde dağıtan kurayla belirlenir"
    last_trick="any_time",  # "Son löve her an görülebilir"
    deals=8,
    tie="last_deal_tricks",
)
_KOZMACA: dict[str, Any] = dict(fixed_trump=Suit.SPADES)

PRESETS: dict[str, Rules] = {
    "standard": _preset("standard", **_CETINSGAME),
    "sultan-ihaleli": _preset("sultan-ihaleli", **_SULTAN),
    "sultan-esli": _preset("sultan-esli", partners=True, min_bid=7, **_SULTAN),
    "sultan-kozmaca": _preset(
        "sultan-kozmaca",
        bidding="kozmaca",
        min_bid=1,
        **(_SULTAN | _KOZMACA | {"zero_trick_penalty": "none"}),
    ),
    "gamelake-ihaleli": _preset("gamelake-ihaleli", **_GAMELAKE),
    "gamelake-esli": _preset("gamelake-esli", partners=True, min_bid=7, **_GAMELAKE),
    "zipi-ihaleli": _preset("zipi-ihaleli", **_ZIPI),
    "zipi-esli": _preset("zipi-esli", partners=True, min_bid=6, **_ZIPI),
    "zipi-kozmaca": _preset("zipi-kozmaca", bidding="none", **(_ZIPI | _KOZMACA)),
    "zipi-kitty": _preset(
        "zipi-kitty", players=3, hand_size=16, kitty_size=4, min_bid=5, max_bid=16, **_ZIPI
    ),
    "cetinsgame-ihaleli": _preset("cetinsgame-ihaleli", **_CETINSGAME),
    "cetinsgame-esli": _preset("cetinsgame-esli", partners=True, min_bid=7, **_CETINSGAME),
    "cetinsgame-kozmaca": _preset("cetinsgame-kozmaca", bidding="none", **(_CETINSGAME | _KOZMACA)),
    "esli-acik": _preset(
        "esli-acik",
        partners=True,
        exposed_partner=True,
        min_bid=7,
        all_pass="first_speaker_takes_min",
        trump_lead="any_time",
        broken_by="any_trump",
        overtake=True,
        overtake_after_ruff=True,
        overtrump=True,
        trump_if_cannot_overtrump=True,
        first_dealer="first_seated",  # "Masaya ilk oturan kişi ilk dağıtıcı olur"
        last_trick="deal",  # the guide is silent
        scoring="acik",
        zero_trick_penalty="none",  # its own rule: defenders with fewer than 2 tricks go down
        king=True,
        deals=None,
        target_score=51,
        tie="extra_deal",
    ),
}
