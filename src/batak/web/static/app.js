// The Batak web client: lobby, tables, rules pages. It speaks the server's websocket protocol
// (docs/protocol.md) and holds no rules of its own: legal moves, refusals and hints come from
// the server, which asks the engine.
import { NAMES, TEXT, initialLang, lang, nextLang, pick, setLang, t } from "./i18n.js";
import { SYMBOL, backSVG, cardLabel, cardName, cardSVG, rankLabel, rankOf, sortHand, suitOf } from "./cards.js";
import * as tourney from "./tournament.js";
import * as story from "./story.js";
import { fairHTML, noteDealOver } from "./fair.js";
import { chipsBoxHTML, chipsNumber, chipsRequests, leaveConfirmText, onChipsMessage, payoutHTML, quickStake, stakeChosen, stakeSelectHTML, stakeShortText, tableChipsHTML } from "./chips.js";
import { awardedHTML, forgetProgress, initProgress, keepAwarded, levelBadge, nameCell, onProgress, progressRequests, renderProgress, renderProgressWaiting, sheetLevelsHTML, shortOnPhone } from "./progress.js";
import * as motion from "./motion.js";
import { askWallet, botAccountTag, initResult, matchOverHTML, onDealOver, onRematch, resultActions, resultCentre } from "./result.js";
import { registerServiceWorker } from "./pwa.js";
import { applyLook, estimateShown, lookHTML, setBack, setFelt, toggleEstimate } from "./prefs.js";
import { partners as teamsPlay, seatTeam, teamBoardHTML, teamSheetHTML } from "./teams.js";
import { breakRowsBySuit, cardClicked, continueBurial, dealKoz, handHTML, handKey, handLabel, handPanelHTML, kittyHTML, skipToPlay } from "./hand.js";
import { askReview, dealCell, lineHTML, onReview, onReviewError, resendReview, reviewHTML } from "./review.js";

// ------------------------------------------------------------------ state
const S = {
  token: localStorage.getItem("batak.token"),
  name: localStorage.getItem("batak.name") || "",
  player: null,
  welcome: null,
  tried: false, // a connection closed (dropped, or a try failed): see connectionDown
  ws: null,
  online: false,
  retries: 0,
  retryTimer: null,
  pingTimer: null,
  lastPong: 0,
  lastPing: 0, // when the heartbeat last sent a ping
  pending: new Map(), // move id → message, until acknowledged or refused
  resent: new Set(), // ids of pending moves sent again after a reconnect
  chatSent: null, // the last chat line sent: back into the box if the server refuses it
  lobby: null,
  catalog: null,
  table: null, // see newTable()
  spectate: new Set(), // tables this browser watches rather than plays
  notice: null,
  invitations: [], // invitations to a room from other players, newest first, until answered
  joining: null, // a code from an invite link, joined once connected
  formPreset: "standard",
  stats: null,
  leaderboard: null,
  mytables: [],
  pendingLogin: null,
  nameChanged: false, // the name was typed here and not yet sent (hello)
  sound: localStorage.getItem("batak.sound") !== "off", // the turn signal, remembered
  audio: null, // an AudioContext, made at the first click (browsers start sound on a gesture)
};

function newTable(id) {
  return {
    id, v: 0, you: null, info: null, view: null, clock: null, clockAt: 0, sheet: [],
    chat: [], chatUnread: 0, chatNote: null, hint: null, estimate: null, estimateFor: null, refused: null, dialog: null,
    dealOver: null, over: null, bubbles: {}, hold: {}, watchers: 0,
  };
}

// ------------------------------------------------------------------ small helpers
const app = () => document.getElementById("app");
const $ = (sel, root = document) => root.querySelector(sel);

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function randomId() {
  const a = new Uint8Array(9);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
}

// A notice is a text, or a function that writes it in the language shown: after a language
// switch the one is written again and the other dropped. A notice about a table (``table``, its
// id) goes when the player leaves that table.
// A notice stays 6 s, and a long one long enough to be read (0.3 s a word, at most 12 s).
function notify(text, kind = "info", table = null) {
  S.notice = { text, kind, table, lang: lang(), at: Date.now() };
  renderNotice();
  const words = (typeof text === "function" ? text() : String(text)).split(/\s+/).length;
  clearTimeout(notify.timer);
  notify.timer = setTimeout(() => { S.notice = null; renderNotice(); }, Math.min(12000, Math.max(6000, 2000 + 300 * words)));
}

// ------------------------------------------------------------------ routing
function route() {
  const p = location.pathname.replace(/\/+$/, "") || "/";
  let m;
  if ((m = p.match(/^\/table\/([\w-]+)$/))) return { page: "table", id: m[1] };
  if ((m = p.match(/^\/join\/([\w-]+)$/))) return { page: "join", code: m[1].toUpperCase() };
  if (p === "/rules") return { page: "rules" };
  if ((m = p.match(/^\/rules\/([\w-]+)$/))) return { page: "rules", preset: m[1] };
  if (p === "/") return { page: "lobby" };
  return tourney.route(p) || story.route(p) || { page: "missing" };
}

function go(path, replace = false) {
  const moved = location.pathname !== path;
  if (moved) history[replace ? "replaceState" : "pushState"]({}, "", path);
  onRoute();
  // another page opens at its top (the lobby after a table, with its header in view), not
  // where the page before had been scrolled to
  if (moved) window.scrollTo(0, 0);
}

// Seated at a match in play: the others wait for this player's decisions.
function seatedInPlay(T) {
  return !!(T && T.you != null && T.info && T.info.status === "playing");
}

// ... and another person is at the table, waiting (as far as the page can tell: where the
// table hides its bots, every seat looks like a person). Alone with bots (a story table, a room
// of one), nobody waits, and the seat is kept for the player's return.
function othersWaiting(T) {
  return seatedInPlay(T) && T.info.seats.some((s) => s.seat !== T.you && s.connected);
}

function onRoute() {
  const r = route();
  const before = S.table;
  if (r.page === "table") {
    if (!S.table || S.table.id !== r.id) S.table = newTable(r.id);
    if (S.online) joinTable(r.id);
  } else {
    S.table = null;
  }
  // away from a match in play where others wait (the lobby's link, the browser's Back, an
  // invitation): a computer player takes the seat at once, as when leaving the table, and the
  // player may come back; the others would otherwise wait out this player's clock at every
  // turn. Only this page leaves ("here"): a second device still at the table plays on.
  if (before && before !== S.table && othersWaiting(before)) send({ type: "leave", table: before.id, here: true });
  if (S.notice && S.notice.table && (r.page !== "table" || r.id !== S.notice.table)) S.notice = null;
  if (r.page === "join") {
    S.joining = r.code;
    if (S.online && !needsName()) send({ type: "join", code: r.code, ref: "invite" });
    else if (S.online) send({ type: "room", code: r.code, ref: "room" }); // shown while asked the name
  }
  if (r.page === "lobby" && S.online) lobbyRequests();
  if (S.online) featureRequests(r);
  loadCatalog(); // every page names tables by their titles (the lobby, a table, a tournament)
  render();
}

async function loadCatalog() {
  if (S.catalog) return;
  try {
    const res = await fetch("/api/rules");
    if (!res.ok) throw new Error(`/api/rules: ${res.status} ${res.statusText}`); // tried again on the next page
    S.catalog = await res.json();
    render();
  } catch (e) {
    notify(t("error", { message: String(e) }), "error");
  }
}

// What the private-room form offers at a preset (GET /api/rules/form?preset=NAME: its choices,
// the pairs refused together, the changes a choice brings with it, ...), fetched when a player
// first uses the form with that preset chosen, not on every visit. Until it comes the form
// offers the table's own rules; if it cannot come (offline, or an older server without it)
// the form says so and makes rooms with the table's own rules, and asks again the next time
// it is used. S.forms: each preset's form, or "loading", or "failed".
async function loadForms() {
  const p = formPresetNow();
  if (!p) return;
  S.forms = S.forms || {};
  const had = S.forms[p.name];
  if (had && had !== "failed") return;
  S.forms[p.name] = "loading";
  if (had !== "failed") renderCreateOptions(); // (a failure stays said while asked again)
  try {
    const res = await fetch("/api/rules/form?preset=" + encodeURIComponent(p.name));
    if (!res.ok) throw new Error(`/api/rules/form: ${res.status} ${res.statusText}`);
    const forms = await res.json();
    const form = forms && forms[p.name];
    if (!form || !form.choices || !form.clashes) throw new Error("/api/rules/form");
    S.forms[p.name] = form;
  } catch (e) {
    S.forms[p.name] = "failed";
  }
  if ((S.formPreset || S.catalog.presets[0].name) !== p.name) return;
  renderCreateOptions();
  // a number typed in a match field while the data was on its way: the change it needs made
  // now, as if typed afterwards (a target at standard sets the tie-break it needs)
  const f = $("#create-form");
  if (!presetForm(p) || !f) return;
  for (const name of Object.keys(MATCH_FIELDS)) if (formValue(f, p, name) === "#") applyCompanion(name);
  renderCreateWords();
}

// The preset chosen in the private-room form (the first until one is chosen), or null before
// the catalog comes
function formPresetNow() {
  return S.catalog && (S.catalog.presets.find((x) => x.name === S.formPreset) || S.catalog.presets[0]);
}

// The form's data for a preset (null: not fetched, or not there)
function presetForm(p) {
  const form = S.forms && S.forms[p.name];
  return form && typeof form === "object" && form.choices && form.clashes ? form : null;
}

// A statistic as the reader's language writes numbers: 1.200 in Turkish, 1,200 in English.
function number(x) {
  return Number(x).toLocaleString(lang(), { maximumFractionDigits: 2 });
}

