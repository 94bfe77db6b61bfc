// A player's display choices, remembered in this browser (localStorage): whether the hand's
// strength (the estimated tricks while bidding) is shown, the felt's colour and the card backs.
import { t } from "./i18n.js";

const KEY = { estimate: "batak.estimate", felt: "batak.felt", back: "batak.back" };

export const FELTS = ["green", "blue", "red", "wood"];
export const BACKS = ["blue", "red", "green", "black"];

export function estimateShown() {
  return localStorage.getItem(KEY.estimate) !== "hidden";
}

export function toggleEstimate() {
  localStorage.setItem(KEY.estimate, estimateShown() ? "hidden" : "shown");
}

function choice(key, list) {
  const saved = localStorage.getItem(key);
  return list.includes(saved) ? saved : list[0];
}

export const felt = () => choice(KEY.felt, FELTS);
export const back = () => choice(KEY.back, BACKS);

export function setFelt(name) {
  if (FELTS.includes(name)) localStorage.setItem(KEY.felt, name);
  applyLook();
}

export function setBack(name) {
  if (BACKS.includes(name)) localStorage.setItem(KEY.back, name);
  applyLook();
}

// The chosen felt and backs are classes on <body> (the stylesheet draws them).
export function applyLook() {
  const b = document.body;
  for (const f of FELTS) b.classList.toggle(`felt-${f}`, f === felt());
  for (const k of BACKS) b.classList.toggle(`back-${k}`, k === back());
}

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// The two choosers (in the lobby): radio buttons, so that a screen reader names each choice.
export function lookHTML() {
  const group = (name, title, list, now, action, label) => `<fieldset class="look-choice"><legend>${esc(title)}</legend>${list.map((x) => `<label class="swatch ${name}-${x}"><input type="radio" name="${name}" value="${x}" data-action="${action}" data-value="${x}" data-testid="${name}-${x}"${x === now ? " checked" : ""}> <span class="chip" aria-hidden="true"></span>${esc(label(x))}</label>`).join("")}</fieldset>`;
  return group("felt", t("felt"), FELTS, felt(), "setFelt", (x) => t("felt_" + x))
    + group("back", t("back"), BACKS, back(), "setBack", (x) => t("back_" + x));
}
