// Levels, the skill rating and the weekly league (docs/protocol.md, "Levels, ratings and the
// weekly league"): the lobby's progress box (your level and rating, the league's standings and
// the rated leaderboard), level badges next to names, and what a finished match earned.
import { lang, t } from "./i18n.js";

const P = {
  send: null, // the app's send(msg)
  notify: null, // the app's notify(text, kind)
  down: () => false, // whether the app's connection is known to be down
  me: null, // the progress reply's `progress`
  league: null, // the league reply
  ratings: null, // the rated leaderboard rows
  awarded: new Map(), // table id → the awarded message
  tab: localStorage.getItem("batak.progressTab") || "league",
};

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// A number with one decimal in the reader's way (3,0 in Turkish, 3.0 in English).
function dec(x) {
  return tenths(x).toLocaleString(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

// x rounded to one decimal, never a negative zero (shown "-0.0", and "+-0.0" as a change)
function tenths(x) {
  return Math.round(Number(x) * 10) / 10 + 0;
}

export function ratingText(r) {
  return r ? `${dec(r.ordinal)} ± ${dec(r.spread)}` : "";
}

// A numbers' heading in a table of players as a phone has room for: the whole words ("Average
// per deal", "Matchpoints") took the width a name needs or wrapped over three lines there; the
// short one ("Avg", "MP") says the whole words on hover and to a screen reader (style.css shows
// one of the two: the short one on a phone)
export function shortOnPhone(key, short) {
  return `<th class="num"><span class="wide-only">${esc(t(key))}</span><abbr class="narrow-only" title="${esc(t(key))}" aria-label="${esc(t(key))}">${esc(t(short))}</abbr></th>`;
}

// A player's name in a table of players: one line, cut with "…" where the column is too narrow
// for it (a phone), the whole name in its title; "after" (a level badge) is never cut. A cut
// name can be read whole on a phone and from the keyboard too: see markCutNames.
export function nameCell(name, after = "") {
  return `<td class="who"><div><span class="who-name" title="${esc(name)}">${esc(name)}</span>${after}</div></td>`;
}

// The names cut with "…" take the focus (a tap, Tab), and show whole while they have it
// (style.css); names shown whole take none, so Tab does not stop at every row. Looked at again
// whenever the page changes or its width does (a redraw of any table of players, a language).
function markCutNames() {
  for (const el of document.querySelectorAll(".who-name")) {
    if (el === document.activeElement) continue; // (shown whole meanwhile)
    if (el.scrollWidth > el.clientWidth) el.tabIndex = 0;
    else el.removeAttribute("tabindex");
  }
}

let marking = false;
function markSoon() {
  if (marking) return;
  marking = true;
  requestAnimationFrame(() => { marking = false; markCutNames(); });
}

// The badge shown next to a name: "Lv 3" / "Sv 3" (nothing when the level is unknown).
export function levelBadge(level) {
  if (level == null) return "";
  return ` <span class="lvl" title="${esc(t("level_n", { n: level }))}" data-testid="level">${esc(t("level_short", { n: level }))}</span>`;
}

// The score sheet's row of levels under the players' names ("" when nobody has one).
export function sheetLevelsHTML(seats, n) {
  if (!seats || !seats.some((s) => s && s.level != null)) return "";
  // (a seat with no level has a plain cell: an empty header names nothing)
  const cells = Array.from({ length: n }, (_, i) => (seats[i] && seats[i].level != null ? `<th>${levelBadge(seats[i].level)}</th>` : "<td></td>")).join("");
  return `<tr class="sheet-levels"><th colspan="2"><span class="sr">${esc(t("levels"))}</span></th>${cells}</tr>`;
}

export function initProgress(send, notify, down) {
  P.send = send;
  P.notify = notify;
  P.down = down;
  new MutationObserver(markSoon).observe(document.body, { childList: true, subtree: true });
  addEventListener("resize", markSoon);
  document.addEventListener("click", (e) => {
    const el = e.target.closest("[data-progress]");
    if (!el) return;
    e.preventDefault();
    const what = el.dataset.progress;
    if (what === "league" || what === "ratings") {
      P.tab = what;
      localStorage.setItem("batak.progressTab", what);
      renderProgress();
    } else if (what === "refresh") progressRequests();
  });
}

// Another player on this page (a login, a logout, an account deleted): what was shown was the
// last one's, until the new figures come.
export function forgetProgress() {
  P.me = null;
  P.league = null;
  renderProgress();
}

export function progressRequests() {
  if (!P.send) return;
  P.send({ type: "progress", ref: "progress" });
  P.send({ type: "league", ref: "league" });
  P.send({ type: "ratings", ref: "ratings" });
}

// A message from the server: true when it was one of this module's.
export function onProgress(m) {
  switch (m.type) {
    case "progress": P.me = m.progress; renderProgress(); return true;
    case "league": P.league = m; renderProgress(); return true;
    case "ratings": P.ratings = m.players; renderProgress(); return true;
    case "awarded": onAwarded(m); return true;
    default: return false;
  }
}

function onAwarded(m) {
  P.awarded.set(m.table, m);
  const parts = [m.idle ? t("xp_idle") : t("xp_gained", { xp: m.xp_gained })];
  if (m.level > m.level_before) parts.push(t("level_up", { n: m.level }));
  if (m.rating) parts.push(t("rating_now", { rating: ratingText(m.rating) }));
  P.notify(parts.join(" · "), m.table);
  progressRequests();
}

// What the player got from a finished table, as a sync of it carries it (a reload, coming back
// to the table, another language): kept for the match-over window, told no second time.
export function keepAwarded(table, awarded) {
  if (awarded) P.awarded.set(table, { ...awarded, table });
}

// What a finished match earned, for the match-over dialog ("" until the server said).
export function awardedHTML(tableId) {
  const m = P.awarded.get(tableId);
  if (!m) return "";
  // the total kept on one line ("1." and "seviye" were split on a phone); after the long
  // reason for no XP, on a line of its own (not left hanging after a "·")
  const total = `<span class="nowrap">${esc(t("xp_total", { xp: m.xp, n: m.level }))}</span>`;
  const rows = m.idle
    ? [`<li data-testid="awarded-xp">${esc(t("xp_idle"))}</li>`, `<li data-testid="awarded-total">${total}</li>`]
    : [`<li data-testid="awarded-xp">${esc(t("xp_gained", { xp: m.xp_gained }))} · ${total}</li>`];
  if (m.level > m.level_before) rows.push(`<li><b>${esc(t("level_up", { n: m.level }))}</b></li>`);
  if (m.rating) {
    const d = tenths(m.rating.ordinal - m.rating_before.ordinal);
    rows.push(`<li>${esc(t("rating_change", { rating: ratingText(m.rating), change: (d >= 0 ? "+" : "") + dec(d) }))}</li>`);
  }
  if (m.league) rows.push(`<li>${esc(t("league_points_now", { tier: t("tier_" + m.league.tier), points: m.league.points }))}</li>`);
  return `<ul class="plain awarded" data-testid="awarded">${rows.join("")}</ul>`;
}

function leftText(seconds) {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  if (d) return t("league_ends", { d, h });
  return h ? t("league_ends_hours", { h }) : t("league_ends_soon"); // not "0 d 18 h", "0 h"
}

/* "2026-W49" (the ISO week the server names) as people say it: "week 49 of 2026" */
function weekText(label) {
  const m = /^(\d{4})-W(\d{1,2})$/.exec(String(label));
  return m ? t("league_week", { year: m[1], n: Number(m[2]) }) : String(label);
}

function leagueHTML() {
  const L = P.league;
  if (!L) return `<p class="help" data-testid="progress-waiting">${esc(waitingText())}</p>`;
  if (!L.eligible) return `<p class="help" data-testid="league-guest">${esc(t("league_guest"))}</p>`;
  const head = `<p><b data-testid="league-tier" class="tier tier-${esc(L.tier)}">${esc(t("tier_" + L.tier))}</b> · ${esc(weekText(L.week))} · ${esc(leftText(L.seconds_left))}</p>`;
  const rows = L.standings.map((r) => {
    const mine = P.me && r.player === P.me.player;
    const zone = r.zone !== "stay" ? `<span class="zone zone-${r.zone}" title="${esc(t("zone_" + r.zone))}">${r.zone === "up" ? "▲" : "▼"}</span>` : "";
    return `<tr class="${mine ? "mine " : ""}zone-row-${r.zone}"><td class="num">${r.place}</td>${nameCell(r.name, levelBadge(r.level))}<td class="num">${r.points}</td><td class="num">${r.matches}</td><td>${zone}</td></tr>`;
  }).join("");
  const table = L.standings.length
    ? `<table class="stats league" data-testid="league"><thead><tr><th class="num">#</th><th>${esc(t("player"))}</th><th class="num">${esc(t("league_points"))}</th><th class="num">${esc(t("stat_matches"))}</th><th><span class="sr">${esc(t("league_zone"))}</span></th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p class="help" data-testid="league-empty">${esc(t("league_join"))}</p>`;
  const last = L.last ? `<p class="help" data-testid="league-last">${esc(t("league_last", { place: L.last.place, tier: t("tier_" + L.last.tier), outcome: t("outcome_" + L.last.outcome) }))}</p>` : "";
  return `${head}${table}<p class="help">${esc(t("league_help"))}</p>${last}`;
}

function ratingsHTML() {
  const rows = P.ratings || [];
  if (!rows.length) return `<p class="help" data-testid="ratings-empty">${esc(t("ratings_empty"))}</p>`;
  return `<table class="stats ratings" data-testid="ratings"><thead><tr><th class="num">#</th><th>${esc(t("player"))}</th><th class="num">${esc(t("rating"))}</th><th class="num">${esc(t("stat_matches"))}</th></tr></thead><tbody>${rows.slice(0, 20).map((r) => `<tr class="${P.me && r.player === P.me.player ? "mine" : ""}"><td class="num">${r.rank}</td>${nameCell(r.name, levelBadge(r.level))}<td class="num">${esc(ratingText(r.rating))}</td><td class="num">${r.matches}</td></tr>`).join("")}</tbody></table><p class="help">${esc(t("ratings_help"))}</p>`;
}

function meHTML() {
  const p = P.me;
  if (!p) return "";
  const span = Math.max(1, p.next_level_xp - p.level_xp);
  const pct = Math.max(0, Math.min(100, Math.round((100 * (p.xp - p.level_xp)) / span)));
  const rating = p.rating
    ? `<p data-testid="my-rating">${esc(t("rating"))}: <b>${esc(ratingText(p.rating))}</b> <span class="help">(${esc(t("rated_matches", { n: p.rated_matches }))})</span></p>`
    : `<p class="help" data-testid="my-rating">${esc(t("unrated_guest"))}</p>`;
  return `<p data-testid="my-level"><b>${esc(t("level_n", { n: p.level }))}</b> · ${esc(t("xp_of", { xp: p.xp, next: p.next_level_xp }))}</p>
    <progress class="xpbar" max="100" value="${pct}" aria-label="${esc(t("xp_progress"))}"></progress>
    ${rating}`;
}

// What the box says while the league has not come: the connection is down, or being made.
function waitingText() {
  return t(P.down() ? "offline" : "connecting");
}

// The connection's state changed: the box's waiting words follow it (the rest is not redrawn).
export function renderProgressWaiting() {
  const el = document.querySelector("[data-testid=progress-waiting]");
  if (el) el.textContent = waitingText();
}

export function renderProgress() {
  const box = document.querySelector("#progress-box");
  if (!box) return;
  const tabs = ["league", "ratings"].map((k) => `<button class="tab${P.tab === k ? " active" : ""}" role="tab" aria-selected="${P.tab === k}" data-progress="${k}" data-testid="tab-${k}">${esc(t(k === "league" ? "weekly_league" : "rated_leaderboard"))}</button>`).join("");
  box.innerHTML = `<h2 id="h-progress">${esc(t("progress"))} <button class="small" data-progress="refresh">${esc(t("refresh"))}</button></h2>
    ${meHTML()}
    <div class="tabs" role="tablist">${tabs}</div>
    <div class="tab-body" role="tabpanel" data-testid="progress-panel">${P.tab === "league" ? leagueHTML() : ratingsHTML()}</div>`;
}
