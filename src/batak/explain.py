"""The rules in words: a table's one-line summary and every option explained, in every language."""

from __future__ import annotations

import dataclasses
import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

# ---------------------------------------------------------------------- rules
from .i18n import LANGS, MESSAGES, text
from .rules import PRESETS, Rules

_TEXTS: dict[str, dict[str, str]] = {
    # one-line summaries
    "sum_kitty": {
        "en": "kitty batak, {players} players, {hand} cards each and {kitty} for the bidder",
        "tr": "yer kartlı batak, {players} oyuncu, kişi başı {hand} kart, ihaleciye {kitty} kart",
    },
    "sum_acik": {
        "en": "açık eşli (partners; the bidder's partner plays face up)",
        "tr": "açık eşli (eşli; ihalecinin eşi elini açık oynar)",
    },
    "sum_esli": {"en": "eşli (partners)", "tr": "eşli"},
    "sum_ihaleli": {"en": "ihaleli", "tr": "ihaleli"},
    "sum_kozmaca_bids": {
        "en": "Koz Maça, each player bids once",
        "tr": "Koz Maça, herkes bir kez söz söyler",
    },
    "sum_kozmaca_none": {"en": "Koz Maça, no ihale", "tr": "Koz Maça, ihalesiz"},
    "sum_auction": {"en": "ihale {low}–{high}", "tr": "ihale {low}–{high}"},
    "sum_bids": {"en": "bids {low}–{high}", "tr": "söz {low}–{high}"},
    "sum_sultan": {"en": "Sultan scoring (10 × bid)", "tr": "Sultan puanı (10 × ihale)"},
    "sum_simple": {"en": "1 point a trick", "tr": "löve başına 1 puan"},
    "sum_tens": {"en": "10 points a trick", "tr": "löve başına 10 puan"},
    "sum_primli": {"en": "primli scoring", "tr": "primli puan"},
    "sum_acik_scoring": {"en": "açık eşli scoring", "tr": "açık eşli puanı"},
    "sum_deals": {"en": "{n} deals", "tr": "{n} el"},
    "sum_deal": {"en": "1 deal", "tr": "1 el"},
    "sum_target": {"en": "to {n} points", "tr": "{n} puana kadar"},
    "sum_batak": {"en": "batak penalty", "tr": "batak cezası"},
}
MESSAGES.update({f"rules.{code}": texts for code, texts in _TEXTS.items()})


def t(code: str, lang: str, /, **params: Any) -> str:
    return text(f"rules.{code}", lang, **params)


#: Where each preset comes from (RULES.md names the guides).
PRESET_SOURCE: dict[str, dict[str, str]] = {
    "standard": {
        "en": "the project's default, CetinsGame's table",
        "tr": "projenin varsayılanı, CetinsGame masası",
    },
    "sultan": {"en": "Batak Sultan", "tr": "Batak Sultan"},
    "gamelake": {"en": "GameLake", "tr": "GameLake"},
    "zipi": {"en": "Zipi", "tr": "Zipi"},
    "cetinsgame": {"en": "CetinsGame", "tr": "CetinsGame"},
    "esli": {
        "en": "a Turkish chip-table site's açık eşli",
        "tr": "bir Türk çip masası sitesinin açık eşlisi",
    },
}

