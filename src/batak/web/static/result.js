// The end of a deal and of a match (issue 10 items 1 and 10).
//
// A deal's result is a panel in the middle of the felt, never a window over the table: the next
// deal's buttons, hand and clock stay free (the server holds the next deal's first decision for
// the table's deal pause, and its clock starts that much later). The panel closes by itself
// after that pause, when the new deal's first card is played, or with its button.
//
// The match's end shows the ranking (totals, winners, the contracts each player made), the
// rematch (same seats and options, a new match: every person at the table is asked and must
// agree; bots stay) and, after quick play, "Play again".
import { chipsNumber, walletShort } from "./chips.js";
import { NAMES, lang, nextLang, t } from "./i18n.js";
import { reviewButton } from "./review.js";

let H = null; // the client's hooks: {table, seatName, seatLabel, sentence, renderFelt,
// renderDialog, send, go, spectating}

export function initResult(hooks) {
  H = hooks;
}

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// A bot account (a program a person runs with `batak bot`) beside its name wherever players are
// listed, with the word its seat's tag has; marked also where the house's bots are hidden (the
// server says which seats are bot accounts, never which are the house's bots there).
export function botAccountTag() {
  return ` <span class="tag bot-tag" data-testid="bot-account-tag">${esc(t("bot_account"))}</span>`;
}

// ------------------------------------------------------------------ a deal's result
export function onDealOver(T, dealOver) {
  if (T.result && T.result.timer) clearTimeout(T.result.timer);
  T.result = { deal: dealOver, timer: null };
}

function closeResult(T) {
  if (!T.result) return;
  clearTimeout(T.result.timer);
  T.result = null;
  H.renderFelt();
}

// Who made or lost the contract, in the second person when it is the reader's.
function outcome(T, row) {
  if (row.redeal) return t("redeal");
  if (row.bidder == null || row.bid == null || !row.tricks) return "";
  const r = T.info.rules;
  const n = r.players;
  const won = r.partners ? row.tricks[row.bidder] + row.tricks[(row.bidder + 2) % n] : row.tricks[row.bidder];
  if (r.partners) { // the side's tricks, said of the side: "we" when it is the reader's
    const ours = T.you != null && (T.you === row.bidder || T.you === (row.bidder + 2) % n);
    const made = won >= row.bid;
    // a contract nobody bid (everyone passed) is not said as a bid
    const madeKey = ours ? (row.forced ? "made_forced_we" : "made_we") : (row.forced ? "made_forced_team" : "made_team");
    const key = made ? madeKey : (ours ? "down_we" : "down_team");
    return t(key, { name: H.seatName(row.bidder), bid: row.bid, won });
  }
  if (row.forced && won >= row.bid) return H.sentence(row.bidder, "made_forced", "made_forced_you", { bid: row.bid, won });
  return won >= row.bid
    ? H.sentence(row.bidder, "made", "made_you", { bid: row.bid, won })
    : H.sentence(row.bidder, "down", "down_you", { bid: row.bid, won });
}

// The panel for the felt's middle, or "" when there is none to show.
export function resultCentre(T) {
  const res = T.result;
  if (!res) return "";
  const v = T.view;
  // the new deal's play has begun: the result has had its time
  if (v && v.match && v.match.deal !== res.deal.deal && v.phase === "play" && (v.tricks.length || (v.current_trick && v.current_trick.cards.length))) {
    T.result = null;
    return "";
  }
  if (!res.timer && T.info.status !== "over") {
    const pause = (T.info.pace && T.info.pace.deal_pause) || 0;
    res.timer = setTimeout(() => { if (T.result === res) closeResult(T); }, Math.max(3000, pause * 1000));
  }
  const row = res.deal.row;
  const n = T.info.rules.players;
  const said = outcome(T, row);
  const points = row.scores
    ? `<table class="result-points"><thead><tr><td></td><th scope="col">${esc(t("result_this_deal"))}</th><th scope="col">${esc(t("sheet_total"))}</th></tr></thead><tbody>${Array.from({ length: n }, (_, i) => {
      const p = row.scores[i];
      return `<tr${i === row.bidder ? ' class="bidder"' : ""}><th scope="row">${esc(H.seatLabel(i))}</th><td class="num">${p > 0 ? "+" : ""}${p}</td><td class="num total">${row.totals[i]}</td></tr>`;
    }).join("")}</tbody></table>`
    : "";
  return `<div class="result-panel" role="status" data-testid="deal-result">
    <h2 data-testid="deal-over">${esc(t("deal_over", { n: res.deal.deal }))}</h2>
    ${said ? `<p class="result-said">${esc(said)}</p>` : ""}
    ${points}${bataks(T, row)}
    <p class="result-buttons">${row.redeal ? "" : `${reviewButton(res.deal.deal, true)} `}<button class="small" data-action="closeResult" data-testid="close-result">${esc(t("result_ok"))}</button></p>
  </div>`;
}

