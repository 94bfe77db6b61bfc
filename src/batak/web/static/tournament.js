// Duplicate tournaments (issue 13 item 4): the list, scheduling one, registering, and a
// tournament's rounds, tables and live standings. The server pairs, seats and scores; this
// module only shows what the "tourneys" and "tourney" messages say (docs/protocol.md).
import { lang, t } from "./i18n.js";
import { nameCell, shortOnPhone } from "./progress.js";
import { botAccountTag } from "./result.js";

const TS = { list: null, current: null, missing: null, asked: null }; // missing: {id, message} of a refused page
// asked: the registration or withdrawal sent and not answered yet. A connection lost before its
// answer (in a cluster: the tournament's process went away, 1012) may or may not have carried
// it: once connected again the page sends it again (each is idempotent: registered twice is
// registered once) and asks the tournament again, so it shows whether the person is registered.
// A start is not sent again: the tournament asked again shows whether it started.

export function route(p) {
  let m;
  if (p === "/tournaments") return { page: "tournaments" };
  if ((m = p.match(/^\/tournaments\/([\w-]+)$/))) return { page: "tournament", id: m[1] };
  return null;
}

export function request(ctx, r) {
  if (r.page === "tournaments") ctx.send({ type: "tourney_list" });
  if (r.page !== "tournament" || (TS.asked && TS.asked.tournament !== r.id)) TS.asked = null;
  if (TS.asked) ctx.send(TS.asked);
  if (r.page === "tournament") ctx.send({ type: "tourney", tournament: r.id, ref: "tourney" });
}

// A registration or withdrawal, kept until it is answered (TS.asked)
function ask(ctx, type, id) {
  const msg = { type, tournament: id, ref: type };
  TS.asked = ctx.send(msg) ? msg : null;
}

function answered(m) {
  if (TS.asked && m.ref === TS.asked.ref) TS.asked = null;
}

// The server refused the page's own request (no such tournament): the page says so, with the
// ways on, instead of "Connecting…" for good. True when handled.
export function onError(ctx, m) {
  answered(m); // (refused: said as any refusal is)
  const r = ctx.route();
  if (m.ref !== "tourney" || r.page !== "tournament") return false;
  TS.missing = { id: r.id, message: m.message };
  render(ctx, r);
  return true;
}

export function onMessage(ctx, m) {
  const r = ctx.route();
  if (m.type === "tourneys") {
    TS.list = m.tournaments;
    if (r.page === "tournaments") render(ctx, r);
  } else if (m.type === "tourney") {
    answered(m);
    TS.current = m.tournament;
    if (m.ref === "tourney_create") return ctx.go(`/tournaments/${m.tournament.id}`);
    if (r.page === "tournament" && r.id === m.tournament.id) render(ctx, r);
    if (r.page === "tournaments") ctx.send({ type: "tourney_list" });
  } else if (m.type === "tourney_table") {
    // in the middle of a match at another table: told, with a button to go (taken there at
    // once, the match in play was left to a computer player without a word); else taken there
    if (ctx.playingElsewhere(m.table)) return ctx.callToTable(m);
    ctx.notify(t("tourney_your_table", { round: m.round }));
    ctx.go(`/table/${m.table}`);
  }
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang() === "tr" ? "tr-TR" : "en-GB",
    { dateStyle: "medium", timeStyle: "short" });
}

