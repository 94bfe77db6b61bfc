// Every text the web client shows, in English and Turkish. Turkish game words (koz, ihale, pas,
// löve, batak, eşli) are used in both languages, as players say them.

export const TEXT = {
  title: { en: "Batak", tr: "Batak" },
  tagline: { en: "Turkey's trick-taking card game", tr: "Türkiye'nin löve alma kart oyunu" },
  language: { en: "Türkçe", tr: "English" },
  language_label: { en: "Switch to Turkish", tr: "İngilizceye geç" },
  online: { en: "Online", tr: "Bağlı" },
  offline: { en: "Offline: reconnecting…", tr: "Bağlantı yok: yeniden bağlanılıyor…" },
  connecting: { en: "Connecting…", tr: "Bağlanılıyor…" },
  // lobby
  your_name: { en: "Your name", tr: "Adınız" },
  save_name: { en: "Save", tr: "Kaydet" },
  name_saved: { en: "Name saved.", tr: "Ad kaydedildi." },
  quick_play: { en: "Quick play", tr: "Hızlı oyun" },
  quick_help: {
    en: "Sit at a public table; computer players fill the empty seats after a short wait.",
    tr: "Açık bir masaya otur; boş koltuklara kısa bir beklemeden sonra bilgisayar oturur.",
  },
  mode_ihaleli: { en: "İhaleli", tr: "İhaleli" },
  mode_ihaleli_help: { en: "Bid for the contract, name koz.", tr: "İhaleye gir, kozu sen seç." },
  mode_kozmaca: { en: "Koz Maça", tr: "Koz Maça" },
  mode_kozmaca_help: { en: "Spades are always koz.", tr: "Koz hep maça." },
  mode_esli: { en: "Eşli", tr: "Eşli" },
  mode_esli_help: { en: "Two against two, partners opposite.", tr: "İkiye iki, eşin karşında." },
  mode_kitty: { en: "Three-player (kitty)", tr: "Üç kişilik (yerden kart)" },
  mode_kitty_help: {
    en: "Three players, 16 cards each; the bidder takes the 4-card kitty.",
    tr: "Üç oyuncu, 16'şar kart; ihaleci yerdeki 4 kartı alır.",
  },
  private_room: { en: "Private room", tr: "Özel oda" },
  private_help: {
    en: "Choose the table and its rules, then share the code or the invite link with friends.",
    tr: "Masayı ve kurallarını seç, sonra kodu ya da davet bağlantısını arkadaşlarınla paylaş.",
  },
  preset: { en: "Table", tr: "Masa" },
  rules_link: { en: "Rules of this table", tr: "Bu masanın kuralları" },
  deals: { en: "Deals in the match", tr: "El sayısı" },
  target_score: { en: "Or play to a score", tr: "Ya da şu puana kadar" },
  decision_seconds: { en: "Seconds per decision", tr: "Hamle başına saniye" },
  bots_allowed: { en: "Computer players may sit", tr: "Bilgisayar oyuncu oturabilir" },
  bot_level: { en: "Computer level", tr: "Bilgisayar seviyesi" },
  show_bots: {
    en: "Show who is a computer player (off: they get people's names, as at Batak Sultan's tables)",
    tr: "Bilgisayar oyuncular belli olsun (kapalıysa insan adı alırlar, Batak Sultan masalarındaki gibi)",
  },
  level_easy: { en: "easy", tr: "kolay" },
  level_medium: { en: "medium", tr: "orta" },
  level_hard: { en: "hard", tr: "zor" },
  more_options: { en: "All table options", tr: "Bütün masa seçenekleri" },
  create_room: { en: "Create the room", tr: "Odayı kur" },
  join_code: { en: "Join with a code", tr: "Kodla katıl" },
  code: { en: "Room code", tr: "Oda kodu" },
  join: { en: "Join", tr: "Katıl" },
  watch: { en: "Watch", tr: "İzle" },
  watch_only: { en: "Only watch (no seat)", tr: "Sadece izle (oturmadan)" },
  public_tables: { en: "Public tables", tr: "Açık masalar" },
  no_public: { en: "No public table yet: start one with quick play.", tr: "Henüz açık masa yok: hızlı oyunla bir tane başlat." },
  refresh: { en: "Refresh", tr: "Yenile" },
  your_tables: { en: "Your unfinished tables", tr: "Bitmemiş masaların" },
  rejoin: { en: "Go back", tr: "Dön" },
  free_seats: { en: "{n} free", tr: "{n} boş" },
  status_waiting: { en: "waiting", tr: "bekliyor" },
  status_playing: { en: "playing", tr: "oynanıyor" },
  status_adjourned: { en: "adjourned", tr: "ertelendi" },
  status_over: { en: "over", tr: "bitti" },
  yes: { en: "yes", tr: "evet" },
  no: { en: "no", tr: "hayır" },
  none: { en: "none", tr: "yok" },
  // accounts and statistics
  account: { en: "Account and statistics", tr: "Hesap ve istatistikler" },
  account_help: {
    en: "Playing as a guest works at once. An account keeps your statistics and puts you on the leaderboard.",
    tr: "Misafir olarak hemen oynayabilirsin. Hesap açarsan istatistiklerin saklanır ve sıralamaya girersin.",
  },
  username: { en: "User name", tr: "Kullanıcı adı" },
  password: { en: "Password (at least 8 characters)", tr: "Parola (en az 8 karakter)" },
  register: { en: "Create an account", tr: "Hesap aç" },
  login: { en: "Log in", tr: "Giriş yap" },
  signed_in: { en: "Signed in as {name}.", tr: "{name} olarak giriş yapıldı." },
  registered: { en: "Account created: {name}.", tr: "Hesap açıldı: {name}." },
  your_stats: { en: "Your statistics", tr: "İstatistiklerin" },
  stat_matches: { en: "Matches", tr: "Oyun" },
  stat_wins: { en: "Wins", tr: "Galibiyet" },
  stat_contracts: { en: "Contracts bid", tr: "Alınan ihale" },
  stat_made: { en: "Contracts made", tr: "Çıkarılan ihale" },
  stat_deals: { en: "Deals", tr: "El" },
  stat_average: { en: "Average per deal", tr: "El başına ortalama" },
  leaderboard: { en: "Leaderboard", tr: "Sıralama" },
  leaderboard_empty: { en: "Nobody with an account has finished a match yet.", tr: "Hesabı olan kimse henüz bir oyun bitirmedi." },
  player: { en: "Player", tr: "Oyuncu" },
  // table
  back_to_lobby: { en: "Lobby", tr: "Lobi" },
  room: { en: "Room {code}", tr: "Oda {code}" },
  invite: { en: "Invite link", tr: "Davet bağlantısı" },
  copy: { en: "Copy", tr: "Kopyala" },
  copied: { en: "Copied.", tr: "Kopyalandı." },
  waiting_for_players: {
    en: "Waiting for players. Share the code or the link.",
    tr: "Oyuncular bekleniyor. Kodu ya da bağlantıyı paylaş.",
  },
  waiting_quick: {
    en: "Waiting for players; computer players will fill the empty seats soon.",
    tr: "Oyuncular bekleniyor; boş koltuklara birazdan bilgisayar oturacak.",
  },
  start: { en: "Start (computer players in empty seats)", tr: "Başlat (boş koltuklara bilgisayar)" },
  start_resume: { en: "Resume the match", tr: "Oyuna devam et" },
  adjourn: { en: "Continue later", tr: "Sonra devam et" },
  adjourned: { en: "The host adjourned this match; it can be resumed later.", tr: "Ev sahibi oyunu erteledi; sonra devam edilebilir." },
  leave: { en: "Leave the table", tr: "Masadan kalk" },
  leave_confirm: {
    en: "Leave the table? A computer player takes your seat; you can come back from the lobby.",
    tr: "Masadan kalkılsın mı? Yerine bilgisayar oynar; lobiden geri dönebilirsin.",
  },
  empty_seat: { en: "empty", tr: "boş" },
  you: { en: "you", tr: "sen" },
  bot: { en: "computer", tr: "bilgisayar" },
  away: { en: "away: a computer plays", tr: "yok: bilgisayar oynuyor" },
  disconnected: { en: "disconnected", tr: "bağlantısı koptu" },
  dealer: { en: "dealer", tr: "dağıtan" },
  first_dealer_lots: { en: "{name} deals first (drawn by lot)", tr: "İlk eli {name} dağıtıyor (kurayla)" },
  first_dealer_seated: { en: "{name} deals first (first to sit)", tr: "İlk eli {name} dağıtıyor (masaya ilk oturan)" },
  deal_n: { en: "Deal {n} of {total}", tr: "{n}. el / {total}" },
  deal_n_target: { en: "Deal {n} (to {target})", tr: "{n}. el ({target} puana)" },
  contract: { en: "İhale: {name} {bid}", tr: "İhale: {name} {bid}" },
  koz: { en: "Koz", tr: "Koz" },
  no_koz_yet: { en: "koz not named yet", tr: "koz henüz söylenmedi" },
  tricks: { en: "Löve", tr: "Löve" },
  tricks_of: { en: "{won} of {bid}", tr: "{won} / {bid}" },
  team_tricks: { en: "Team {won} of {bid}", tr: "Takım {won} / {bid}" },
  bid_said: { en: "said {bid}", tr: "{bid} dedi" },
  your_turn: { en: "Your turn", tr: "Sıra sende" },
  waiting_for: { en: "Waiting for {name}…", tr: "{name} bekleniyor…" },
  phase_bidding: { en: "İhale: bid or say pas", tr: "İhale: teklif ver ya da pas de" },
  phase_bidding_kozmaca: { en: "How many tricks will you take?", tr: "Kaç löve alacaksın?" },
  phase_trump: { en: "Name koz", tr: "Kozu söyle" },
  phase_bury: { en: "Bury {n} cards from your hand (click them)", tr: "Elinden {n} kart göm (tıkla)" },
  phase_play: { en: "Play a card", tr: "Bir kart oyna" },
  pass: { en: "Pas", tr: "Pas" },
  bid: { en: "Bid {n}", tr: "{n} de" },
  estimate: { en: "Hand strength (expected tricks by koz)", tr: "El gücü (koza göre beklenen löve)" },
  estimate_loading: { en: "estimating…", tr: "hesaplanıyor…" },
  teach_me: { en: "Teach me", tr: "Bana öğret" },
  hint: { en: "Suggestion: {move}. {reason}", tr: "Öneri: {move}. {reason}" },
  refused: { en: "Not allowed: {reason}", tr: "Olmaz: {reason}" },
  last_trick: { en: "Last trick", tr: "Son löve" },
  last_trick_of_deal: { en: "Last trick of deal {n}", tr: "{n}. elin son lövesi" },
  no_last_trick: { en: "No trick has been taken yet in this deal.", tr: "Bu elde henüz löve alınmadı." },
  won_by: { en: "won by {name}", tr: "alan: {name}" },
  close: { en: "Close", tr: "Kapat" },
  auction: { en: "Auction", tr: "İhale" },
  said_pass: { en: "pas", tr: "pas" },
  said_bid: { en: "{n}", tr: "{n}" },
  exposed_hand: { en: "Open hand of {name}", tr: "{name} açık eli" },
  buried: { en: "Buried: {cards}", tr: "Gömülen: {cards}" },
  redeal: { en: "Everyone passed: the cards are dealt again.", tr: "Herkes pas dedi: kartlar yeniden dağıtılıyor." },
  clock: { en: "{s} s", tr: "{s} sn" },
  bank: { en: "bank {s} s", tr: "ek süre {s} sn" },
  // score sheet
  score_sheet: { en: "Score sheet (yazboz)", tr: "Yazboz" },
  sheet_deal: { en: "Deal", tr: "El" },
  sheet_contract: { en: "İhale", tr: "İhale" },
  sheet_total: { en: "Total", tr: "Toplam" },
  sheet_empty: { en: "No deal finished yet.", tr: "Henüz biten el yok." },
  sheet_redeal: { en: "redeal", tr: "yeniden dağıtıldı" },
  deal_over: { en: "Deal {n} is over", tr: "{n}. el bitti" },
  made: { en: "{name} made {bid} (took {won})", tr: "{name} {bid} ihaleyi çıkardı ({won} löve)" },
  down: { en: "{name} went down: {won} of {bid}", tr: "{name} battı: {won} / {bid}" },
  match_over: { en: "The match is over", tr: "Oyun bitti" },
  winner: { en: "Winner: {names}", tr: "Kazanan: {names}" },
  winners: { en: "Winners: {names}", tr: "Kazananlar: {names}" },
  you_won: { en: "You won!", tr: "Kazandın!" },
  you_lost: { en: "Better luck next time.", tr: "Bir dahaki sefere." },
  download_record: { en: "Download the game record", tr: "Oyun kaydını indir" },
  new_game: { en: "Back to the lobby", tr: "Lobiye dön" },
  // chat
  chat: { en: "Chat", tr: "Sohbet" },
  chat_placeholder: { en: "Say something…", tr: "Bir şey yaz…" },
  send: { en: "Send", tr: "Gönder" },
  reactions: { en: "Quick reactions", tr: "Hızlı tepkiler" },
  // rules pages
  rules_title: { en: "Rules", tr: "Kurallar" },
  rules_of: { en: "Rules: {name}", tr: "Kurallar: {name}" },
  rules_source: { en: "From: {source}", tr: "Kaynak: {source}" },
  rules_intro: {
    en: "Every table plays Batak: follow suit if you can, beat the highest card of the suit when the table says so, trump when you cannot follow. The options below are this table's.",
    tr: "Her masada Batak oynanır: renge uyabiliyorsan uy, masa öyle diyorsa yerdeki en büyük kartı geç, renk yoksa koz çak. Aşağıdaki seçenekler bu masanınkilerdir.",
  },
  option: { en: "Option", tr: "Seçenek" },
  value: { en: "This table", tr: "Bu masada" },
  all_tables: { en: "All tables", tr: "Bütün masalar" },
  // errors
  error: { en: "Error: {message}", tr: "Hata: {message}" },
  no_such_page: { en: "There is no such page.", tr: "Böyle bir sayfa yok." },
  // card names for screen readers
  suit_S: { en: "spades", tr: "maça" },
  suit_H: { en: "hearts", tr: "kupa" },
  suit_D: { en: "diamonds", tr: "karo" },
  suit_C: { en: "clubs", tr: "sinek" },
  rank_A: { en: "ace", tr: "as" },
  rank_K: { en: "king", tr: "papaz" },
  rank_Q: { en: "queen", tr: "kız" },
  rank_J: { en: "jack", tr: "vale" },
  card_name: { en: "{rank} of {suit}", tr: "{suit} {rank}" },
  seat_n: { en: "Seat {n}", tr: "{n}. koltuk" },
  sit_here: { en: "Sit here", tr: "Buraya otur" },
  host: { en: "host", tr: "ev sahibi" },
  yes_short: { en: "✓", tr: "✓" },
};

export const LANGS = ["en", "tr"];

export function initialLang() {
  const saved = localStorage.getItem("batak.lang");
  if (saved && LANGS.includes(saved)) return saved;
  const nav = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return nav.toLowerCase().startsWith("tr") ? "tr" : "en";
}

let current = "en";

export function setLang(lang) {
  current = LANGS.includes(lang) ? lang : "en";
  localStorage.setItem("batak.lang", current);
  document.documentElement.lang = current;
}

export function lang() {
  return current;
}

// t("bid", {n: 7}) → "Bid 7"; unknown keys show themselves (a test checks there are none).
export function t(key, params = {}) {
  const entry = TEXT[key];
  if (!entry) return key;
  let s = entry[current] ?? entry.en;
  for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

// A text given by the server in both languages ({en, tr}).
export function pick(both) {
  if (both == null) return "";
  if (typeof both === "string") return both;
  return both[current] ?? both.en ?? "";
}