#: Every rule option: a short explanation (what the option decides).
OPTION_HELP: dict[str, dict[str, str]] = {
    "players": {"en": "players at the table", "tr": "masadaki oyuncu sayısı"},
    "hand_size": {"en": "cards dealt to each player", "tr": "her oyuncuya dağıtılan kart"},
    "kitty_size": {
        "en": "cards left face down for the bidder (the kitty)",
        "tr": "ihaleciye kalan yerdeki kapalı kartlar",
    },
    "partners": {
        "en": "eşli: opposite seats play together and count their tricks together",
        "tr": "eşli: karşılıklı oturanlar birlikte oynar, löveleri birlikte sayılır",
    },
    "exposed_partner": {
        "en": "açık eşli: once koz is named, the bidder's partner lays the hand face up",
        "tr": "açık eşli: koz söylenince ihalecinin eşi elini masaya açar",
    },
    "direction": {
        "en": "direction of play (only how the table is drawn)",
        "tr": "oyun yönü (yalnızca masanın gösterimi)",
    },
    "bidding": {"en": "how the contract is made", "tr": "ihalenin nasıl yapıldığı"},
    "min_bid": {"en": "the lowest bid", "tr": "en düşük teklif"},
    "max_bid": {"en": "the highest bid", "tr": "en yüksek teklif"},
    "all_pass": {"en": "when everyone says pas", "tr": "herkes pas derse"},
    "fixed_trump": {"en": "koz fixed by the rules", "tr": "kuralla sabit koz"},
    "overtake": {
        "en": "yükseltme: when you follow suit you must beat the highest card of that suit "
        "on the table if you can",
        "tr": "yükseltme: renge uyarken yerdeki o rengin en büyük kartını geçebiliyorsan "
        "geçmelisin",
    },
    "overtake_after_ruff": {
        "en": "after someone has trumped the suit led, you must still beat its highest card",
        "tr": "açılan renge biri koz çaktıktan sonra da o rengin en büyüğünü geçmek zorunlu",
    },
    "overtrump": {
        "en": "void in the suit led with a koz on the table: play a higher koz if you can",
        "tr": "açılan renk yoksa ve yerde koz varsa: elinde daha büyüğü varsa onu atmalısın",
    },
    "trump_if_cannot_overtrump": {
        "en": "void in the suit led and unable to beat the koz on the table: still play a koz",
        "tr": "açılan renk yok ve yerdeki kozu geçemiyorsan: yine de koz atmalısın",
    },
    "trump_lead": {"en": "when koz may be led", "tr": "koz ne zaman açılabilir"},
    "broken_by": {"en": "what breaks koz", "tr": "kozu ne kırar"},
    "scoring": {"en": "how a deal is scored", "tr": "bir elin puanlanması"},
    "zero_trick_penalty": {
        "en": "batak: a player (or side) outside the contract who takes no trick is penalised",
        "tr": "batak: ihale dışında olup hiç löve almayan oyuncu (ya da taraf) ceza yer",
    },
    "overtricks_count": {
        "en": "the bidder's tricks beyond the bid count in the score",
        "tr": "ihalecinin fazla löveleri puana sayılır",
    },
    "king": {
        "en": "KING: a side that bids 13 and takes all 13 wins the match at once; all 13 "
        "taken without that bid scores +13 and the other side −13",
        "tr": "KING: 13 deyip 13'ünü alan taraf oyunu hemen kazanır; 13 demeden 13 löve alan "
        "taraf +13, diğeri −13 yazar",
    },
    "deals": {"en": "deals in the match", "tr": "oyundaki el sayısı"},
    "target_score": {
        "en": "the match ends when a total reaches this",
        "tr": "bir toplam buna ulaşınca oyun biter",
    },
    "tie": {"en": "a tie at the top", "tr": "birincilikte eşitlik"},
}

#: The meaning of each value of the options that take a word.
VALUE_TEXT: dict[str, dict[str, dict[str, str]]] = {
    "direction": {
        "counterclockwise": {
            "en": "counter-clockwise (to the right, as in Turkey)",
            "tr": "saatin tersine (sağa doğru, Türkiye'deki gibi)",
        },
        "clockwise": {"en": "clockwise", "tr": "saat yönünde"},
    },
    "bidding": {
        "auction": {
            "en": "ihale: each bids higher or says pas; the highest bid takes the contract",
            "tr": "ihale: herkes daha yüksek teklif verir ya da pas der; en yüksek teklif alır",
        },
        "kozmaca": {
            "en": "each player says once how many tricks they will take (no pas)",
            "tr": "herkes kaç löve alacağını bir kez söyler (pas yok)",
        },
        "none": {"en": "no bidding: play starts at once", "tr": "ihale yok: oyun hemen başlar"},
    },
    "all_pass": {
        "dealer_takes_min": {
            "en": "the dealer, who speaks last, holds the contract at the lowest bid",
            "tr": "son konuşan dağıtan, ihaleyi en düşük teklifle alır",
        },
        "redeal": {
            "en": "the cards are thrown in and dealt again, no score",
            "tr": "kartlar toplanıp yeniden dağıtılır, puan yazılmaz",
        },
        "first_speaker_takes_min": {
            "en": "the first to speak holds the contract at the lowest bid",
            "tr": "ilk konuşan ihaleyi en düşük teklifle alır",
        },
    },
    "trump_lead": {
        "after_broken": {
            "en": "only once koz is broken (or when you hold nothing else)",
            "tr": "ancak koz kırıldıktan sonra (ya da elinde başka kart yoksa)",
        },
        "any_time": {"en": "at any time", "tr": "her zaman"},
    },
    "broken_by": {
        "any_trump": {
            "en": "any koz played in the deal, however",
            "tr": "elde nasıl olursa olsun oynanan herhangi bir koz",
        },
        "ruff": {
            "en": "a koz played on another suit (a ruff)",
            "tr": "başka bir renge koz çakılması",
        },
    },
    "scoring": {
        "sultan": {
            "en": "sultan: made 10 × bid + overtricks, down −10 × bid; others 1 a trick; "
            "batak −10 × bid",
            "tr": "sultan: çıkarsa 10 × ihale + fazla löve, batarsa −10 × ihale; diğerleri "
            "löve başına 1; batak −10 × ihale",
        },
        "simple": {
            "en": "simple: 1 point a trick; the bidder down scores −bid",
            "tr": "sade: löve başına 1 puan; batan ihaleci −ihale yazar",
        },
        "tens": {
            "en": "tens: 10 points a trick; the bidder down scores −10 × bid; batak −10 × "
            "lowest bid",
            "tr": "onluk: löve başına 10 puan; batan ihaleci −10 × ihale; batak −10 × en düşük "
            "teklif",
        },
        "primli": {
            "en": "primli: made 15 × bid + 10 an overtrick, down −10 × bid; others 10 a trick; "
            "batak −50",
            "tr": "primli: çıkarsa 15 × ihale + fazla löve başına 10, batarsa −10 × ihale; "
            "diğerleri löve başına 10; batak −50",
        },
        "acik": {
            "en": "açık eşli: 1 point a trick; the bidder down −bid; defenders with fewer "
            "than 2 tricks −bid",
            "tr": "açık eşli: löve başına 1; batan ihaleci −ihale; 2'den az löve alan karşı "
            "taraf −ihale",
        },
    },
    "tie": {
        "shared": {"en": "the leaders share the win", "tr": "öndekiler birinciliği paylaşır"},
        "extra_deal": {"en": "one more deal is played", "tr": "bir el daha oynanır"},
        "last_deal_tricks": {
            "en": "more tricks in the last deal wins",
            "tr": "son elde daha çok löve alan kazanır",
        },
    },
}


