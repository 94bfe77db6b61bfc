// Chips (issue 12): the wallet, the stake salons of quick play, the kasa, a staked table's pot and
// payout, the chip leaderboard. Chips are virtual: nothing is bought, nothing can be given to
// another player. Every number comes from the server (docs/protocol.md, "Chips").
import { lang, t } from "./i18n.js";
import { nameCell } from "./progress.js";

export const CHIPS = {
  wallet: null, // the last "wallet" reply
  board: null, // the last "chip_leaderboard" players
  stake: Number(localStorage.getItem("batak.stake") || 0), // the salon chosen for quick play
};

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// 1,500 in English, 1.500 in Turkish
export function chipsNumber(n) {
  return new Intl.NumberFormat(lang() === "tr" ? "tr-TR" : "en-US").format(Number(n) || 0);
}

// The requests the lobby makes for chips.
export function chipsRequests(send) {
  send({ type: "wallet", ref: "wallet" });
  send({ type: "chip_leaderboard", ref: "chip_leaderboard" });
}

// A chips message from the server: true if it was one (the caller renders).
export function onChipsMessage(m, table) {
  if (m.type === "wallet") {
    CHIPS.wallet = m;
    return true;
  }
  if (m.type === "chip_leaderboard") {
    CHIPS.board = m.players;
    return true;
  }
  if (m.type === "payout") {
    if (table && table.id === m.table && table.info) {
      table.info.chips = { ...(table.info.chips || {}), payout: m.payout };
    }
    return true;
  }
  return false;
}

// The player's chips, if known (an account's wallet), else null.
function have() {
  const w = CHIPS.wallet;
  return w && w.account ? Number(w.balance) || 0 : null;
}

// The player's chips are known to be fewer than `stake` (an account's wallet as last told).
export function walletShort(stake) {
  const n = have();
  return n != null && n < stake;
}

// The chosen salon's stake is more than the player's chips: why it cannot be played, or "".
export function stakeShortText() {
  const n = have();
  return CHIPS.stake && n != null && CHIPS.stake > n ? t("stake_short_note", { have: chipsNumber(n), stake: chipsNumber(CHIPS.stake) }) : "";
}

function stakeNoteHTML() {
  const short = stakeShortText();
  return short ? `<p class="help stake-short" role="status" data-testid="stake-short">${esc(short)}</p>` : "";
}

// The quick-play salon: no stake, or one of the lobby's stakes (with the kasa of açık eşli's).
// The choice is CHIPS.stake, kept as soon as it is made (stakeChosen): a redraw of the lobby
// (a language switch, Refresh, the wallet arriving after login) shows it again. A salon the
// player's chips do not cover says so, in the list and under it.
export function stakeSelectHTML(lobby, player) {
  const stakes = (lobby && lobby.stakes) || (CHIPS.wallet && CHIPS.wallet.stakes) || [];
  if (!stakes.length) return "";
  if (!stakes.includes(CHIPS.stake)) CHIPS.stake = 0;
  const n = have();
  const kasa = (lobby && lobby.kasa) || {};
  const label = (s) => !s ? t("stake_none") : n != null && s > n ? t("stake_option_short", { n: chipsNumber(s), have: chipsNumber(n) }) : t("stake_option", { n: chipsNumber(s) });
  const options = [0, ...stakes].map((s) => `<option value="${s}"${s === CHIPS.stake ? " selected" : ""}>${esc(label(s))}</option>`).join("");
  // the kasas are for those who may stake (an account): a guest is told so in the chips box
  const kasas = !(player && player.account) ? "" : stakes.filter((s) => kasa["acik:" + s] != null)
    .map((s) => `<li data-testid="lobby-kasa-${s}">${esc(t("kasa_salon", { stake: chipsNumber(s), n: chipsNumber(kasa["acik:" + s]) }))}</li>`).join("");
  return `<label class="stake-pick">${esc(t("stake_label"))}
      <select id="stake-select" data-testid="stake-select">${options}</select></label>
    <div id="stake-note">${stakeNoteHTML()}</div>
    ${kasas ? `<p class="kasa-heading">${esc(t("kasa_heading"))}</p><ul class="plain kasa-list">${kasas}</ul><p class="help" data-testid="kasa-note">${esc(t("kasa_full_note"))}</p>` : ""}`;
}

// The lobby's Stake box changed: the choice is kept at once (not only when a mode is chosen).
export function stakeChosen(el) {
  CHIPS.stake = Number(el.value) || 0;
  localStorage.setItem("batak.stake", String(CHIPS.stake));
  const note = document.querySelector("#stake-note");
  if (note) note.innerHTML = stakeNoteHTML();
}

// The stake field of a "quick" message, as chosen in the lobby.
export function quickStake() {
  const el = document.querySelector("#stake-select");
  if (el) stakeChosen(el);
  return CHIPS.stake ? { stake: CHIPS.stake } : {};
}

// How long until the next daily gift: a new day begins at 00:00 UTC ({h, m}).
function untilNewDay() {
  const now = Date.now();
  const d = new Date(now);
  const minutes = Math.ceil((Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) - now) / 60000);
  return { h: Math.floor(minutes / 60), m: minutes % 60 };
}

