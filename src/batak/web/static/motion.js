// Motion at the table (issue 10 item 2): a card travels from its seat to the middle, a finished
// trick stays in view for the table's trick pause (the server waits as long before a bot's next
// lead; a person who leads sooner cuts it short) and then slides to its winner, and a new hand is
// dealt out card by card.
//
// The table's state is never held back: every event is applied at once, in order, so the
// player's buttons, hand and clock are always current. Only the felt is drawn from a queue of
// the events' views, one step after another, each with its animation; events that arrive while
// an animation runs wait in the queue (nothing is lost or reordered). When the queue falls
// behind (a hidden tab, a burst of events) the steps are drawn without motion until it has caught
// up, and a sync (a reload, a reconnect in mid-animation) drops the queue and draws the current
// state. With prefers-reduced-motion nothing moves; a finished trick is still held in view.

const FLY_MS = 300;
const SLIDE_MS = 380;
const DEAL_MS = 240;
const DEAL_STAGGER_MS = 30;
const BEHIND = 6; // steps waiting: draw without motion until caught up
const LOOK_MS = 450; // a finished trick is in view at least this long (or half the pause)

const M = {
  queue: [], // steps waiting to be drawn: {v, ev, view}
  shown: null, // the view the felt draws while a step is being drawn (null: the table's own)
  held: null, // a finished trick kept in view: {trick, winner, key}
  locked: false, // an animation runs: the felt is not redrawn under it
  dirty: false, // something asked for a redraw while locked
  busy: false,
  epoch: 0, // bumped by reset(): a running loop stops
  dealKey: null,
  drawn: [], // what was drawn, in order (for tests and the curious): {v, kind, anim, at, ...}
  received: [], // the events queued for drawing, in the order they came: {v, at}
};
window.batakMotion = M;

let H = null; // the client's hooks: {renderFelt, position, table}

export function initMotion(hooks) {
  H = hooks;
}

export function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

function log(entry) {
  M.drawn.push({ ...entry, at: performance.now() });
  if (M.drawn.length > 2000) M.drawn.splice(0, 500);
}

// The view the felt shows now.
export function shownView(T) {
  return M.shown || T.view;
}

// The felt may not be redrawn now (an animation runs): it is redrawn when the animation ends.
export function feltLocked() {
  if (M.locked) M.dirty = true;
  return M.locked;
}

// Something is still being drawn (the match's result waits for the last trick to be seen).
export function busy() {
  return M.busy || !!M.held;
}

// The finished trick held in view, if any: {trick, winner}.
export function heldTrick() {
  return M.held;
}

// A sync: whatever was queued or moving is dropped, the felt draws the current state.
export function reset(T) {
  M.epoch += 1;
  M.queue = [];
  M.shown = null;
  M.held = null;
  M.locked = false;
  M.busy = false;
  // a hand already there is drawn as it is; one that comes later (the start) is dealt out
  M.dealKey = T && T.view && T.view.match ? `${T.id}:${T.view.match.deal}` : `${T && T.id}:-`;
  for (const a of document.getAnimations ? document.getAnimations() : []) {
    if (a.id && a.id.startsWith("batak-")) a.cancel();
  }
  log({ kind: "sync", v: T ? T.v : null });
}

const isCard = (ev) => ev && ev.kind === "move" && !ev.move.includes(" ") && ev.move !== "pass";

// An event of the table, applied already; its view is drawn in turn.
export function onEvent(T, msg) {
  if (!msg.view) return;
  M.queue.push({ v: msg.v, ev: msg.event, view: T.view, at: performance.now() });
  M.received.push({ v: msg.v, at: performance.now() });
  if (M.received.length > 2000) M.received.splice(0, 500);
  if (!M.busy) run(T);
}