// A number with one decimal, the reader's way ("32,5" in Turkish, "32.5" in English): an
// average in a column has as many decimals on every row (33,75 under 32,5 and 7 did not line up).
function decimal(x) {
  return Number(x).toLocaleString(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

// ------------------------------------------------------------------ connection
function wsUrl() {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
}

function connect() {
  clearTimeout(S.retryTimer);
  let ws;
  try {
    ws = new WebSocket(wsUrl());
  } catch (e) {
    scheduleReconnect();
    return;
  }
  S.ws = ws;
  ws.onopen = () => {
    const hello = { type: "hello", lang: lang(), ack_in_event: true }; // a move's event is its ack
    if (S.token) hello.token = S.token;
    // the name is sent when this device's player chose it (typed, not yet taken by the server),
    // or for a new guest: a name kept from before would otherwise rename an account (a guest
    // who registered or logged in is called by the account's name from then on)
    if (S.name && (S.nameChanged || !S.token)) hello.name = S.name;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (e) => {
    S.lastPong = Date.now(); // any message shows the connection is alive
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    onMessage(msg);
  };
  ws.onclose = () => {
    if (S.ws !== ws) return;
    S.online = false;
    S.tried = true; // (a page opened while the server is down: no longer "connecting")
    S.ws = null;
    clearInterval(S.pingTimer);
    for (const timer of inFlight.values()) clearTimeout(timer); // no answer will come: ask again
    inFlight.clear();
    renderStatus();
    scheduleReconnect();
  };
}

function scheduleReconnect() {
  const delay = Math.min(8000, 400 * 2 ** S.retries) * (0.8 + Math.random() * 0.4);
  S.retries += 1;
  clearTimeout(S.retryTimer);
  S.retryTimer = setTimeout(connect, delay);
}

// Reopen the socket now (a new name or language is said in a new hello).
function reconnect() {
  const ws = S.ws;
  S.ws = null;
  S.online = false;
  if (ws) ws.close();
  S.retries = 0;
  connect();
}

// A person's click or form being handled (see the listeners below): a request it makes while
// the connection is down is lost, and is said to be (a move and a review are kept and sent
// again once connected; a page's leave on going elsewhere needs nothing more: the dropped
// connection already counts as gone).
let acting = false;
const SENT_AGAIN = new Set(["move", "review", "leave"]);

function send(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    if (acting && !SENT_AGAIN.has(msg.type)) {
      acting = false; // said once for the click
      notify(() => t("offline_not_sent"), "error");
    }
    return false;
  }
  S.ws.send(JSON.stringify(msg));
  return true;
}

function act(a, ...args) {
  if (!ACTIONS[a]) return;
  acting = true;
  try { ACTIONS[a](...args); } finally { acting = false; }
}

// A request that a double click must not send twice (create a room, schedule or start a
// tournament): sent once until the server answers its `ref`, or for 10 s at most.
const inFlight = new Map();
function sendOnce(msg) {
  if (inFlight.has(msg.ref)) return false;
  if (!send(msg)) return false;
  inFlight.set(msg.ref, setTimeout(() => inFlight.delete(msg.ref), 10000));
  return true;
}
function answered(ref) {
  if (ref == null || !inFlight.has(ref)) return;
  clearTimeout(inFlight.get(ref));
  inFlight.delete(ref);
}

// Heartbeat: a connection that has heard nothing from the server for PING_EVERY ms sends a ping
// (again every PING_EVERY ms while that lasts); one that has heard nothing at all for
// SILENT_DEAD ms is dead (a dropped network can leave a socket "open" for minutes), so it is
// dropped at once, "Offline" shows, and a new connection resyncs the table. Any message shows the
// connection is alive, so at a table in play the client sends no pings (each one is a message the
// server must read and answer: the old every-3-s ping cost it about a tenth more CPU a move,
// benchmarks/README.md).
const PING_EVERY = 3000;
const SILENT_DEAD = 8000;

function startPings() {
  clearInterval(S.pingTimer);
  S.lastPong = Date.now();
  S.lastPing = 0;
  S.pingTimer = setInterval(() => {
    const now = Date.now();
    if (now - S.lastPong > SILENT_DEAD && S.ws) {
      dropDeadSocket();
      return;
    }
    if (now - S.lastPong >= PING_EVERY && now - S.lastPing >= PING_EVERY) {
      S.lastPing = now;
      send({ type: "ping", t: now });
    }
  }, 1000);
}

function dropDeadSocket() {
  const ws = S.ws;
  S.ws = null;
  S.online = false;
  clearInterval(S.pingTimer);
  if (ws) {
    ws.onmessage = null;
    ws.onclose = null;
    try { ws.close(); } catch { /* already gone */ }
  }
  renderStatus();
  S.retries = 0;
  scheduleReconnect();
}

function joinTable(id) {
  const T = S.table;
  if (T && T.id === id && T.closed) return; // closed for good while this page was at it: nothing to join
  const msg = { type: "join", table: id, ref: "join" };
  if (T && T.id === id && T.v) msg.since = T.v;
  if (S.spectate.has(id)) msg.spectate = true;
  send(msg);
}

// ------------------------------------------------------------------ messages from the server
function onMessage(m) {
  answered(m.ref);
  switch (m.type) {
    case "welcome": return onWelcome(m);
    case "sync": return onSync(m);
    case "event": return onEvent(m);
    case "ack": S.pending.delete(m.id); S.resent.delete(m.id); return;
    case "error": return onError(m);
    case "created": return go(`/table/${m.table}`); // Back returns to the lobby
    case "lobby": S.lobby = m; if (route().page === "lobby") { renderLobbyTables(); renderChips(); } return;
    case "presence": return onPresence(m);
    case "watchers": return onWatchers(m);
    case "reaction": return onReaction(m);
    case "hint": return onHint(m);
    case "rematch": return onRematch(S.table, m);
    case "closed": return onClosed(m);
    case "review": if (onReview(S.table, m)) renderDialog(); return;
    case "pong": S.lastPong = Date.now(); return;
    case "invited": return onInvited(m);
    case "invitable": if (S.table && m.table === S.table.id) { S.table.invitable = m.bots; renderFelt(); } return;
    case "ok": if (m.ref === "invite_player" && S.table) inviteNote(S.table.inviting, null); return;
    case "stats": S.stats = m.stats; renderAccount(); return;
    case "mytables": S.mytables = m.tables; renderMyTables(); return;
    case "room": S.joinRoom = { code: m.code, room: m.room }; if (route().page === "join") render(); return;
    case "my_matches": S.matches = m.matches; renderMatches(); return;
    case "leaderboard": S.leaderboard = m.players; renderAccount(); return;
    case "tourneys": case "tourney": case "tourney_table": return tourney.onMessage(CTX, m);
    case "story": return story.onMessage(CTX, m);
    case "logged_out": return onLoggedOut(m);
    case "password_changed":
      S.passwordNote = null;
      notify(() => t("password_changed", { n: m.sessions }));
      if ($("#password-form")) { // done: the passwords leave the page, the fold closes
        $("#password-form").reset();
        $("#password-form").closest("details").open = false;
      }
      renderAccount();
      return;
    case "account_deleted": return onAccountDeleted();
    case "my_data": return saveMyData(m.data);
    case "account":
      S.accountNote = null;
      S.player.account = m.username;
      if (S.welcome) S.welcome.operator = Boolean(m.operator);
      if (m.name) { // a guest name nobody chose gives way to the username
        S.player.name = m.name;
        keepName(m.name);
        showName(m.name);
      }
      notify(t("registered", { name: m.username }));
      renderAccount();
      renderMatches();
      chipsRequests(send);
      progressRequests();
      return;
    default:
      if (onChipsMessage(m, S.table)) { if (route().page === "lobby") renderChips(); else if (S.table) renderTable(); }
      else onProgress(m);
      return;
  }
}

// The session on this device ended: asked for here (a logout), or elsewhere (the password was
// changed on another device; a logout everywhere; the server's host). The token opens nothing
// now: it is forgotten, and a new connection makes this device a guest until a login.
function onLoggedOut(m) {
  let key = "logged_out_ended";
  if (m.ref === "logout") key = m.everywhere ? "logged_out_everywhere" : "logged_out_here";
  else if (m.reason === "password") key = "logged_out_password";
  else if (m.reason === "logout") key = m.everywhere ? "logged_out_all" : "logged_out_tab";
  else if (m.reason === "deleted") key = "logged_out_deleted";
  forgetSession(m.reason === "deleted");
  notify(() => t(key, { n: m.sessions }), m.ref === "logout" ? "info" : "error");
  reconnect();
}

// This device's session is over: its token opens nothing now. With ``name``, the account was
// deleted: the name this device kept for it goes too (the next guest is given a new one).
function forgetSession(name) {
  S.token = null;
  localStorage.removeItem("batak.token");
  if (name) {
    S.name = "";
    localStorage.removeItem("batak.name");
  }
  S.stats = null;
  S.passwordNote = null;
  S.deleteNote = null;
  S.accountNote = null;
}

// The player's own data (my_data), saved as a JSON file.
function saveMyData(data) {
  const who = (data.player && (data.player.username || data.player.id)) || "player";
  const file = `batak-${who}-${new Date().toISOString().slice(0, 10)}.json`;
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = file;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  notify(() => t("my_data_done", { file }), "info");
}

// This device deleted its account (delete_account): a guest from now on.
function onAccountDeleted() {
  forgetSession(true);
  notify(() => t("account_deleted"), "info");
  reconnect();
}

// The name the server calls this device's player by, kept as the one to show and, where this
// device keeps a chosen name, kept as that too (a registration or a login changes it).
function keepName(name) {
  S.name = name;
  if (localStorage.getItem("batak.name")) localStorage.setItem("batak.name", name);
}

// The lobby's name field shows ``name`` (the account's, after a registration or a login), unless
// the person is typing a new one there: a Save pressed later would otherwise send the old name
// back and rename the account.
function showName(name) {
  const input = $("#name-input");
  if (!input) return;
  if (input.value === input.defaultValue || document.activeElement !== input) input.value = name;
  input.defaultValue = name;
}

function onWelcome(m) {
  S.online = true;
  S.retries = 0;
  S.welcome = { ...(S.welcome || {}), ...m, operator: Boolean(m.operator) }; // (not kept past a logout)
  if (S.player && S.player.id !== m.player.id) forgetProgress(); // (and the new ones asked for)
  S.player = m.player;
  if (m.token) {
    S.token = m.token;
    localStorage.setItem("batak.token", m.token);
  }
  keepName(m.player.name);
  showName(m.player.name);
  S.nameChanged = false;
  startPings();
  renderStatus();
  if (S.pendingLogin) { // a login goes on a fresh connection, before any table
    send({ type: "login", ...S.pendingLogin, ref: "login" });
    S.pendingLogin = null;
    return;
  }
  if (m.player.account && m.token && !m.modes) notify(t("signed_in", { name: m.player.account }));
  const r = route();
  if (r.page === "table") joinTable(r.id);
  else if (r.page === "join" && !needsName()) send({ type: "join", code: r.code, ref: "invite" });
  else if (r.page === "join") send({ type: "room", code: r.code, ref: "room" }); // shown while asked the name
  else if (r.page === "lobby") lobbyRequests();
  featureRequests(r);
  if (r.page !== "story") send({ type: "story" }); // the characters' portraits at story tables
  render();
}

// Tournaments and the story mode (issue 13): their own modules, given what they need.
/* a preset's name as players read it ("Batak Sultan · eşli"), from the rules catalog */
function presetTitle(name) {
  const p = S.catalog && S.catalog.presets.find((x) => x.name === name);
  return p && p.title ? pick(p.title) : name;
}

// A table's name as HTML for a line that may wrap (the top bar's): the words in brackets kept on
// one line, so that a break comes before them ("Standart" / "(yaygın kurallar · ihaleli)"), not
// inside them (1024 px, Turkish: "… · / ihaleli)")
function presetTitleHTML(name) {
  const m = /^(.+) (\([^()]+\))$/.exec(presetTitle(name));
  return m ? `${esc(m[1])} <span class="nowrap">${esc(m[2])}</span>` : esc(presetTitle(name));
}

/* the tables a list offers: each set of rules once (cetinsgame-ihaleli is standard's table under
   its older name, which still works wherever a name is taken, e.g. an old table's rules link) */
function listedPresets() {
  return S.catalog ? S.catalog.presets.filter((p) => !p.same_as) : [];
}

const drawnHTML = new WeakMap(); // a page drawn by CTX.redraw: the HTML it was drawn from

const CTX = {
  send, sendOnce, go, esc, notify, route, app, presetTitle,
  player: () => S.player,
  operator: () => Boolean(S.welcome && S.welcome.operator),
  // seated in a match in play at a table other than ``id`` (a tournament's table then waits)
  playingElsewhere: (id) => route().page === "table" && seatedInPlay(S.table) && S.table.id !== id,
  callToTable(m) { S.tourneyCall = m; renderInvitations(); },
  presets: () => listedPresets().map((p) => p.name),
  dialog: () => renderDialog(),
  // draw a page again keeping what was typed in its forms (a list's update, the language switch);
  // the same page as the one shown is not drawn again: a field being typed into keeps its selection
  redraw(html) {
    if (app().firstElementChild && drawnHTML.get(app().firstElementChild) === html) return;
    const before = changedFields(app());
    app().innerHTML = html;
    if (app().firstElementChild) drawnHTML.set(app().firstElementChild, html);
    restoreFields(app(), before);
  },
};

function featureRequests(r) {
  if (r.page === "tournaments" || r.page === "tournament") tourney.request(CTX, r);
  // the map as it is now (a table started over or finished in another tab changed it)
  if (r.page === "story") story.request(CTX);
}

function lobbyRequests() {
  send({ type: "lobby" });
  send({ type: "mytables" });
  send({ type: "my_matches" });
  send({ type: "stats", ref: "stats" });
  send({ type: "leaderboard", ref: "leaderboard" });
  chipsRequests(send);
  progressRequests();
}

function onSync(m) {
  const r = route();
  if (r.page === "join" || (r.page === "lobby" && !S.table)) {
    S.table = newTable(m.table);
    if (r.page === "join") history.replaceState({}, "", `/table/${m.table}`);
    else history.pushState({}, "", `/table/${m.table}`); // Back returns to the lobby
  }
  const T = S.table;
  if (!T || T.id !== m.table) return;
  T.v = m.v;
  T.you = m.you;
  T.info = m.table_info;
  if (m.record) T.record = m.record; // the record's path (a private table's carries its key)
  T.watchers = m.watchers || 0;
  if (m.you == null) S.spectate.add(m.table);
  // a code or an invite link to a match already under way seats nobody: say so, unless the
  // player asked only to watch
  if (m.ref === "invite" && m.you == null && !S.watchWanted && T.info.status !== "waiting") {
    notify(() => t("watching_started"), "info", T.id);
  }
  S.watchWanted = false;
  if (!m.full) for (const ev of m.events || []) sideEffects(ev, true);
  // the table's recent chat comes with every sync: after a reload, and for a spectator too
  if (Array.isArray(m.chat)) T.chat = m.chat.map((c) => ({ seat: c.seat, name: c.name, text: c.text }));
  if (m.view) mergeView(m.view);
  else T.view = null;
  setClock(m.clock);
  T.rematch = m.rematch || null;
  keepAwarded(T.id, m.awarded); // what the match earned, for its window after a reload
  askWallet(T); // (an offer that fell through for the player's chips: are they still short?)
  motion.reset(T); // a sync draws the table as it is, whatever was moving
  if (T.info.status === "over" && T.view) T.over = T.over || { totals: T.view.match.totals, winners: T.view.match.winners };
  // moves sent before the connection dropped and never acknowledged: send them again, each
  // with the version it was made at, so that the server applies it once if it arrived (a lost
  // ack) and refuses it as stale if the decision it was made for has passed; never with the
  // current version, which would play a card the player chose for another moment
  for (const [id, msg] of S.pending) {
    if (msg.table === T.id) { S.resent.add(id); send(msg); } else S.pending.delete(id);
  }
  resendReview(T, send); // a review asked for on a connection that dropped
  render();
}

function mergeView(view) {
  const T = S.table;
  // The server may leave the rules and the score sheet out of a view it sends with an event:
  // they are in the table's info and in the deal-over events.
  if (!view.rules && T.info) view.rules = T.info.rules;
  if (view.match) {
    if (Array.isArray(view.match.sheet)) T.sheet = view.match.sheet;
    else view.match.sheet = T.sheet;
  }
  const before = T.view;
  T.view = view;
  if (!before || before.to_move !== view.to_move || before.phase !== view.phase || before.match?.deal !== view.match?.deal) {
    T.hint = null;
    T.refused = null;
  }
  maybeEstimate();
}

function setClock(clock) {
  const T = S.table;
  if (!clock) return;
  T.clock = clock;
  T.clockAt = performance.now();
}

function onEvent(m) {
  const T = S.table;
  // one of our moves, applied (with ack_in_event its event is the only acknowledgement)
  if (m.event.id) { S.pending.delete(m.event.id); S.resent.delete(m.event.id); }
  if (!T || m.table !== T.id || m.v <= T.v) return;
  if (m.v !== T.v + 1) { // missed something: ask for it
    send({ type: "sync", table: T.id, since: T.v });
    return;
  }
  T.v = m.v;
  if (m.seats) T.info.seats = m.seats;
  if (m.status) T.info.status = m.status;
  if (m.event.kind === "stand" && m.event.host) T.info.host = m.event.host; // the host left: a new one
  if (m.chips) T.info.chips = { ...m.chips, payout: (T.info.chips || {}).payout || m.chips.payout };
  if (m.view) mergeView(m.view);
  setClock(m.clock);
  motion.onEvent(T, m); // the felt draws each event in turn, with its motion
  if (m.event.deal_over) noteDealOver(T, m.event.deal_over, renderDialog);
  sideEffects(m.event, false);
  if (m.view || m.seats || m.status) renderTable();
  continueBurial(T, myTurn(), playMove, [...S.pending.values()].some((p) => p.table === T.id));
}

// What an event means beyond the new view: chat lines, deal and match results.
function sideEffects(ev, replay) {
  const T = S.table;
  if (ev.record) T.record = ev.record; // a seat's record path (a private table's key), at the start
  if (ev.kind === "move" && ev.by === "timeout" && ev.seat === T.you && !replay) {
    // the clock and the bank ran out: said, or a player back at the screen never knows why
    notify(() => t("timed_out_you", { move: moveText(ev.move) }), "error", T.id);
  }
  if (ev.kind === "chat") {
    if (!ev.removed) T.chat.push({ seat: ev.seat, name: ev.name, text: ev.text }); // (an erased account's line)
    // a line that comes while the chat's panel is closed (a narrow screen) is unread; the
    // conversation found on arriving (the sync's lines, the events replayed) is not
    if (!replay && !ev.removed && !T.chatOpen && chatPanelShut()) T.chatUnread += 1;
    if (T.chat.length > 200) T.chat.shift();
    if (!replay) renderChat();
  } else if (ev.kind === "move" && ev.deal_over) {
    // a slim view carries no sheet: the row comes with the event (once, even when replayed)
    const row = JSON.stringify(ev.deal_over.row);
    if (!T.sheet.some((r) => JSON.stringify(r) === row)) T.sheet.push(ev.deal_over.row);
    // a panel on the felt, never over the next decision; also when the deal's end came in a
    // sync (a reconnect, a reload): it goes once the next deal's play has begun
    onDealOver(T, ev.deal_over);
    if (ev.over) { T.over = ev.over; T.dialog = "over"; }
  } else if (ev.kind === "start" && ev.dealer != null && !replay) {
    // who deals first, and why: drawn by lot, or the first to sit (the table's first_dealer)
    const how = ev.first_dealer === "first_seated" ? "first_dealer_seated" : "first_dealer_lots";
    notify(() => (ev.dealer === T.you ? t(how === "first_dealer_seated" ? "first_dealer_seated_you" : "first_dealer_lots_you") : t(how, { name: seatName(ev.dealer) })), "info", T.id);
  } else if (ev.kind === "stand" && ev.host && !replay) {
    // the host left a room that waits for players: another person at it hosts it now
    const seat = T.info.seats.findIndex((s) => s.host);
    notify(() => (S.player && ev.host === S.player.id ? t("host_you_now") : t("host_now", { name: seatName(seat) })), "info", T.id);
  } else if (ev.kind === "adjourn") {
    T.hint = null; // advice for a decision the match will come back to later
    T.refused = null;
    if (!replay) notify(() => adjournedText(T), "info", T.id);
  } else if ((ev.kind === "sit" || ev.kind === "stand") && !replay && T.info && T.info.status === "waiting"
    && S.player && T.info.host === S.player.id && T.info.kind === "private") {
    askInvitable(T, true); // a bot account that sat down is no longer one to invite
  }
}

function onError(m) {
  const T = S.table;
  if (m.ref != null && S.pending.has(m.ref)) {
    const move = S.pending.get(m.ref).move;
    const resent = S.resent.has(m.ref);
    S.pending.delete(m.ref);
    S.resent.delete(m.ref);
    if (T) T.buryQueue = []; // a refused burial stops there: the panel shows what is left
    if (m.code === "stale") { // made for a decision that has passed: dropped, and said so
      notify(() => t(resent ? "move_dropped_reconnect" : "move_dropped", { move: moveText(move) }), "error", T ? T.id : null);
      return;
    }
    if (m.code === "away") return; // the new view is on its way
    if (T) {
      T.refused = m.message;
      renderPanel();
      showPanelNote("refused");
      return;
    }
  }
  if (m.ref === "estimate") return; // a silent request for the bidding panel
  if (m.code === "stake_cover" && (m.ref === "quick" || m.ref === "rematch")) { // chips short
    chipsRequests(send); // the balance as it is now
    if (m.ref === "rematch" && T) { T.rematchShort = { stake: m.stake, balance: m.balance }; renderDialog(); return; }
    notify(() => t("stake_short_note", { have: chipsNumber(m.balance), stake: chipsNumber(m.stake) }), "error");
    return;
  }
  if (m.ref === "review" && onReviewError(T, m)) { renderDialog(); return; }
  // a refused join names the table it asked for (``table``): one about another table than the
  // page's (it asked for A, then went on to B, or back to the lobby, before the answer came)
  // is about nothing the person is looking at: no word of it, and no way back to the lobby
  if (m.ref === "join" && m.table != null && !(route().page === "table" && route().id === m.table)) return;
  if (m.ref === "join" && m.code === "tourney_seating") {
    // a tournament's table whose round is still being seated (the server waited for it, then
    // said so): nothing went wrong, so no error and no way back to the lobby; the page says
    // the table is being prepared and asks again by itself (or "tourney_table" brings it here).
    // An answer that comes once the page has left the table, or about another table than the
    // page's, was dropped above (a refused join names its table)
    if (route().page !== "table") return;
    const id = route().id;
    // said in the page's middle (renderTable): to the player the tournament seats here, their
    // table; to anyone else (seat false: a shared link), a match to watch in a moment
    if (T && T.id === id) T.preparing = m.seat === false ? "watch" : "seat";
    renderTable();
    clearTimeout(S.seatRetry);
    S.seatRetry = setTimeout(() => {
      const r = route();
      if (r.page === "table" && r.id === id && S.online && !(S.table && S.table.info)) joinTable(id);
    }, 2000);
    return;
  }
  if (m.ref === "invite" || (m.ref === "join" && route().page === "table")) {
    notify(t("error", { message: m.message }), "error");
    // back to the lobby: the table was not joined (nothing to leave there); from a story
    // table (started over elsewhere while this page was offline), back to the story's map
    const storyTable = m.ref === "join" && T && T.info && T.info.options && T.info.options.story != null;
    if (m.code !== "rate_limited") { S.table = null; go(storyTable ? "/story" : "/", true); }
    // the notice is under the header: a code typed in the lobby's lower boxes saw no answer
    $("#notice").scrollIntoView({ block: "nearest" });
    return;
  }
  if (m.code === "hint_rate" && T) { T.hint = { reason: m.message }; renderPanel(); return; }
  if (m.ref === "invite_player") { inviteNote(null, m.message); return; }
  if (tourney.onError(CTX, m)) return;
  if (m.ref === "room") { // an invitation's code that opens nothing: said instead of asking a name
    const r = route();
    if (r.page === "join") { S.joinRoom = { code: r.code, missing: m.message }; render(); }
    return;
  }
  if (m.ref === "invitable") return; // the list of bots is asked for silently (the room started meanwhile)
  if (m.ref === "password") { // said under the form, which keeps what was typed
    passwordNote({ text: m.message, lang: lang() }); // (in the language it was asked in)
    return;
  }
  if (m.ref === "delete_account") { formNote("deleteNote", "#delete-note", { text: m.message, lang: lang() }); return; }
  // under the register / log-in form, where the person is looking (the notice at the page's
  // top is out of sight there on a phone, and on a short desktop screen)
  if (m.ref === "register" || m.ref === "login") { formNote("accountNote", "#account-note", { text: m.message, lang: lang() }); return; }
  if (m.ref === "chat") { // a refused line goes back into the box (unless another is being typed)
    const input = $("#chat-input");
    if (input && !input.value && S.chatSent) input.value = S.chatSent;
    S.chatSent = null;
    if (T) { T.chatNote = () => m.message; renderChat(); }
    return;
  }
  notify(t("error", { message: m.message }), "error");
}

// The host invited a player by username: under the field, what became of it. The field keeps a
// refused name (to be mended) and is emptied for the next once the invitation is sent.
// The table was closed for good while this page was at it (its player started a story table
// over in another tab or on another device): nothing here can be played any more; its window
// says why and offers the way on (story.closedHTML).
function onClosed(m) {
  const T = S.table;
  if (!T || m.table !== T.id) return;
  T.closed = m;
  if (T.info) T.info.status = "closed";
  T.clock = null; // no clock runs at a closed table
  T.hint = null;
  T.refused = null;
  T.buryQueue = [];
  for (const [id, msg] of S.pending) if (msg.table === T.id) S.pending.delete(id);
  renderTable();
}

function inviteNote(name, refused) {
  const T = S.table;
  if (!T) return;
  T.inviteNote = refused == null ? { name } : { refused };
  if (refused == null) { const input = $("#invite-player-input"); if (input) input.value = ""; }
  renderFelt();
}

function invite(username) {
  if (!username || !S.table) return;
  S.table.inviting = username;
  if (!send({ type: "invite", table: S.table.id, username, ref: "invite_player" })) inviteNote(null, t("offline"));
}

// Another player asks this one to a room: the invitation stays on screen, on every page, until
// it is taken up or turned down (at most three are kept; one per room, the newest).
function onInvited(m) {
  S.invitations = [m, ...S.invitations.filter((x) => x.code !== m.code)].slice(0, 3);
  renderInvitations();
}

function renderInvitations() {
  const el = $("#invitations");
  if (!el) return;
  const T = S.table;
  const here = S.invitations.filter((x) => !(T && T.info && T.info.code === x.code));
  // a tournament's table waiting while this player finishes a match elsewhere
  const call = S.tourneyCall && !(T && T.id === S.tourneyCall.table) ? S.tourneyCall : null;
  if (S.tourneyCall && !call) S.tourneyCall = null; // (gone there)
  el.hidden = !here.length && !call;
  el.setAttribute("aria-label", t("invitations"));
  el.innerHTML = (call ? `<div class="invitation" data-testid="tourney-call">
    <p>${esc(t("tourney_call", { round: call.round }))}</p>
    <button class="primary small" data-action="tourneyGo" data-href="/table/${esc(call.table)}" data-testid="tourney-call-go">${esc(t("tourney_go_table"))}</button>
  </div>` : "") + here.map((x) => `<div class="invitation" data-testid="invitation">
    <p>${esc(t("invited", { name: x.from, preset: presetTitle(x.preset) }))}</p>
    <button class="primary small" data-action="acceptInvite" data-code="${esc(x.code)}" data-testid="accept-invitation">${esc(t("invited_join"))}</button>
    <button class="small" data-action="dismissInvite" data-code="${esc(x.code)}">${esc(t("invited_dismiss"))}</button>
  </div>`).join("");
}

function onPresence(m) {
  const T = S.table;
  if (!T || m.table !== T.id || !T.info) return;
  const seat = T.info.seats[m.seat];
  if (seat) seat.connected = m.connected;
  renderTable();
}

// How many watch the table (the server says so when it changes): beside the table's facts.
function onWatchers(m) {
  const T = S.table;
  if (!T || m.table !== T.id || !T.info) return;
  T.watchers = m.count;
  renderTopbar();
}

function onReaction(m) {
  const T = S.table;
  if (!T || m.table !== T.id) return;
  T.bubbles[m.seat] = { text: m.reaction === "gg" ? "GG" : m.reaction, until: Date.now() + 3500 };
  renderTable();
  setTimeout(renderTable, 3600);
}

function onHint(m) {
  const T = S.table;
  if (!T || m.table !== T.id) return;
  if (m.estimate) { T.estimate = m.estimate; T.estimateFor = m.v; }
  if (m.ref !== "estimate") {
    T.hint = { move: m.move, reason: m.reason };
    T.refused = null; // an earlier refusal is not about the move suggested now
  }
  renderPanel();
  renderHand();
  if (m.ref !== "estimate") showPanelNote("hint");
}

// A hint or a refusal just drawn is brought into sight: on a phone the panel can lie below the
// screen, and the button seemed to do nothing.
function showPanelNote(id) {
  const el = document.querySelector(`[data-testid=${id}]`);
  if (el && el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
}

// During my own auction decision, ask the server once for the hand's trick estimate.
function maybeEstimate() {
  const T = S.table;
  const v = T.view;
  if (!v || T.you == null || v.to_move !== T.you || !v.legal_moves.length) return;
  if (!["bidding", "trump"].includes(v.phase)) return;
  const key = `${v.match?.deal}:${v.phase}`;
  if (T.estimateKey === key) return;
  T.estimateKey = key;
  T.estimate = null;
  send({ type: "hint", table: T.id, ref: "estimate" });
}

// ------------------------------------------------------------------ actions
function playMove(move) {
  const T = S.table;
  if (!T) return;
  const id = randomId();
  const msg = { type: "move", table: T.id, id, v: T.v, move, ref: id };
  S.pending.set(id, msg);
  T.refused = null;
  T.hint = null;
  send(msg);
  renderPanel();
}

// Off to another table (an invitation taken up, a tournament's table) from a match in play: as
// when leaving the table, a computer takes the seat here (even alone with bots: the player
// plays elsewhere now), so the Leave button's question is asked first. False: the player stays.
function leaveForElsewhere() {
  const T = S.table;
  if (!seatedInPlay(T)) return true;
  if (!confirm(leaveConfirmText(T))) return false;
  send({ type: "leave", table: T.id, here: true });
  S.table = null; // said: onRoute has nothing more to tell the server
  return true;
}

const ACTIONS = {
  ...tourney.actions(CTX),
  ...story.actions(CTX),
  lang() {
    setLang(nextLang());
    if (S.table) { S.table.hint = null; S.table.refused = null; } // said in the old language
    reconnect(); // the server's own texts (refusals, hints) follow the hello's language
    render();
  },
  nav(el) { go(el.dataset.href); },
  toLobby() {
    // from a match in play where others wait the seat goes to a computer player (onRoute):
    // asked first
    if (othersWaiting(S.table) && !confirm(leaveConfirmText(S.table))) return;
    go("/");
  },
  quick(el) {
    const stake = quickStake();
    // a salon the player's chips do not cover: said, and nothing is sent (not a silent no-stake)
    if (stakeShortText()) { notify(() => stakeShortText(), "error"); return; }
    send({ type: "quick", mode: el.dataset.mode, ...stake, ref: "quick" });
  },
  saveName() {
    const v = $("#name-input").value.trim().slice(0, 24);
    if (!v) { // a blank name is not a name: the one kept is shown again, and why
      $("#name-input").value = S.player ? S.player.name : S.name || "";
      notify(() => t("name_empty"), "error");
      return;
    }
    S.name = v;
    S.nameChanged = true;
    localStorage.setItem("batak.name", v);
    $("#name-input").defaultValue = v; // sent: the redraw shows the name as the server keeps it
    notify(() => t("name_saved"));
    reconnect();
  },
  joinWithName() {
    // the name given (or, left empty, the guest name the server gave), then the table
    const v = $("#join-name-input").value.trim().slice(0, 24);
    S.nameAsked = true;
    if (v) {
      S.name = v;
      S.nameChanged = true;
      localStorage.setItem("batak.name", v);
      reconnect(); // the hello carries the name; the welcome joins the invite's table
    } else if (S.online) {
      send({ type: "join", code: route().code, ref: "invite" });
    }
    render();
  },
  joinCode() {
    const code = $("#code-input").value.trim().toUpperCase();
    if (!code) return;
    const msg = { type: "join", code, ref: "invite" };
    if ($("#watch-input").checked) msg.spectate = true;
    S.watchWanted = Boolean(msg.spectate);
    send(msg);
  },
  joinTable(el) {
    const id = el.dataset.table;
    if (el.dataset.spectate) S.spectate.add(id); else S.spectate.delete(id);
    S.table = newTable(id);
    go(`/table/${id}`);
  },
  refreshLobby() { lobbyRequests(); },
  register() {
    const f = $("#account-form");
    formNote("accountNote", "#account-note", null);
    send({ type: "register", username: f.username.value.trim(), password: f.password.value, ref: "register" });
  },
  logout(el) {
    const everywhere = !!el.dataset.everywhere;
    // asked first: every device at once, or seats a computer player will take after a while
    const ask = everywhere ? "logout_everywhere_confirm" : (S.mytables || []).length ? "logout_confirm_tables" : null;
    if (ask && !confirm(t(ask))) return;
    send({ type: "logout", everywhere, ref: "logout" });
  },
  changePassword() {
    const f = $("#password-form");
    if (!f || !f.reportValidity()) return;
    if (f.new.value !== f.again.value) { passwordNote({ key: "passwords_differ" }); return; }
    S.passwordNote = null;
    send({ type: "change_password", password: f.password.value, new: f.new.value, ref: "password" });
  },
  myData() { send({ type: "my_data", ref: "my_data" }); },
  deleteAccount() {
    const f = $("#delete-form");
    if (!f || !f.reportValidity()) return;
    if (!confirm(t("delete_account_confirm", { name: S.player.account }))) return;
    S.deleteNote = null;
    send({ type: "delete_account", password: f.password.value, ref: "delete_account" });
  },
  login(el) {
    const f = $("#account-form");
    if (!f.reportValidity()) return; // an empty field: the browser says which, as for Register
    if (!f.username.value.trim() || !f.password.value) return;
    formNote("accountNote", "#account-note", null);
    S.pendingLogin = { username: f.username.value.trim(), password: f.password.value };
    reconnect();
  },
  create() { createRoom(); },
  card(el, e) {
    const T = S.table;
    const v = T && T.view;
    if (!v || T.you == null) return;
    cardClicked(T, el, e, playMove, () => { renderHand(); renderPanel(); });
  },
  unlift() { S.table.lifted = null; renderHand(); renderPanel(); skipToPlay(true); },
  buryUndo() { S.table.burySel = []; renderHand(); renderPanel(); },
  buryConfirm() {
    const T = S.table;
    T.buryQueue = [...(T.burySel || [])];
    continueBurial(T, myTurn(), playMove);
  },
  skip() { skipToPlay(true); },
  estimateToggle() { toggleEstimate(); renderPanel(); },
  setFelt(el) { setFelt(el.dataset.value); },
  setBack(el) { setBack(el.dataset.value); },
  move(el) { playMove(el.dataset.move); },
  hint() { send({ type: "hint", table: S.table.id, ref: "hint" }); },
  review(el) {
    // closing the review goes back to where it was opened from: the score sheet, the match's
    // end, or the table (the result after a deal)
    const T = S.table;
    if (T.dialog !== "review") T.reviewFrom = T.dialog;
    askReview(T, Number(el.dataset.deal), send);
    renderDialog();
  },
  start() { send({ type: "start", table: S.table.id, ref: "start" }); },
  inviteBot(el) { invite(el.dataset.username); },
  invitePlayer(form) { invite(form.username.value.trim()); },
  acceptInvite(el) {
    if (!leaveForElsewhere()) return;
    S.invitations = S.invitations.filter((x) => x.code !== el.dataset.code);
    renderInvitations();
    go(`/join/${el.dataset.code}`);
  },
  tourneyGo(el) {
    // (no keeps the player here, the tournament's bar still there)
    if (!leaveForElsewhere()) return;
    go(el.dataset.href);
  },
  dismissInvite(el) {
    S.invitations = S.invitations.filter((x) => x.code !== el.dataset.code);
    renderInvitations();
  },
  adjourn() { send({ type: "adjourn", table: S.table.id, ref: "adjourn" }); },
  leave() {
    // Before the start this frees the seat; during a match a computer player takes it over
    // (the player may come back), so ask first.
    const T = S.table;
    if (seatedInPlay(T) && !confirm(leaveConfirmText(T))) return;
    if (T && T.you != null && T.info && T.info.status !== "over") send({ type: "leave", table: T.id });
    S.table = null; // left: onRoute has nothing more to tell the server
    go("/");
  },
  dialog(el) { S.table.dialog = el.dataset.dialog || null; renderDialog(); },
  copy(el) {
    const text = el.dataset.text;
    (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject()).then(
      () => notify(() => t("copied")),
      () => { notify(text); },
    );
  },
  sound() {
    S.sound = !S.sound;
    localStorage.setItem("batak.sound", S.sound ? "on" : "off");
    renderTopbar();
  },
  chatPanel() {
    const T = S.table;
    T.chatOpen = !T.chatOpen;
    if (T.chatOpen) T.chatUnread = 0;
    $("#table-root").classList.toggle("chat-open", T.chatOpen);
    renderChat();
    clearChatPanel();
    // the focus goes into the panel, and back to the button that opened it (the top bar's,
    // or the match's end window's: the top bar is inert behind that window)
    const back = T.dialog === "over" ? $("[data-testid=over-chat]") : $("[data-testid=chat-open]");
    const to = T.chatOpen ? $("[data-testid=chat-close]") : back;
    if (to && to.offsetParent !== null) to.focus();
  },
  react(el) { send({ type: "react", table: S.table.id, reaction: el.dataset.reaction }); },
  chat() {
    const input = $("#chat-input");
    const text = input.value.trim();
    if (!text) return;
    // not sent while the connection is down: the line stays in the box, to send once it is back
    if (!S.online || !send({ type: "chat", table: S.table.id, text, ref: "chat" })) {
      S.table.chatNote = () => t("chat_not_sent"); // beside the box: on a phone the top is far
      renderChat();
      return;
    }
    S.chatSent = text;
    S.table.chatNote = null;
    input.value = "";
    renderChat();
  },
};

document.addEventListener("click", (e) => {
  unlockAudio();
  const el = e.target.closest("[data-action]");
  if (!el || el.tagName === "FORM") return; // forms act on submit only
  const a = el.getAttribute("data-action");
  if (el.tagName === "A") e.preventDefault();
  act(a, el, e);
});

document.addEventListener("submit", (e) => {
  e.preventDefault();
  act(e.target.getAttribute("data-action"), e.target);
});

document.addEventListener("keydown", (e) => {
  if (handKey(e)) return;
  if (e.key === "Escape" && S.table && S.table.chatOpen && $("#chat-box") && $("#chat-box").contains(e.target)) { ACTIONS.chatPanel(); return; }
  if (e.key === "Escape" && S.table && S.table.lifted && !S.table.dialog) ACTIONS.unlift();
  if (e.key === "Escape" && S.table && S.table.dialog && S.table.dialog !== "over") {
    S.table.dialog = closedTo(S.table);
    renderDialog();
  }
});

// a number typed in (or cleared from) a table option's field may offer or withhold others
// (or set another option its number needs)
document.addEventListener("input", (e) => {
  const f = $("#create-form");
  if (!f || !f.contains(e.target)) return;
  loadForms();
  if (e.target.type !== "number") return;
  const match = Object.keys(MATCH_FIELDS).find((o) => MATCH_FIELDS[o] === e.target.name);
  const name = match || (e.target.id.startsWith("opt-") ? e.target.id.slice(4) : null);
  if (name && e.target.value !== "") applyCompanion(name);
  renderCreateWords();
});

// the private-room form's data is fetched when the form is first used
for (const type of ["focusin", "pointerdown", "toggle"]) {
  document.addEventListener(type, (e) => {
    const f = $("#create-form");
    if (f && e.target instanceof Node && f.contains(e.target)) loadForms();
  }, true);
}

document.addEventListener("change", (e) => {
  if (e.target.id === "preset-select") {
    S.formPreset = e.target.value;
    loadForms();
    renderCreateOptions();
  }
  if (e.target.id.startsWith("opt-")) {
    applyCompanion(e.target.id.slice(4));
    renderCreateWords();
  }
  if (e.target.id === "stake-select") stakeChosen(e.target);
});

window.addEventListener("popstate", onRoute);
// a phone turned on its side: the hand's rows end where its suits end at the new width
let rowsAfterResize = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(rowsAfterResize);
  rowsAfterResize = requestAnimationFrame(() => { const el = $("#hand"); if (el) breakRowsBySuit(el); clearChatPanel(); });
});

// The create message of the private-room form as filled in now
function createMessage() {
  const f = $("#create-form");
  const preset = f.preset.value;
  const base = S.catalog.presets.find((p) => p.name === preset).rules;
  const rules = {};
  for (const name of Object.keys(S.catalog.options)) {
    const el = f.elements["opt-" + name];
    if (!el) continue; // an option fixed at this table keeps the preset's value
    let value;
    if (el.type === "checkbox") value = el.checked;
    else if (el.value === "") value = null;
    else value = S.catalog.options[name].kind === "int" ? Number(el.value) : el.value;
    if (value !== base[name]) rules[name] = value;
  }
  const msg = { type: "create", preset, bots: f.bots.checked, show_bots: f.show_bots.checked, bot_level: f.bot_level.value, ref: "create" };
  if (Object.keys(rules).length) msg.rules = rules;
  const target = f.target.value ? Number(f.target.value) : null;
  if (target) { msg.target_score = target; msg.deals = null; } else if (f.deals.value) msg.deals = Number(f.deals.value);
  if (f.seconds.value) msg.decision_seconds = Number(f.seconds.value);
  // the table's pace (seconds in the form, milliseconds on the wire)
  if (f.trick_pause.value !== "") msg.trick_pause_ms = Math.round(Number(f.trick_pause.value) * 1000);
  if (f.deal_pause.value !== "") msg.deal_pause_ms = Math.round(Number(f.deal_pause.value) * 1000);
  return msg;
}

function createRoom() {
  sendOnce(createMessage()); // a double click makes one room
}

// ------------------------------------------------------------------ rendering
function render() {
  document.title = t("title");
  $("#lang-button").textContent = NAMES[nextLang()];
  $("#lang-button").setAttribute("aria-label", t("language_label", { language: NAMES[nextLang()] }));
  $("#lang-button").lang = nextLang();
  $("#tagline").textContent = t("tagline");
  $("#skip-link").textContent = t(route().page === "table" ? "skip_to_cards" : "skip_to_main");
  renderStatus();
  renderNotice();
  renderInvitations();
  const r = route();
  if (r.page !== "table") modal(false); // (a window left open at a table is gone with it)
  if (r.page === "lobby") renderLobby();
  else if (r.page === "table") renderTable(true);
  else if (r.page === "join") app().innerHTML = needsName() ? joinNameHTML() : `<p class="center">${esc(t("connecting"))}</p>`;
  else if (r.page === "rules") renderRules(r.preset);
  else if (r.page === "tournaments" || r.page === "tournament") tourney.render(CTX, r);
  else if (r.page === "story") story.render(CTX);
  else app().innerHTML = `<p class="center">${esc(t("no_such_page"))} <a href="/" data-action="nav" data-href="/">${esc(t("back_to_lobby"))}</a></p>`;
}

// Someone who opens an invite link and never chose a name (nor logs in) is asked for the name
// the table will show, once: they sat down as "Guest 6982", a name the friends who invited them
// do not know.
function needsName() {
  // (known once the server has said whether this is an account: until then, "connecting")
  return Boolean(S.welcome) && !S.nameAsked && !localStorage.getItem("batak.name") && !(S.player && S.player.account);
}

// The invitation's room, as the server showed it by its code (``room``): what it plays, who
// sits there; or why there is none (then no name is asked for).
function joinRoomHTML(code) {
  const j = S.joinRoom && S.joinRoom.code === code ? S.joinRoom : null;
  if (!j || !j.room) return "";
  const room = j.room;
  const names = room.seats.filter((n) => n);
  return `<div class="join-room" data-testid="join-room">${roomSettingsHTML(room, room.decision)}
    <p>${room.host ? `${esc(t("join_room_host", { name: room.host }))} · ` : ""}${esc(t("join_room_seats", { names: names.join(", ") || "—", free: room.free }))}</p>
    ${room.status === "playing" ? `<p class="help">${esc(t("join_room_started"))}</p>` : ""}</div>`;
}

function joinNameHTML() {
  const code = route().code;
  const j = S.joinRoom && S.joinRoom.code === code ? S.joinRoom : null;
  if (j && j.missing) {
    return `<p class="center sentence" data-testid="join-missing">${esc(j.missing)}. <a href="/" data-action="nav" data-href="/">${esc(t("back_to_lobby"))}</a></p>`;
  }
  return `<section class="card-box join-name" aria-labelledby="h-join-name">
    <h2 id="h-join-name">${esc(t("join_name_title"))}</h2>
    ${joinRoomHTML(code)}
    <form data-action="joinWithName" class="row">
      <input id="join-name-input" maxlength="24" autocomplete="nickname" aria-label="${esc(t("your_name"))}" placeholder="${esc(S.player ? S.player.name : "")}" data-testid="join-name">
      <button type="submit" class="primary" data-testid="join-sit">${esc(t("join_sit"))}</button>
    </form>
    <p class="help">${esc(t("join_name_help"))}</p>
  </section>`;
}

function renderStatus() {
  const el = $("#status");
  el.textContent = S.online ? t("online") : (connectionDown() ? t("offline") : t("connecting"));
  el.className = S.online ? "status online" : "status offline";
  document.body.classList.toggle("is-offline", !S.online && !!S.welcome);
  offlineButtons();
  const felt = $("#felt"); // said over the table too (CSS): what it shows is not live
  if (felt) felt.dataset.offline = t("offline");
  renderProgressWaiting();
}

// Whether the connection is known to be down: it dropped, or a first try failed (a page opened
// from the installed app's cache while the server cannot be reached), as opposed to a first try
// still under way.
function connectionDown() {
  return !S.online && Boolean(S.welcome || S.tried);
}

function renderNotice() {
  const el = $("#notice");
  // a notice written in another language than the one now shown cannot be written again: it goes
  if (S.notice && typeof S.notice.text !== "function" && S.notice.lang !== lang()) S.notice = null;
  if (!S.notice) { el.hidden = true; el.textContent = ""; } else {
    el.hidden = false;
    el.className = "notice " + S.notice.kind;
    el.textContent = typeof S.notice.text === "function" ? S.notice.text() : S.notice.text;
  }
  renderChatNotice();
  clearChatPanel(); // (the table moved with it)
}

// The notice, said again in a table's chat panel on a phone (style.css shows it there only,
// over the lines of the panel's log while it lasts, the older ones first): the panel lies over the page's top, and with it
// over the notice under the header. (Hidden from a screen reader: #notice, an alert, says it.)
function renderChatNotice() {
  const el = $("#chat-notice");
  if (!el) return;
  const notice = $("#notice");
  el.hidden = notice.hidden;
  el.className = "chat-notice" + (S.notice ? " " + S.notice.kind : "");
  el.textContent = notice.hidden ? "" : notice.textContent;
}

// ---------------- lobby
const MODES = ["ihaleli", "kozmaca", "esli", "kitty", "acik"];

// The lobby is redrawn whole when something it shows arrives (the rules catalog, a welcome after
// a reconnect, another language), and its account box when the statistics do: what the person
// has typed or chosen there and not yet sent, and where the focus was, survive the redraw.
function fieldKey(el) {
  if (el.id) return "#" + el.id;
  const form = el.form;
  return form && el.name ? `${form.id || form.dataset.action}/${el.name}` : null;
}

function changedFields(root) {
  const kept = new Map();
  for (const el of root.querySelectorAll("input, select, textarea")) {
    const key = fieldKey(el);
    if (!key) continue;
    if (el.type === "checkbox" || el.type === "radio") {
      if (el.checked !== el.defaultChecked) kept.set(key, { checked: el.checked });
    } else if (el.tagName === "SELECT") {
      const chosen = [...el.options].find((o) => o.defaultSelected) || el.options[0];
      if (chosen && el.value !== chosen.value) kept.set(key, { value: el.value });
    } else if (el.value !== el.defaultValue) {
      kept.set(key, { value: el.value });
    }
  }
  const active = document.activeElement;
  const focus = active && root.contains(active) ? fieldKey(active) : null;
  let caret = null; // where the cursor was in the focused field (null where it has none)
  try { caret = focus ? [active.selectionStart, active.selectionEnd] : null; } catch { caret = null; }
  const open = [...root.querySelectorAll("details")].map((d) => d.open); // in page order
  return { kept, focus, caret, open };
}

function restoreFields(root, { kept, focus, caret, open }) {
  for (const el of root.querySelectorAll("input, select, textarea")) {
    const key = fieldKey(el);
    const v = key && kept.get(key);
    if (!v) continue;
    if ("checked" in v) el.checked = v.checked;
    else if (el.tagName !== "SELECT" || [...el.options].some((o) => o.value === v.value)) el.value = v.value;
  }
  const details = root.querySelectorAll("details");
  if (details.length === open.length) details.forEach((d, i) => { d.open = open[i]; });
  if (focus) {
    const el = [...root.querySelectorAll("input, select, textarea")].find((x) => fieldKey(x) === focus);
    if (el) {
      el.focus({ preventScroll: true }); // (the same field, drawn anew: the page stays where it was)
      try { if (caret && caret[0] != null) el.setSelectionRange(caret[0], caret[1]); } catch { /* no caret here */ }
    }
  }
}

function renderLobby() {
  const before = $(".lobby") ? changedFields(app()) : null;
  drawLobby();
  if (before) restoreFields(app(), before);
  renderCreateWords(); // (the bidding chosen in the form, kept with what was typed)
}

function drawLobby() {
  const presets = listedPresets();
  const mine = (S.welcome && S.welcome.tables) || [];
  app().innerHTML = `
  <div class="lobby">
    <section class="card-box name-box" aria-labelledby="h-name">
      <h2 id="h-name">${esc(t("your_name"))}</h2>
      <form data-action="saveName" class="row">
        <input id="name-input" maxlength="24" autocomplete="nickname" value="${esc(S.player ? S.player.name : S.name)}" aria-labelledby="h-name">
        <button type="submit">${esc(t("save_name"))}</button>
      </form>
      <details class="look"><summary>${esc(t("table_look"))}</summary>${lookHTML()}</details>
      <div id="my-tables"></div>
    </section>
    <section class="card-box quick-box" aria-labelledby="h-quick">
      <h2 id="h-quick">${esc(t("quick_play"))}</h2>
      <p class="help">${esc(t("quick_help"))}</p>
      <div id="stake-box">${stakeSelectHTML(S.lobby, S.player)}</div>
      <div class="modes">
        ${MODES.map((m) => `<button class="mode" data-action="quick" data-mode="${m}" data-testid="quick-${m}"><b>${esc(t("mode_" + m))}</b><span>${esc(t("mode_" + m + "_help"))}</span></button>`).join("")}
        <a href="/story" class="button mode story-entry" data-action="nav" data-href="/story" data-testid="lobby-story"><b><span aria-hidden="true">☕</span> ${esc(t("story_title"))}</b><span>${esc(t("story_entry"))}</span></a>
        <a href="/tournaments" class="button mode tourney-entry" data-action="nav" data-href="/tournaments" data-testid="lobby-tournaments"><b><span aria-hidden="true">🏆</span> ${esc(t("tournaments"))}</b><span>${esc(t("tourney_entry"))}</span></a>
      </div>
    </section>
    <section class="card-box" aria-labelledby="h-private">
      <h2 id="h-private">${esc(t("private_room"))}</h2>
      <p class="help">${esc(t("private_help"))}</p>
      <form id="create-form" data-action="create">
        <label>${esc(t("preset"))}
          <select id="preset-select" name="preset">${presets.map((p) => `<option value="${esc(p.name)}"${p.name === S.formPreset ? " selected" : ""}>${esc(pick(p.title))}</option>`).join("")}</select>
        </label>
        <p class="help" id="preset-summary"></p>
        <div class="grid2">
          <label>${esc(t("deals"))}<input name="deals" type="number" min="1" max="50"><span class="help why" data-field="deals" hidden></span></label>
          <label>${esc(t("target_score"))}<input name="target" type="number" min="1" max="10000"><span class="help why" data-field="target_score" hidden></span></label>
          <label>${esc(t("decision_seconds"))}<input name="seconds" type="number" min="5" max="300" placeholder="25"></label>
          <label>${esc(t("trick_pause"))}<input name="trick_pause" type="number" min="0" max="5" step="0.5" placeholder="${esc(decimal(S.welcome && S.welcome.pace ? S.welcome.pace.trick_pause : 1.5))}"></label>
          <label>${esc(t("deal_pause"))}<input name="deal_pause" type="number" min="0" max="30" step="1" placeholder="${esc(Number(S.welcome && S.welcome.pace ? S.welcome.pace.deal_pause : 4).toLocaleString(lang(), { maximumFractionDigits: 1 }))}"></label>
          <label>${esc(t("bot_level"))}<select name="bot_level">${["easy", "medium", "hard"].map((l) => `<option value="${l}"${l === "medium" ? " selected" : ""}>${esc(t("level_" + l))}</option>`).join("")}</select></label>
        </div>
        <label class="check"><input type="checkbox" name="bots" checked> ${esc(t("bots_allowed"))}</label>
        <label class="check"><input type="checkbox" name="show_bots" checked> ${esc(t("show_bots"))}</label>
        <details><summary>${esc(t("more_options"))}</summary><div id="create-options"></div></details>
        <button type="submit" class="primary" data-testid="create-room"${S.catalog ? "" : " disabled"}>${esc(t("create_room"))}</button>
      </form>
    </section>
    <section class="card-box" aria-labelledby="h-progress" id="progress-box" data-testid="progress-box"></section>
    <section class="card-box" aria-labelledby="h-account" id="account-box"></section>
    <section class="card-box" aria-labelledby="h-matches" id="matches-box" data-testid="matches-box"></section>
    <section class="card-box" aria-labelledby="h-chips" id="chips-box"></section>
    <section class="card-box" aria-labelledby="h-join">
      <h2 id="h-join">${esc(t("join_code"))}</h2>
      <form data-action="joinCode" class="row">
        <input id="code-input" maxlength="12" autocapitalize="characters" placeholder="${esc(t("code"))}" aria-label="${esc(t("code"))}">
        <button type="submit">${esc(t("join"))}</button>
      </form>
      <label class="check"><input type="checkbox" id="watch-input"> ${esc(t("watch_only"))}</label>
      <h2 class="public-tables">${esc(t("public_tables"))} <button class="small" data-action="refreshLobby">${esc(t("refresh"))}</button></h2>
      <div id="lobby-tables"></div>
      <p class="page-links"><a href="/rules" data-action="nav" data-href="/rules">${esc(t("rules_title"))}</a>
        · <a href="/tournaments" data-action="nav" data-href="/tournaments" data-testid="link-tournaments">${esc(t("tournaments"))}</a>
        · <a href="/story" data-action="nav" data-href="/story" data-testid="link-story">${esc(t("story_title"))}</a></p>
    </section>
  </div>`;
  renderCreateOptions();
  renderLobbyTables();
  renderAccount();
  renderProgress();
  renderMyTables();
  renderMatches();
  renderChips();
}

function renderChips() {
  const box = $("#chips-box");
  if (box) box.innerHTML = chipsBoxHTML(S.player);
  const stake = $("#stake-box");
  if (stake && !stake.contains(document.activeElement)) stake.innerHTML = stakeSelectHTML(S.lobby, S.player);
}

function renderMyTables() {
  const box = $("#my-tables");
  if (!box) return;
  const mine = S.mytables || [];
  box.innerHTML = mine.length
    ? `<h3>${esc(t("your_tables"))}</h3><ul class="plain tables" data-testid="my-tables">${mine.map((s) => `<li><span>${esc(s.mode ? t("mode_" + s.mode) : presetTitle(s.preset))} · ${esc(t("status_" + s.status))}${s.code && s.kind === "private" ? " · " + esc(s.code) : ""}</span><button data-action="joinTable" data-table="${esc(s.id)}">${esc(t("rejoin"))}</button></li>`).join("")}</ul>`
    : "";
}

// The player's latest finished matches: each opens at its table (the score sheet, the deals'
// review) and has its game record to download.
function renderMatches() {
  const box = $("#matches-box");
  if (!box) return;
  // a guest's matches are not kept: no box (the account box says what an account keeps)
  box.hidden = !(S.player && S.player.account);
  if (box.hidden) { box.innerHTML = ""; return; }
  const list = S.matches || [];
  const when = (x) => new Date(x * 1000).toLocaleString(lang() === "tr" ? "tr-TR" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
  const rows = list.map((m) => `<li><span>${esc(when(m.finished))} · <b>${esc(presetTitle(m.preset))}</b> · ${esc(t(m.won ? "my_matches_won" : "my_matches_lost"))} · ${esc(t("my_matches_score", { score: m.score }))}</span>
    <span class="row-buttons">${m.open ? `<button class="small" data-action="joinTable" data-table="${esc(m.table)}">${esc(t("my_matches_open"))}</button> ` : ""}<a class="button small" href="${esc(m.record)}" download>${esc(t("my_matches_record"))}</a></span></li>`).join("");
  box.innerHTML = `<h2 id="h-matches">${esc(t("my_matches"))}</h2>`
    + (list.length ? `<p class="help">${esc(t("my_matches_help"))}</p><ul class="plain my-matches" data-testid="my-matches">${rows}</ul>` : `<p class="help">${esc(t("my_matches_empty"))}</p>`);
}

// Under the password form: why a change was refused, the server's words ({text, lang}: shown
// only in the language they were said in) or the page's own ({key}: in the language shown).
function passwordNote(note) {
  formNote("passwordNote", "#password-note", note);
}

// Under one of the account box's forms (``field`` of S, the element ``id``): a refusal.
function formNote(field, id, note) {
  S[field] = note;
  const el = $(id);
  if (!el) return;
  el.textContent = noteText(note);
  el.classList.toggle("refused", !!note);
  if (note) el.scrollIntoView({ block: "nearest" }); // a button at the screen's edge: its note in view
}

function passwordNoteText() {
  return noteText(S.passwordNote);
}

function noteText(n) {
  if (!n) return "";
  if (n.key) return t(n.key);
  return n.lang === lang() ? n.text : "";
}

function renderAccount() {
  const box = $("#account-box");
  if (!box) return;
  const p = S.player;
  const st = S.stats;
  const said = passwordNoteText();
  const deleteSaid = noteText(S.deleteNote);
  const accountSaid = noteText(S.accountNote);
  const form = p && p.account
    ? `<p data-testid="signed-in">${esc(t("signed_in", { name: p.account }))}</p>
      <div class="row-buttons account-actions"><button type="button" data-action="logout" data-testid="logout">${esc(t("logout"))}</button>
      <button type="button" data-action="logout" data-everywhere="1" data-testid="logout-everywhere">${esc(t("logout_everywhere"))}</button></div>
      <details class="change-password"><summary>${esc(t("change_password"))}</summary>
        <form id="password-form" data-action="changePassword">
          <label>${esc(t("current_password"))}<input name="password" type="password" autocomplete="current-password" required></label>
          <input name="username" autocomplete="username" value="${esc(p.account)}" aria-label="${esc(t("username"))}" readonly hidden>
          <label>${esc(t("new_password"))}<input name="new" type="password" autocomplete="new-password" minlength="8" required></label>
          <label>${esc(t("repeat_password"))}<input name="again" type="password" autocomplete="new-password" minlength="8" required></label>
          <button type="submit" data-testid="change-password">${esc(t("change_password"))}</button>
          <p class="form-note${said ? " refused" : ""}" id="password-note" role="status">${esc(said)}</p>
        </form>
      </details>
      <p class="my-data"><button type="button" data-action="myData" data-testid="my-data">${esc(t("my_data"))}</button>
        <span class="help">${esc(t("my_data_help"))}</span></p>
      <details class="delete-account"><summary>${esc(t("delete_account"))}</summary>
        <form id="delete-form" data-action="deleteAccount">
          <p class="help">${esc(t("delete_account_help"))}</p>
          <input name="username" autocomplete="username" value="${esc(p.account)}" aria-label="${esc(t("username"))}" readonly hidden>
          <label>${esc(t("current_password"))}<input name="password" type="password" autocomplete="current-password" required></label>
          <button type="submit" class="danger" data-testid="delete-account">${esc(t("delete_account"))}</button>
          <p class="form-note${deleteSaid ? " refused" : ""}" id="delete-note" role="status">${esc(deleteSaid)}</p>
        </form>
      </details>`
    : `<p class="help">${esc(t("account_help"))}</p>
      <form id="account-form" data-action="register">
        <label>${esc(t("username"))}<input name="username" autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="32" pattern="\\S+" title="${esc(t("username_rule"))}" aria-describedby="username-rule" required></label>
        <p class="help field-help" id="username-rule">${esc(t("username_rule"))}</p>
        <label>${esc(t("password"))}<input name="password" type="password" autocomplete="current-password" minlength="8" required></label>
        <div class="row"><button type="submit" data-testid="register" aria-describedby="register-offline">${esc(t("register"))}</button>
        <button type="button" data-action="login" data-testid="login">${esc(t("login"))}</button></div>
        <p class="help" id="register-offline" data-testid="register-offline" hidden>${esc(t("register_offline"))}</p>
        <p class="form-note${accountSaid ? " refused" : ""}" id="account-note" role="status" data-testid="account-note">${esc(accountSaid)}</p>
      </form>`;
  const stats = st
    ? `<table class="stats" data-testid="stats">${["matches", "wins", "contracts", "made", "deals", "average"].map((k) => `<tr><th>${esc(t("stat_" + k))}</th><td class="num">${esc(k === "average" ? decimal(st[k]) : number(st[k]))}</td></tr>`).join("")}</table>`
    : "";
  const lb = S.leaderboard || [];
  const board = lb.length
    ? `<table class="stats" data-testid="leaderboard"><thead><tr><th>${esc(t("player"))}</th><th class="num">${esc(t("stat_wins"))}</th><th class="num">${esc(t("stat_matches"))}</th>${shortOnPhone("stat_average", "stat_average_short")}</tr></thead><tbody>${lb.slice(0, 10).map((r) => `<tr>${nameCell(r.name)}<td class="num">${esc(number(r.wins))}</td><td class="num">${esc(number(r.matches))}</td><td class="num">${esc(decimal(r.average))}</td></tr>`).join("")}</tbody></table>`
    : `<p class="help">${esc(t("leaderboard_empty"))}</p>`;
  const before = changedFields(box); // keep what the person is typing, and where
  box.innerHTML = `<h2 id="h-account">${esc(t("account"))}</h2>${form}<h3>${esc(t("your_stats"))}</h3>${stats}<h3>${esc(t("leaderboard"))}</h3>${board}`;
  restoreFields(box, before);
  offlineButtons();
}

// Buttons whose request would be lost while the connection is down (a registration is not kept
// for the next connection, as a move or a login is) are disabled then, the reason under them.
function offlineButtons() {
  const off = !S.online;
  const register = $("[data-testid=register]");
  if (register) register.disabled = off;
  const why = $("#register-offline");
  if (why) why.hidden = !off;
}

// An option's words (label, help, values) at a table with these rules: at a Koz Maça table,
// where each player says a söz and there is no ihale, those of the söz (the catalog's
// "kozmaca", as 'batak rules' says them there), else the general ones
function optionWords(name, rules) {
  const opt = S.catalog.options[name];
  const soz = rules && rules.bidding === "kozmaca" && S.catalog.kozmaca ? S.catalog.kozmaca[name] : null;
  return soz ? { ...opt, ...soz, values: { ...opt.values, ...(soz.values || {}) } } : opt;
}

// An option's value in words (at a table with these rules); with the preset, an option left
// empty says what that means there, where it means more than "none" (no fixed number of
// deals: until the target score)
function optionValueText(name, value, preset, rules = preset && preset.rules) {
  if (typeof value === "boolean") return t(value ? "yes" : "no");
  const empty = preset && preset.empty && preset.empty[name];
  if ((value === null || value === undefined) && empty) return pick(empty);
  if (value === null || value === undefined) return t("none");
  if (name === "fixed_trump") return SYMBOL[value] + " " + t("suit_" + value);
  const meanings = optionWords(name, rules).values[String(value)];
  return meanings ? pick(meanings) : String(value);
}

// The private-room form's options for the preset chosen, as the server's catalog says the
// server takes them (the preset's "form": each option's choices, a number field's range, the
// pairs refused together): an option with one choice is said, not asked (and left out where it
// changes nothing at this table); each is drawn with the preset's value (drawn anew when
// another preset is chosen), then worded and its clashing choices withheld by renderCreateWords
function renderCreateOptions() {
  const box = $("#create-options");
  if (!box || !S.catalog) return;
  const p = formPresetNow();
  const f = $("#create-form");
  f.deals.placeholder = p.rules.deals ?? "";
  f.target.placeholder = p.rules.target_score ?? "";
  const form = presetForm(p);
  S.formNote = null;
  if (!form) {
    // not fetched yet (or not to be had): the table's own rules, said so
    const failed = S.forms && S.forms[p.name] === "failed";
    box.innerHTML = `<p class="help" data-testid="form-status">${esc(t(failed ? "form_unavailable" : "form_loading"))}</p>`;
    renderCreateWords();
    return;
  }
  box.innerHTML = Object.entries(form.choices)
    .filter(([name]) => !MATCH_FIELDS[name])
    .map(([name, choices]) => {
      const v = p.rules[name];
      const id = "opt-" + name;
      const range = form.numbers[name];
      let input;
      if (choices.length === 1) input = `<b class="fixed-value" id="${id}-fixed"></b>`;
      else if (S.catalog.options[name].kind === "bool") input = `<input type="checkbox" id="${id}" name="${id}"${v ? " checked" : ""}>`;
      else if (range) input = `<input type="number" id="${id}" name="${id}" value="${v ?? ""}" min="${range[0]}" max="${range[1]}" step="1">`;
      else input = `<select id="${id}" name="${id}">${choices.map((c) => `<option value="${esc(c ?? "")}"${v === c ? " selected" : ""}></option>`).join("")}</select>`;
      const label = choices.length === 1 ? `<span class="label"></span>` : `<label for="${id}"></label>`;
      return `<div class="option${choices.length === 1 ? " fixed" : ""}" data-option="${esc(name)}">${label}${input}<p class="help"></p><p class="help why" hidden></p></div>`;
    })
    .join("");
  renderCreateWords();
}

// The form's two match fields (the number of deals, the target score: a number typed in one is
// read by the server as no target, or no fixed number of deals; the target wins if both are)
const MATCH_FIELDS = { deals: "deals", target_score: "target" };

// The value of a table option as the form has it now, as the server's catalog writes it in a
// preset's "form" ("#" for a number typed in a number field; a match field left empty: null)
function formValue(f, p, name) {
  if (name === "target_score") return f.target.value === "" ? null : "#";
  if (name === "deals") return f.target.value === "" && f.deals.value !== "" ? "#" : null;
  const el = f.elements["opt-" + name];
  if (!el) return p.rules[name];
  if (el.type === "checkbox") return el.checked;
  if (el.type === "number") return el.value === "" ? null : "#";
  if (el.value === "") return null;
  return S.catalog.options[name].kind === "int" ? Number(el.value) : el.value;
}

// The options whose value in the form now the server refuses together with this one's value
function formClashes(form, state, name, value) {
  const out = [];
  for (const [o1, v1, o2, v2] of form.clashes) {
    if (o1 === name && v1 === value && state[o2] === v2) out.push(o2);
    else if (o2 === name && v2 === value && state[o1] === v1) out.push(o1);
  }
  return out;
}

// The other option a value needs changed with it, where the option as chosen now does not go
// with it, and what choosing it would then clash with: { option, value, others } (others: the
// options still in the way, with the companion set), or null (no change needed or none known)
function formCompanion(form, state, name, value) {
  const c = (form.companions || []).find(([o, v]) => o === name && v === value);
  // (a number to type in a match field: the player types it; until then the value is
  // withheld, saying the field's emptiness stands in the way)
  if (!c || c[3] === "#" || !formClashes(form, state, name, value).includes(c[2])) return null;
  const [, , option, other] = c;
  const others = [
    ...formClashes(form, { ...state, [option]: other }, name, value),
    ...formClashes(form, { ...state, [name]: value }, option, other).filter((o) => o !== name),
  ];
  return { option, value: other, others: [...new Set(others)] };
}

// The form's value of an option as a control's value: what formValue reads back
function setFormValue(f, name, value) {
  const el = f.elements[MATCH_FIELDS[name] || "opt-" + name];
  if (!el || value === "#") return;
  if (el.type === "checkbox") el.checked = value;
  else el.value = value === null ? "" : String(value);
}

// An option just changed to a value that needs another option changed with it: the form
// changes that one too and says so under the option changed (the server names the change)
function applyCompanion(name) {
  const f = $("#create-form");
  const p = formPresetNow();
  const form = p && presetForm(p);
  S.formNote = null; // (said under the option changed last only)
  if (!f || !form) return;
  const state = {};
  for (const o of Object.keys(form.choices)) state[o] = formValue(f, p, o);
  const c = formCompanion(form, state, name, state[name]);
  if (!c || c.others.length) return;
  setFormValue(f, c.option, c.value);
  S.formNote = { name, option: c.option };
}

// Whether an option changes anything with the form's other options as chosen now (no "if
// everyone passes" where no one bids): the preset's form says what each needs
function formApplies(form, state, name) {
  const needs = (form.applies || {})[name];
  if (needs === undefined) return true;
  if (needs === null) return false;
  return Object.entries(needs).every(([o, values]) => values.includes(state[o]));
}

// The form's words follow the bidding chosen in the form, not the preset's: a Koz Maça preset
// switched to an ihale speaks of the ihale and its bids, an ihale's preset switched to Koz Maça
// of each player's söz (the preset's summary above the form, the options' labels, helps and the
// choices' words; what was chosen stays chosen). The one place that words them and withholds
// the choices the server refuses with what is chosen now (disabled, saying which option
// stands in the way): the options drawn for a preset, any option changed, the lobby drawn anew
// (another language).
function renderCreateWords() {
  const f = $("#create-form");
  const p = formPresetNow();
  if (!f || !p) return;
  const form = presetForm(p);
  const state = {};
  for (const name of form ? Object.keys(form.choices) : ["bidding"]) state[name] = formValue(f, p, name);
  const rules = { ...p.rules, bidding: state.bidding };
  const summary = (form && form.bidding_summary && form.bidding_summary[rules.bidding]) || p.summary;
  $("#preset-summary").innerHTML = `<span data-testid="preset-summary">${esc(pick(summary))}</span> · <a href="/rules/${esc(p.name)}" data-action="nav" data-href="/rules/${esc(p.name)}">${esc(t("rules_link"))}</a>`;
  // "Label: value", of an option as the form has it now
  const setting = (o) => {
    const el = f.elements[MATCH_FIELDS[o] || "opt-" + o];
    const value = el && el.type === "number" && el.value !== "" ? el.value : state[o] === "#" ? "" : state[o];
    return `${pick(optionWords(o, rules).label)}: ${optionValueText(o, value, p, rules)}`;
  };
  const because = (others) => others.map(setting).join("; ");
  // "Label: value", of an option with a value it does not have now
  const settingTo = (o, value) => `${pick(optionWords(o, rules).label)}: ${optionValueText(o, value === "#" ? "" : value, p, rules)}`;
  if (!form) {
    // the table's own rules: no reasons to give, nothing withheld
    for (const why of f.querySelectorAll(".why[data-field]")) why.hidden = true;
    for (const field of Object.values(MATCH_FIELDS)) if (f.elements[field]) { f.elements[field].disabled = false; f.elements[field].required = false; }
    return;
  }
  const note = S.formNote;
  for (const box of f.querySelectorAll(".option[data-option]")) {
    const name = box.dataset.option;
    box.hidden = !formApplies(form, state, name);
    const words = optionWords(name, rules);
    box.querySelector(".label, label").textContent = pick(words.label);
    box.querySelector(".help").textContent = pick(words.help);
    const why = box.querySelector(".why");
    let reason = "";
    const fixed = box.querySelector(".fixed-value");
    const el = f.elements["opt-" + name];
    if (fixed) {
      fixed.textContent = optionValueText(name, p.rules[name], p, rules);
      reason = t("form_fixed");
    } else if (el.tagName === "SELECT") {
      for (const o of el.options) {
        const value = o.value === "" ? null : S.catalog.options[name].kind === "int" ? Number(o.value) : o.value;
        const companion = value === state[name] ? null : formCompanion(form, state, name, value);
        const others = value === state[name] ? [] : companion ? companion.others : formClashes(form, state, name, value);
        o.disabled = others.length > 0;
        const said = optionValueText(name, value, p, rules);
        if (others.length) o.textContent = t("form_choice_not_with", { choice: said, setting: because(others) });
        else if (companion) o.textContent = t("form_choice_also_sets", { choice: said, setting: settingTo(companion.option, companion.value) });
        else o.textContent = said;
      }
    } else {
      // a checkbox or a number field: its other value (unchecked or checked; a number or
      // none). A number field that may not be left empty is required, not disabled
      const other = el.type === "checkbox" ? !el.checked : state[name] === null ? "#" : null;
      const companion = formCompanion(form, state, name, other);
      const others = companion ? companion.others : formClashes(form, state, name, other);
      if (el.type === "number" && other === null) el.required = others.length > 0;
      else el.disabled = others.length > 0;
      if (others.length) reason = t(el.type === "number" && other === null ? "form_needs_number" : "form_locked", { setting: because(others) });
      else if (companion) reason = t(el.type === "number" ? "form_number_also_sets" : "form_change_also_sets", { setting: settingTo(companion.option, companion.value), current: setting(companion.option) });
    }
    // the option just chosen brought another with it: said under it
    if (note && note.name === name && !reason) reason = t("form_also_set", { setting: setting(note.option) });
    why.textContent = reason;
    why.hidden = !reason;
  }
  // the match fields: one not offered at this table is emptied and disabled; one whose number
  // (or emptiness) clashes with an option as chosen now is disabled (or required)
  for (const [name, field] of Object.entries(MATCH_FIELDS)) {
    const el = f.elements[field];
    const why = f.querySelector(`.why[data-field="${name}"]`);
    const choices = form.choices[name];
    if (!el || !why || !choices) continue;
    let reason = "";
    if (!choices.includes("#")) {
      el.value = "";
      el.disabled = true;
      reason = t("form_fixed");
    } else {
      const other = state[name] === null ? "#" : null;
      const companion = formCompanion(form, state, name, other);
      const others = companion ? companion.others : formClashes(form, state, name, other);
      el.disabled = other === "#" && others.length > 0;
      el.required = other === null && others.length > 0;
      if (others.length) reason = t(other === null ? "form_needs_number" : "form_locked", { setting: because(others) });
      else if (companion) reason = t("form_number_also_sets", { setting: settingTo(companion.option, companion.value), current: setting(companion.option) });
    }
    if (note && note.name === name && !reason) reason = t("form_also_set", { setting: setting(note.option) });
    why.textContent = reason;
    why.hidden = !reason;
  }
}

function renderLobbyTables() {
  const box = $("#lobby-tables");
  if (!box) return;
  const rows = [];
  if (S.lobby) {
    for (const m of MODES) for (const s of S.lobby.modes[m] || []) rows.push(s);
  }
  if (!rows.length) { box.innerHTML = `<p class="help">${esc(t("no_public"))}</p>`; return; }
  box.innerHTML = `<ul class="plain tables">${rows.map((s) => `<li>
    <span><b>${esc(t("mode_" + s.mode))}</b>${s.stake ? " · " + esc(t("table_stake", { n: chipsNumber(s.stake) })) : ""} · ${esc(t("status_" + s.status))} · ${s.seats.map((n, i) => esc(n || "—") + (n && s.levels ? levelBadge(s.levels[i]) : "") + (n && s.bot_accounts && s.bot_accounts[i] ? botAccountTag() : "")).join(", ")}</span>
    ${s.status === "waiting" && s.free ? `<button data-action="joinTable" data-table="${esc(s.id)}">${esc(t("join"))} (${esc(t("free_seats", { n: s.free }))})</button>` : ""}
    <button data-action="joinTable" data-table="${esc(s.id)}" data-spectate="1">${esc(t("watch"))}</button>
  </li>`).join("")}</ul>`;
}

// ---------------- rules pages
function renderRules(name) {
  if (!S.catalog) { app().innerHTML = `<p class="center">${esc(t("connecting"))}</p>`; return; }
  const nav = `<p><a href="/" data-action="nav" data-href="/">← ${esc(t("back_to_lobby"))}</a>${name ? ` · <a href="/rules" data-action="nav" data-href="/rules">${esc(t("all_tables"))}</a>` : ""}</p>`;
  if (!name) {
    app().innerHTML = `<div class="page">${nav}<h2>${esc(t("rules_title"))}</h2><p data-testid="rules-intro">${esc(t("rules_intro_list"))}</p><ul class="plain presets">${listedPresets().map((p) => `<li><a href="/rules/${esc(p.name)}" data-action="nav" data-href="/rules/${esc(p.name)}"><b>${esc(pick(p.title))}</b></a>: ${esc(pick(p.summary))}</li>`).join("")}</ul></div>`;
    return;
  }
  const p = S.catalog.presets.find((x) => x.name === name);
  if (!p) { app().innerHTML = `<div class="page">${nav}<p>${esc(t("no_such_page"))}</p></div>`; return; }
  // the options that change nothing at this table, named once under the others (as the
  // terminal's 'batak rules' does); a catalog without the list shows every option
  const unused = p.unused || [];
  app().innerHTML = `<div class="page">${nav}
    <h2>${esc(t("rules_of", { name: pick(p.title) }))}</h2>
    <p>${esc(t("rules_source", { source: pick(p.source) }))}</p>
    ${p.same_as ? `<p data-testid="same-as"><a href="/rules/${esc(p.same_as)}" data-action="nav" data-href="/rules/${esc(p.same_as)}">${esc(t("preset_same_as", { title: presetTitle(p.same_as) }))}</a></p>` : ""}
    <p><b>${esc(pick(p.summary))}</b></p>
    <p>${esc(t("rules_intro"))}</p>
    <table class="rules"><thead><tr><th>${esc(t("option"))}</th><th>${esc(t("value"))}</th></tr></thead><tbody>
    ${Object.keys(S.catalog.options).filter((o) => !unused.includes(o)).map((o) => [o, optionWords(o, p.rules)]).map(([o, opt]) => `<tr data-option="${esc(o)}"><td><b>${esc(pick(opt.label))}</b><br><span class="help">${esc(pick(opt.help))}</span></td><td>${esc(optionValueText(o, p.rules[o], p))}</td></tr>`).join("")}
    </tbody></table>
    ${unused.length ? `<p class="help" data-testid="rules-unused">${esc(t("rules_unused", { options: unused.map((o) => pick(optionWords(o, p.rules).label)).join(", ") }))}</p>` : ""}
    <p class="help" data-testid="preset-id">${esc(t("preset_id", { name: p.name }))}</p></div>`;
}

// ---------------- table
function seatName(seat) {
  const T = S.table;
  const s = T.info && T.info.seats[seat];
  if (seat === T.you) return t("you");
  return (s && s.name) || t(s && s.removed ? "removed_player" : "seat_n", { n: seat + 1 });
}

// A seat named at the start of a line or in a heading: "You" / "Sen" for this browser's seat.
function seatLabel(seat) {
  return seat === S.table.you ? t("you_label") : seatName(seat);
}

// A sentence about a seat: in the second person when the seat is this browser's ("You went
// down", "Battın"), never "you went down" / "sen battı".
function sentence(seat, key, youKey, params = {}) {
  return seat === S.table.you ? t(youKey, params) : t(key, { ...params, name: seatName(seat) });
}

function wonBy(seat) {
  return sentence(seat, "won_by", "won_by_you");
}

// Where a seat sits on the screen: "bottom" is this browser's seat (seat 0 for spectators).
function position(seat) {
  const T = S.table;
  const n = T.info.rules.players;
  const me = T.you ?? 0;
  const rel = (seat - me + n) % n;
  const cw = T.info.rules.direction === "clockwise";
  if (rel === 0) return "bottom";
  if (n === 3) return rel === 1 ? (cw ? "left" : "right") : (cw ? "right" : "left");
  if (rel === 2) return "top";
  return rel === 1 ? (cw ? "left" : "right") : (cw ? "right" : "left");
}

function renderTable(full = false) {
  const T = S.table;
  if (!T || route().page !== "table") return;
  // (a table's window of the table before, e.g. a match's end that led here, made the header
  // inert: not while this one's first sync is awaited)
  if (!T.info) { // (a tournament's table being seated says so, not "Connecting…")
    modal(false);
    // one status region whose words change in place: a screen reader reads "being prepared"
    // out when it comes, and nothing again when the page asks once more (the same words)
    let wait = $("#table-wait");
    if (!wait) {
      app().innerHTML = `<p class="center" id="table-wait" role="status"></p>`;
      wait = $("#table-wait");
    }
    const words = t(T.preparing ? (T.preparing === "watch" ? "tourney_preparing_watch" : "tourney_preparing") : "connecting");
    if (wait.textContent !== words) wait.textContent = words;
    if (T.preparing) wait.dataset.testid = "tourney-preparing";
    else delete wait.dataset.testid;
    return;
  }
  let typed = null;
  if (full || !$("#felt") || $("#table-root").dataset.lang !== lang()) {
    // what is being typed at the table (a chat line, a username to invite) survives the table
    // being drawn anew (a sync, a reconnect), with the focus and the caret
    const root = $("#table-root");
    typed = root ? changedFields(root) : null;
    const active = document.activeElement;
    // a button focused there (not a field: those are kept with what was typed) is found again
    if (typed && !typed.focus && active && root.contains(active)) typed.button = openerKey(active);
    app().innerHTML = `
    <div id="table-root" class="table-root${T.chatOpen ? " chat-open" : ""}" data-lang="${lang()}">
      <div class="topbar" id="topbar"></div>
      <div class="main">
        <div class="felt" id="felt" data-offline="${esc(t("offline"))}"></div>
        <div class="panel" id="panel" aria-live="polite"></div>
        <div class="hand" id="hand" role="group"></div>
      </div>
      <aside class="side">
        <section aria-labelledby="h-chat" class="chat-box" id="chat-box" data-testid="chat-box"><h2 id="h-chat">${esc(t("chat"))}</h2>
          <div class="chat-log" id="chat-log" aria-live="polite"></div>
          ${T.info.archived ? "" /* a match opened again from the saved games: nobody to talk to */ : `<form data-action="chat" class="row"><input id="chat-input" maxlength="200" placeholder="${esc(t("chat_placeholder"))}" aria-label="${esc(t("chat"))}"><button type="submit">${esc(t("send"))}</button></form>`}
          <button class="narrow-only chat-close" data-action="chatPanel" data-testid="chat-close">${esc(t("close"))}</button>
          ${T.info.archived ? "" : `<p class="chat-note" id="chat-note" role="status" hidden></p>
          <div class="reactions" role="group" aria-label="${esc(t("reactions"))}">${((S.welcome && S.welcome.reactions) || []).map((r) => `<button class="small" data-action="react" data-reaction="${esc(r)}">${esc(r === "gg" ? "GG" : r)}</button>`).join("")}</div>`}
          <p class="chat-notice" id="chat-notice" aria-hidden="true" data-testid="chat-notice" hidden></p>
        </section>
        <section><h2>${esc(t("score_sheet"))}</h2><div id="sheet-side"></div></section>
      </aside>
      <div id="dialog"></div>
    </div>`;
    renderChat();
    renderChatNotice();
  }
  renderTopbar();
  renderFelt();
  renderPanel();
  renderHand();
  $("#sheet-side").innerHTML = sheetHTML();
  renderDialog();
  if (typed) restoreFields($("#table-root"), typed);
  if (typed && typed.button && !$("#table-root").contains(document.activeElement)) {
    const again = [...document.querySelectorAll(typed.button)].find((x) => $("#table-root").contains(x));
    if (again) again.focus({ preventScroll: true });
  }
}

function contractText(v) {
  if (!v || !v.contract) return "";
  // "İhale: Bot 4 · 5" (the koz is said beside it)
  return sentence(v.contract.bidder, "contract", "contract_you", { bid: v.contract.bid });
}

// The koz of the table's deal (hand.js's dealKoz).
function kozOf(T) {
  return dealKoz(T.view, T.info && T.info.rules);
}

// A tournament's table is named by its tournament (a link to it), round and table number, not by
// a room code nobody uses there ("" at other tables). The link opens another tab, as the rules
// link beside it does: going there from this page would leave the seat to a computer mid-round.
function tourneyPlace(info) {
  const o = info.options || {};
  if (!o.tournament) return "";
  const name = o.tournament_name || presetTitle(info.preset);
  const round = o.round ? ` · ${esc(t("tourney_round_n", { n: o.round, of: o.rounds || o.round }))}` : "";
  const table = o.number ? ` · ${esc(t("tourney_table_n", { n: o.number }))}` : "";
  return `<a href="/tournaments/${esc(o.tournament)}" target="_blank" rel="noopener" data-testid="table-tourney">🏆 ${esc(name)}</a>${round}${table}`;
}

function renderTopbar() {
  const T = S.table;
  const v = T.view;
  const info = T.info;
  const parts = [];
  if (v) {
    const m = v.match;
    parts.push(esc(m.deals ? t("deal_n", { n: m.deal, total: m.deals }) : t("deal_n_target", { n: m.deal, target: m.target_score })));
    if (v.contract) parts.push(esc(contractText(v)));
    const koz = kozOf(T);
    parts.push(koz ? `${esc(t("koz"))}: <b class="suit-${koz}">${SYMBOL[koz]}</b> ${esc(t("suit_" + koz))}` : esc(t("no_koz_yet")));
  } else {
    parts.push(esc(t(info.status === "waiting" ? "not_started" : "status_" + info.status)));
  }
  // a spectator is told so first (on a phone the facts are the line above the table); everyone
  // sees how many watch
  if (T.watchers) parts.unshift(`<span class="watchers" data-testid="watchers"><span aria-hidden="true">👁</span> ${esc(t("watchers", { n: T.watchers }))}</span>`);
  if (T.you == null && !info.archived) parts.unshift(`<b class="watching-badge" data-testid="watching">${esc(t("watching_you"))}</b>`);
  const host = S.player && info.host === S.player.id;
  const playing = info.status === "playing";
  // (a button focused there, tabbed to and about to be pressed, keeps the focus through the
  // redraw each move at the table brings: the next bot's bid left it on the page's body)
  const bar = $("#topbar");
  const leaves = T.you != null && info.status !== "over" && info.status !== "closed";
  // on a phone the tools are one row above the felt: shorter words where there are two (the
  // whole ones on a wider screen), the lobby's arrow alone (its name is its aria-label);
  // "Continue later" and the sound's switch under the table, with the room's name
  const two = (wide, narrow) => `<span class="wide-text">${esc(wide)}</span><span class="narrow-text">${esc(narrow)}</span>`;
  redrawKeepingFocus(bar, () => { bar.innerHTML = `
    <a href="/" data-action="toLobby" class="button small" data-testid="to-lobby" aria-label="${esc(t("back_to_lobby"))}">←<span class="wide-text"> ${esc(t("back_to_lobby"))}</span></a>
    <span class="room">${tourneyPlace(info) || esc(t("room", { code: info.code }))} · <a href="/rules/${esc(info.preset)}" target="_blank" rel="noopener" data-testid="rules-link">${presetTitleHTML(info.preset)}</a></span>
    <span class="facts" data-testid="facts">${parts.map((x) => `<span class="fact">${x}</span>`).join("\u00a0· ")}</span>
    ${tableChipsHTML(info)}
    ${host && playing && info.kind === "private" ? `<button class="small adjourn" data-action="adjourn">${esc(t("adjourn"))}</button>` : ""}
    <span class="tools">
      ${v ? `<button class="small" data-action="dialog" data-dialog="last">${esc(t("last_trick"))}</button>` : ""}
      ${v ? `<button class="small" data-action="dialog" data-dialog="sheet">${two(t("score_sheet"), t("score_sheet_short"))}</button>` : ""}
      ${leaves ? `<button class="small" data-action="leave" data-testid="leave">${two(t("leave"), t("leave_short"))}</button>` : ""}
      ${chatButtonHTML(T)}
    </span>
    ${T.you != null ? `<button class="small sound" data-action="sound" data-testid="sound" aria-pressed="${S.sound}" title="${esc(t("sound_label"))}" aria-label="${esc(t("sound_label"))}">${esc(t(S.sound ? "sound_on" : "sound_off"))}</button>` : ""}`; });
}

// On a phone (or a narrow window) the chat is a panel over the page's top, opened from the
// top bar: the button says how many lines came while it was closed.
function chatButtonHTML(T) {
  return `<button class="small narrow-only chat-open-button" data-action="chatPanel" data-testid="chat-open" aria-expanded="${Boolean(T.chatOpen)}" aria-controls="chat-box"${chatButtonInside(T)}</button>`;
}

// The Chat button's name and words (the rest of its tag, from its aria-label): the number of
// lines unseen is a badge on its corner (the row of buttons keeps its width).
function chatButtonInside(T) {
  const unread = T.chatOpen ? 0 : T.chatUnread;
  const label = unread ? t("chat_unread", { n: unread }) : t("chat");
  return ` aria-label="${esc(label)}">${esc(t("chat"))}${unread ? `<span class="unread" aria-hidden="true" data-testid="chat-unread">${unread}</span>` : ""}`;
}

function clockLeft(seat) {
  const T = S.table;
  const c = T.clock;
  if (!c || c.seat !== seat || !c.running || c.left == null) return null;
  return Math.max(0, c.left - (performance.now() - T.clockAt) / 1000);
}

function seatHTML(seat) {
  const T = S.table;
  const v = T.view;
  const s = T.info.seats[seat];
  const labels = [];
  if (seat === T.you) labels.push(t("you"));
  if (s.bot) labels.push(t("bot"));
  // a bot account (a program a person runs, `batak bot`): marked at every table, also where
  // the house's bots are hidden, with its own word, so that people know they face a program
  else if (s.bot_account) labels.push(t("bot_account"));
  if (s.away) labels.push(t("away"));
  else if (s.connected === false && !s.removed) labels.push(t("disconnected"));
  if (v && v.dealer === seat) labels.push(t("dealer"));
  if (v && v.phase === "play" && v.current_trick && v.current_trick.leader === seat) labels.push(t("leads"));
  if (s.host && T.info.kind === "private") labels.push(t("host"));
  if (v && v.exposed && v.exposed.seat === seat && seat === T.you) labels.push(t("exposed_you"));
  const team = seatTeam(T, seat);
  if (team.label) labels.unshift(team.label);
  let tricks = "";
  let teamPart = "";
  if (v && v.phase !== "bidding") {
    const won = v.tricks_won[seat];
    const r = T.info.rules;
    if (v.bids && v.bids[seat] != null) tricks = t("tricks_of", { won, bid: v.bids[seat] });
    else if (v.contract && (v.contract.bidder === seat || (r.partners && (v.contract.bidder + 2) % 4 === seat))) {
      if (r.partners) {
        const team = won + v.tricks_won[(seat + 2) % 4];
        teamPart = t("team_tricks", { won: team, bid: v.contract.bid });
        tricks = String(won);
      } else tricks = t("tricks_of", { won, bid: v.contract.bid });
    } else tricks = String(won);
    // the team's count its own piece: on a phone it goes on a line of its own, with no dot
    tricks = `${esc(t("tricks"))}: <b>${esc(tricks)}</b>${teamPart ? `<span class="team-part"><b>${esc(teamPart)}</b></span>` : ""}`;
  }
  let said = "";
  if (v && v.phase === "bidding") {
    const mine = v.auction.filter((a) => a.seat === seat);
    if (mine.length) said = esc(moveText(mine[mine.length - 1].move));
  }
  const left = clockLeft(seat);
  const bank = seatBank(T, seat);
  const toMove = v && v.to_move === seat && T.info.status === "playing";
  const decision = (T.clock && T.clock.decision) || 25;
  let exposed = "";
  if (v && v.exposed && v.exposed.seat === seat && seat !== T.you) {
    const cards = sortHand(v.exposed.cards, kozOf(T));
    const label = esc(t("exposed_hand", { name: seatName(seat) }));
    // the cards' faces; at a side seat of a narrow screen (a column two cards wide) the same
    // cards as a line a suit, as a bridge diagram shows the dummy
    const rows = [];
    for (const c of cards) {
      const last = rows[rows.length - 1];
      if (last && last.suit === suitOf(c)) last.cards.push(c);
      else rows.push({ suit: suitOf(c), cards: [c] });
    }
    // (each a named group: a name on a div with no role may go unread; each face a picture
    // named as its card, its drawing hidden from a screen reader; each suit's line an item)
    exposed = `<div class="exposed" role="group" aria-label="${label}">${cards.map((c) => `<span class="mini" role="img" aria-label="${esc(cardName(c))}" title="${esc(cardName(c))}">${cardSVG(c)}</span>`).join("")}</div>
      <div class="exposed-rows" role="list" aria-label="${label}" data-testid="exposed-rows">${rows.map((r) => `<div role="listitem"><span class="suit-${r.suit}">${SYMBOL[r.suit]}</span> ${r.cards.map((c) => esc(rankLabel(rankOf(c)))).join(" ")}</div>`).join("")}</div>`;
  }
  const bubble = T.bubbles[seat] && T.bubbles[seat].until > Date.now() ? `<span class="bubble">${esc(T.bubbles[seat].text)}</span>` : "";
  const count = v && seat !== T.you && !(v.exposed && v.exposed.seat === seat) ? `<span class="count" title="${v.hand_sizes[seat]}">${backSVG()}<b>${v.hand_sizes[seat]}</b></span>` : "";
  return `<div class="seat pos-${position(seat)}${toMove ? " to-move" : ""}${team.cls}" data-seat="${seat}" data-testid="seat-${position(seat)}">
    <div class="who">${count}${story.portrait(s.bot, esc)}<span class="name" title="${esc(s.name || "")}">${esc(s.name || (s.removed ? t("removed_player") : s.bot ? t("bot") : t("empty_seat")))}</span>${levelBadge(s.level)}${bubble}</div>
    <div class="labels">${labels.map((l) => `<span class="tag">${esc(l)}</span>`).join("")}</div>
    <div class="tricks">${tricks}${said ? ` <span class="said">${said}</span>` : ""}</div>
    <div class="clock" data-clock-seat="${seat}">${clockHTML(left, bank, decision)}</div>
    ${exposed}
  </div>`;
}

/* a seat's time bank, if it has one: bots have none, and an empty seat none yet */
function seatBank(T, seat) {
  const s = T.info.seats[seat] || {};
  return T.clock && T.clock.bank && !s.bot && s.name ? T.clock.bank[seat] : null;
}

function clockHTML(left, bank, decision) {
  const b = bank != null ? `<span class="bank">${esc(t("bank", { s: Math.round(bank) }))}</span>` : "";
  if (left == null) return b;
  // the bar's width in steps of 5 %, as classes: the page's security policy allows no style
  // attributes
  const pct = Math.max(0, Math.min(100, (100 * left) / decision));
  const low = left < 6 ? " low" : "";
  return `<span class="bar${low}" role="timer" aria-label="${esc(t("clock", { s: Math.ceil(left) }))}"><span class="w${Math.round(pct / 5) * 5}"></span></span><span class="secs${low}">${esc(t("clock", { s: Math.ceil(left) }))}</span>${b}`;
}

function tickClocks() {
  const T = S.table;
  if (!T || !T.info || !T.clock) return;
  for (const el of document.querySelectorAll("[data-clock-seat]")) {
    const seat = Number(el.dataset.clockSeat);
    el.innerHTML = clockHTML(clockLeft(seat), seatBank(T, seat), T.clock.decision || 25);
  }
}
setInterval(tickClocks, 250);

function moveText(move) {
  if (move === "pass") return t("said_pass");
  if (move.startsWith("bid ")) return t("said_bid", { n: move.slice(4) });
  if (move.startsWith("trump ")) return SYMBOL[move.slice(6)] + " " + t("suit_" + move.slice(6));
  if (move.startsWith("bury ")) return t("move_bury", { card: cardLabel(move.slice(5)) });
  return cardLabel(move);
}

function trickHTML(trick, n, label) {
  return `<div class="trick">${trick.cards.map((c, i) => {
    const seat = (trick.leader + i) % n;
    return `<div class="played at-${position(seat)}" data-testid="played-${position(seat)}" title="${esc(seatLabel(seat))}: ${esc(cardName(c))}">${cardSVG(c)}</div>`;
  }).join("")}${label ? `<div class="trick-label">${esc(label)}</div>` : ""}</div>`;
}

function renderFelt() {
  const T = S.table;
  if (!T || !T.info || !$("#felt") || motion.feltLocked()) return;
  const v = motion.shownView(T); // the view being drawn (events are drawn in turn)
  const n = T.info.rules.players;
  const seats = [];
  for (let i = 0; i < n; i++) seats.push(seatHTML(i));
  let centre = "";
  const held = motion.heldTrick(); // a finished trick in view, before it goes to its winner
  const result = held ? "" : resultCentre(T);
  if (held) {
    centre = trickHTML(held.trick, n, wonBy(held.winner));
  } else if (result) {
    centre = result;
  } else if (!v) {
    centre = waitingRoomHTML();
  } else if (v.phase === "play" || v.phase === "over") {
    const cur = v.current_trick;
    if (cur && cur.cards.length) centre = trickHTML(cur, n, "");
  } else if (v.phase === "bidding") {
    centre = auctionHTML(v);
  } else if (v.contract) {
    centre = kittyHTML(v, seatName(v.contract.bidder), v.contract.bidder === T.you, backSVG);
  }
  // (the auction: on a phone a shorter felt, the bid buttons in sight with the hand)
  const bidding = !held && !result && v && v.phase === "bidding";
  $("#felt").className = `felt players-${n}${!held && !result && !v ? " is-waiting" : ""}${bidding ? " is-bidding" : ""}`;
  const felt = $("#felt");
  const typed = changedFields(felt); // the waiting room's invite field survives a redraw
  const koz = v && v.phase !== "over" ? kozOf(T) : null;
  const kozBadge = koz ? `<div class="felt-koz" data-testid="felt-koz" title="${esc(t("koz"))}: ${esc(t("suit_" + koz))}">${esc(t("koz"))} <b class="suit-${koz}">${SYMBOL[koz]}</b></div>` : "";
  // (a button pressed there, Start or a result's Next deal, gone with the redraw: the focus goes
  // on to the next thing to play)
  redrawKeepingFocus(felt, () => {
    felt.innerHTML = seats.join("") + `<div class="centre">${centre}</div>` + teamBoardHTML(T, seatName) + kozBadge;
    restoreFields(felt, typed);
  }, () => skipToPlay());
  clearChatPanel();
}

// A phone's chat panel lies over the top of the page (the header and the top bar's buttons):
// the table's facts line, and with it the felt and the hand, move down as far as needed to
// begin below it (a notice under the header, there or gone, moves the table too), and back
// where they were once the panel closes. Elsewhere (a desktop's chat beside the table) nothing.
function clearChatPanel() {
  const root = $("#table-root");
  const box = $("#chat-box");
  const facts = document.querySelector("#topbar .facts");
  if (!root || !box) return;
  inertRest(); // (the header under the panel, or back from under it)
  let room = "";
  if (S.table && S.table.chatOpen && facts && getComputedStyle(box).position === "absolute") {
    // (both measured on the page, which may be scrolled: the panel lies on it; the facts where
    // they are without the room made now, which is not taken away to measure: a page scrolled
    // to its bottom, shorter for a moment, would be scrolled up)
    const made = parseFloat(getComputedStyle(facts).marginTop) || 0;
    const below = box.getBoundingClientRect().bottom + 4 - (facts.getBoundingClientRect().top - made);
    if (below > 0) room = `${Math.ceil(below)}px`;
  }
  if (root.style.getPropertyValue("--chat-room") === room) return;
  if (room) root.style.setProperty("--chat-room", room);
  else root.style.removeProperty("--chat-room");
}

function auctionHTML(v) {
  if (v.redeal) return `<p>${esc(t("redeal"))}</p>`;
  if (!v.auction.length) return "";
  // Koz Maça: each player's söz, said once; no auction. (Each line numbered by itself: a phone
  // shows only the last ones, numbered as they are; style.css)
  return `<div class="auction"><h2>${esc(t(v.rules.bidding === "kozmaca" ? "auction_kozmaca" : "auction"))}</h2><ol>${v.auction.map((a, i) => `<li value="${i + 1}">${esc(seatLabel(a.seat))}: <b>${esc(moveText(a.move))}</b></li>`).join("")}</ol></div>`;
}

// The host adjourned the match: to the host it says "you".
function adjournedText(T) {
  return t(S.player && T.info && T.info.host === S.player.id ? "adjourned_you" : "adjourned");
}

function waitingRoomHTML() {
  const T = S.table;
  const info = T.info;
  const host = S.player && info.host === S.player.id;
  if (info.status === "adjourned") {
    return `<div class="waiting"><p data-testid="adjourned">${esc(adjournedText(T))}</p>${host ? `<button class="primary" data-action="start">${esc(t("start_resume"))}</button>` : ""}</div>`;
  }
  const quick = info.kind === "public" && info.mode;
  const hostSeat = info.seats.findIndex((s) => s.host);
  return `<div class="waiting">
    <p>${esc(t(quick ? "waiting_quick" : "waiting_for_players"))}</p>
    ${roomSettingsHTML(info, T.clock && T.clock.decision)}
    ${info.kind === "private" ? `<p class="code">${esc(t("code"))}: <b data-testid="room-code">${esc(info.code)}</b> <button class="small" data-action="copy" data-text="${esc(info.code)}">${esc(t("copy"))}</button></p>
    <p>${esc(t("invite"))}: <a href="${esc(info.invite)}" data-testid="invite">${esc(info.invite).replace(/([^/])\/(?!\/)/g, "$1/<wbr>")}</a> <button class="small" data-action="copy" data-text="${esc(info.invite)}">${esc(t("copy"))}</button></p>` : ""}
    ${host && info.kind === "private" ? `${invitePlayerHTML(T)}<button class="primary" data-action="start" data-testid="start">${esc(t("start"))}</button><p class="help">${esc(t("start_help"))}</p>` : ""}
    ${!host && info.kind === "private" && hostSeat >= 0 ? `<p data-testid="waiting-host">${esc(t("waiting_host", { name: seatName(hostSeat) }))}</p>` : ""}
  </div>`;
}

// What the room plays, for everyone waiting in it (a guest could not see what the host chose
// before the first deal): the table, the match's length, the clock, and every rule changed from
// the table's own.
function roomSettingsHTML(info, decision) {
  const r = info.rules || {};
  const facts = [presetTitle(info.preset)];
  facts.push(r.deals ? t(r.deals === 1 ? "room_deals_one" : "room_deals", { n: r.deals }) : t("room_target", { n: r.target_score }));
  if (decision) facts.push(t("room_decision", { n: decision }));
  const base = S.catalog && S.catalog.presets.find((p) => p.name === info.preset);
  const changed = !base ? [] : Object.entries(S.catalog.options)
    .filter(([name]) => name !== "deals" && name !== "target_score" && (r[name] ?? null) !== (base.rules[name] ?? null))
    .map(([name]) => `${pick(optionWords(name, r).label)}: ${optionValueText(name, r[name], null, r)}`);
  return `<div class="room-settings" data-testid="room-settings"><p><b>${esc(facts.join(" · "))}</b>
      · <a href="/rules/${esc(info.preset)}" target="_blank" rel="noopener">${esc(t("rules_link"))}</a></p>
    ${changed.length ? `<p class="help" data-testid="room-changed">${esc(t("room_changed", { list: changed.join("; ") }))}</p>` : ""}</div>`;
}

// The host of a private room invites an account that is online (a friend, a bot account) by its
// username; the server sends that player's pages an invitation with the room's code.
function invitePlayerHTML(T) {
  askInvitable(T, false);
  const note = T.inviteNote;
  const bots = T.invitable || [];
  const said = !note ? "" : note.refused != null ? t("invite_player_refused", { message: note.refused })
    : t("invite_player_sent", { name: note.name });
  return `<form class="invite-player" data-action="invitePlayer" id="invite-player-form">
    <label for="invite-player-input">${esc(t("invite_player_label"))}</label>
    <p class="invite-help" id="invite-player-help">${esc(t("invite_player_help"))}</p>
    <div class="row"><input id="invite-player-input" aria-describedby="invite-player-help" name="username" autocomplete="off" autocapitalize="none" spellcheck="false" maxlength="32" data-testid="invite-player-input"><button type="submit">${esc(t("invite_player_button"))}</button></div>
    <p class="invite-note ${note && note.refused != null ? "refused" : ""}" role="status" data-testid="invite-player-note">${esc(said)}</p>
    ${bots.length ? `<p class="bots-online" data-testid="bots-online">${esc(t("invite_bots_online"))} ${bots.map((b) => `<button type="button" class="small" data-action="inviteBot" data-username="${esc(b.username)}" title="${esc(b.username)}">🤖 ${esc(b.name)}</button>`).join(" ")}</p>` : ""}
  </form>`;
}

// The bot accounts online that the host could invite: asked for when the waiting room is drawn
// (at most every 10 s) and when a seat is taken or freed (``force``).
function askInvitable(T, force) {
  const now = Date.now();
  if (!force && now - (T.invitableAt || 0) < 10000) return;
  T.invitableAt = now;
  send({ type: "invitable", table: T.id, ref: "invitable" });
}

function myTurn() {
  const T = S.table;
  const v = T.view;
  return !!(v && T.you != null && v.to_move === T.you && v.legal_moves.length && T.info.status === "playing");
}

function renderPanel() {
  const T = S.table;
  const el = $("#panel");
  if (!T || !el) return;
  const v = T.view;
  if (!v) { el.innerHTML = ""; return; }
  const out = [];
  const mine = myTurn();
  turnSignal(mine);
  const forced = T.info.status === "playing" ? forcedText(v) : "";
  if (forced) out.push(`<p class="help" data-testid="forced">${esc(forced)}</p>`);
  if (T.info.status === "over") {
    out.push(`<p>${esc(t("match_over"))}</p>`);
  } else if (T.info.status === "adjourned") {
    out.push(`<p>${esc(adjournedText(T))}</p>`);
  } else if (T.info.status === "closed") { // (not "waiting for you": nobody waits here now)
    out.push(`<p>${esc(t("story_closed_title"))}</p>`);
  } else if (mine) {
    // "Teach me" beside "Your turn": a hint is for this player's own decision only, and there,
    // right under the hand, a thumb finds it on a phone without scrolling (the toolbar is
    // further down the page)
    out.push(`<div class="turn-row"><p class="turn" data-testid="your-turn"><b>${esc(t("your_turn"))}</b>: ${esc(phasePrompt(v))}</p><button class="small teach" data-action="hint" data-testid="teach">${esc(t("teach_me"))}</button></div>`);
    if (v.phase === "bidding") {
      // the hint's bid (or koz) marked on its button, as the hint's card is in the hand
      const hinted = (m) => (T.hint && T.hint.move === m ? " hinted" : "");
      out.push(`<div class="bids">${v.legal_moves.map((m) => `<button data-action="move" data-move="${esc(m)}" class="${m === "pass" ? "pass" : "bid"}${hinted(m)}">${esc(m === "pass" ? t("pass") : t("bid", { n: m.slice(4) }))}</button>`).join("")}</div>`);
    } else if (v.phase === "trump") {
      const hinted = (m) => (T.hint && T.hint.move === m ? " hinted" : "");
      out.push(`<div class="bids">${v.legal_moves.map((m) => { const s = m.slice(6); return `<button data-action="move" data-move="${esc(m)}" class="suit-button suit-${s}${hinted(m)}">${SYMBOL[s]} ${esc(t("suit_" + s))}</button>`; }).join("")}</div>`);
    }
    if (v.phase === "bidding" || v.phase === "trump") out.push(estimateHTML(v));
  } else if (v.to_move != null && v.phase === "bury" && v.contract) {
    // kitty batak: how far another's burying has come (its four cards, one by one)
    const r = T.info.rules;
    const k = r.kitty_size;
    // the hand before the first card went: with the kitty, or (burying blind) without it
    const before = r.hand_size + (r.kitty_order === "bury_take_trump" ? 0 : k);
    const done = Math.max(0, Math.min(k, before - v.hand_sizes[v.to_move]));
    out.push(`<p data-testid="waiting-bury">${esc(t("waiting_bury", { name: seatName(v.to_move), done, n: k }))}</p>`);
  } else if (v.to_move != null) {
    out.push(`<p>${esc(t("waiting_for", { name: seatName(v.to_move) }))}</p>`);
  }
  out.push(handPanelHTML(T, mine));
  if (v.buried && v.buried.length) out.push(`<p class="help">${esc(t("buried", { cards: v.buried.map(cardLabel).join(" ") }))}</p>`);
  if (T.refused) out.push(`<p class="refused" role="alert" data-testid="refused">${esc(t("refused", { reason: T.refused }))}</p>`);
  // the hint's cards with their red suits in red, as everywhere else at the table
  if (T.hint && T.info.status === "playing") out.push(`<p class="hint" data-testid="hint">${lineHTML(T.hint.move ? t("hint", { move: moveText(T.hint.move), reason: T.hint.reason }) : T.hint.reason)}</p>`);
  // (a bid said, or the panel drawn anew: the same bid button if it is still there, else the
  // next thing to play)
  const waiting = mine && document.activeElement === $("#hand");
  const moved = redrawKeepingFocus(el, () => { el.innerHTML = out.join(""); }, () => skipToPlay());
  if (!moved && waiting) skipToPlay(); // (the player's turn came while the focus waited there)
}

// Everyone said pas and the table's rules gave the contract to a player at the lowest bid: said
// while the koz is named and the kitty buried (asked for the koz with a contract nobody bid for,
// a player wondered what had happened).
function forcedText(v) {
  if (!v.contract || !["trump", "bury"].includes(v.phase)) return "";
  if (v.auction.some((a) => a.seat === v.contract.bidder && a.move.startsWith("bid"))) return "";
  return sentence(v.contract.bidder, "forced", "forced_you", { bid: v.contract.bid });
}

// It is this player's turn: the tab's title says so (seen in the background), and once per
// decision a short beep and, on phones, a vibration, unless the player switched them off.
function turnSignal(mine) {
  const T = S.table;
  const v = T.view;
  document.title = t(mine ? "title_your_turn" : "title");
  if (!mine) return;
  const key = [v.match?.deal, v.phase, v.auction.length, v.tricks.length, v.current_trick ? v.current_trick.cards.length : 0, v.hand.length].join(":");
  if (T.signalled === key) return;
  T.signalled = key;
  if (!S.sound) return;
  window.batak.beep();
  // a phone refuses (and logs) a vibration before the person has touched the page
  const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
  if (navigator.vibrate && touched) navigator.vibrate(120);
}

function unlockAudio() {
  if (S.audio || !window.AudioContext) return;
  try { S.audio = new AudioContext(); } catch { S.audio = null; }
}

// Two short tones made in the page (no sound file): 660 Hz then 880 Hz, a tenth of a second each.
function beep() {
  const ctx = S.audio;
  if (!ctx) return;
  if (ctx.state === "suspended") ctx.resume();
  const now = ctx.currentTime;
  [[660, 0], [880, 0.12]].forEach(([freq, at]) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.25, now + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.1);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + at);
    osc.stop(now + at + 0.11);
  });
}