def preset_summary(rules: Rules, lang: str) -> str:
    """A one-line description of a table, built from its options."""
    parts: list[str] = []
    if rules.kitty_size:
        parts.append(
            t(
                "sum_kitty",
                lang,
                players=rules.players,
                hand=rules.hand_size,
                kitty=rules.kitty_size,
            )
        )
    elif rules.exposed_partner:
        parts.append(t("sum_acik", lang))
    elif rules.partners:
        parts.append(t("sum_esli", lang))
    elif rules.bidding == "kozmaca":
        parts.append(t("sum_kozmaca_bids", lang))
    elif rules.bidding == "none":
        parts.append(t("sum_kozmaca_none", lang))
    else:
        parts.append(t("sum_ihaleli", lang))
    if rules.bidding == "auction":
        parts.append(t("sum_auction", lang, low=rules.min_bid, high=rules.max_bid))
    elif rules.bidding == "kozmaca":
        parts.append(t("sum_bids", lang, low=rules.min_bid, high=rules.max_bid))
    scoring_code = "sum_acik_scoring" if rules.scoring == "acik" else f"sum_{rules.scoring}"
    parts.append(t(scoring_code, lang))
    if rules.zero_trick_penalty:
        parts.append(t("sum_batak", lang))
    if rules.deals is not None:
        code = "sum_deal" if rules.deals == 1 else "sum_deals"
        parts.append(t(code, lang, n=rules.deals))
    if rules.target_score is not None:
        parts.append(t("sum_target", lang, n=rules.target_score))
    return ", ".join(parts)


# ---------------------------------------------------------------------- for clients


def _kind(tp: Any) -> tuple[str, list[Any], bool]:
    """An option's kind (``bool``, ``int``, ``choice``, ``suit``), its choices, and nullable."""
    nullable = False
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        nullable = len(args) < len(get_args(tp))
        tp = args[0]
        origin = get_origin(tp)
    if tp is bool:
        return "bool", [], nullable
    if tp is int:
        return "int", [], nullable
    if origin is Literal:
        return "choice", list(get_args(tp)), nullable
    return "suit", ["S", "H", "D", "C"], nullable


def _source_texts(name: str) -> dict[str, str]:
    key = name if name in PRESET_SOURCE else name.split("-")[0]
    return PRESET_SOURCE.get(key, {lang: name for lang in LANGS})


def rules_catalog() -> dict[str, Any]:
    """Every preset and option, ready to be sent as JSON (see the module's text)."""
    hints = get_type_hints(Rules)
    options: dict[str, Any] = {}
    for f in dataclasses.fields(Rules):
        if f.name == "name":
            continue
        kind, choices, nullable = _kind(hints[f.name])
        values = VALUE_TEXT.get(f.name, {})
        options[f.name] = {
            "kind": kind,
            "choices": choices,
            "nullable": nullable,
            "help": OPTION_HELP.get(f.name, {lang: f.name for lang in LANGS}),
            "values": {str(k): v for k, v in values.items()},
        }
    presets = [
        {
            "name": name,
            "source": _source_texts(name),
            "summary": {lang: preset_summary(rules, lang) for lang in LANGS},
            "rules": rules.to_dict(),
        }
        for name, rules in PRESETS.items()
    ]
    return {"presets": presets, "options": options}
