// The replay viewer: a finished hand one action at a time, every seat face up (the server sends
// the frames only for a hand that is over). Keys: ← → step, Home / End, space plays; on touch a
// swipe across the board steps.
"use strict";

const ROOM = location.pathname.split("/")[2];
const params = new URLSearchParams(location.search);
if (params.get("token")) saveRoomKeys(ROOM, {token: params.get("token")});
if (params.get("invite")) saveRoomKeys(ROOM, {invite: params.get("invite")});
if (params.get("lang")) localStorage.setItem("guobiao:lang", params.get("lang"));
const wantHand = Number(params.get("hand")) || null;  // 1-16, as people count
history.replaceState(null, "", location.pathname + (wantHand ? `?hand=${wantHand}` : ""));

const $ = (id) => document.getElementById(id);
let TILES = {};
let room = null;
let hands = [];
let replay = null;  // the hand shown: {hand_number, names_by_seat, winning_hand, frames}
let step = 0;
let timer = null;
const SPEED = 700;  // ms per step when playing

const labelsBox = $("labels-on");
labelsBox.checked = localStorage.getItem("guobiao:labels") !== "0";
labelsBox.addEventListener("change", () => { localStorage.setItem("guobiao:labels", labelsBox.checked ? "1" : "0"); render(); });
$("lang").addEventListener("click", () => { toggleLang(); titles(); fillSelect(); render(); });

// The header's link back to the table reads the table's name (the word "Table" beside the name
// left the name an ellipsis at 360 px); its title says where it leads.
function titles() {
  for (const id of ["first", "prev", "next", "last"]) $(id).title = t(id);
  $("play").title = t(timer === null ? "play" : "pause");
  $("room-name").textContent = room ? localName(room.name) : t("table");  // "Table" until it loads
  $("room-name").title = room ? `${localName(room.name)} · ${t("backToTable")}` : t("backToTable");
}
$("room-name").href = `/room/${ROOM}`;

function token() {
  const keys = roomKeys(ROOM);
  return keys.token || keys.watch_token || keys.invite || keys.owner_token || "";
}

// -- tiles: splitTiles, tileLabel, GLYPHS, face, tile are in common.js ----------------------
function actionText(text) {
  if (text === "forfeit") return t("forfeit");
  const [kind, arg] = text.split(" ");
  const acts = t("acts");
  return arg ? `${acts[kind] || kind} ${splitTiles(arg).map(tileLabel).join("")}` : (acts[kind] || kind);
}

// -- loading ---------------------------------------------------------------------------------
async function loadRoom() {
  try {
    const data = await api("GET", `/api/rooms/${ROOM}/hands?token=${encodeURIComponent(token())}`);
    room = data.room;
    hands = data.hands;
    TILES = data.tiles;
  } catch (e) { $("error").textContent = e.message; return; }
  titles();
  fillSelect();
  const over = hands.filter((h) => h.over);
  if (!over.length) { $("error").textContent = t("noReplay"); return; }
  const wanted = wantHand && hands[wantHand - 1] && hands[wantHand - 1].over ? wantHand - 1 : over[0].number;
  await loadHand(wanted);
}

function handLabel(h) {
  const wind = t("winds")["ESWN".indexOf(h.round_wind)];
  let how = t("liveHand");
  if (h.over) how = h.winner === null || h.winner === undefined ? t("draw") : `${levelName(h.names_by_seat[h.winner])} ${t("wins")} ${h.total}`;
  return `${h.number + 1} · ${wind} · ${how}`;
}

function fillSelect() {
  const select = $("hand-select");
  select.replaceChildren(...hands.map((h) => el("option", {value: h.number, disabled: !h.over}, handLabel(h))));
  if (replay) select.value = String(replay.hand_number);
}

$("hand-select").addEventListener("change", (ev) => loadHand(Number(ev.target.value)));

async function loadHand(number) {
  stop();
  try {
    replay = await api("GET", `/api/rooms/${ROOM}/hands/${number}?token=${encodeURIComponent(token())}`);
  } catch (e) { $("error").textContent = e.message; return; }
  $("error").textContent = "";
  history.replaceState(null, "", `${location.pathname}?hand=${number + 1}`);
  $("hand-select").value = String(number);
  $("scrub").max = String(replay.frames.length - 1);
  $("table").hidden = false;
  go(0);
}