// A player other than the bidder who took no trick is "batak": the points it lost say why
// (a bare −40 in the table puzzled players). Tables with partners count tricks per side.
function bataks(T, row) {
  const r = T.info.rules;
  if (!row.scores || !row.tricks || r.partners || r.zero_trick_penalty === "none") return "";
  const said = row.tricks
    .map((won, i) => (won === 0 && i !== row.bidder && row.scores[i] < 0
      ? H.sentence(i, "batak_zero", "batak_zero_you", { points: row.scores[i] }) : null))
    .filter((x) => x);
  return said.map((x) => `<p class="result-batak" data-testid="result-batak">${esc(x)}</p>`).join("");
}

// ------------------------------------------------------------------ the match's end
// Contracts made and bid, per seat, from the score sheet (as the server's statistics count them).
function contracts(T) {
  const r = T.info.rules;
  const n = r.players;
  const made = new Array(n).fill(0);
  const bid = new Array(n).fill(0);
  for (const row of T.sheet) {
    if (row.redeal || !row.scores || !row.tricks) continue;
    if (row.bids) {
      for (let i = 0; i < n; i++) {
        bid[i] += 1;
        if (row.tricks[i] >= row.bids[i]) made[i] += 1;
      }
    } else if (row.bidder != null && row.bid != null) {
      const won = r.partners ? row.tricks[row.bidder] + row.tricks[(row.bidder + 2) % n] : row.tricks[row.bidder];
      bid[row.bidder] += 1;
      if (won >= row.bid) made[row.bidder] += 1;
    }
  }
  return { made, bid };
}

function rankingHTML(T) {
  const totals = T.over.totals || [];
  // (at a tournament's table nobody wins the table: the matchpoints decide, across tables)
  const tourney = T.info.options && T.info.options.tournament;
  const winners = new Set(tourney ? [] : T.over.winners || []);
  const { made, bid } = contracts(T);
  const bids = T.info.rules.bidding !== "none"; // (Koz Maça without bids: nothing to count)
  const seats = T.info.seats || [];
  // the winners first (a tie at the top broken by the table's rule leaves one of two equal
  // totals first), then by total; equal totals share a place, but a winner's and another's
  const order = totals.map((x, i) => i).sort((a, b) => winners.has(b) - winners.has(a) || totals[b] - totals[a] || a - b);
  let rank = 0;
  const rows = order.map((seat, k) => {
    const prev = order[k - 1];
    if (k === 0 || totals[seat] !== totals[prev] || winners.has(seat) !== winners.has(prev)) rank = k + 1;
    const win = winners.has(seat);
    return `<tr class="${win ? "winner" : ""}${seat === T.you ? " me" : ""}" data-testid="rank-row" data-seat="${seat}">
      <td class="num">${rank}.</td>
      <th scope="row">${win ? '<span class="cup" aria-hidden="true">🏆</span> ' : ""}${esc(H.seatLabel(seat))}${seats[seat] && seats[seat].bot_account ? botAccountTag() : ""}</th>
      <td class="num" data-testid="rank-total">${totals[seat]}</td>
      ${bids ? `<td class="num" data-testid="rank-made">${made[seat]} / ${bid[seat]}</td>` : ""}
    </tr>`;
  }).join("");
  // why one of two equal totals won: the tie rule, said under the ranking
  const top = order.length ? totals[order[0]] : null;
  const broken = winners.size && order.some((s) => !winners.has(s) && totals[s] === top);
  const tie = broken && T.info.rules.tie === "last_deal_tricks"
    ? `<p class="help" data-testid="tie-note">${esc(t("tie_last_deal", { points: top }))}</p>` : "";
  return `<table class="ranking" data-testid="ranking"><thead><tr><th scope="col" class="num">${esc(t("ranking_place"))}</th><th scope="col">${esc(t("player"))}</th><th scope="col" class="num">${esc(t("sheet_total"))}</th>${bids ? `<th scope="col" class="num">${esc(t(T.info.rules.bidding === "kozmaca" ? "ranking_made_kozmaca" : "ranking_made"))}</th>` : ""}</tr></thead><tbody>${rows}</tbody></table>${tie}`;
}

