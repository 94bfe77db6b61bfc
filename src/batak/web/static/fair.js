// Deals anyone can verify (issue 12): the commitment of the deal being played and the seeds of
// the deals that are over, as the server published them (docs/protocol.md, "Deals anyone can
// verify"). The page checks each revealed seed against the commitment it saw before the deal.
import { t } from "./i18n.js";

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

async function sha256hex(text) {
  const data = new TextEncoder().encode(text);
  const digest = await crypto.subtle.digest("SHA-256", data);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

// A deal is over: keep its seed (checked against the commitment seen before it) and the next
// deal's commitment in the table's info.
export function noteDealOver(table, over, rerender) {
  const info = table.info;
  if (!info || !over || over.seed == null) return;
  const f = (info.fair = info.fair || { version: 1, revealed: [] });
  f.revealed = f.revealed || [];
  const seen = f.deal === over.deal ? f.commitment : over.commitment;
  const entry = { deal: over.deal, seed: over.seed, commitment: seen, checked: null };
  f.revealed = f.revealed.filter((r) => r.deal !== over.deal).concat([entry]);
  if (over.next_commitment) { f.deal = over.deal + 1; f.commitment = over.next_commitment; } else { delete f.deal; delete f.commitment; }
  if (crypto && crypto.subtle) {
    sha256hex(`${table.id}:${over.seed}`).then((h) => { entry.checked = h === seen; if (rerender) rerender(); });
  }
}

// The part of the score sheet dialog that says, in a player's words, whether each deal was dealt
// as the server had sealed it before it began; the codes themselves and how to check them by hand
// are inside a "How do I check this myself?" part, closed until opened.
export function fairHTML(info) {
  const f = info && info.fair;
  if (!f) return "";
  const revealed = f.revealed || [];
  const verdict = (r) => {
    if (r.checked === true) return `<b class="made">✓ ${esc(t("fair_deal_ok", { n: r.deal }))}</b>`;
    if (r.checked === false) return `<b class="down">✗ ${esc(t("fair_deal_bad", { n: r.deal }))}</b>`;
    return esc(t("fair_deal_open", { n: r.deal })); // (a page that cannot compute SHA-256)
  };
  const deals = revealed.map((r) => `<li data-testid="fair-deal-${r.deal}">${verdict(r)}</li>`);
  if (f.commitment) deals.push(`<li data-testid="fair-deal-${f.deal}">${esc(t("fair_deal_sealed", { n: f.deal }))}</li>`);
  const codes = revealed.map((r) => `<li data-testid="fair-seed-${r.deal}">${esc(t("fair_seed", { n: r.deal, seed: r.seed }))}${r.checked === true ? ` <b class="made">${esc(t("fair_checked"))}</b>` : ""}${r.checked === false ? ` <b class="down">${esc(t("fair_mismatch"))}</b>` : ""}</li>`);
  if (f.commitment) codes.push(`<li data-testid="fair-commitment">${esc(t("fair_commitment", { n: f.deal, commitment: f.commitment }))}</li>`);
  return `<h4>${esc(t("fair_title"))}</h4><p class="help">${esc(t("fair_intro"))}</p><ul class="plain fair-deals" data-testid="fair-deals">${deals.join("")}</ul>
    <details class="fair-how" data-testid="fair-how"><summary>${esc(t("fair_how"))}</summary><p class="help">${esc(t("fair_help"))}</p><ul class="plain fair-list">${codes.join("")}</ul></details>`;
}