function phasePrompt(v) {
  if (v.phase === "bidding") return t(v.rules.bidding === "kozmaca" ? "phase_bidding_kozmaca" : "phase_bidding");
  if (v.phase === "trump") return t("phase_trump");
  if (v.phase === "bury") return t("phase_bury", { n: v.rules.kitty_size - (v.buried ? v.buried.length : 0) });
  return t("phase_play");
}

function estimateHTML(v) {
  const T = S.table;
  const est = T.estimate;
  if (!estimateShown()) return `<p class="estimate"><button class="small" data-action="estimateToggle" data-testid="estimate-show">${esc(t("estimate_show"))}</button></p>`;
  const hide = `<button class="small" data-action="estimateToggle" data-testid="estimate-hide">${esc(t("estimate_hide"))}</button>`;
  const body = est
    // a no-break space: a suit's sign never ends a line without its number ("♠" / "2.1")
    ? Object.entries(est).map(([s, x]) => `<span class="suit-${s}">${SYMBOL[s]}\u00a0${decimal(x)}</span>`).join(" ")
    : esc(t("estimate_loading"));
  // (the words in a box of their own: a short phone sets the Hide button beside them, style.css)
  return `<p class="estimate" data-testid="estimate"><span class="estimate-words">${esc(t("estimate"))}: ${body}</span>${hide}</p>`;
}