// -- stepping --------------------------------------------------------------------------------
function go(n) {
  if (!replay) return;
  step = Math.max(0, Math.min(replay.frames.length - 1, n));
  if (step === replay.frames.length - 1) stop();
  render();
}
function stop() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  $("play").textContent = "▶";
  $("play").title = t("play");
}
function play() {
  if (timer !== null) { stop(); return; }
  if (!replay) return;
  if (step === replay.frames.length - 1) go(0);
  timer = setInterval(() => go(step + 1), SPEED);
  $("play").textContent = "❚❚";
  $("play").title = t("pause");
}
$("first").addEventListener("click", () => { stop(); go(0); });
$("prev").addEventListener("click", () => { stop(); go(step - 1); });
$("next").addEventListener("click", () => { stop(); go(step + 1); });
$("last").addEventListener("click", () => { stop(); go(Infinity); });
$("play").addEventListener("click", play);
$("scrub").addEventListener("input", (ev) => { stop(); go(Number(ev.target.value)); });
document.addEventListener("keydown", (ev) => {
  // the hand's list keeps the focus once a hand is chosen from it: its ← → stepped to the next
  // hand (the step shown lost), not to the next action; ↑ ↓ still choose a hand
  const steps = ev.key === "ArrowLeft" || ev.key === "ArrowRight";
  if (ev.target instanceof HTMLSelectElement && !steps) return;
  if (ev.target instanceof HTMLInputElement) return;
  const keys = {ArrowLeft: () => go(step - 1), ArrowRight: () => go(step + 1), Home: () => go(0), End: () => go(Infinity)};
  if (keys[ev.key]) { stop(); keys[ev.key](); ev.preventDefault(); }
  else if (ev.key === " ") { play(); ev.preventDefault(); }
});

// A finger steps too, as in the replays of the apps: a swipe across the board to the left is the
// next action, to the right the one before (the step buttons alone were the only way on touch).
// A mostly vertical move scrolls the page as ever; a sideways one is the page's alone (replay.html:
// touch-action), not the browser's "back" (a swipe to the right left the replay).
const BOARD = document.querySelector(".board");
let swipe = null;
BOARD.addEventListener("touchstart", (ev) => {
  swipe = ev.touches.length === 1 ? {x: ev.touches[0].clientX, y: ev.touches[0].clientY} : null;
}, {passive: true});
BOARD.addEventListener("touchend", (ev) => {
  if (!swipe || ev.changedTouches.length !== 1) return;
  const dx = ev.changedTouches[0].clientX - swipe.x;
  const dy = ev.changedTouches[0].clientY - swipe.y;
  swipe = null;
  if (Math.abs(dx) < 40 || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
  stop();
  go(step + (dx < 0 ? 1 : -1));
}, {passive: true});

// -- drawing ---------------------------------------------------------------------------------
function render() {
  if (!replay) return;
  const frame = replay.frames[step];
  const names = replay.names_by_seat.map((n) => levelName(n));
  $("scrub").value = String(step);
  $("step").textContent = `${step} / ${replay.frames.length - 1}`;
  $("wall-now").textContent = `${t("wall")} ${frame.wall}`;
  $("prev").disabled = $("first").disabled = step === 0;
  $("next").disabled = $("last").disabled = step === replay.frames.length - 1;
  fill($("action"), frame.action === null
    ? t("deal")
    : `${t("winds")[frame.seat]} ${names[frame.seat]} ${actionText(frame.action)}`);
  for (let seat = 0; seat < 4; seat++) renderSeat(frame, seat);
  const wind = t("winds")["ESWN".indexOf(replay.round_wind)];
  fill($("center"),
    el("div", {class: "big-wind"}, wind),
    el("div", {}, `${t("hand")} ${replay.hand_number + 1}/${replay.hands}`),
    el("div", {class: "wall", id: "wall"}, `${t("wall")} ${frame.wall}`),
    frame.last_discard ? tile(frame.last_discard, {cls: "big"}) : null);
  renderResult(frame);
  fitBoard();
}

// A phone held sideways (app.css): the board takes the screen's height below the controls, and
// each seat's tiles are as large as its box lets them be, so that the four seats are on the
// screen at once (the bottom seat lay below it). The sizes hold for the whole hand (those that
// fit its last step, the fullest table, unless the step shown needs less), so that the tiles do
// not change size at every step. Elsewhere the page flows as it is.
const SIDEWAYS = matchMedia("(max-height: 500px) and (orientation: landscape)");
let fitted = null;  // {key: the hand and the screen, widths: by seat, at the hand's last step}

function fitBoard() {
  const board = document.querySelector(".board");
  const boxes = [0, 1, 2, 3].map((seat) => $("pos-" + seat));
  if (!SIDEWAYS.matches || !replay || $("table").hidden) {
    board.style.height = "";
    for (const box of boxes) box.style.removeProperty("--tile-w");
    return;
  }
  const top = board.getBoundingClientRect().top + scrollY;
  board.style.height = `${Math.max(120, innerHeight - top)}px`;
  const fits = (box) => box.scrollHeight <= box.clientHeight + 1 && box.scrollWidth <= box.clientWidth + 1;
  // the largest width that fits the box, up to cap: a binary search over whole pixels
  const fit = (box, cap) => {
    let lo = 8, hi = cap;
    box.style.setProperty("--tile-w", `${hi}px`);
    if (fits(box)) return hi;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      box.style.setProperty("--tile-w", `${mid}px`);
      if (fits(box)) lo = mid; else hi = mid;
    }
    box.style.setProperty("--tile-w", `${lo}px`);
    return lo;
  };
  const cap = Math.floor(Math.min(34, innerHeight / 11));
  const key = `${replay.hand_number} ${innerWidth}x${innerHeight} ${LANG}`;
  if (!fitted || fitted.key !== key) {
    const last = replay.frames[replay.frames.length - 1];
    for (let seat = 0; seat < 4; seat++) renderSeat(last, seat);
    fitted = {key, widths: boxes.map((box) => fit(box, cap))};
    for (let seat = 0; seat < 4; seat++) renderSeat(replay.frames[step], seat);
  }
  boxes.forEach((box, seat) => fit(box, fitted.widths[seat]));
}
addEventListener("resize", fitBoard);