function names(seats) {
  return seats.map((s) => H.seatLabel(s)).join(", ");
}

// quiet: another button of the window is the one to press (a story's next table)
function rematchHTML(T, quiet) {
  const info = T.info;
  const main = quiet ? "" : ` class="primary"`;
  const out = [];
  const quick = info.kind === "public" && info.mode;
  const offer = T.rematch;
  const tourney = info.options && info.options.tournament;
  if (info.archived) { // opened again from the saved games: the others left long ago
    out.push(`<p class="help" data-testid="archived-note">${esc(t("archived_note"))}</p>`);
  } else if (tourney) { // the tournament draws the next round's tables: no rematch here
    out.push(`<p><button${main} data-action="nav" data-href="/tournaments/${esc(tourney)}" data-testid="tourney-back">${esc(t("tourney_back"))}</button></p>`);
  } else if (T.you != null) {
    if (offer && offer.table_new) {
      out.push(`<p><button class="primary" data-action="nav" data-href="/table/${esc(offer.table_new)}" data-testid="rematch-go">${esc(t("rematch_go"))}</button></p>`);
    } else if (offer && offer.accepted.includes(T.you)) {
      out.push(`<p data-testid="rematch-waiting">${esc(t("rematch_waiting", { names: names(offer.waiting) }))}</p>`);
    } else if (offer && offer.accepted.length) {
      // asked, with chips that no longer cover the stake (a yes was refused): said, yes is off
      const poor = T.rematchShort;
      out.push(`<p data-testid="rematch-asked">${esc(t("rematch_asked", { names: names(offer.accepted) }))}</p>
        ${poor ? `<p class="refused" role="status" data-testid="rematch-short">${esc(t("rematch_short", { have: chipsNumber(poor.balance), stake: chipsNumber(poor.stake) }))}</p>` : ""}
        <p class="row-buttons"><button${main} data-action="rematch" data-testid="rematch-accept"${poor ? " disabled" : ""}>${esc(t("rematch_accept"))}</button>
        <button data-action="rematchNo" data-testid="rematch-decline">${esc(t("rematch_decline"))}</button></p>`);
    } else {
      // the player's own chips fell short of the stake after their yes: no table, and not a no
      const shortYou = offer && offer.declined != null && offer.short === T.you && offer.declined === T.you;
      if (offer && offer.declined != null) {
        const short = offer.short === offer.declined && offer.declined !== T.you; // chips, not a no
        const stake = chipsNumber((info.chips && info.chips.stake) || 0);
        const text = shortYou ? t("rematch_short_you", { stake })
          : offer.declined === T.you ? t("rematch_declined_you")
          : t(short ? "rematch_short_other" : "rematch_declined", { name: H.seatName(offer.declined) });
        // (the player's own chips: a refusal, said as the other refusals of chips are)
        out.push(shortYou ? `<p class="refused" role="status" data-testid="rematch-declined">${esc(text)}</p>`
          : `<p class="help" data-testid="rematch-declined">${esc(text)}</p>`);
      }
      // a staked rematch the player's chips no longer cover: said, and the button is off (a
      // yes refused for chips; or the offer fell through for them and the wallet, asked for
      // again then, is still short: chips that came back since free the button, and the note
      // stays said)
      const poor = T.rematchShort || (shortYou && walletShort((info.chips && info.chips.stake) || 0) ? true : null);
      if (T.rematchShort) out.push(`<p class="refused" role="status" data-testid="rematch-short">${esc(t("rematch_short", { have: chipsNumber(poor.balance), stake: chipsNumber(poor.stake) }))}</p>`);
      out.push(`<p class="row-buttons"><button${main} data-action="rematch" data-testid="rematch"${poor ? " disabled" : ""}>${esc(t("rematch"))}</button>${quick ? ` <button data-action="playAgain" data-mode="${esc(info.mode)}" data-stake="${(info.chips && info.chips.stake) || 0}" data-testid="play-again"${poor ? " disabled" : ""}>${esc(t("play_again"))}</button>` : ""}</p>
        <p class="help">${esc(t("rematch_help"))}</p>`);
    }
  } else if (offer && offer.table_new) {
    out.push(`<p><button data-action="nav" data-href="/table/${esc(offer.table_new)}" data-testid="rematch-go">${esc(t("rematch_watch"))}</button></p>`);
  }
  return out.join("");
}