function renderHand() {
  const T = S.table;
  const el = $("#hand");
  if (!T || !el) return;
  const v = T.view;
  if (!v || !v.hand || T.you == null) {
    // a spectator has no hand: the place says so, and whose seat is at the bottom
    el.innerHTML = v && T.you == null && T.info && !T.info.archived
      ? `<p class="watching-note" data-testid="watching-note">${esc(t("watching_seat", { name: seatName(0) }))}</p>` : "";
    return;
  }
  const active = document.activeElement;
  const focused = active && el.contains(active) && active.dataset ? active.dataset.card : null;
  const at = focused ? [...el.querySelectorAll(".card")].indexOf(active) : -1;
  const mine = myTurn();
  el.setAttribute("aria-label", handLabel(mine));
  el.innerHTML = handHTML(T, mine);
  // how many cards: on a desktop the overlap grows until they all fit the hand's width
  el.style.setProperty("--n", String(Math.max(2, el.querySelectorAll(".card").length)));
  breakRowsBySuit(el); // on a phone: a row ends where a suit ends
  if (focused) {
    // the card played (or the hand drawn anew): the focus stays at the same place in the hand,
    // not on the page's body; with no card to take it now (the auction), on the next thing to play
    const b = el.querySelector(`[data-card="${focused}"]`);
    const cards = [...el.querySelectorAll(".card")];
    const there = cards[Math.min(at, cards.length - 1)];
    if (b && b.getAttribute("tabindex") !== "-1") b.focus({ preventScroll: true });
    else if (there && there.getAttribute("tabindex") !== "-1") there.focus({ preventScroll: true });
    else skipToPlay();
  } else if (mine && active === el) skipToPlay(); // (waiting on the hand for a turn)
  motion.afterHand(T); // a new deal is dealt out
}

