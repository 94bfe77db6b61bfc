// The story mode (issue 13 item 5): the map of five tables from the corner café to the city
// final, each with its characters (portrait, name, style), its clock, and the player's progress,
// all from the server's "story" message. "story_play" sits the player at a stage's table (back at
// the stage's unfinished one if there is one; with "again", a new one, the old one lost).
import { t } from "./i18n.js";

// last: the latest table's result ({stage, won, score, bot_played, table}), for its end window
const ST = { data: null, last: null };

export function route(p) {
  return p === "/story" ? { page: "story" } : null;
}

export function request(ctx) {
  ctx.send({ type: "story" });
}

// A character's portrait for a seat whose bot is "story:KEY" (empty for anyone else).
export function portrait(bot, esc) {
  if (!bot || !bot.startsWith("story:") || !ST.data) return "";
  const key = bot.slice(6);
  for (const s of ST.data.stages) {
    for (const c of s.characters) {
      if (c.key === key) return `<span class="portrait c-${esc(key)}" aria-hidden="true">${esc(c.portrait)}</span>`;
    }
  }
  return "";
}

export function onMessage(ctx, m) {
  ST.data = m;
  if (m.result) {
    ST.last = m.result;
    const stage = m.stages[m.result.stage];
    const last = m.result.stage === m.stages.length - 1;
    // a first place a bot helped to does not count: say so, not "not this time"
    const key = m.result.won ? (last ? "story_champion_note" : "story_won_note")
      : m.result.bot_played ? "story_bot_note" : "story_lost_note";
    ctx.notify(t(key, { name: stage.name, score: m.result.score }));
  }
  const r = ctx.route();
  if (r.page === "story") render(ctx);
  else if (r.page === "table") ctx.dialog(); // a story table's end window offers what next
}

// A story table's end window that offers the next table: its button is the one to press (the
// rematch's is drawn plain beside it, not a second green one).
export function offersNext(T) {
  const stage = T.info && T.info.options ? T.info.options.story : null;
  const next = stage != null && ST.data ? ST.data.stages[stage + 1] : null;
  return T.you != null && !!(next && next.open);
}

// Under the ranking of a story table's end window: the next table once it is open, the
// reason when a bot's moves kept a first place from counting, and the way back to the map.
export function overHTML(T, esc) {
  const stage = T.info && T.info.options ? T.info.options.story : null;
  if (stage == null || T.you == null || !ST.data) return "";
  const res = ST.last && ST.last.table === T.id ? ST.last : null;
  const next = ST.data.stages[stage + 1];
  const out = [];
  if (res && res.bot_played) {
    out.push(`<p class="help" data-testid="story-bot-note">${esc(t("story_bot_note", { name: ST.data.stages[stage].name }))}</p>`);
  }
  const buttons = [];
  if (next && next.open) { // won now or before: the story goes on there
    buttons.push(`<button class="primary" data-action="storyPlay" data-stage="${stage + 1}" data-testid="story-next">${esc(t("story_next", { name: next.name }))}</button>`);
  }
  buttons.push(`<button data-action="nav" data-href="/story" data-testid="story-map-link">${esc(t("story_map"))}</button>`);
  out.push(`<p class="row-buttons">${buttons.join(" ")}</p>`);
  return `<div class="story-over">${out.join("")}</div>`;
}

// The window of a story table closed while this page was at it ("closed": its player started
// the stage over in another tab or on another device). To the player: why, that it counts as
// lost, and the way on: the table dealt in its place, or the map. To a spectator: why, and the
// lobby (the new table's code is not theirs).
export function closedHTML(T, esc) {
  const m = T.closed;
  const mine = T.you != null;
  const buttons = [];
  if (mine && m.table_new) {
    buttons.push(`<button class="primary" data-action="nav" data-href="/table/${esc(m.table_new)}" data-testid="story-closed-new">${esc(t("story_closed_new"))}</button>`);
  }
  buttons.push(mine ? `<button data-action="nav" data-href="/story" data-testid="story-map-link">${esc(t("story_map"))}</button>`
    : `<button data-action="nav" data-href="/" data-testid="story-closed-lobby">${esc(t("back_to_lobby"))}</button>`);
  return `<h3>${esc(t("story_closed_title"))}</h3>
    <p data-testid="story-closed">${esc(t(mine ? "story_closed_you" : "story_closed_watcher"))}</p>
    <p class="row-buttons">${buttons.join(" ")}</p>`;
}

