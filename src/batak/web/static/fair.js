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

// The list for the score sheet dialog.
export function fairHTML(info) {
  const f = info && info.fair;
  if (!f) return "";
  const rows = (f.revealed || []).map((r) => `<li data-testid="fair-seed-${r.deal}">${esc(t("fair_seed", { n: r.deal, seed: r.seed }))}${r.checked === true ? ` <b class="made">${esc(t("fair_checked"))}</b>` : ""}${r.checked === false ? ` <b class="down">${esc(t("fair_mismatch"))}</b>` : ""}</li>`);
  if (f.commitment) rows.push(`<li data-testid="fair-commitment">${esc(t("fair_commitment", { n: f.deal, commitment: f.commitment }))}</li>`);
  return `<h4>${esc(t("fair_title"))}</h4><ul class="plain fair-list">${rows.join("")}</ul><p class="help">${esc(t("fair_help"))}</p>`;
}