function renderChat() {
  const T = S.table;
  const el = $("#chat-log");
  if (!T || !el) return;
  // a spectator's line (the server gives it no seat) says so beside the name
  el.innerHTML = T.chat.map((c) => (c.seat == null
    ? `<p class="from-spectator"><b>${esc(c.name)}</b> <small class="tag" data-testid="chat-spectator">${esc(t("chat_spectator"))}</small><b>:</b> ${esc(c.text)}</p>`
    : `<p><b>${esc(c.name || seatName(c.seat))}:</b> ${esc(c.text)}</p>`)).join("");
  el.scrollTop = el.scrollHeight;
  if (T.chatOpen) T.chatUnread = 0;
  const button = $("[data-testid=chat-open]");
  if (button) { // (in place: a focused button keeps the focus)
    const fresh = document.createElement("div");
    fresh.innerHTML = chatButtonHTML(T);
    button.innerHTML = fresh.firstChild.innerHTML;
    button.setAttribute("aria-label", fresh.firstChild.getAttribute("aria-label"));
    button.setAttribute("aria-expanded", String(Boolean(T.chatOpen)));
  }
  const note = $("#chat-note"); // why the line in the box was not sent, if it was not
  if (note) { note.hidden = !T.chatNote; note.textContent = T.chatNote ? T.chatNote() : ""; }
}

