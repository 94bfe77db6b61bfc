// The deal review screen: where was a trick lost? It asks the server for the double-dummy review
// of a finished deal (the "review" request, docs/protocol.md "Deal review"), which the server
// solves in a worker with a time limit, and shows its summary (sentences in the reader's language,
// from the server) and every card that cost tricks, trick by trick. It is reached from the
// result after a deal and from every row of the score sheet.
import { t } from "./i18n.js";
import { cardLabel, isRed, RANKS, rankLabel, rankOf, SYMBOL, suitOf } from "./cards.js";

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// A card as a person reads it, its red suits in red as everywhere else on the table.
function cardHTML(card) {
  const s = suitOf(card);
  return `<span class="suit-${isRed(s) ? s : "black"}">${esc(cardLabel(card))}</span>`;
}

// The best cards of a decision: up to three as cards; more (a long run of equal low cards, or
// every card of a suit that would do) a suit at a time, its ranks after its sign ("♠ 9 7 5 3 2"),
// so that a row of the table stays short on a phone.
function bestHTML(cards) {
  if (cards.length <= 3) return cards.map(cardHTML).join(" ");
  const bySuit = new Map();
  for (const c of cards) bySuit.set(suitOf(c), [...(bySuit.get(suitOf(c)) || []), rankOf(c)]);
  const high = (ranks) => ranks.sort((a, b) => RANKS.indexOf(b) - RANKS.indexOf(a)).map(rankLabel).join(" ");
  return [...bySuit].map(([s, ranks]) => `<span class="review-best-suit"><span class="suit-${isRed(s) ? s : "black"}">${SYMBOL[s]}</span> ${esc(high(ranks))}</span>`).join(" ");
}

// The server's sentences, escaped, with the red suits' signs in red (also the table's hints).
export function lineHTML(text) {
  return esc(text).replace(/♥/g, '<span class="suit-H">♥</span>').replace(/♦/g, '<span class="suit-D">♦</span>');
}

// The button that opens the review of deal ``deal``: a magnifier in the score sheet's deal cell
// (the sheet stays narrow; its name is the button's label for screen readers and its tooltip),
// and a worded button in the result shown after a deal (``worded``).
export function reviewButton(deal, worded = false) {
  const name = esc(t("review_open"));
  if (worded) {
    return `<button class="small" data-action="review" data-deal="${deal}" data-testid="result-review">🔍 ${name}</button>`;
  }
  return `<button class="small review-open" data-action="review" data-deal="${deal}" data-testid="review-open" aria-label="${name}" title="${name}">🔍</button>`;
}

// A score-sheet row's deal cell: its number and, unless it was redealt, its review button.
export function dealCell(row) {
  return `<td>${row.deal}${row.redeal ? "" : ` ${reviewButton(row.deal)}`}</td>`;
}

// Ask for the review of ``deal`` at table ``T``; the reply comes as a "review" message.
export function askReview(T, deal, send) {
  T.review = { deal, waiting: true };
  T.dialog = "review";
  send({ type: "review", table: T.id, deal, ref: "review" });
}

// After a reconnect: a review still awaited was asked on the old connection, whose reply is
// lost; ask again (the server shares the work already under way, or its cached result).
export function resendReview(T, send) {
  if (T && T.review && T.review.waiting) {
    send({ type: "review", table: T.id, deal: T.review.deal, ref: "review" });
  }
}

// The server's reply, or its refusal (busy, no_deal, ...), for the table on screen.
export function onReview(T, m) {
  if (!T || m.table !== T.id) return false;
  T.review = { deal: m.deal, data: m };
  return true;
}

export function onReviewError(T, m) {
  if (!T || !T.review) return false;
  T.review = { deal: T.review.deal, error: m.message };
  return true;
}

// The dialog's body. ``seatLabel(seat)`` names a seat as the table shows it.
export function reviewHTML(T, seatLabel) {
  const R = T.review;
  if (!R) return "";
  const title = `<h3 data-testid="review-title">${esc(t("review_title", { n: R.deal }))}</h3>`;
  if (R.waiting) return `${title}<p class="help" data-testid="review-wait">${esc(t("review_wait"))}</p>`;
  if (R.error) {
    return `${title}<p class="review-error" data-testid="review-error">${esc(R.error)}</p>
      <p><button data-action="review" data-deal="${R.deal}">${esc(t("review_retry"))}</button></p>`;
  }
  const m = R.data;
  const lines = m.lines.map((x) => `<li>${lineHTML(x)}</li>`).join("");
  // a card that cost its own side tricks, or (a defender at a table without partners) let the
  // bidder take more than the defence's best: then its best cards are the defence's
  const costly = m.decisions.filter((d) => d.cost > 0 || d.defence_cost > 0);
  const rows = costly.map((d) => {
    // as the server's sentence names them: a card that cost both its own side's tricks and the
    // defence's is judged for the defence, its best cards the defence's
    const own = d.cost > 0 && !(d.defence_cost > 0);
    const best = bestHTML(own ? d.best_cards : d.defence_best_cards);
    // both when both: its own side's tricks, and those it let the bidder take
    const gave = d.defence_cost > 0 ? `<span class="review-gave">${esc(t("review_gave", { n: d.defence_cost }))}</span>` : "";
    const cost = d.cost > 0 ? `${d.cost}${gave ? `<br>${gave}` : ""}` : gave;
    return `<tr data-testid="review-row"><td class="num">${d.trick}</td><td>${esc(seatLabel(d.seat))}</td>`
      + `<td>${cardHTML(d.card)}</td><td>${best}</td><td class="num">${cost}</td></tr>`;
  }).join("");
  const head = `<tr><th class="num">${esc(t("review_trick"))}</th><th>${esc(t("review_player"))}</th><th>${esc(t("review_card"))}</th><th>${esc(t("review_best"))}</th><th class="num">${esc(t("review_cost"))}</th></tr>`;
  const table = costly.length
    ? `<table class="sheet review-table" data-testid="review-table"><thead>${head}</thead><tbody>${rows}</tbody></table>`
    : "";
  const checked = `<p class="help">${esc(t("review_checked", { n: m.decisions.length }))}</p>`;
  return `${title}<ul class="review-lines" data-testid="review-lines">${lines}</ul>${table}${checked}<p class="help">${esc(t("review_note"))}</p>`;
}
