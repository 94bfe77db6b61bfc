// The story mode (issue 13 item 5): the map of five tables from the corner café to the city
// final, each with its characters (portrait, name, style), and the player's progress, all from
// the server's "story" message. "story_play" sits the player at a stage's table.
import { t } from "./i18n.js";

const ST = { data: null };

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
    const stage = m.stages[m.result.stage];
    const last = m.result.stage === m.stages.length - 1;
    const key = !m.result.won ? "story_lost_note" : last ? "story_champion_note" : "story_won_note";
    ctx.notify(t(key, { name: stage.name, score: m.result.score }));
  }
  const r = ctx.route();
  if (r.page === "story") render(ctx);
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
      <p>${s.best != null ? `<span class="help">${esc(t("story_best", { score: s.best, plays: s.plays }))}</span> ` : ""}
        ${s.open ? `<button class="primary" data-action="storyPlay" data-stage="${s.stage}" data-testid="story-play-${s.stage}">${esc(t(s.won ? "story_again" : "story_play"))}</button>`
          : `<span class="help">${esc(t("story_locked"))}</span>`}</p>
    </li>`;
  }).join("");
  ctx.app().innerHTML = `<div class="story">
    <p><a href="/" data-action="nav" data-href="/">← ${esc(t("back_to_lobby"))}</a></p>
    <h2 data-testid="story-title">${esc(t("story_title"))}</h2>
    <p class="help">${esc(t("story_help", { deals: d.deals }))}</p>
    <ol class="plain story-map" data-testid="story-map">${stages}</ol>
  </div>`;
}

export function actions(ctx) {
  return {
    storyPlay(el) { ctx.send({ type: "story_play", stage: Number(el.dataset.stage), ref: "story_play" }); },
  };
}