// A name in the score sheet: a long one is cut with an ellipsis (the whole name is its tooltip),
// so that the sheet's four columns of figures keep their room beside the table.
function sheetName(seat) {
  const name = seatLabel(seat);
  return `<span class="pname" title="${esc(name)}">${esc(name)}</span>`;
}

function sheetHTML() {
  const T = S.table;
  const n = T.info.rules.players;
  const rows = T.sheet;
  if (!rows.length) return `<p class="help">${esc(t("sheet_empty"))}</p>`;
  if (teamsPlay(T)) return teamSheetHTML(T, seatName, seatLabel, sentence);
  // Koz Maça: no contract, the koz alone (♠) in that column
  const head = `<tr><th>${esc(t("sheet_deal"))}</th><th>${esc(t(T.info.rules.bidding === "auction" ? "sheet_contract" : "koz"))}</th>${Array.from({ length: n }, (_, i) => `<th>${sheetName(i)}</th>`).join("")}</tr>${sheetLevelsHTML(T.info.seats, n)}`;
  const partners = T.info.rules.partners;
  const body = rows.map((r) => {
    // the contract: bidder, bid and koz, then made or down with the bidder's (side's) tricks
    let con = "";
    let result = "";
    if (r.redeal) con = esc(t("sheet_redeal"));
    else if (r.bidder != null) {
      con = `${sheetName(r.bidder)}${r.bid != null ? `: ${r.bid}` : ""}${r.trump ? ` <span class="suit-${r.trump}">${SYMBOL[r.trump]}</span>` : ""}`;
      if (r.bid != null && r.tricks) {
        const won = partners ? r.tricks[r.bidder] + r.tricks[(r.bidder + 2) % n] : r.tricks[r.bidder];
        const made = won >= r.bid;
        result = ` <span class="${made ? "made" : "down"}" data-testid="sheet-result">${esc(made ? sentence(r.bidder, "sheet_made", "sheet_made_you", { won, bid: r.bid }) : sentence(r.bidder, "sheet_down", "sheet_down_you", { won, bid: r.bid }))}</span>`;
      }
    } else if (r.trump) con = `<span class="suit-${r.trump}">${SYMBOL[r.trump]}</span>`;
    const cells = Array.from({ length: n }, (_, i) => {
      const tk = r.tricks ? (r.bids ? `${r.tricks[i]}/${r.bids[i]}` : String(r.tricks[i])) : "";
      const pts = r.scores ? `${r.scores[i] > 0 ? "+" : ""}${r.scores[i]}` : "–";
      return `<td class="num${r.bidder === i ? " bidder" : ""}"><span class="tk" data-testid="sheet-tricks">${tk}</span> ${pts}<small> (${r.totals[i]})</small></td>`;
    }).join("");
    return `<tr>${dealCell(r)}<td>${con}${result}</td>${cells}</tr>`;
  }).join("");
  const totals = rows[rows.length - 1].totals;
  return `<table class="sheet" data-testid="sheet"><thead>${head}</thead><tbody>${body}</tbody><tfoot><tr><th colspan="2">${esc(t("sheet_total"))}</th>${totals.map((x) => `<th class="num">${x}</th>`).join("")}</tr></tfoot></table><p class="help sheet-legend">${esc(t(T.info.rules.bidding === "kozmaca" ? "sheet_legend_kozmaca" : "sheet_legend"))}</p>`;
}