// The latest discard at a frame, {seat, n}: marked until the next discard (or its claim), as at
// the table; it was marked only while it could be claimed, and at an added kong open to robbing
// the konger's older discard was marked instead.
function latestDiscard(frame) {
  if (frame.phase !== "act" && frame.phase !== "respond") return null;
  for (let k = replay.frames.indexOf(frame); k >= 0; k--) {
    const f = replay.frames[k];
    if (typeof f.action === "string" && f.action.startsWith("discard") && f.seat !== null && f.seat !== undefined) {
      const n = splitTiles(f.discards[f.seat]).length;
      return splitTiles(frame.discards[f.seat]).length === n ? {seat: f.seat, n} : null;
    }
  }
  return null;
}

function renderSeat(frame, seat) {
  const box = $("pos-" + seat);  // East at the bottom, then counter-clockwise
  const live = frame.phase !== "over" && (frame.to_act.includes(seat) || (frame.phase === "act" && frame.current === seat));
  box.className = `seat-box ${["me", "right", "top", "left"][seat]}` + (live ? " current" : "");
  const result = frame.result;
  const delta = result ? result.deltas[seat] : null;
  const head = el("div", {class: "seat-head"},
    el("span", {class: "wind"}, t("winds")[seat]),
    seat === 0 ? el("span", {class: "dealer"}, LANG === "zh" ? term("dealer") : "D") : null,
    el("span", {class: "name", title: localName(replay.names_by_seat[seat])}, levelName(replay.names_by_seat[seat])),
    delta !== null ? el("span", {class: "score " + (delta > 0 ? "plus" : delta < 0 ? "minus" : "")}, (delta > 0 ? "+" : "") + delta) : null);
  const hand = el("div", {class: "hand-up"}, splitTiles(frame.hands[seat]).map((x) => tile(x)),
    frame.drawn && frame.current === seat ? tile(frame.drawn, {cls: "drawn"}) : null);
  const melds = el("div", {class: "melds"}, frame.melds[seat].map((m) =>
    el("span", {class: "meld"}, m.tiles.map((x) => tile(x, {cls: m.claimed === x ? "claimed" : ""})))));
  const flowers = el("div", {class: "flowers"}, splitTiles(frame.flowers[seat]).map((x) => tile(x, {cls: "flower"})));
  const pool = splitTiles(frame.discards[seat]);
  const latest = latestDiscard(frame);
  const discards = el("div", {class: "discards"}, pool.map((x, i) =>
    tile(x, {cls: latest && latest.seat === seat && latest.n === pool.length && i === pool.length - 1 ? "last" : ""})));
  fill(box, head, hand, melds, flowers, discards);
}

function renderResult(frame) {
  const box = $("result");
  const r = frame.result;
  const appears = box.hidden && r;
  box.hidden = !r;
  if (!r) { box.replaceChildren(); return; }
  const names = replay.names_by_seat.map((n) => levelName(n));
  const number = replay.hand_number + 1;  // titled as the table's end box: 第 2 盘结束, Hand over (Hand 2)
  const parts = [el("h2", {}, LANG === "zh" ? `第 ${number} 盘结束` : `${t("handEnd")} (${t("hand")} ${number})`),
    ...handResultParts(r, names, replay.winning_hand, replay.explain)];
  fill(box, parts);
  // the end of the hand, below the table (a phone's screen away): brought into view as it comes,
  // below the step controls (they stay at the top as the page scrolls)
  if (appears) {
    box.style.scrollMarginTop = `${document.querySelector(".replay-controls").offsetHeight + 8}px`;
    box.scrollIntoView({block: "nearest"});
  }
}

setLang(LANG);
titles();
loadRoom();
