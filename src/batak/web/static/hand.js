// The player's hand (issue 10, items 5, 7 and 17): how it is drawn, tapped and read aloud.
//
// - On a phone (a coarse pointer or a narrow screen) the cards lie in rows, each card fully
//   tappable (at least 40 px wide), and a tap only lifts a card: a second tap on it plays it, a
//   tap on another card lifts that one instead, and Cancel (or Escape) puts it back. With a
//   mouse a click plays at once; from the keyboard Enter plays the focused card, and the arrow
//   keys move along the hand.
// - Kitty batak: the bidder sees the kitty's cards as they join the hand, picks the cards to
//   bury (a tap picks or unpicks), and confirms; the client then sends one `bury` move per card,
//   each after the event of the one before. What was buried is shown to the bidder only (the
//   server sends `buried` to the bidder alone).
// - Screen readers: the hand is "Your hand" (and says "your turn" only when it is), a card that
//   may not be played now is aria-disabled.
import { t } from "./i18n.js";
import { cardLabel, cardName, cardSVG, sortHand, suitOf } from "./cards.js";

// The deal's koz: named by the bidder, or the table's own from the deal on (Koz Maça: ♠), when
// the view has none yet; the table's rules from its info when the view carries none.
export function dealKoz(v, rules) {
  return (v && v.trump) || ((v && v.rules) || rules || {}).fixed_trump || null;
}

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// A phone: tap to lift, tap again to play.
export function liftToPlay() {
  return window.matchMedia("(pointer: coarse)").matches || window.innerWidth <= 600;
}

// How many cards are still to bury, when it is this player's burial.
export function toBury(v) {
  return v.rules.kitty_size - (v.buried ? v.buried.length : 0);
}

// The hand's buttons. `mine`: it is this player's decision.
export function handHTML(T, mine) {
  const v = T.view;
  const legal = new Set();
  if (mine) for (const m of v.legal_moves) legal.add(m.startsWith("bury ") ? m.slice(5) : m);
  const cardPhase = mine && (v.phase === "play" || v.phase === "bury");
  const bury = mine && v.phase === "bury";
  if (T.burySel) T.burySel = T.burySel.filter((c) => v.hand.includes(c));
  const picked = new Set(bury ? T.burySel || [] : []);
  const kitty = new Set(v.kitty || []);
  const hinted = T.hint && T.hint.move ? T.hint.move.replace(/^bury /, "") : null;
  if (!cardPhase || !legal.has(T.lifted)) T.lifted = null;
  const koz = dealKoz(v);
  return sortHand(v.hand, koz).map((c) => {
    const cls = ["card"];
    const ok = cardPhase && legal.has(c);
    if (cardPhase) cls.push(ok ? "legal" : "dimmed");
    if (c === hinted) cls.push("hinted");
    if (c === T.lifted) cls.push("lifted");
    if (picked.has(c)) cls.push("picked");
    if (kitty.has(c) && v.phase !== "play") cls.push("from-kitty");
    if (koz && suitOf(c) === koz) cls.push("koz");
    let name = cardName(c);
    if (kitty.has(c) && v.phase !== "play") name += ` (${t("from_kitty")})`;
    const attrs = [
      `class="${cls.join(" ")}"`, `data-action="card"`, `data-card="${c}"`, `data-testid="card-${c}"`,
      `aria-label="${esc(name)}"`,
    ];
    if (!ok) attrs.push(`aria-disabled="true"`);
    if (bury) attrs.push(`aria-pressed="${picked.has(c)}"`);
    if (!cardPhase) attrs.push(`tabindex="-1"`);
    return `<button ${attrs.join(" ")}>${cardSVG(c)}</button>`;
  }).join("");
}

// Where the hand's rows start when it lies in rows (a phone): a row ends where a suit ends, if
// that takes no more rows than filling every row does (13 cards, 7 to a row: 4♠ 3♥ | 4♦ 2♣, not
// 4♠ 3♥ | … split mid-suit), else the rows break by count. `lengths`: the suits' lengths in the
// hand's order; `perRow`: how many cards a row holds. Returns the indices of the cards that
// start a row after the first (none: the rows break by count).
export function suitRowStarts(lengths, perRow) {
  const n = lengths.reduce((a, b) => a + b, 0);
  if (perRow < 1 || n <= perRow) return [];
  const starts = [];
  let inRow = 0;
  let at = 0;
  for (const len of lengths) {
    if (len > perRow) return [];
    if (inRow + len > perRow) { starts.push(at); inRow = 0; }
    inRow += len;
    at += len;
  }
  return starts.length + 1 <= Math.ceil(n / perRow) ? starts : [];
}

// Ends the hand's rows where its suits end (see suitRowStarts), once the browser has laid it
// out; nothing when the hand lies in one line. Called after each drawing and on a resize.
export function breakRowsBySuit(el) {
  el.querySelectorAll(".row-end").forEach((b) => b.remove());
  const cards = [...el.querySelectorAll(".card")];
  if (cards.length < 2 || getComputedStyle(el).flexWrap !== "wrap") return;
  const top = cards[0].offsetTop;
  const perRow = cards.findIndex((c) => c.offsetTop > top + 4); // the first row, as the browser filled it
  if (perRow < 1) return; // one row
  const lengths = [];
  let suit = null;
  for (const c of cards) {
    const s = suitOf(c.dataset.card);
    if (s === suit) lengths[lengths.length - 1] += 1;
    else { lengths.push(1); suit = s; }
  }
  // where no suit can end a row, the rows are ended by count all the same: the first card of a
  // row then lies at the row's start, not shifted by the overlap meant for its left neighbour
  let starts = suitRowStarts(lengths, perRow);
  if (!starts.length) starts = Array.from({ length: Math.ceil(cards.length / perRow) - 1 }, (_, k) => (k + 1) * perRow);
  for (const i of starts) {
    const end = document.createElement("span");
    end.className = "row-end";
    end.setAttribute("aria-hidden", "true");
    el.insertBefore(end, cards[i]);
  }
}

