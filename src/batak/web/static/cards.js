// Cards: parsing the engine's notation ("AS", "TH"), sorting a hand, and SVG faces.
import { t } from "./i18n.js";

export const SUITS = ["S", "H", "C", "D"]; // display order: colours alternate
export const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RANKS = "23456789TJQKA";

export function suitOf(card) {
  return card[card.length - 1];
}

export function rankOf(card) {
  return card.slice(0, -1);
}

export function isRed(suit) {
  return suit === "H" || suit === "D";
}

export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

// "KH" → "K♥", "TS" → "10♠"
export function cardLabel(card) {
  return rankLabel(rankOf(card)) + SYMBOL[suitOf(card)];
}

// A name for screen readers and tooltips: "king of hearts" / "kupa papaz".
export function cardName(card) {
  const r = rankOf(card);
  const rank = "AKQJ".includes(r) ? t("rank_" + r) : rankLabel(r);
  return t("card_name", { rank, suit: t("suit_" + suitOf(card)) });
}

// A hand sorted by suit (♠ ♥ ♣ ♦, colours alternating; koz first when given), high to low.
export function sortHand(cards, trump = null) {
  const order = trump ? [trump, ...SUITS.filter((s) => s !== trump)] : SUITS;
  return [...cards].sort((a, b) => {
    const ds = order.indexOf(suitOf(a)) - order.indexOf(suitOf(b));
    if (ds) return ds;
    return RANKS.indexOf(rankOf(b)) - RANKS.indexOf(rankOf(a));
  });
}

const PIPS = {
  // pip positions (x, y) on a 60 × 84 face, for 2..10
  2: [[30, 20], [30, 64]],
  3: [[30, 20], [30, 42], [30, 64]],
  4: [[19, 20], [41, 20], [19, 64], [41, 64]],
  5: [[19, 20], [41, 20], [30, 42], [19, 64], [41, 64]],
  6: [[19, 20], [41, 20], [19, 42], [41, 42], [19, 64], [41, 64]],
  7: [[19, 20], [41, 20], [30, 31], [19, 42], [41, 42], [19, 64], [41, 64]],
  8: [[19, 20], [41, 20], [30, 31], [19, 42], [41, 42], [30, 53], [19, 64], [41, 64]],
  9: [[19, 18], [41, 18], [19, 34], [41, 34], [30, 42], [19, 50], [41, 50], [19, 66], [41, 66]],
  10: [[19, 18], [41, 18], [30, 26], [19, 34], [41, 34], [19, 50], [41, 50], [30, 58], [19, 66], [41, 66]],
};

// The SVG face of a card (scalable; colours: red #b3001b and near-black #111 on white, both
// well above the 4.5:1 contrast of WCAG AA).
export function cardSVG(card) {
  const suit = suitOf(card);
  const rank = rankOf(card);
  const colour = isRed(suit) ? "#b3001b" : "#111111";
  const sym = SYMBOL[suit];
  const label = rankLabel(rank);
  let middle = "";
  const n = rank === "T" ? 10 : Number(rank);
  if (n >= 2 && n <= 10) {
    middle = PIPS[n]
      .map(([x, y]) => `<text x="${x}" y="${y + 5}" font-size="13" text-anchor="middle"${y > 42 ? ` transform="rotate(180 ${x} ${y})"` : ""}>${sym}</text>`)
      .join("");
  } else if (rank === "A") {
    middle = `<text x="30" y="53" font-size="34" text-anchor="middle">${sym}</text>`;
  } else {
    middle =
      `<rect x="13" y="16" width="34" height="52" rx="3" fill="none" stroke="${colour}" stroke-width="1.2"/>` +
      `<text x="30" y="40" font-size="20" font-weight="700" text-anchor="middle">${label}</text>` +
      `<text x="30" y="61" font-size="18" text-anchor="middle">${sym}</text>`;
  }
  return (
    `<svg class="face" viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" fill="${colour}" font-family="DejaVu Sans, Arial, sans-serif">` +
    `<rect x="0.5" y="0.5" width="59" height="83" rx="5" fill="#fff" stroke="#555"/>` +
    `<text x="4" y="14" font-size="${label.length > 1 ? 11 : 13}" font-weight="700">${label}</text>` +
    `<text x="4" y="26" font-size="11">${sym}</text>` +
    `<g transform="rotate(180 30 42)"><text x="4" y="14" font-size="${label.length > 1 ? 11 : 13}" font-weight="700">${label}</text>` +
    `<text x="4" y="26" font-size="11">${sym}</text></g>` +
    middle +
    `</svg>`
  );
}

export function backSVG() {
  return (
    `<svg class="face" viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">` +
    `<rect class="back-bg" x="0.5" y="0.5" width="59" height="83" rx="5" fill="#23407a" stroke="#fff"/>` +
    `<path class="back-line" d="M5 19 L19 5 M5 33 L33 5 M5 47 L47 5 M5 61 L55 11 M5 75 L55 25 M13 79 L55 37 M27 79 L55 51 M41 79 L55 65 M5 5 L55 55 M5 19 L55 69 M5 33 L51 79 M5 47 L37 79 M5 61 L23 79 M19 5 L55 41 M33 5 L55 27 M47 5 L55 13" stroke="#9fb4e0" stroke-width="0.8" fill="none"/>` +
    `<rect x="5" y="5" width="50" height="74" rx="3" fill="none" stroke="#fff" stroke-opacity="0.6"/>` +
    `</svg>`
  );
}