// The window shown when this one is closed: a review opened from another window returns to it.
function closedTo(T) {
  return T.dialog === "review" ? T.reviewFrom || null : null;
}

function renderDialog() {
  const T = S.table;
  const el = $("#dialog");
  if (!T || !el) return;
  const v = T.view;
  let body = "";
  if (T.closed) T.dialog = "closed"; // (said once and for all: no other window opens over it)
  if (T.info.status === "over" && T.over && !["sheet", "last", "review"].includes(T.dialog)) T.dialog = "over";
  if (T.dialog === "last" && v) {
    // the server's view says which trick may be seen: at CetinsGame's tables the previous deal's
    // last trick stays until the new deal's first trick is complete (rules.last_trick any_time)
    const last = v.last_trick !== undefined ? v.last_trick : v.tricks[v.tricks.length - 1];
    const earlier = last && last.deal != null && v.match && last.deal !== v.match.deal;
    const title = earlier ? t("last_trick_of_deal", { n: last.deal }) : t("last_trick");
    body = `<h3>${esc(title)}</h3>${last ? trickHTML(last, T.info.rules.players, wonBy(last.winner)) : `<p>${esc(t("no_last_trick"))}</p>`}`;
  } else if (T.dialog === "closed") {
    body = story.closedHTML(T, esc);
  } else if (T.dialog === "sheet") {
    body = `<h3>${esc(t("score_sheet"))}</h3>${sheetHTML()}${fairHTML(T.info)}`;
  } else if (T.dialog === "review") {
    body = reviewHTML(T, seatLabel);
  } else if (T.dialog === "over" && T.over) {
    // (after the last trick has been seen)
    // (a match opened again from the saved games was settled when it ended: no "settling…")
    const paid = T.info.archived ? "" : payoutHTML(T.info, T.you, seatName);
    const extra = paid + awardedHTML(T.id) + story.overHTML(T, esc);
    body = motion.busy() ? "" : matchOverHTML(T, sheetHTML(), T.record || `/api/tables/${T.id}/record`, extra, story.offersNext(T));
  }
  if (!body) {
    const was = el.dataset.kind;
    el.innerHTML = "";
    delete el.dataset.kind;
    modal(false);
    if (was) focusOpener();
    return;
  }
  const closable = T.dialog !== "over" && T.dialog !== "closed";
  const back = closedTo(T) || "";
  // drawn again (a rematch answer, the match's XP, a review arriving): the same window keeps
  // where its reader had scrolled to, or a long one would jump back to its top under them
  const kind = `${T.id}:${T.dialog}:${T.dialog === "review" && T.review ? T.review.deal : ""}`;
  const before = el.querySelector(".dialog");
  const scrolled = before && el.dataset.kind === kind ? before.scrollTop : 0;
  // the focus: kept on the same control when the same window is drawn again; taken into the
  // window when it opens (from the control that opened it, where it returns on closing)
  const active = document.activeElement;
  const inside = before && active && before.contains(active) ? focusKey(active, before) : null;
  if (!before && active && active !== document.body && !el.contains(active)) T.opener = openerKey(active);
  // reading the review (or the sheet) while it is this player's turn: the clock runs, and says so
  const turn = closable && myTurn()
    ? `<div class="dialog-turn" data-testid="dialog-turn"><b role="status">${esc(t("dialog_your_turn"))}</b> <span class="clock" aria-live="off" data-clock-seat="${T.you}">${clockHTML(clockLeft(T.you), seatBank(T, T.you), (T.clock && T.clock.decision) || 25)}</span> <button class="small primary" data-action="dialog" data-dialog="" data-testid="dialog-to-table">${esc(t("dialog_to_table"))}</button></div>`
    : "";
  // the match's end leaves the chat usable beside it (on a narrow screen: its panel, opened from
  // the window), for a word after the match ("iyi oyundu"); the other windows are modal
  const chatty = T.dialog === "over" && !T.info.archived;
  const chatButton = chatty ? `<p class="narrow-only-block"><button data-action="chatPanel" data-testid="over-chat">${esc(t("chat"))}</button></p>` : "";
  el.innerHTML = `<div class="overlay${chatty ? " beside-chat" : ""}"><div class="dialog" role="dialog" aria-modal="${!chatty}" aria-labelledby="dialog-title" tabindex="-1">${turn}${body.replace("<h3", '<h3 id="dialog-title"')}${chatButton}${closable ? `<p><button data-action="dialog" data-dialog="${back}" data-testid="close-dialog">${esc(t("close"))}</button></p>` : ""}</div></div>`;
  const opened = el.dataset.kind !== kind;
  el.dataset.kind = kind;
  modal(true, chatty);
  const box = el.querySelector(".dialog");
  if (scrolled) box.scrollTop = scrolled;
  const again = inside && focusables(box)[inside.i];
  if (again) again.focus({ preventScroll: true });
  else if (opened || !(box.contains(document.activeElement) || inInvitations(document.activeElement) || (chatty && inChat(document.activeElement)))) box.focus({ preventScroll: Boolean(scrolled) });
}