export function handLabel(mine) {
  return mine ? `${t("your_hand")}: ${t("your_turn")}` : t("your_hand");
}

// A click or tap on a card. `play(move)` sends a move; `redraw()` draws the hand and panel.
// Returns nothing; changes T.lifted / T.burySel.
export function cardClicked(T, el, e, play, redraw) {
  const v = T.view;
  const card = el.dataset.card;
  if (v.phase === "bury") {
    if (!el.classList.contains("legal")) return;
    const sel = T.burySel || (T.burySel = []);
    const i = sel.indexOf(card);
    if (i >= 0) sel.splice(i, 1);
    else if (sel.length < toBury(v)) sel.push(card);
    else { sel.shift(); sel.push(card); } // all chosen: the oldest choice gives way
    redraw();
    return;
  }
  const pointer = e && e.detail > 0; // a keyboard's Enter or Space clicks with detail 0
  if (pointer && liftToPlay() && el.classList.contains("legal") && T.lifted !== card) {
    T.lifted = card;
    redraw();
    return;
  }
  T.lifted = null;
  play(card);
}

// The panel's lines for the hand: the lifted card, or the burial being chosen.
export function handPanelHTML(T, mine) {
  const v = T.view;
  if (!mine) return "";
  if (v.phase === "bury") {
    const need = toBury(v);
    const sel = T.burySel || [];
    const list = sel.length ? sel.map(cardLabel).join(" ") : "—";
    return `<div class="bury-choice" data-testid="bury-choice">
      <p>${esc(t("bury_pick", { n: need }))} <b data-testid="bury-picked">${esc(list)}</b> (${sel.length}/${need})</p>
      <div class="bury-actions"><button class="primary" data-action="buryConfirm" data-testid="bury-confirm"${sel.length === need && !T.buryQueue?.length ? "" : " disabled"}>${esc(t("bury_confirm", { n: need }))}</button>
      <button data-action="buryUndo" data-testid="bury-undo"${sel.length ? "" : " disabled"}>${esc(t("bury_undo"))}</button></div></div>`;
  }
  if (v.phase === "play" && T.lifted) {
    return `<p class="lifted-note" data-testid="lifted">${esc(t("tap_again", { card: cardLabel(T.lifted) }))} <button class="small" data-action="unlift" data-testid="unlift">${esc(t("cancel"))}</button></p>`;
  }
  return "";
}

// The middle of the felt while the kitty is with the bidder: its cards to the bidder, face
// down to everyone else.
export function kittyHTML(v, bidderName, mine, backSVG) {
  if (!v.rules.kitty_size || !v.contract || !["bury", "trump"].includes(v.phase)) return "";
  const cards = v.kitty && v.kitty.length
    ? v.kitty.map((c) => `<span class="kc" title="${esc(cardName(c))}">${cardSVG(c)}</span>`).join("")
    : Array.from({ length: v.rules.kitty_size }, () => `<span class="kc">${backSVG()}</span>`).join("");
  const title = mine ? t("kitty_yours") : t("kitty_taken", { name: bidderName });
  return `<div class="kitty" data-testid="kitty"><h2>${esc(title)}</h2><div class="kitty-cards">${cards}</div></div>`;
}

// Sends the next card of a confirmed burial, if it is still this player's burial and nothing
// is on its way (`busy`: a move not yet acknowledged; the next one waits for its event, as a
// move is made at the version it saw). Called after every event.
export function continueBurial(T, mine, play, busy = false) {
  const v = T.view;
  if (!T.buryQueue || !T.buryQueue.length || busy) return;
  if (!v || !mine || v.phase !== "bury") { T.buryQueue = []; T.burySel = []; return; }
  const card = T.buryQueue.shift();
  play(`bury ${card}`);
  if (!T.buryQueue.length) T.burySel = [];
}

// The arrow keys move along the hand.
export function handKey(e) {
  const card = e.target.closest && e.target.closest("#hand .card");
  if (!card || !["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) return false;
  const all = [...document.querySelectorAll("#hand .card:not([tabindex='-1'])")];
  if (!all.length) return false;
  let i = all.indexOf(card);
  if (e.key === "ArrowLeft") i = Math.max(0, i - 1);
  else if (e.key === "ArrowRight") i = Math.min(all.length - 1, i + 1);
  else if (e.key === "Home") i = 0;
  else i = all.length - 1;
  all[i].focus();
  e.preventDefault();
  return true;
}

// The skip link: to the first playable card, or the decision's first button, or the hand.
// Also where the focus goes on its own (the player's turn came while it waited on the hand, a
// focused button went with a redraw): then the page does not scroll to it (a phone's page moved
// under the player's thumb at their turn); ``scroll`` for a person's own action (the skip link).
export function skipToPlay(scroll = false) {
  const target = document.querySelector("#hand .card.legal")
    || document.querySelector("#panel .bids button:not([disabled])")
    || document.querySelector("#hand .card:not([tabindex='-1'])")
    || document.querySelector("#hand")
    || document.querySelector("#app");
  if (!target) return;
  if (!target.hasAttribute("tabindex") && !/^(BUTTON|A|INPUT|SELECT)$/.test(target.tagName)) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: !scroll });
}