// A stage whose table was adjourned or left unfinished: that table is the one to go back to
// (the server takes the player there, not to a new deal); starting over closes it as lost.
function unfinishedHTML(s, esc) {
  return `<span class="story-unfinished" data-testid="story-unfinished-${s.stage}">${esc(t("story_unfinished"))}</span><br>
    <button class="primary" data-action="storyPlay" data-stage="${s.stage}" data-testid="story-continue-${s.stage}">${esc(t("story_continue"))}</button>
    <button data-action="storyRestart" data-stage="${s.stage}" data-testid="story-restart-${s.stage}">${esc(t("story_restart"))}</button>`;
}

export function render(ctx) {
  const { esc } = ctx;
  const d = ST.data;
  if (!d) {
    ctx.app().innerHTML = `<p class="center">${esc(t("connecting"))}</p>`;
    return;
  }
  const stages = d.stages.map((s) => {
    const state = s.won ? "won" : s.open ? "open" : "locked";
    const mark = s.won ? "✓" : s.open ? "▶" : "🔒";
    return `<li class="stage ${state}" data-testid="stage-${s.stage}">
      <div class="stage-head"><span class="stage-icon" aria-hidden="true">${esc(s.icon)}</span>
        <h3>${s.stage + 1}. ${esc(s.name)} <span class="mark" aria-label="${esc(t("story_state_" + state))}">${mark}</span></h3></div>
      <p class="help">${esc(s.story)}</p>
      <ul class="plain characters">${s.characters.map((c) => `<li><span class="portrait c-${esc(c.key)}" aria-hidden="true">${esc(c.portrait)}</span>
        <span><b>${esc(c.name)}</b><br><small>${esc(c.style_text)} · ${esc(t("level_" + c.level))}</small><br><small class="help">${esc(c.about)}</small></span></li>`).join("")}</ul>
      <p class="help stage-clock" data-testid="story-clock-${s.stage}"><span aria-hidden="true">⏱</span> ${esc(t("story_clock", { seconds: s.decision_seconds }))}</p>
      <p>${s.best != null ? `<span class="help">${esc(t("story_best", { score: s.best, plays: s.plays }))}</span> ` : ""}
        ${!s.open ? `<span class="help">${esc(t("story_locked"))}</span>` : s.table ? unfinishedHTML(s, esc)
          : `<button class="primary" data-action="storyPlay" data-stage="${s.stage}" data-testid="story-play-${s.stage}">${esc(t(s.won ? "story_again" : "story_play"))}</button>`}</p>
    </li>`;
  }).join("");
  ctx.app().innerHTML = `<div class="story">
    <p><a href="/" data-action="nav" data-href="/">← ${esc(t("back_to_lobby"))}</a></p>
    <h2 data-testid="story-title">${esc(t("story_title"))}</h2>
    <p class="help">${esc(t("story_help", { deals: d.deals }))}</p>
    ${d.cleared >= d.stages.length ? `<p class="story-champion" data-testid="story-champion"><span aria-hidden="true">🏆</span> ${esc(t("story_champion"))}</p>` : ""}
    <ol class="plain story-map" data-testid="story-map">${stages}</ol>
  </div>`;
}

export function actions(ctx) {
  return {
    storyPlay(el) { ST.last = null; ctx.send({ type: "story_play", stage: Number(el.dataset.stage), ref: "story_play" }); },
    storyRestart(el) {
      if (!confirm(t("story_restart_confirm"))) return;
      ST.last = null;
      ctx.send({ type: "story_play", stage: Number(el.dataset.stage), again: true, ref: "story_play" });
    },
  };
}