function finishedTrick(step, before) {
  const ev = step.ev;
  if (ev.deal_over) {
    const tricks = ev.deal_over.tricks || [];
    return tricks[tricks.length - 1] || null;
  }
  const v = step.view;
  const cur = v.current_trick;
  if ((!cur || !cur.cards.length) && v.tricks && v.tricks.length) {
    const done = before && before.tricks ? before.tricks.length : 0;
    if (v.tricks.length > done) return v.tricks[v.tricks.length - 1];
  }
  return null;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function run(T) {
  M.busy = true;
  const epoch = M.epoch;
  let before = M.shown || null;
  while (M.queue.length && epoch === M.epoch) {
    const step = M.queue.shift();
    const still = reducedMotion() || M.queue.length >= BEHIND || document.hidden;
    const card = isCard(step.ev);
    const done = card ? finishedTrick(step, before) : null;
    M.shown = step.view;
    const entry = { v: step.v, kind: step.ev.kind, move: step.ev.move, seat: step.ev.seat };
    if (done) M.held = { trick: done, winner: done.winner, key: `${step.v}` };
    draw();
    if (card) {
      log({ ...entry, anim: still ? "none" : "fly" });
      if (!still) await fly(step.ev.seat, M.queue.length ? FLY_MS / 2 : FLY_MS); // behind: quicker
    } else {
      log({ ...entry, anim: "none" });
    }
    if (done && epoch === M.epoch) {
      // the finished trick stays in view for the table's trick pause, counted from when its
      // last card came (the server holds a bot's next lead as long), and never less than a
      // short look when the drawing runs behind; then it goes to its winner. A person who won
      // it may lead at once (their turn and clock are shown at once): their card cuts the
      // pause short after that look, and is not kept waiting behind the old trick.
      const pace = ((T.info && T.info.pace && T.info.pace.trick_pause) ?? 1.5) * 1000;
      const look = performance.now() + Math.min(LOOK_MS, pace / 2);
      const until = Math.max(step.at + pace, look);
      let cut = false;
      while (performance.now() < until && M.queue.length < BEHIND && epoch === M.epoch) {
        if (M.queue.length && performance.now() >= look) { cut = true; break; } // the next trick has begun
        await sleep(40);
      }
      if (epoch !== M.epoch) break;
      const quick = still || reducedMotion() || M.queue.length >= BEHIND;
      log({ v: step.v, kind: "trick", winner: done.winner, anim: quick ? "none" : "slide", cut });
      if (!quick) await slide(done.winner, M.queue.length ? SLIDE_MS / 2 : SLIDE_MS);
      M.held = null;
      draw();
    }
    before = step.view;
  }
  if (epoch === M.epoch) {
    M.shown = null;
    M.busy = false;
    draw();
    if (H && H.idle) H.idle();
  }
}

function draw() {
  M.locked = false;
  M.dirty = false;
  if (H) H.renderFelt();
}

function centreOf(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

function animate(el, frames, ms, fill = "none") {
  const a = el.animate(frames, { duration: ms, easing: "ease-out", fill });
  a.id = "batak-" + Math.random().toString(36).slice(2);
  return a.finished.catch(() => {});
}

async function locked(fn) {
  M.locked = true;
  try {
    await fn();
  } finally {
    M.locked = false;
    if (M.dirty) draw();
  }
}

// The card just played goes from its seat (the hand, for one's own) to its place in the middle.
async function fly(seat, ms) {
  const T = H.table();
  if (!T || !T.info) return;
  const pos = H.position(seat);
  const el = document.querySelector(`#felt .centre [data-testid="played-${pos}"] svg`);
  const from = seat === T.you ? document.getElementById("hand") : document.querySelector(`#felt .seat[data-seat="${seat}"]`);
  if (!el || !from) return;
  const a = centreOf(from);
  const b = centreOf(el);
  await locked(() => animate(el, [
    { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(.75)`, opacity: 0.6 },
    { transform: "none", opacity: 1 },
  ], ms));
}

// The finished trick slides to its winner's seat and fades there.
async function slide(winner, ms) {
  const T = H.table();
  if (!T || !T.info) return;
  const to = winner === T.you ? document.getElementById("hand") : document.querySelector(`#felt .seat[data-seat="${winner}"]`);
  const cards = [...document.querySelectorAll("#felt .centre .played svg")];
  if (!to || !cards.length) return;
  const b = centreOf(to);
  await locked(() => Promise.all(cards.map((el) => {
    const a = centreOf(el);
    return animate(el, [
      { transform: "none", opacity: 1 },
      { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(.45)`, opacity: 0 },
    ], ms, "forwards");
  })));
}

// After the hand is drawn: a new deal's cards are dealt out, one after another.
export function afterHand(T) {
  const v = T.view;
  if (!v || !v.match || !v.hand || !v.hand.length) return;
  const key = `${T.id}:${v.match.deal}`;
  if (M.dealKey === key) return;
  const first = M.dealKey === null;
  M.dealKey = key;
  if (first) return; // the table as it is on arrival: nothing to deal
  const still = reducedMotion() || document.hidden;
  log({ kind: "deal", deal: v.match.deal, anim: still ? "none" : "deal" });
  if (still) return;
  const centre = document.querySelector("#felt .centre") || document.getElementById("felt");
  if (!centre) return;
  const c = centreOf(centre);
  document.querySelectorAll("#hand .card svg").forEach((el, i) => {
    const r = centreOf(el);
    const a = el.animate([
      { transform: `translate(${c.x - r.x}px, ${c.y - r.y}px) scale(.5)`, opacity: 0 },
      { transform: "none", opacity: 1 },
    ], { duration: DEAL_MS, delay: i * DEAL_STAGGER_MS, easing: "ease-out", fill: "backwards" });
    a.id = "batak-deal-" + i;
  });
}
