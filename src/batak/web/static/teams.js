// Eşli (partners) at the web table (issue 10, item 6): the partner is marked, the two teams have
// colours, both teams' tricks are counted against the contract, and the score sheet has one
// column per team: "Us" / "Them" ("Biz" / "Onlar") for a player, the team's seats for a
// spectator. Seats 0 and 2 are one team, 1 and 3 the other (rules.teams).
import { t } from "./i18n.js";
import { SYMBOL } from "./cards.js";
import { dealCell } from "./review.js";

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function partners(T) {
  return !!(T.info && T.info.rules.partners && T.info.rules.players === 4);
}

// The team of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3.
const teamOf = (seat) => seat % 2;

// This browser's team first ("us"), then the other; a spectator sees seat 0's team first.
function order(T) {
  const mine = T.you != null ? teamOf(T.you) : 0;
  return [mine, 1 - mine];
}

// A team's name: "Us"/"Them" for a player, "Ali & Veli" for a spectator.
function teamName(T, team, seatName) {
  if (T.you != null) return t(teamOf(T.you) === team ? "team_us" : "team_them");
  return `${seatName(team)} & ${seatName(team + 2)}`;
}

// The seat's extra class and label: "team-us"/"team-them", and "partner" on the partner's seat.
export function seatTeam(T, seat) {
  if (!partners(T)) return { cls: "", label: null };
  const [us] = order(T);
  const cls = teamOf(seat) === us ? " team-us" : " team-them";
  const label = T.you != null && seat === (T.you + 2) % 4 ? t("partner") : null;
  return { cls, label };
}

// Both teams' tricks against the contract, in a corner of the felt.
export function teamBoardHTML(T, seatName) {
  if (!partners(T) || !T.view || T.view.phase === "bidding") return "";
  const v = T.view;
  const c = v.contract;
  const rows = order(T).map((team) => {
    const won = v.tricks_won[team] + v.tricks_won[team + 2];
    const bidding = c && teamOf(c.bidder) === team;
    // the bidding team needs its bid; the other team sets the contract with 14 - bid tricks
    const need = c && c.bid != null ? (bidding ? c.bid : 14 - c.bid) : null;
    const goal = need != null ? ` / ${need}` : "";
    const what = c ? t(bidding ? "team_bidding" : "team_defending") : "";
    const us = T.you != null && teamOf(T.you) === team;
    return `<div class="team-row ${us || (T.you == null && team === 0) ? "team-us" : "team-them"}" data-testid="team-${us ? "us" : "them"}">
      <b title="${esc(teamName(T, team, seatName))}">${esc(teamName(T, team, seatName))}</b> <span class="team-tricks" data-testid="team-tricks">${won}${goal}</span>${what ? ` <small>${esc(what)}</small>` : ""}</div>`;
  });
  // (a named group: a name on a div with no role may go unread)
  return `<div class="team-board" role="group" data-testid="team-board" aria-label="${esc(t("tricks"))}">${rows.join("")}</div>`;
}

// A name in the score sheet, as in the solo sheet: it wraps between words, a word longer than
// its column is cut with an ellipsis, and the whole name is its tooltip.
function named(text) {
  return `<span class="pname" title="${esc(text)}">${esc(text)}</span>`;
}

// The score sheet with one column per team.
export function teamSheetHTML(T, seatName, seatLabel, sentence) {
  const rows = T.sheet;
  const teams = order(T);
  const head = `<tr><th>${esc(t("sheet_deal"))}</th><th>${esc(t("sheet_contract"))}</th>${teams.map((team) => `<th data-testid="team-column"${T.you == null ? ' class="names"' : ""}>${named(teamName(T, team, seatName))}</th>`).join("")}</tr>`;
  const body = rows.map((r) => {
    let con = "";
    let result = "";
    if (r.redeal) con = esc(t("sheet_redeal"));
    else if (r.bidder != null) {
      con = `${named(seatLabel(r.bidder))}${r.bid != null ? `: ${r.bid}` : ""}${r.trump ? ` <span class="suit-${r.trump}">${SYMBOL[r.trump]}</span>` : ""}`;
      if (r.bid != null && r.tricks) {
        const won = r.tricks[r.bidder] + r.tricks[(r.bidder + 2) % 4];
        const made = won >= r.bid;
        result = ` <span class="${made ? "made" : "down"}" data-testid="sheet-result">${esc(made ? sentence(r.bidder, "sheet_made", "sheet_made_you", { won, bid: r.bid }) : sentence(r.bidder, "sheet_down", "sheet_down_you", { won, bid: r.bid }))}</span>`;
      }
    }
    const cells = teams.map((team) => {
      const tk = r.tricks ? String(r.tricks[team] + r.tricks[team + 2]) : "";
      const pts = r.scores ? `${r.scores[team] > 0 ? "+" : ""}${r.scores[team]}` : "–";
      const bidder = r.bidder != null && teamOf(r.bidder) === team;
      return `<td class="num${bidder ? " bidder" : ""}"><span class="tk" data-testid="sheet-tricks">${tk}</span> ${pts}<small> (${r.totals[team]})</small></td>`;
    }).join("");
    return `<tr>${dealCell(r)}<td>${con}${result}</td>${cells}</tr>`;
  }).join("");
  const totals = rows[rows.length - 1].totals;
  return `<table class="sheet teams" data-testid="sheet"><thead>${head}</thead><tbody>${body}</tbody><tfoot><tr><th colspan="2">${esc(t("sheet_total"))}</th>${teams.map((team) => `<th class="num" data-testid="team-total">${totals[team]}</th>`).join("")}</tr></tfoot></table><p class="help sheet-legend">${esc(t("sheet_legend_teams"))}</p>`;
}
