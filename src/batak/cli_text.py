"""The texts of the ``batak`` command, in English and Turkish.

They join the engine's catalog (:data:`batak.i18n.MESSAGES`) under codes that start with
``cli.``, so :func:`t` is :func:`batak.i18n.text` with that prefix. Game words stay Turkish in
both languages (koz, ihale, pas, batak, yazboz).

>>> t("you", "tr"), t("computer", "en", n=2)
('Sen', 'Computer 2')
>>> all(set(v) == {"en", "tr"} for k, v in MESSAGES.items() if k.startswith("cli."))
True
"""

from __future__ import annotations

from typing import Any

from .i18n import MESSAGES, text

__all__ = [
    "OPTION_HELP",
    "PRESET_SOURCE",
    "VALUE_TEXT",
    "t",
]

_TEXTS: dict[str, dict[str, str]] = {
    # ------------------------------------------------------------------ command line
    "prog_description": {
        "en": "Batak, Turkey's trick-taking card game, in your terminal.",
        "tr": "Batak, Türkiye'nin löve alma kart oyunu, terminalinizde.",
    },
    "help_play": {
        "en": "play a match against computer players",
        "tr": "bilgisayara karşı bir oyun oyna",
    },
    "help_replay": {
        "en": "show a saved match move by move",
        "tr": "kayıtlı bir oyunu hamle hamle göster",
    },
    "help_rules": {
        "en": "list the tables (presets) or explain one",
        "tr": "masaları (hazır kuralları) listele ya da birini açıkla",
    },
    "help_preset": {
        "en": "the table's rules (default: standard; see 'batak rules')",
        "tr": "masanın kuralları (varsayılan: standard; bkz. 'batak rules')",
    },
    "help_seat": {
        "en": "your seat, 0..3 (0..2 in kitty batak) in order of play; seat 0 deals first",
        "tr": "oturduğun yer, oyun sırasıyla 0..3 (yer kartlı batakta 0..2); ilk eli 0 dağıtır",
    },
    "help_seed": {
        "en": "a seed that makes the deals and the computer players repeatable",
        "tr": "dağıtımları ve bilgisayarın oyununu tekrarlanabilir yapan tohum",
    },
    "help_lang": {
        "en": "language: tr or en (default: from the locale)",
        "tr": "dil: tr ya da en (varsayılan: sistem dili)",
    },
    "help_deals": {
        "en": "number of deals in the match (default: the table's)",
        "tr": "oyundaki el sayısı (varsayılan: masanınki)",
    },
    "help_load": {
        "en": "continue a match saved with 'save FILE' (its own table and length are used)",
        "tr": "'kaydet DOSYA' ile kaydedilmiş bir oyuna devam et (kaydın masası ve uzunluğu "
        "geçerlidir)",
    },
    "help_save": {
        "en": "also save the match to this file after every deal and when you leave",
        "tr": "oyunu her elden sonra ve çıkarken bu dosyaya da kaydet",
    },
    "help_file": {"en": "a match record (JSON)", "tr": "bir oyun kaydı (JSON)"},
    "help_deal": {
        "en": "show only deal number N (1 = the first)",
        "tr": "yalnızca N numaralı eli göster (1 = ilk el)",
    },
    "help_step": {
        "en": "wait for Enter between moves",
        "tr": "hamleler arasında Enter'ı bekle",
    },
    "help_name": {
        "en": "a table to explain (leave out to list them all)",
        "tr": "açıklanacak masa (boş bırakılırsa hepsi listelenir)",
    },
    "error": {"en": "batak: error: {message}", "tr": "batak: hata: {message}"},
    "unknown_preset": {
        "en": "unknown table {name!r}; choose one of: {names}",
        "tr": "bilinmeyen masa {name!r}; şunlardan birini seçin: {names}",
    },
    "bad_seat": {
        "en": "--seat must be 0..{high} at this table, got {seat}",
        "tr": "--seat bu masada 0..{high} olmalı, verilen: {seat}",
    },
    "bad_deals": {
        "en": "--deals must be 1 or more, got {deals}",
        "tr": "--deals en az 1 olmalı, verilen: {deals}",
    },
    "bad_rules": {"en": "these rules do not work: {message}", "tr": "bu kurallar olmaz: {message}"},
    "cannot_read": {
        "en": "cannot read {path}: {message}",
        "tr": "{path} okunamadı: {message}",
    },
    "broken_record": {
        "en": "the record {path} is broken: {message}",
        "tr": "{path} kaydı bozuk: {message}",
    },
    "no_such_deal": {
        "en": "the record has deals 1..{high}; there is no deal {deal}",
        "tr": "kayıtta 1..{high} arası eller var; {deal}. el yok",
    },
    # ------------------------------------------------------------------ seats
    "you": {"en": "You", "tr": "Sen"},
    "computer": {"en": "Computer {n}", "tr": "Bilgisayar {n}"},
    "player": {"en": "Player {n}", "tr": "Oyuncu {n}"},
    "team": {"en": "{a} & {b}", "tr": "{a} & {b}"},
    # ------------------------------------------------------------------ match and deal
    "match_title": {"en": "Batak — table {name}", "tr": "Batak — {name} masası"},
    "order": {
        "en": "Order of play: {seats}",
        "tr": "Oyun sırası: {seats}",
    },
    "partner_is": {
        "en": "Your partner sits opposite you: {name}",
        "tr": "Eşin karşında oturuyor: {name}",
    },
    "help_hint": {
        "en": "Type the number of a move, or the move itself; '?' for help.",
        "tr": "Bir hamlenin numarasını ya da hamlenin kendisini yazın; yardım için '?'.",
    },
    "continuing": {
        "en": "Continuing the saved match from {path}.",
        "tr": "{path} dosyasındaki oyuna devam ediliyor.",
    },
    "deal_header": {
        "en": "── Deal {n}{of} ── dealer: {dealer}",
        "tr": "── {n}. el{of} ── dağıtan: {dealer}",
    },
    "deal_of": {"en": " of {total}", "tr": " / {total}"},
    "deal_extra": {
        "en": " (extra deal to break a tie)",
        "tr": " (eşitliği bozmak için ek el)",
    },
    "to_target": {
        "en": "The match ends when a total reaches {target}.",
        "tr": "Bir toplam {target} puana ulaşınca oyun biter.",
    },
    "said_pass": {"en": "{who}: pas", "tr": "{who}: pas"},
    "said_bid": {"en": "{who}: bid {n}", "tr": "{who}: ihale {n}"},
    "said_kozmaca": {"en": "{who} will take {n}", "tr": "{who}: {n} löve alacağım"},
    "won_auction": {
        "en": "The ihale goes to {who} at {bid}.",
        "tr": "İhaleci: {who} ({bid}).",
    },
    "forced_contract": {
        "en": "Everyone said pas: the contract goes to {who} at {bid}.",
        "tr": "Herkes pas dedi: ihaleci {who}, en düşük teklifle ({bid}).",
    },
    "takes_kitty": {
        "en": "The bidder takes the {n} kitty cards and buries {n}.",
        "tr": "İhaleci yerdeki {n} kartı alır ve {n} kart gömer.",
    },
    "kitty_was": {"en": "The kitty: {cards}", "tr": "Yerdeki kartlar: {cards}"},
    "buried_card": {"en": "{who}: bury {card}", "tr": "{who}: göm {card}"},
    "buried_hidden": {
        "en": "{who}: buries a card face down",
        "tr": "{who}: kapalı bir kart gömüldü",
    },
    "named_koz": {"en": "{who}: koz {koz}", "tr": "{who}: koz {koz}"},
    "lays_down": {
        "en": "Açık eşli: {who} now plays face up.",
        "tr": "Açık eşli — masaya açılan el: {who}.",
    },
    "koz_fixed": {"en": "Koz is always {koz}.", "tr": "Koz her zaman {koz}."},
    "leads_first": {"en": "First to lead: {who}.", "tr": "İlk kart: {who}."},
    "first_speaker": {"en": "First to speak: {who}.", "tr": "İlk söz: {who}."},
    "played": {"en": "{who}: {card}", "tr": "{who}: {card}"},
    "trick_line": {
        "en": "Trick {n}: {cards}  → {who}",
        "tr": "{n}. löve: {cards}  → alan: {who}",
    },
    "redeal_note": {
        "en": "Everyone said pas: the cards are thrown in and dealt again, no score.",
        "tr": "Herkes pas dedi: kartlar toplanıp yeniden dağıtılıyor, puan yazılmıyor.",
    },
    "deal_over": {"en": "Deal {n} is over.", "tr": "{n}. el bitti."},
    "made": {
        "en": "{who} bid {bid} and took {tricks}: made.",
        "tr": "{who}: ihale {bid}, alınan {tricks} — çıktı.",
    },
    "down": {
        "en": "{who} bid {bid} and took {tricks}: down (batar).",
        "tr": "{who}: ihale {bid}, alınan {tricks} — battı.",
    },
    "batak_note": {
        "en": "{who} took no trick: batak!",
        "tr": "{who}: hiç löve yok — batak!",
    },
    "king_note": {
        "en": "KING: {who} bid 13 and took all 13 — the match is won.",
        "tr": "KING: {who} — ihale 13, alınan 13; oyun kazanıldı.",
    },
    "match_over": {"en": "The match is over.", "tr": "Oyun bitti."},
    "winner": {"en": "Winner: {names}", "tr": "Kazanan: {names}"},
    "winners": {"en": "Winners: {names}", "tr": "Kazananlar: {names}"},
    "you_won": {"en": "You won!", "tr": "Kazandın!"},
    "you_shared": {"en": "You share the win.", "tr": "Birinciliği paylaştın."},
    "you_lost": {"en": "You lost this time.", "tr": "Bu sefer kaybettin."},
    # ------------------------------------------------------------------ the table
    "status_title": {
        "en": "── Your turn ({phase}) ──",
        "tr": "── Sıra sende ({phase}) ──",
    },
    "auction_line": {"en": "İhale (auction): {items}", "tr": "İhale: {items}"},
    "auction_none": {"en": "nobody has spoken yet", "tr": "henüz kimse konuşmadı"},
    "kozmaca_line": {"en": "Bids: {items}", "tr": "Sözler: {items}"},
    "contract_line": {
        "en": "Contract: {who} bid {bid}, koz {koz}",
        "tr": "İhaleci: {who}, ihale {bid}, koz {koz}",
    },
    "koz_unnamed": {"en": "not named yet", "tr": "henüz söylenmedi"},
    "koz_line": {"en": "Koz: {koz}", "tr": "Koz: {koz}"},
    "koz_broken": {"en": "(broken)", "tr": "(kırıldı)"},
    "koz_unbroken": {"en": "(not broken yet)", "tr": "(henüz kırılmadı)"},
    "tricks_line": {"en": "Tricks taken: {items}", "tr": "Alınan löveler: {items}"},
    "side_line": {
        "en": "{who}: {tricks} taken of the {bid} bid",
        "tr": "{who}: {tricks} löve alındı, ihale {bid}",
    },
    "table_line": {"en": "On the table: {items}", "tr": "Yerde: {items}"},
    "table_empty": {
        "en": "nothing yet — you lead",
        "tr": "henüz bir şey yok — ilk kartı sen atarsın",
    },
    "last_line": {
        "en": "Last trick: {cards}  → {who}",
        "tr": "Son löve: {cards}  → {who}",
    },
    "no_last": {"en": "No trick has been played yet.", "tr": "Henüz löve oynanmadı."},
    "exposed_line": {"en": "Face up, {who}: {cards}", "tr": "Açık el, {who}: {cards}"},
    "you_exposed": {
        "en": "Your hand is face up for the table (açık eşli).",
        "tr": "Elin masaya açık (açık eşli).",
    },
    "hand_line": {"en": "Your hand: {cards}", "tr": "Elin: {cards}"},
    "buried_line": {"en": "You buried: {cards}", "tr": "Gömdüklerin: {cards}"},
    "moves_line": {"en": "Your moves:", "tr": "Hamlelerin:"},
    "prompt": {"en": "Your move> ", "tr": "Hamlen> "},
    "no_number": {
        "en": "there is no move {n}; choose 1..{high}",
        "tr": "{n} numaralı hamle yok; 1..{high} arası seçin",
    },
    "you_play": {"en": "You: {move}", "tr": "Sen: {move}"},
    "help_text": {
        "en": (
            "Type a move's number from the list, or the move: a card ('AS', '10h', 'Q♥'),\n"
            "'pass' or 'pas', 'bid 7' or 'ihale 7', 'trump H' or 'koz kupa',\n"
            "'bury 2C' or 'göm 2C'.\n"
            "Commands: ?/help  this text;  last  the last trick;  sheet  the score sheet;\n"
            "save FILE  save the match;  quit  leave (you may save first).\n"
            "An empty line shows the table again."
        ),
        "tr": (
            "Listedeki bir hamlenin numarasını ya da hamleyi yazın: bir kart ('AS', '10h',\n"
            "'Q♥'), 'pas', 'ihale 7', 'koz kupa', 'göm 2C' (İngilizcesi de olur: 'pass',\n"
            "'bid 7', 'trump H', 'bury 2C').\n"
            "Komutlar: ?/yardım  bu metin;  son  son löve;  yazboz  puan tablosu;\n"
            "kaydet DOSYA  oyunu kaydet;  çık  oyundan çık (önce kaydedebilirsiniz).\n"
            "Boş satır masayı yeniden gösterir."
        ),
    },
    "save_usage": {"en": "usage: save FILE", "tr": "kullanım: kaydet DOSYA"},
    "saved": {"en": "Match saved to {path}.", "tr": "Oyun {path} dosyasına kaydedildi."},
    "save_failed": {
        "en": "could not save to {path}: {message}",
        "tr": "{path} dosyasına kaydedilemedi: {message}",
    },
    "quit_offer": {
        "en": "Save the match first? Type a file name, or just Enter to leave without saving: ",
        "tr": "Çıkmadan önce kaydedilsin mi? Bir dosya adı yazın ya da kaydetmeden çıkmak için "
        "Enter: ",
    },
    "bye": {"en": "Bye. Güle güle!", "tr": "Güle güle!"},
    "eof": {
        "en": "Input ended; leaving the match unfinished.",
        "tr": "Girdi bitti; oyun yarıda bırakılıyor.",
    },
    "phase_bidding": {"en": "ihale", "tr": "ihale"},
    "phase_kozmaca": {"en": "say your tricks", "tr": "löve sayını söyle"},
    "phase_bury": {"en": "bury a card", "tr": "kart göm"},
    "phase_trump": {"en": "name koz", "tr": "kozu söyle"},
    "phase_play": {"en": "play a card", "tr": "kart at"},
    "move_pass": {"en": "pas", "tr": "pas"},
    "move_bid": {"en": "bid {n}", "tr": "ihale {n}"},
    "move_kozmaca": {"en": "{n}", "tr": "{n}"},
    "move_trump": {"en": "koz {koz}", "tr": "koz {koz}"},
    "move_bury": {"en": "bury {card}", "tr": "göm {card}"},
    # ------------------------------------------------------------------ score sheet
    "sheet_title": {"en": "Yazboz (score sheet)", "tr": "Yazboz"},
    "sheet_empty": {"en": "No deal has been scored yet.", "tr": "Henüz puan yazılmadı."},
    "col_deal": {"en": "#", "tr": "#"},
    "col_dealer": {"en": "dealer", "tr": "dağıtan"},
    "col_bidder": {"en": "bidder", "tr": "ihaleci"},
    "col_bid": {"en": "bid", "tr": "ihale"},
    "col_koz": {"en": "koz", "tr": "koz"},
    "sheet_legend": {
        "en": "(under each name: tricks, the deal's score, the running total)",
        "tr": "(her ismin altında: löve, elin puanı, toplam)",
    },
    "short_you": {"en": "You", "tr": "Sen"},
    "short_computer": {"en": "C{n}", "tr": "B{n}"},
    "short_player": {"en": "P{n}", "tr": "O{n}"},
    "row_redeal": {"en": "thrown in, dealt again", "tr": "yeniden dağıtıldı"},
    "row_extra": {"en": "extra deal", "tr": "ek el"},
    "row_king": {"en": "KING", "tr": "KING"},
    "totals_line": {"en": "Totals: {items}", "tr": "Toplam: {items}"},
    # ------------------------------------------------------------------ replay
    "replay_title": {
        "en": "Replay of {path} — table {name}",
        "tr": "{path} kaydının tekrarı — {name} masası",
    },
    "hands_dealt": {"en": "Hands as dealt:", "tr": "Dağıtılan eller:"},
    "unfinished": {
        "en": "(the record stops here, in the middle of the deal)",
        "tr": "(kayıt burada, elin ortasında bitiyor)",
    },
    "step_prompt": {
        "en": "[Enter: next move, q: stop] ",
        "tr": "[Enter: sonraki hamle, q: dur] ",
    },
    "stopped": {"en": "Replay stopped.", "tr": "Tekrar durduruldu."},
    "match_not_over": {
        "en": "The match was not finished.",
        "tr": "Oyun bitmemişti.",
    },
    # ------------------------------------------------------------------ rules
    "rules_title": {
        "en": "Tables (presets). 'batak rules NAME' explains one; 'batak play --preset NAME'.",
        "tr": "Masalar (hazır kurallar). 'batak rules AD' birini açıklar; "
        "'batak play --preset AD'.",
    },
    "rules_header": {"en": "Table {name}: {summary}", "tr": "{name} masası: {summary}"},
    "rules_source": {"en": "From: {source}", "tr": "Kaynak: {source}"},
    "yes": {"en": "yes", "tr": "evet"},
    "no": {"en": "no", "tr": "hayır"},
    "none": {"en": "none", "tr": "yok"},
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

MESSAGES.update({f"cli.{code}": texts for code, texts in _TEXTS.items()})


def t(code: str, lang: str, /, **params: Any) -> str:
    """The command's text ``code`` in ``lang`` (``en`` or ``tr``)."""
    return text(f"cli.{code}", lang, **params)


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
        "en": "void in the suit led with a koz on the table: play a higher koz if you can "
        "(a setting apart from yükseltme)",
        "tr": "açılan renk yoksa ve yerde koz varsa: elinde daha büyüğü varsa onu atmalısın "
        "(yükseltmeden ayrı bir ayar)",
    },
    "trump_if_cannot_overtrump": {
        "en": "void in the suit led and unable to beat the koz on the table: still play a koz",
        "tr": "açılan renk yok ve yerdeki kozu geçemiyorsan: yine de koz atmalısın",
    },
    "trump_lead": {"en": "when koz may be led", "tr": "koz ne zaman açılabilir"},
    "broken_by": {"en": "what breaks koz", "tr": "kozu ne kırar"},
    "scoring": {"en": "how a deal is scored", "tr": "bir elin puanlanması"},
    "zero_trick_penalty": {
        "en": "batak: what a player (or side) outside the contract who takes no trick loses",
        "tr": "batak: ihale dışında olup hiç löve almayan oyuncunun (ya da tarafın) cezası",
    },
    "first_dealer": {"en": "who deals the first deal", "tr": "ilk eli kim dağıtır"},
    "last_trick": {
        "en": "how long the last trick can be looked at",
        "tr": "son löveye ne zamana kadar bakılabilir",
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
            "en": "sultan: made 10 × bid + overtricks, down −10 × bid; others 1 a trick",
            "tr": "sultan: çıkarsa 10 × ihale + fazla löve, batarsa −10 × ihale; diğerleri "
            "löve başına 1",
        },
        "simple": {
            "en": "simple: 1 point a trick; the bidder down scores −bid",
            "tr": "sade: löve başına 1 puan; batan ihaleci −ihale yazar",
        },
        "tens": {
            "en": "tens: 10 points a trick; the bidder down scores −10 × bid",
            "tr": "onluk: löve başına 10 puan; batan ihaleci −10 × ihale",
        },
        "primli": {
            "en": "primli: made 15 × bid + 10 an overtrick, down −10 × bid; others 10 a trick",
            "tr": "primli: çıkarsa 15 × ihale + fazla löve başına 10, batarsa −10 × ihale; "
            "diğerleri löve başına 10",
        },
        "acik": {
            "en": "açık eşli: 1 point a trick; the bidder down −bid; defenders with fewer "
            "than 2 tricks −bid",
            "tr": "açık eşli: löve başına 1; batan ihaleci −ihale; 2'den az löve alan karşı "
            "taraf −ihale",
        },
    },
    "zero_trick_penalty": {
        "none": {"en": "no penalty: the tricks taken count", "tr": "ceza yok: alınan löve sayılır"},
        "scheme": {
            "en": "the scoring scheme's own figure (sultan −10 × bid, simple −bid, tens −10 × "
            "lowest bid, primli −50)",
            "tr": "puanlama biçiminin kendi cezası (sultan −10 × ihale, sade −ihale, onluk −10 × "
            "taban ihale, primli −50)",
        },
        "min_bid": {
            "en": "as much as a bidder down at the lowest bid loses (−40 at 10 a trick, −4 at "
            "1 a trick)",
            "tr": "taban ihale kadar eksi: taban ihaleyle batan ihaleci kadar (löve başına 10 "
            "puanda −40, 1 puanda −4)",
        },
        "bid": {
            "en": "as much as this deal's bidder loses when down",
            "tr": "bu elin ihalecisi batınca ne kadar yazarsa o kadar eksi",
        },
    },
    "first_dealer": {
        "random": {"en": "drawn by lot", "tr": "kurayla belirlenir"},
        "first_seated": {
            "en": "the first to sit at the table deals",
            "tr": "masaya ilk oturan dağıtır",
        },
    },
    "last_trick": {
        "deal": {
            "en": "during its own deal only",
            "tr": "yalnızca oynandığı el boyunca",
        },
        "any_time": {
            "en": "at any time: the previous deal's last trick stays until a new trick is taken",
            "tr": "her an: önceki elin son lövesi, yeni elde ilk löve alınana kadar görülür",
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