// The invitations bar stays usable over a table's window: a redraw of the window does not take
// the focus back from it.
function inInvitations(el) {
  const bar = document.getElementById("invitations");
  return Boolean(bar && el && bar.contains(el));
}

// A window open at the table is modal: the rest of the page (the table, the header, the skip
// link) is inert, so Tab walks the window's controls only, and a screen reader reads the window
// only. The notice line and the invitations stay live: the match's end window is not closed, and
// an invitation (or a tournament's call) that comes meanwhile must be answerable.
// A phone's open chat panel lies over the page's header (its Batak link and buttons): the header
// is inert while it is open too (Tab does not walk to what cannot be seen), and usable again once
// it closes. Both reasons are kept here, so that a window closed while the panel is open leaves
// the header inert, and the panel closed under an open window leaves it inert for the window.
const INERT = { modal: false, chat: false };
function modal(on, chat = false) {
  INERT.modal = on;
  INERT.chat = chat;
  inertRest();
}

// Whether the table's chat panel is open over the top of the page (a phone's; a desktop's chat
// is beside the table)
function chatPanelOver() {
  const box = document.getElementById("chat-box");
  return Boolean(S.table && S.table.chatOpen && route().page === "table" && box && getComputedStyle(box).position === "absolute");
}

function inertRest() {
  const root = $("#table-root");
  const header = document.querySelector("header.header");
  const rest = [$("#skip-link"), header];
  if (root) rest.push(...[...root.children].filter((c) => c.id !== "dialog"));
  const covered = chatPanelOver();
  for (const x of rest) {
    if (!x) continue;
    const inert = (INERT.modal && !(INERT.chat && x.classList.contains("side"))) || (covered && x === header);
    if (x.inert !== inert) x.inert = inert;
  }
}

// Whether the table's chat is a closed panel (a narrow screen): its Chat button is shown.
function chatPanelShut() {
  const button = document.querySelector("[data-testid=chat-open]");
  return Boolean(button && button.offsetParent !== null);
}

// Whether the element is in the table's chat (a window that leaves the chat usable does not
// take the focus back from it when drawn again).
function inChat(el) {
  const box = document.getElementById("chat-box");
  return Boolean(box && el && box.contains(el));
}

function focusables(box) {
  return [...box.querySelectorAll("button, a[href], input, select, textarea, summary, [tabindex='0']")]
    .filter((x) => !x.disabled && !x.closest("[hidden]"));
}

function focusKey(active, box) {
  return { i: focusables(box).indexOf(active) };
}

// The control that opened a window, found again when it closes (the top bar may have been drawn
// anew meanwhile): by its test id, or its action and window.
function openerKey(x) {
  const el = x.closest("[data-testid], [data-action]") || x;
  if (el.dataset.testid) return `[data-testid="${CSS.escape(el.dataset.testid)}"]`;
  if (el.dataset.action) return `[data-action="${CSS.escape(el.dataset.action)}"]${el.dataset.dialog != null ? `[data-dialog="${CSS.escape(el.dataset.dialog)}"]` : ""}`;
  return null;
}

// An area of the table drawn anew (draw() does it): a button focused there keeps the focus,
// found again by what it does (a bid's move, its action or test id), not left on the page's
// body; one gone with the redraw hands the focus to otherwise() (the next thing to play).
// Whether the focus was in the area.
function redrawKeepingFocus(area, draw, otherwise = null) {
  const active = document.activeElement;
  const had = Boolean(active && area.contains(active));
  const key = !had ? null : active.dataset.move ? `[data-move="${CSS.escape(active.dataset.move)}"]` : openerKey(active);
  draw();
  if (had && !area.contains(document.activeElement)) {
    const same = key && area.querySelector(key);
    if (same) same.focus({ preventScroll: true });
    else if (otherwise) otherwise();
  }
  return had;
}

function focusOpener() {
  const T = S.table;
  const key = T && T.opener;
  if (T) T.opener = null;
  const back = key && [...document.querySelectorAll(key)].find((x) => !x.closest("#dialog") && x.offsetParent !== null);
  if (back) back.focus();
  else skipToPlay();
}

// ------------------------------------------------------------------ start
setLang(initialLang());
// what a match earned: in its end window when the page is at that table (a notice as well
// peeked out, cut, from behind the window), else a notice
initProgress(send, (text, table) => {
  if (S.table && S.table.id === table && route().page === "table") renderDialog();
  else notify(text);
}, connectionDown);
Object.assign(ACTIONS, resultActions);
motion.initMotion({ renderFelt, position, table: () => S.table, idle: () => { if (S.table && S.table.over) renderDialog(); } });
initResult({
  table: () => S.table, seatName, seatLabel, sentence, renderFelt, renderDialog, send, go,
});
applyLook();
registerServiceWorker();
window.batak = { state: S, TEXT, t, lang, sentence, seatLabel, position, beep, render, renderDialog, renderTable, createMessage }; // for tests and the curious
render();
connect();
onRoute();