// The time zone the start time is read in (the browser's own: "Europe/Istanbul").
function zone() {
  try { return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"; } catch { return "UTC"; }
}

// The start's day and time, chosen from two lists written in the page's language (Chromium's
// own date field is written in the browser's: a US date and "AM" on a Turkish page): the next
// 60 days ("Salı 8 Aralık 2026"), and the day's quarter hours in 24 hours ("19:00").
const pad = (n) => String(n).padStart(2, "0");
const dayValue = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

function startFieldsHTML(esc, soon) {
  const locale = lang() === "tr" ? "tr-TR" : "en-GB";
  const today = new Date();
  today.setHours(12, 0, 0, 0); // (midday: a day's name never slips with a change of the clocks)
  const days = Array.from({ length: 60 }, (_, i) => {
    const d = new Date(today);
    d.setDate(today.getDate() + i);
    return d;
  });
  const chosenDay = dayValue(soon);
  const chosenTime = `${pad(soon.getHours())}:${pad(soon.getMinutes())}`;
  const dayOptions = days.map((d) => `<option value="${dayValue(d)}"${dayValue(d) === chosenDay ? " selected" : ""}>${esc(d.toLocaleDateString(locale, { weekday: "long", day: "numeric", month: "long", year: "numeric" }))}</option>`).join("");
  const times = Array.from({ length: 96 }, (_, i) => `${pad(Math.floor(i / 4))}:${pad((i % 4) * 15)}`);
  const timeOptions = times.map((x) => `<option value="${x}"${x === chosenTime ? " selected" : ""}>${x}</option>`).join("");
  return `<label>${esc(t("tourney_start_at"))} <span class="help" data-testid="tourney-zone">(${esc(zone())})</span><select name="start_day" data-testid="tourney-day">${dayOptions}</select></label>
        <label>${esc(t("tourney_start_time"))}<select name="start_time" data-testid="tourney-time">${timeOptions}</select></label>`;
}

function statusText(s) {
  return t("tourney_status_" + s);
}

function points(x) {
  return lang() === "tr" ? String(x).replace(".", ",") : String(x);
}

export function render(ctx, r) {
  const { esc } = ctx;
  if (r.page === "tournaments") return renderList(ctx);
  const d = TS.current && TS.current.id === r.id ? TS.current : null;
  if (!d && TS.missing && TS.missing.id === r.id) {
    ctx.app().innerHTML = `<p class="center sentence" data-testid="tourney-missing">${esc(TS.missing.message)}.
      <a href="/tournaments" data-action="nav" data-href="/tournaments">${esc(t("tournaments"))}</a>
      · <a href="/" data-action="nav" data-href="/">${esc(t("back_to_lobby"))}</a></p>`;
    return;
  }
  if (!d) {
    ctx.app().innerHTML = `<p class="center">${esc(t("connecting"))}</p>`;
    return;
  }
  const me = ctx.player();
  const registered = me && d.registered.some((p) => p.id === me.id);
  let buttons = "";
  if (d.status === "scheduled" && me) {
    buttons += registered
      ? `<button data-action="tourneyLeave" data-id="${esc(d.id)}" data-testid="tourney-leave">${esc(t("tourney_unregister"))}</button>`
      : `<button class="primary" data-action="tourneyJoin" data-id="${esc(d.id)}" data-testid="tourney-join">${esc(t("tourney_register"))}</button>`;
    // its creator, or an operator (the welcome says so): the server lets them start it
    const creator = d.creator_id != null ? d.creator_id === me.id : d.creator === me.name;
    if (me.account && (creator || ctx.operator())) {
      buttons += ` <button data-action="tourneyStart" data-id="${esc(d.id)}" data-testid="tourney-start">${esc(t("tourney_start_now"))}</button>`;
    }
  }
  // the player's own table of the round: to be played, not watched
  const mine = (x) => me && (x.players || []).includes(me.id);
  // the bot accounts registered (programs run with `batak bot`), tagged as at a table
  const bots = new Set(d.registered.filter((p) => p.bot).map((p) => p.id));
  const tag = (id) => (id && bots.has(id) ? botAccountTag() : "");
  const rounds = [];
  for (let n = 1; n <= d.round; n++) {
    const tables = d.tables.filter((x) => x.round === n);
    rounds.push(`<h3>${esc(t("tourney_round_n", { n, of: d.rounds }))}</h3>
      <ul class="plain tourney-tables">${tables.map((x) => `<li><b>${esc(t("tourney_table_n", { n: x.number }))}</b>
        <span>${x.names.map((name, i) => `${esc(name || t("removed_player"))}${tag((x.players || [])[i])} <span class="num">${x.totals[i]}</span>`).join(" · ")}</span>
        <span class="help">${esc(t("tourney_deals_played", { n: x.deals_played, of: d.deals }))}</span>
        ${x.over ? `<a href="${esc(x.record)}" download>${esc(t("tourney_record"))}</a>`
          : mine(x) ? `<button class="primary" data-action="nav" data-href="/table/${esc(x.id)}" data-testid="tourney-go-table">${esc(t("tourney_go_table"))}</button>`
          : `<a href="/table/${esc(x.id)}" data-action="nav" data-href="/table/${esc(x.id)}">${esc(t("tourney_watch"))}</a>`}</li>`).join("")}</ul>`);
  }
  // the numbers' headings as a phone has room for (shortOnPhone): "Matchpoints" took the width
  // a name needs ("robotur" cut to "rob…" beside its bot tag)
  const standings = d.standings.length ? `<div class="scroll-x"><table class="stats" data-testid="tourney-standings">
      <thead><tr><th class="num">${esc(t("tourney_rank"))}</th><th>${esc(t("tourney_player"))}</th>${shortOnPhone("tourney_mp", "tourney_mp_short")}<th class="num">${esc(t("tourney_score"))}</th>${shortOnPhone("tourney_boards", "tourney_boards_short")}</tr></thead>
      <tbody>${d.standings.map((s) => `<tr${me && s.player === me.id ? ` class="me"` : ""}><td class="num">${s.rank}</td>${nameCell(s.name || t("removed_player"), s.bot ? botAccountTag() : "")}<td class="num">${esc(points(s.mp))}</td><td class="num">${s.score}</td><td class="num">${s.boards}</td></tr>`).join("")}</tbody>
    </table></div>` : `<p class="help">${esc(t("tourney_nobody"))}</p>`;
  ctx.app().innerHTML = `<div class="lobby tourney">
    <section class="card-box">
      <p><a href="/tournaments" data-action="nav" data-href="/tournaments">← ${esc(t("tournaments"))}</a></p>
      <h2 data-testid="tourney-name">${esc(d.name)}</h2>
      <p><span class="tag">${esc(statusText(d.status))}</span> ${esc(t("tourney_summary", { preset: ctx.presetTitle(d.preset), rounds: d.rounds, deals: d.deals, players: d.players }))}</p>
      <p class="help">${esc(t(d.status === "scheduled" ? "tourney_starts" : "tourney_started", { when: when(d.start_at), by: d.creator || t("removed_player") }))}</p>
      <p class="help">${esc(t("tourney_duplicate_help"))}</p>
      <p>${buttons}</p>
    </section>
    <section class="card-box">
      <h2>${esc(t("tourney_standings"))}</h2>
      ${standings}
      ${rounds.join("")}
    </section>
  </div>`;
}

function renderList(ctx) {
  const { esc } = ctx;
  const me = ctx.player();
  const list = TS.list || [];
  const listed = ctx.presets();
  const presets = listed.length ? listed : ["standard"];
  // a full hour at least half an hour away (the next full hour could be a minute off, and
  // the tournament would start before anyone could register)
  const soon = new Date(Date.now() + 5400 * 1000);
  soon.setMinutes(0, 0, 0);
  const form = me && me.account ? `<form id="tourney-form" data-action="tourneyCreate">
      <label>${esc(t("tourney_name"))}<input name="name" maxlength="40"></label>
      <div class="grid2">
        <label>${esc(t("preset"))}<select name="preset">${presets.map((p) => `<option value="${esc(p)}">${esc(ctx.presetTitle(p))}</option>`).join("")}</select></label>
        <label>${esc(t("tourney_rounds"))}<input name="rounds" type="number" min="1" max="10" value="3"></label>
        <label>${esc(t("tourney_deals"))}<input name="deals" type="number" min="1" max="12" value="4"></label>
        ${startFieldsHTML(esc, soon)}
      </div>
      <button type="submit" class="primary" data-testid="tourney-create">${esc(t("tourney_schedule"))}</button>
    </form>` : `<p class="help">${esc(t("tourney_need_account"))}</p>`;
  ctx.redraw(`<div class="lobby tourney">
    <section class="card-box">
      <p><a href="/" data-action="nav" data-href="/">← ${esc(t("back_to_lobby"))}</a></p>
      <h2>${esc(t("tournaments"))}</h2>
      <p class="help">${esc(t("tourney_duplicate_help"))}</p>
      ${list.length ? `<ul class="plain tables" data-testid="tourney-list">${list.map((d) => `<li><span><b>${esc(d.name)}</b> · ${esc(statusText(d.status))} · ${esc(when(d.start_at))} · ${esc(t(d.players === 1 ? "tourney_players_one" : "tourney_players_n", { n: d.players }))}${d.registered && d.status !== "over" ? " · " + esc(t("tourney_you_are_in")) : ""}</span>
        <button data-action="nav" data-href="/tournaments/${esc(d.id)}">${esc(t("tourney_open"))}</button></li>`).join("")}</ul>`
        : `<p class="help">${esc(t("tourney_none"))}</p>`}
    </section>
    <section class="card-box">
      <h2>${esc(t("tourney_create_title"))}</h2>
      ${form}
    </section>
  </div>`);
}

export function actions(ctx) {
  return {
    tourneyCreate(form) {
      const start = Math.round(new Date(`${form.start_day.value}T${form.start_time.value}`).getTime() / 1000);
      const msg = { type: "tourney_create", preset: form.preset.value, rounds: Number(form.rounds.value), deals: Number(form.deals.value), ref: "tourney_create" };
      if (form.name.value.trim()) msg.name = form.name.value.trim();
      // a start already past would start it at once: said, and asked (a typo in the date, an
      // hour mistaken for another), rather than started without a word
      if (start && start < Math.floor(Date.now() / 1000)) {
        if (!confirm(t("tourney_start_past", { when: when(start) }))) return;
        msg.start = Math.floor(Date.now() / 1000);
      } else if (start) msg.start = start;
      ctx.sendOnce(msg); // a double click schedules one tournament
    },
    tourneyJoin(el) { ask(ctx, "tourney_join", el.dataset.id); },
    tourneyLeave(el) { ask(ctx, "tourney_leave", el.dataset.id); },
    tourneyStart(el) { ctx.sendOnce({ type: "tourney_start", tournament: el.dataset.id, ref: `tourney_start:${el.dataset.id}` }); },
  };
}