// The lobby's chips box: the balance (or why there is none), when the next gift comes, and the
// chip leaderboard.
export function chipsBoxHTML(player) {
  const w = CHIPS.wallet;
  let mine;
  if (!player || !player.account) mine = `<p class="help" data-testid="chips-guest">${esc(t("chips_account_needed"))}</p>`;
  else if (w && w.account) {
    const least = w.stakes && w.stakes.length ? Math.min(...w.stakes) : 0; // the smallest salon's stake
    mine = `<p class="balance" data-testid="chips-balance">${esc(t("chips_balance", { n: chipsNumber(w.balance) }))}</p>`
      + (w.granted ? `<p class="help" data-testid="chips-granted">${esc(t("chips_granted", { n: chipsNumber(w.granted) }))}</p>`
        : w.grant ? `<p class="help" data-testid="chips-next">${esc(t("chips_next_gift", { n: chipsNumber(w.grant), ...untilNewDay() }))}</p>` : "")
      + (least && w.balance < least ? `<p class="help" data-testid="chips-short">${esc(t("chips_short", { n: chipsNumber(least) }))}</p>` : "");
  } else mine = "";
  const board = CHIPS.board || [];
  const rows = board.length
    ? `<table class="stats" data-testid="chip-leaderboard"><thead><tr><th>${esc(t("player"))}</th><th class="num">${esc(t("chips_title"))}</th></tr></thead><tbody>${board.slice(0, 10).map((r) => `<tr>${nameCell(r.name)}<td class="num">${esc(chipsNumber(r.balance))}</td></tr>`).join("")}</tbody></table>`
    : `<p class="help">${esc(t("chip_leaderboard_empty"))}</p>`;
  return `<h2 id="h-chips">${esc(t("chips_title"))}</h2>${mine}
    <p class="help">${esc(t("chips_virtual"))}</p>
    <h3>${esc(t("chip_leaderboard"))}</h3>${rows}`;
}

// The staked table's facts for the top bar: stake, pot, kasa.
export function tableChipsHTML(info) {
  const c = info && info.chips;
  if (!c) return "";
  const parts = [t("table_stake", { n: chipsNumber(c.stake) })];
  if (c.pot) parts.push(t("table_pot", { n: chipsNumber(c.pot) }));
  const kasa = c.kasa != null ? ` · <b class="kasa" data-testid="table-kasa">${esc(t("table_kasa", { n: chipsNumber(c.kasa) }))}</b>` : "";
  return `<span class="chips-facts" data-testid="table-chips">${esc(parts.join(" · "))}${kasa}</span>`;
}

// A change of chips with its sign: +900, −50 (a true minus), ±0.
export function signedChips(n) {
  return (n > 0 ? "+" : n < 0 ? "\u2212" : "\u00b1") + chipsNumber(Math.abs(n));
}

// What the match paid the seat `you` (not zero), said against the stake: what came back, the net
// change, the table fee or where the açık eşli quarter went (as batak online's payout_words).
function paidWords(p, you) {
  const mine = (p.payouts || [])[you] || 0;
  const fee = (p.fees || [])[you] || 0;
  const won = !p.winners || p.winners.includes(you); // or a share of the kasa only
  const short = won && mine < p.stake; // (its sentence says the stake already)
  const net = signedChips(mine - p.stake);
  const detail = [short ? net : t("payout_net", { net, stake: chipsNumber(p.stake) })];
  if (fee) detail.push(t("payout_fee_part", { n: chipsNumber(fee) }));
  else if (p.scoring === "acik") detail.push(t(p.kasa_added ? "payout_quarter_kasa" : "payout_quarter_house"));
  const words = { n: chipsNumber(mine), stake: chipsNumber(p.stake), detail: detail.join("; ") };
  return t(!won ? "payout_lost_kasa" : short ? "payout_won_short" : "payout_won", words);
}

// What the match paid, for the result dialog (a staked table only).
export function payoutHTML(info, you, seatName) {
  const c = info && info.chips;
  if (!c) return "";
  const p = c.payout;
  if (!p) return `<p class="help" data-testid="payout-waiting">${esc(t("payout_waiting"))}</p>`;
  const lines = [];
  if (p.refund) lines.push(t("payout_refund", { n: chipsNumber(p.stake) })); // (stored before refunds ended)
  else {
    if (you != null) {
      const mine = (p.payouts || [])[you] || 0;
      lines.push(mine ? paidWords(p, you) : t("payout_lost", { n: chipsNumber(p.stake) }));
    }
    if (p.kasa_won && p.kasa_team) lines.push(t("payout_kasa", { n: chipsNumber(p.kasa_won), names: p.kasa_team.map(seatName).join(", ") }));
  }
  return `<div class="payout" data-testid="payout">${lines.map((x) => `<p><b>${esc(x)}</b></p>`).join("")}</div>`;
}

// The words to ask before leaving a match in play: at a staked table, what happens to the stake.
export function leaveConfirmText(T) {
  const c = T && T.info && T.info.chips;
  return c && c.stake && T.you != null && T.info.status === "playing" ? t("leave_confirm_staked", { n: chipsNumber(c.stake) }) : t("leave_confirm");
}