// The match-over window's body (it cannot be closed, and it covers the header's language button:
// the window has its own).
// extra: what the match paid and earned (chips, XP), under the ranking; quiet: the rematch is
// not the window's main button (see rematchHTML)
export function matchOverHTML(T, sheetHTML, recordHref, extra = "", quiet = false) {
  const winners = T.over.winners || [];
  const me = T.you != null && winners.includes(T.you);
  // the player won: said once, in one line ("Winner: you" or "Winners: you, Ayşe" above "You
  // won!" said it twice): "You won!" alone, "You won together with Ayşe!" with a partner at an
  // eşli table or a shared first place
  // the others as a sentence names them: "Ayşe and Veli" ("Ayşe ve Veli"), not "Ayşe, Veli"
  const names = winners.filter((s) => s !== T.you).map((s) => H.seatName(s));
  const others = names.length ? new Intl.ListFormat(lang(), { type: "conjunction" }).format(names) : "";
  const wonText = others ? t("you_won_with", { names: others }) : t("you_won");
  const o = T.info.options || {};
  // at a tournament's table the matchpoints count, against the other tables that played the
  // same cards: the window tells this table's result, not a winner and "not this time"
  const head = o.tournament
    ? `<h3 data-testid="match-over">${esc(o.round ? t("tourney_table_over", { round: o.round }) : t("match_over"))}</h3>
    <p class="help" data-testid="tourney-over-help">${esc(t("tourney_table_over_help"))}</p>`
    : `<h3 data-testid="match-over">${esc(t("match_over"))}</h3>
    ${me ? "" : `<p class="winners">${esc(t(winners.length > 1 ? "winners" : "winner", { names: winners.map((s) => H.seatName(s)).join(", ") }))}</p>`}
    ${T.you != null ? `<p data-testid="you-won"><b>${esc(me ? wonText : t("you_lost"))}</b></p>` : ""}`;
  return `${head}
    ${rankingHTML(T)}
    ${extra}
    <div data-testid="rematch-box">${rematchHTML(T, quiet)}</div>
    <details class="over-sheet" open><summary>${esc(t("score_sheet"))}</summary>${sheetHTML}</details>
    <p><a href="${esc(recordHref)}" download data-testid="record">${esc(t("download_record"))}</a>
    · <a href="/" data-action="nav" data-href="/">${esc(t("new_game"))}</a>
    · <button class="small" data-action="lang" data-testid="over-lang" lang="${nextLang()}" aria-label="${esc(t("language_label", { language: NAMES[nextLang()] }))}">${esc(NAMES[nextLang()])}</button></p>`;
}

// ------------------------------------------------------------------ the rematch on the wire
// An offer that fell through for the player's own chips (told live, or by a sync after a reload
// or a change of language): the wallet is asked for as it is now, since whether Rematch is off
// depends on it (rematchHTML); the reply draws the window again.
export function askWallet(T) {
  const r = T && T.rematch;
  if (r && T.you != null && r.declined === T.you && r.short === T.you) H.send({ type: "wallet", ref: "wallet" });
}

export function onRematch(T, m) {
  if (!T || m.table !== T.id) return;
  T.rematch = m;
  askWallet(T);
  // everyone agreed: a person who said yes goes to the new table, seated where they sat
  if (m.table_new && T.you != null && m.accepted.includes(T.you)) {
    H.go(`/table/${m.table_new}`);
    return;
  }
  H.renderDialog();
}

export const resultActions = {
  closeResult() { if (H.table()) closeResult(H.table()); },
  rematch() { H.send({ type: "rematch", table: H.table().id, ref: "rematch" }); },
  rematchNo() { H.send({ type: "rematch", table: H.table().id, accept: false, ref: "rematch" }); },
  playAgain(el) {
    // again as it was: the same mode, at the same stake (or none)
    const mode = el.dataset.mode;
    const stake = Number(el.dataset.stake) || 0;
    H.go("/");
    H.send({ type: "quick", mode, ...(stake ? { stake } : {}), ref: "quick" });
  },
};
