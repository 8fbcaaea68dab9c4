// The table page: one WebSocket; the server sends this seat's view, we draw it and send actions.
// Layout: a full-viewport grid (app.css, "the table"): the three other seats around the pond of
// discards, the centre with the round, the wall and each seat's plate, your hand along the bottom.
// Every tile is sized through the CSS custom property --tile-w, set per area by fitTiles().
"use strict";

const ROOM = location.pathname.split("/").pop();
const params = new URLSearchParams(location.search);
if (params.get("token")) saveRoomKeys(ROOM, {token: params.get("token")});
if (params.get("invite")) saveRoomKeys(ROOM, {invite: params.get("invite")});
if (params.get("watch")) saveRoomKeys(ROOM, {watch_token: params.get("watch")});
if (params.get("hints")) localStorage.setItem("guobiao:hints", params.get("hints"));
if (params.get("lang")) localStorage.setItem("guobiao:lang", params.get("lang"));
history.replaceState(null, "", location.pathname);  // keep secrets out of the address bar

// The table's own strings (the shared ones are in common.js). zh follows the printed score
// sheet (tournament/reports.py): 庄 dealer, 点炮 dealt in, 番 fan points, 局分 score.
Object.assign(STRINGS.en, {
  lastHand: "Last hand",
  continue: "Continue",
  seeTable: "See the table",
  waitingOthers: "Waiting for the others…",
  claimNow: "Claim?",
  claimWindow: "Claims open",
  claimNoted: "waiting for the others",
  turnOf: "to play",
  sec: "s",
  dealer: "Dealer",
  dealerMark: "D",
  auto: "auto-play",
  resume: "I'm back",
  autoNote: "The clock ran out twice: a bot is playing for you.",
  best: "discard",
  keysLegend: "Keys: 1-9 0 - = or ←→ Enter discard · D the drawn tile · Space/P pass · W win · C chow · G pung · K kong",
  payments: "Payments",
  flowers: "flowers",
  inviteLink: "Invite link (takes an empty place)",
  watchLink: "Watch link",
  copy: "Copy",
  copied: "Copied",
  copyByHand: "Selected: press Ctrl+C (⌘C)",
  online: "here",
  waitHost: "Waiting for the table's creator to start the session.",
  waitFull: "Every place is taken: you are watching this table.",
  startEmpty: "When you start, bots ({kind}) take the {n} empty places.",
  startAway: "{names}: not here now. A bot plays for them {grace} s after the start, until they come back.",
  leftTable: "{name} left the table: a bot plays for them after {grace} s, until they come back.",
  backTable: "{name} is back.",
  closedTable: "This table is closed: nobody was at it for a while, and it plays no more.",
  botPlaying: "bot playing",
  host: "creator",
  nextTable: "The table plays again:",
  nextJoin: "join",
  nextWatch: "watch",
  playAgain: "Play again",
  playAgainNote: "A new table with the same settings: the same bots, the other people's places open for your invite link.",
});
Object.assign(STRINGS.zh, {
  lastHand: "上一盘",
  continue: "继续",
  seeTable: "看牌桌",
  waitingOthers: "等待其他玩家…",
  claimNow: "吃碰杠和？",
  claimWindow: "吃碰时间",
  claimNoted: "等待其他家",
  turnOf: "出牌",
  sec: "秒",
  dealer: "庄",
  dealerMark: "庄",
  auto: "托管",
  resume: "我回来了",
  autoNote: "两次超时：机器人正在替你出牌。",
  best: "打",
  keysLegend: "按键：1-9 0 - = 或 ←→ 回车 打牌 · D 摸切 · 空格/P 过 · W 和 · C 吃 · G 碰 · K 杠",
  payments: "得失分",
  flowers: "花",
  inviteLink: "邀请链接（可入座）",
  watchLink: "观战链接",
  copy: "复制",
  copied: "已复制",
  copyByHand: "已选中：请按 Ctrl+C（⌘C）",
  online: "在线",
  waitHost: "等待开桌人开始本局。",
  waitFull: "座位已满：你在观战。",
  startEmpty: "开始时，{n} 个空位由机器人（{kind}）补上。",
  startAway: "{names} 现在不在线：开始 {grace} 秒后由机器人代打，直到其回来。",
  leftTable: "{name} 离开了牌桌：{grace} 秒后由机器人代打，直到其回来。",
  backTable: "{name} 回到了牌桌。",
  closedTable: "本桌已关闭：一段时间无人在线，不再进行。",
  botPlaying: "机器人代打",
  host: "开桌人",
  nextTable: "本桌再来一局：",
  nextJoin: "入座",
  nextWatch: "观战",
  playAgain: "再来一局",
  playAgainNote: "用同样的设置开新桌：机器人不变，其他玩家的座位空出，用你的邀请链接入座。",
});

// t(key) with {name} filled in from params.
function fmt(key, params) {
  return t(key).replace(/\{(\w+)\}/g, (_, k) => String(params[k]));
}

let TILES = {};
let state = null;
let ws = null;
let retry = 0;
let timers = null;      // the state's timers ({turn, claim, next_hand}), derived from deadline if absent
let timersAt = 0;       // when they were received (Date.now())
let log = [];
let overlayKind = null;
let shownHand = null;
let shownSession = false;
let lastHandMsg = null; // the last hand_end, for the "Last hand" button
let readySent = null;   // the hand number we said "ready" after
let selected = null;    // keyboard: the index of the selected tile of the hand
let refusal = null;     // the error that came before the server closed the socket
let closed = false;     // the server closed the table (abandoned): it plays no more

const $ = (id) => document.getElementById(id);
const hintsBox = $("hints-on");
const labelsBox = $("labels-on");
hintsBox.checked = localStorage.getItem("guobiao:hints") === "1";
hintsBox.addEventListener("change", () => { localStorage.setItem("guobiao:hints", hintsBox.checked ? "1" : "0"); render(); });
labelsBox.addEventListener("change", () => { localStorage.setItem("guobiao:labels", labelsBox.checked ? "1" : "0"); render(); });
$("lang").addEventListener("click", () => { toggleLang(); rewriteTexts(); render(); if (closed) closedNote(); });
$("last-hand").addEventListener("click", () => { if (lastHandMsg) showHandEnd(lastHandMsg); });
$("resume").addEventListener("click", () => send({type: "resume"}));

// -- tiles: splitTiles, tileLabel, GLYPHS, face, tile are in common.js ----------------------

function back() { return tile(null); }  // a tile without a name is drawn face down

function actionText(text) {
  const [kind, arg] = text.split(" ");
  const acts = t("acts");
  return arg ? `${acts[kind] || kind} ${splitTiles(arg).map(tileLabel).join("")}` : (acts[kind] || kind);
}

// A place's full name: a bot's server-made name ("efficiency bot B") in the page's language
// (common.js localName; a person's name as it is), as the plates' titles give it.
function placeName(p, letter) {
  return p.kind === "bot" ? localName(p.name) : p.name;
}

// A place's name wherever the table names it (its plate, the log, the clocks, the end of a hand):
// a bot by its level and place ("easy bot B", 入门机器人B: the levels the lobby lists them by,
// the level first in both languages, as "West easy bot C 500" reads), its full name with its
// kind (efficiency bot B, 牌效机器人 B) in the plates' titles; a person's name as it is (it
// wraps). nameParts gives it in two parts where a plate may break it between them (入门 /
// 机器人B), or in one.
function nameParts(p, letter) {
  if (p.kind !== "bot") return [placeName(p, letter)];
  const place = (/ ([A-D])$/.exec(p.name) || [])[1] || letter;
  return levelParts(p.bot_kind, place) || [placeName(p, letter)];
}

function plateName(p, letter) { return nameParts(p, letter).join(LANG === "zh" ? "" : " "); }

// The same on a plate: in 中文 a line may break between the level and the bot (<wbr>), never
// inside a word
function plateNameNodes(p, letter) {
  const parts = nameParts(p, letter);
  return LANG === "zh" && parts.length > 1 ? [parts[0], el("wbr"), parts[1]] : [parts.join(" ")];
}

// Where a plate has no room for a name (a small phone's centre): "bot B" (机器人B), a person's
// name to its first six letters; the full name in the title.
function plateAbbr(p, letter) {
  if (p.kind === "bot") {
    const place = (/ ([A-D])$/.exec(p.name) || [])[1] || letter;
    return LANG === "zh" ? `${t("bot")}${place}` : `${t("bot")} ${place}`;
  }
  const chars = [...placeName(p, letter)];
  return chars.length > 6 ? `${chars.slice(0, 5).join("")}…` : chars.join("");
}

// -- the socket ------------------------------------------------------------------------------
function connect() {
  const keys = roomKeys(ROOM);
  const token = keys.token || keys.watch_token || keys.invite || "";
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${proto}://${location.host}/ws/rooms/${ROOM}?token=${encodeURIComponent(token)}`);
  ws = socket;
  socket.onopen = () => { retry = 0; heard = Date.now(); connStatus(() => t("connected"), false); heartbeat(); };
  socket.onmessage = (ev) => {
    heard = Date.now();
    inbox.push(JSON.parse(ev.data));
    if (inbox.length === 1) setTimeout(readInbox, 0);
  };
  socket.onclose = (ev) => lost(ev.code, ev.reason);
}

function lost(code, reason) {
  clearTimeout(pingTimer);
  clearTimeout(pongTimer);
  readInbox();  // what came before the close
  connStatus(() => t("disconnected"), true);
  if (code === 4410) {
    connStatus(() => state && state.session_end ? t("sessionOver") : t("closed"), false);
    if (!(state && state.session_end)) tableClosed();
  }
  if ([4403, 4404, 4429].includes(code)) connStatus(() => refusal ? refusalText(refusal) : reason, true);
  if ([4403, 4404, 4410, 4429].includes(code)) return;  // refused or closed: no retry
  retry = Math.min(retry + 1, 5);
  setTimeout(connect, 500 * retry);
}

// A heartbeat. A phone that changed networks or slept keeps a socket that looks open and reaches
// nobody: the table seemed to wait for the others while the server played the seat by its clock.
// Every PING_EVERY ms, and at once when the page comes back to the front or the network returns,
// the page pings (the server answers pong); a socket that brought nothing within PONG_WAIT ms of
// a ping is given up and a new one opened (the server sends the table as it stands).
const PING_EVERY = 20000;
const PONG_WAIT = 8000;
let heard = 0;          // when the socket last brought anything (Date.now())
let pingTimer = null;
let pongTimer = null;
function heartbeat() {
  clearTimeout(pingTimer);
  clearTimeout(pongTimer);
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  const socket = ws;
  const asked = Date.now();
  send({type: "ping"});
  pongTimer = setTimeout(() => { if (ws === socket && heard < asked) giveUp(socket); }, PONG_WAIT);
  pingTimer = setTimeout(heartbeat, PING_EVERY);
}

function giveUp(socket) {
  socket.onopen = socket.onmessage = socket.onclose = null;
  try { socket.close(4000, "no answer"); } catch (err) { /* already closing */ }
  lost(1006, "");
}

document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") heartbeat(); });
window.addEventListener("online", heartbeat);

// The connection's state in the header and, while the socket is down (or refused), in a notice
// over the table: the header's status is hidden on a phone, where a lost connection showed
// nothing and taps on the hand did nothing. The hand and the claim buttons wait meanwhile. The
// notice comes after a second down, so that a blip (a reconnection after joining) shows none.
let offlineTimer = null;
function connStatus(words, down) {
  showText($("status"), words);
  clearTimeout(offlineTimer);
  const notice = () => {
    showText($("offline"), down ? words : null);
    $("offline").hidden = !down;
    document.body.classList.toggle("offline", down);
  };
  if (down && $("offline").hidden) offlineTimer = setTimeout(notice, 1000);
  else notice();
}

// A refusal of the socket in words (a private table opened with no link at all: the server's
// private_room, which says what link it needs).
function refusalText(msg) { return describe(msg); }

// The server closed the table (nobody was at it for a while; not a session over): it showed the
// table as it stood, its clocks running and the hand to play, and on a phone (the header's status
// hidden) nothing said that it was closed. The clocks stop, nothing is to play, and a notice says
// so, with the way to its replays and back to the lobby.
function tableClosed() {
  closed = true;
  timers = null;
  if (state && state.view) {
    state.must_act = false;
    state.view = {...state.view, legal_actions: []};
    render();
  }
  $("countdown").replaceChildren();
  $("clock").classList.remove("on");
  document.querySelectorAll("#center .ring").forEach((ring) => ring.classList.remove("on", "urgent"));
  if (overlayKind === "hand_end" && lastHandMsg) showHandEnd(lastHandMsg);  // no Continue
  closedNote();
}

function closedNote() {
  clearTimeout(offlineTimer);
  const note = $("offline");
  note.words = null;
  fill(note, t("closedTable"), " ",
    state && state.room.started ? [el("a", {href: `/room/${ROOM}/replay`}, t("replayHands")), " · "] : null,
    el("a", {href: "/"}, t("lobby")));
  note.hidden = false;
  note.classList.add("closed");
  document.body.classList.add("offline");
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

// the decision it answers goes with it: one sent late (a slow connection) is refused, not
// applied to a later decision the player has not seen
function act(action) { send({type: "action", action, decision: state ? state.decision : undefined}); }

function nameOf(seat) {
  if (!state || !state.places_by_seat) return "?";
  const place = state.places_by_seat[seat];
  return plateName(state.room.places[place], "ABCD"[place]);
}

// The server's public timers, or the same built from the older `deadline` / `next_hand_in`.
function timersOf(msg) {
  if (msg.timers) return msg.timers;
  const v = msg.view;
  const out = {turn: null, claim: null, next_hand: msg.next_hand_in ?? null};
  if (v && v.phase !== "over" && msg.deadline !== null && msg.deadline !== undefined) {
    if (v.phase === "act") out.turn = {seat: v.current, left: msg.deadline};
    else out.claim = {left: msg.deadline};
  }
  return out;
}

function liveCount(n) { return LANG === "zh" ? `${n}张` : `${n} live`; }

function secondsLeft(left) { return left === null || left === undefined ? null : Math.max(0, left - (Date.now() - timersAt) / 1000); }

// The messages that came while the page was busy, read together: a state followed by another is
// taken in but not drawn (a slow phone, or a fast table of bots, drew every state in turn and fell
// behind: a page still drew hand 10 when the session had ended). One message at a time is drawn
// at once, as before.
const inbox = [];
function readInbox() {
  const batch = inbox.splice(0);
  batch.forEach((msg, i) => receive(msg, batch.slice(i + 1).some((m) => m.type === "state")));
}

function receive(msg, stale = false) {
  switch (msg.type) {
    case "welcome":
      TILES = msg.tiles;
      // the lobby's "my tables": this place, and when this browser was last here
      if (msg.you !== null && msg.you !== undefined) saveRoomKeys(ROOM, {place: msg.you, at: Date.now()});
      else if (Object.keys(roomKeys(ROOM)).length) saveRoomKeys(ROOM, {at: Date.now()});
      break;
    case "state": {
      const before = state;
      state = msg;
      trackLatest(before, msg);
      timers = timersOf(msg);
      timersAt = Date.now();
      if (!before || before.decision !== msg.decision) selected = null;
      if (!stale) { render(); renderNext(); }
      if (before && before.room.started && msg.room.started) presenceChanges(before.room.places, msg.room.places);
      // arriving between hands (or after the session): the settlement is in the state too
      if (msg.last_hand) lastHandMsg = msg.last_hand;
      if (msg.last_hand && shownHand !== msg.last_hand.hand_number && !msg.session_end) showHandEnd(msg.last_hand);
      if (msg.session_end && !shownSession) showSessionEnd(msg.session_end);
      break;
    }
    case "event":
    case "timeout":
      logMessage(msg);
      break;
    case "hand_start":
      if (overlayKind === "hand_end") closeOverlay();
      log = [];
      addLog("");
      break;
    case "hand_end":
      lastHandMsg = msg;
      showHandEnd(msg);
      break;
    case "session_end":
      showSessionEnd(msg);
      break;
    case "notice":  // auto_on, auto_off
      logMessage(msg);
      break;
    case "error":
      if (["bad_token", "private_room", "too_many", "no_room", "slow_down"].includes(msg.code)) refusal = msg;
      logMessage(msg);
      if (!state || !state.room.started) showText($("wait-error"), () => describe(msg));
      break;
  }
}

// The log keeps what happened (the server's message), not its words: each line is written in
// the page's language when it is drawn, so that after a switch of language every line reads in
// the new one (a line kept as text stayed in the language it was written in).
function logLine(msg) {
  const who = (seat) => `${t("winds")[seat]} ${nameOf(seat)}`;
  switch (msg.type) {
    case "event": return `${who(msg.seat)} ${actionText(msg.action)}`;
    case "timeout": return `${who(msg.seat)}: ${t("timeout")} → ${actionText(msg.action)}`;
    case "error": return `⚠ ${describe(msg)}`;
    case "presence": {
      const p = state.room.places[msg.place];
      return fmt(msg.on ? "backTable" : "leftTable", {name: plateName(p, "ABCD"[msg.place]), grace: Math.round((state.room.limits || {}).grace ?? 30)});
    }
    default: {  // a notice (auto_on, auto_off): the place named as its plate names it (easy bot B)
      const place = msg.params ? msg.params.place : null;
      const p = state && Number.isInteger(place) ? state.room.places[place] : null;
      return describe(p ? {...msg, params: {...msg.params, name: plateName(p, "ABCD"[place])}} : msg);
    }
  }
}

function logMessage(msg) { addLog(logLine(msg), msg); }

// A person who leaves the table (their last socket closed) or comes back, told to everyone in
// the log: the plate's "offline" alone was easy to miss, and nothing said that a bot would play
// for them.
function presenceChanges(before, now) {
  now.forEach((p, i) => {
    const was = before[i];
    if (p.kind === "human" && was.kind === "human" && was.connected !== p.connected && i !== state.you) {
      logMessage({type: "presence", place: i, on: p.connected});
    }
  });
}

// A line of the log: its text as written now and, to write it again in another language, the
// message it tells (a line given as text alone stays as it is).
function addLog(text, msg) {
  if (text) log.push(msg ? {msg} : {text});
  log = log.slice(-3);
  fitLog();
}

// A status line (the header's connection state, the waiting room's refusal) kept as a function
// of the language, so that a switch of language writes it again.
function showText(node, words) {
  node.words = words;
  node.textContent = words ? words() : "";
}
// a refusal of the waiting room's buttons (common.js serverError: its code and params kept)
function waitError(e) {
  showText($("wait-error"), () => e.code ? describe({code: e.code, params: e.params, message: e.message}) : e.message);
}
function rewriteTexts() {
  for (const node of [$("status"), $("offline"), $("wait-error")]) if (node.words) node.textContent = node.words();
}

// -- drawing ---------------------------------------------------------------------------------
// a spectator (the watch link): no seat, no hints, nothing to be ready for
function watching() { return Boolean(state) && (state.seat === null || state.seat === undefined); }

function render() {
  if (!state) return;
  const room = state.room;
  $("room-name").textContent = localName(room.name);
  $("last-hand").hidden = !lastHandMsg && !state.last_hand;
  hintsBox.closest("label").hidden = watching();  // a watcher has no hand to hint at
  if (!room.started) { renderWaiting(room); return; }
  $("waiting").hidden = true;
  $("table").hidden = false;
  document.body.classList.add("playing");
  renderTable();
}

function renderWaiting(room) {
  $("waiting").hidden = false;
  $("table").hidden = true;
  document.body.classList.remove("playing");
  const keys = roomKeys(ROOM);
  $("wait-name").textContent = localName(room.name);  // the header hides it on a phone
  // each place: who, and whether a person is here now (a friend who closed the tab is not)
  $("wait-places").replaceChildren(...room.places.map((p, i) =>
    el("li", {"data-place": i}, `${"ABCD"[i]} (${t("winds")[i]}) · `,
      p.kind === "empty" ? t("empty") : `${plateName(p, "ABCD"[i])} (${p.kind === "bot" ? t("kind_" + p.bot_kind) : t("human")})`,
      p.kind === "human" ? el("span", {class: `tag ${p.connected ? "here" : "offline"}`}, t(p.connected ? "online" : "offline")) : null,
      room.owner_place === i ? el("span", {class: "host-mark"}, t("host")) : null,
      state.you === i ? ` ← ${t("you")}` : "")));
  const free = room.places.some((p) => p.kind === "empty");
  $("join-form").hidden = !(free && state.you === null && !keys.token && keys.invite);
  $("need-invite").hidden = !(free && state.you === null && !keys.token && !keys.invite);
  // what this page waits for: the creator's start (a friend seated, a watcher), or nothing
  // left to take (the places all taken: watching)
  const seated = state.you !== null && state.you !== undefined;
  const note = keys.owner_token ? "" : !free && !seated ? t("waitFull") : seated || !$("join-form").hidden || !$("need-invite").hidden ? t("waitHost") : "";
  $("wait-note").textContent = note;
  $("wait-note").hidden = !note;
  // the creator's list of bots starts at the kind chosen in the lobby (it said "easy ·
  // efficiency" whatever was chosen there)
  if (!$("bot-kind").dataset.set && room.bot_kind) { $("bot-kind").value = room.bot_kind; $("bot-kind").dataset.set = "1"; }
  if (keys.owner_token) startNote(room);
  $("join-name").value = $("join-name").value || localStorage.getItem("guobiao:name") || "";
  $("owner").hidden = !keys.owner_token;
  // the invite (only its holders have it) takes a place; the watch link watches (a private
  // room's needs its watch token, which only the creator holds)
  const base = `${location.origin}/room/${ROOM}`;
  $("invite-row").hidden = !keys.invite;
  $("share-link").value = keys.invite ? `${base}?invite=${encodeURIComponent(keys.invite)}` : "";
  const watch = !room.private ? base : keys.watch_token ? `${base}?watch=${encodeURIComponent(keys.watch_token)}` : "";
  $("watch-row").hidden = !watch;
  $("watch-link").value = watch;
}

// Copy a link: the clipboard, else the text selected for the user to copy; a short note either way.
async function copyLink(input, note) {
  let copied = false;
  try {
    if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(input.value); copied = true; }
  } catch { copied = false; }
  if (!copied) {
    input.focus();
    input.select();
    try { copied = document.execCommand("copy"); } catch { copied = false; }
  }
  note.textContent = t(copied ? "copied" : "copyByHand");
  clearTimeout(note.timer);
  note.timer = setTimeout(() => { note.textContent = ""; }, 2500);
}
$("copy-invite").addEventListener("click", () => copyLink($("share-link"), $("invite-note")));
$("copy-watch").addEventListener("click", () => copyLink($("watch-link"), $("watch-note")));

$("join-btn").addEventListener("click", async () => {
  const name = $("join-name").value.trim();
  if (!name) return;
  localStorage.setItem("guobiao:name", name);
  try {
    const joined = await api("POST", `/api/rooms/${ROOM}/join`, {name, invite: roomKeys(ROOM).invite || null});
    saveRoomKeys(ROOM, {token: joined.token, place: joined.place, at: Date.now()});
    ws.close();
  } catch (e) { waitError(e); }
});

$("add-bots").addEventListener("click", async () => {
  try {
    await api("POST", `/api/rooms/${ROOM}/bots`, {owner_token: roomKeys(ROOM).owner_token, kind: $("bot-kind").value});
  } catch (e) { waitError(e); }
});

// Under the creator's Start: what starting does to the empty places (bots of the kind chosen
// beside it) and who of the people is not here (a bot plays for them after the grace).
function startNote(room) {
  const empty = room.places.filter((p) => p.kind === "empty").length;
  const away = room.places.filter((p) => p.kind === "human" && !p.connected).map((p) => p.name);
  const kind = $("bot-kind").selectedOptions[0];
  const lines = [];
  if (empty) lines.push(fmt("startEmpty", {n: empty, kind: kind ? kind.textContent : ""}));
  if (away.length) lines.push(fmt("startAway", {names: away.join(", "), grace: Math.round(room.limits.grace)}));
  $("start-note").textContent = lines.join(" ");
}
$("bot-kind").addEventListener("change", () => { if (state && !state.room.started) startNote(state.room); });

// Start: the empty places get bots of the kind chosen beside the button first (the server's
// fill seats the table's own kind, whatever the list said)
$("start").addEventListener("click", async () => {
  const owner = roomKeys(ROOM).owner_token;
  try {
    if (state && state.room.places.some((p) => p.kind === "empty")) {
      await api("POST", `/api/rooms/${ROOM}/bots`, {owner_token: owner, kind: $("bot-kind").value});
    }
    await api("POST", `/api/rooms/${ROOM}/start`, {owner_token: owner, fill: true});
  } catch (e) { waitError(e); }
});

function concealedCount(view, seat) {
  const melds = view.melds[seat].filter((m) => m.kind !== "concealed_kong").length + view.concealed_kongs[seat];
  let n = 13 - 3 * melds;
  if (view.phase === "act" && view.current === seat) n += 1;
  return Math.max(0, n);
}

// Which tile of a claimed meld lies turned, as on a real table: a chow's claimed tile; a pung's
// or a kong's by where it came from (offered_by, from the owner: 3 previous, the left tile; 2
// opposite, the middle; 1 next, the right one). -1: none (a concealed kong).
function claimedAt(m) {
  if (m.kind === "chow") return m.tiles.indexOf(m.claimed);
  if (m.offered_by === 3) return 0;
  if (m.offered_by === 2) return 1;
  if (m.offered_by === 1) return m.tiles.length - 1;
  return -1;
}

function meldsOf(view, seat) {
  // a kong just added to a pung, open to robbing (抢杠): its added tile marked, as a discard is
  // (it was the konger's last discard that showed marked, red where one could win on the kong)
  const robbing = view.phase === "rob" && view.current === seat && view.last_discard;
  const claimable = robbing && seat !== view.seat && state.must_act && view.legal_actions.includes("pass");
  const added = (m, i) => robbing && m.kind === "kong" && m.tiles[0] === view.last_discard && i === (claimedAt(m) === 3 ? 2 : 3);
  const shown = view.melds[seat].map((m) =>
    el("span", {class: "meld"}, m.kind === "concealed_kong" && seat !== view.seat && view.phase !== "over"
      ? [back(), back(), back(), back()]
      : m.tiles.map((x, i) => (m.kind === "concealed_kong" && (i === 0 || i === 3)) ? back()
        : tile(x, {cls: [i === claimedAt(m) ? "claimed" : "", added(m, i) ? (claimable ? "last claimable" : "last") : ""].join(" ").trim()}))));
  const hiddenKongs = view.concealed_kongs[seat] - view.melds[seat].filter((m) => m.kind === "concealed_kong").length;
  for (let k = 0; k < hiddenKongs; k++) shown.push(el("span", {class: "meld"}, back(), back(), back(), back()));
  return shown;
}

function flowersOf(view, seat) {
  const fl = view.flowers ? view.flowers[seat] : [];
  return fl.length ? el("span", {class: "flowers"}, fl.map((f) => tile(f, {cls: "flower"}))) : null;
}

// Another seat: its concealed tiles as backs, its melds and flowers (pos 1 right, 2 top, 3 left).
function renderSeat(view, seat, pos) {
  const box = $("pos-" + pos);
  box.className = `seat-box ${["me", "right", "top", "left"][pos]}` + (isTurn(seat) ? " current" : "");
  // the hand is over: its tiles laid open (the server sends them then), as at a real table
  const open = view.phase === "over" && state.revealed ? state.revealed[seat] : null;
  fill(box,
    open ? el("div", {class: "backs revealed"}, open.map((x) => tile(x)))
      : el("div", {class: "backs"}, Array.from({length: concealedCount(view, seat)}, () =>
        pos % 2 === 0 ? back() : el("span", {class: "slab"}))),  // the side hands seen edge-on
    el("div", {class: "melds"}, meldsOf(view, seat), flowersOf(view, seat)));
}

function isTurn(seat) { return state.view.phase !== "over" && state.view.current === seat && state.view.phase === "act"; }

// The latest discard, {seat, n}: on top of that seat's pool while it is n tiles long. It stays
// marked until the next discard (or its claim): it was marked only while it could be claimed, and
// once the next seat drew nothing showed what had just been thrown (a phone's centre has no log).
// A discard open to claims names itself; else it is found among the pools that grew since the
// last state, the nearest seat before the one to act being the latest to discard.
let latest = null;
function trackLatest(before, msg) {
  const view = msg.view;
  if (!view || !view.discards) { latest = null; return; }
  const pools = view.discards;
  if (view.phase === "respond" && view.last_discard) {
    latest = {seat: view.current, n: pools[view.current].length};
    return;
  }
  const old = before && before.view && before.view.discards && before.hand_number === msg.hand_number ? before.view.discards : null;
  if (old) {
    for (let k = 1; k <= 4; k++) {
      const seat = (view.current + 4 - k) % 4;
      if (pools[seat].length > old[seat].length) { latest = {seat, n: pools[seat].length}; break; }
    }
  }
  if (latest && (!pools[latest.seat] || pools[latest.seat].length !== latest.n)) latest = null;  // claimed, or a new hand
}

// Each seat's discards, in rows of six in front of it (第七条四): tile i of a pool goes to row
// floor(i / 6), column i % 6, as that seat sees it; the first row nearest the centre.
function renderPool(view, seat, pos) {
  const box = $("pool-" + pos);
  const pool = view.discards[seat];
  const rows = Math.max(3, Math.ceil(pool.length / 6));
  box.dataset.rows = rows;
  // (an added kong open to robbing is marked in its meld, not on the konger's pool)
  const marked = view.phase === "act" || view.phase === "respond" ? latest : null;
  const claimable = view.phase === "respond" && state.must_act && view.legal_actions.includes("pass");
  const tiles = pool.map((x, i) => {
    const r = Math.floor(i / 6), c = i % 6;
    const last = marked !== null && marked.seat === seat && marked.n === pool.length && i === pool.length - 1;
    const node = tile(x, {cls: last ? (claimable ? "last claimable" : "last") : ""});
    const [row, col] = [[r + 1, c + 1], [6 - c, r + 1], [rows - r, 6 - c], [c + 1, rows - r]][pos];
    node.style.gridRow = String(row);
    node.style.gridColumn = String(col);
    return node;
  });
  box.style.setProperty("--rows", rows);
  fill(box, tiles);
}

// The centre: the round wind, the hand number, the wall, and a plate for each seat.
function renderCenter(view, me) {
  const wind = t("winds")["ESWN".indexOf(view.round_wind)];
  const plates = [0, 1, 2, 3].map((pos) => {
    const seat = (me + pos) % 4;
    const place = state.places_by_seat[seat];
    const p = state.room.places[place];
    return el("div", {class: `plate p${pos}` + (isTurn(seat) ? " current" : ""), id: `plate-${pos}`},
      // the wind, and its letter where a narrow centre has no room for the word (E S W N)
      el("span", {class: "wind"}, el("span", {class: "wind-word"}, t("winds")[seat]),
        el("span", {class: "wind-letter", "aria-hidden": "true"}, LANG === "zh" ? t("winds")[seat] : "ESWN"[seat])),
      seat === 0 ? el("span", {class: "dealer", title: t("dealer")}, t("dealerMark")) : null,
      el("span", {class: "name", title: placeName(p, "ABCD"[place])},
        ...plateNameNodes(p, "ABCD"[place]), state.you === place ? ` (${t("you")})` : ""),
      el("span", {class: "abbr", title: placeName(p, "ABCD"[place])}, plateAbbr(p, "ABCD"[place])),
      el("span", {class: "score"}, String(state.scores[place])),
      p.auto ? el("span", {class: "tag auto"}, t("auto")) : null,
      // a bot plays for a person who left (the grace over): everyone sees the bot's moves
      p.bot_playing && !p.auto ? el("span", {class: "tag bot-playing"}, t("botPlaying")) : null,
      p.connected ? null : el("span", {class: "tag offline"}, t("offline")),
      el("span", {class: "ring", "data-seat": seat}, el("span", {class: "fill"})));
  });
  const mid = el("div", {class: "mid"},
    el("div", {class: "round"}, el("span", {}, `${wind}${LANG === "zh" ? "风圈" : " round"}`, el("span", {class: "sep"}, " · ")),
      el("span", {class: "hand-no"}, `${t("hand")} ${state.hand_number + 1}/${state.room.hands}`)),
    el("div", {class: "wall"}, `${t("wall")} ${view.wall_remaining}`),
    state.seat === null || state.seat === undefined ? el("div", {class: "muted"}, t("spectating")) : null,
    el("ol", {id: "log", class: "log"}));
  // two columns that only a phone held sideways draws (app.css): the top and left seats' plates
  // left of the pools, the middle, the right seat's and yours right of them
  fill($("center"), el("div", {class: "side-a"}, plates[2], plates[3]),
    el("div", {class: "side-b"}, mid, plates[1], plates[0]));
  addLog("");
}

function renderTable() {
  const view = state.view;
  const me = state.seat ?? 0;
  for (let pos = 1; pos < 4; pos++) renderSeat(view, (me + pos) % 4, pos);
  for (let pos = 0; pos < 4; pos++) renderPool(view, (me + pos) % 4, pos);
  renderCenter(view, me);
  renderMine(view, me);
  renderActions(view);
  renderHints();
  const mine = state.you !== null && state.you !== undefined ? state.room.places[state.you] : null;
  $("resume").hidden = !(mine && mine.auto);
  // the hand over: nothing to do, no clock; the pond takes the controls' height (app.css)
  $("controls").classList.toggle("over", view.phase === "over");
  $("keys").textContent = t("keysLegend");
  fitTiles();
  tick();
}

// The hand tiles in the order drawn on the page: the concealed tiles, then the drawn one apart.
function handOrder(view) {
  const tiles = [...view.hand];
  if (view.drawn) tiles.splice(tiles.lastIndexOf(view.drawn), 1);
  return view.drawn ? [...tiles, view.drawn] : tiles;
}

// The hand is drawn anew (a key, a state): the tile the keyboard's focus was on keeps it (it fell
// to the page, and Tab started again from the header), or ``focusAt`` (the one ←/→ chose).
function renderMine(view, me, focusAt = null) {
  const old = $("hand");
  const had = old && old.contains(document.activeElement) ? document.activeElement : null;
  const at = had ? [...old.children].indexOf(had) : -1;
  drawMine(view, me);
  const hand = $("hand");
  if (!hand || (!had && focusAt === null)) return;
  const tiles = [...hand.children];
  const usable = (i) => i >= 0 && i < tiles.length && !tiles[i].disabled;
  let i = focusAt ?? at;
  if (focusAt === null && !(usable(at) && tiles[at].dataset.tile === had.dataset.tile)) {
    // the same tile where it now stands, else the one now at its place, else the nearest
    const same = tiles.map((node, j) => (node.dataset.tile === had.dataset.tile && usable(j) ? j : -1)).filter((j) => j >= 0);
    i = same.length ? same.reduce((a, b) => (Math.abs(b - at) < Math.abs(a - at) ? b : a)) : Math.min(at, tiles.length - 1);
  }
  if (!usable(i)) {
    const near = tiles.map((_, j) => j).filter(usable).sort((a, b) => Math.abs(a - i) - Math.abs(b - i));
    if (!near.length) return;
    i = near[0];
  }
  tiles[i].focus({preventScroll: true});
}

function drawMine(view, me) {
  const box = $("pos-0");
  box.className = "seat-box me" + (isTurn(me) ? " current" : "");
  if (state.seat === null || state.seat === undefined) {  // a spectator: East's backs
    renderSeat(view, me, 0);
    return;
  }
  const legal = new Set(view.legal_actions);
  const order = handOrder(view);
  const hand = el("div", {id: "hand", class: "hand"}, order.map((x, i) => {
    const action = `discard ${x}`;
    const drawn = view.drawn && i === order.length - 1;
    const node = tile(x, {button: true, cls: (drawn ? "drawn" : "") + (i === selected ? " selected" : ""),
      onclick: legal.has(action) ? () => act(action) : null});
    // what a tap does, as a screen reader says it: "Discard 3 Characters", 打 三万
    if (legal.has(action)) node.setAttribute("aria-label", `${t("discard")} ${tileName(x)}`);
    return node;
  }));
  fill(box, hand, el("div", {class: "melds mine"}, meldsOf(view, me), flowersOf(view, me)));
}

// What a claim or a kong uses: the tiles shown on its button.
function actionTiles(kind, arg, view) {
  if (kind === "chow") return splitTiles(arg);
  if (kind === "pung") return [arg, arg, arg];
  if (["kong", "concealed_kong", "added_kong"].includes(kind)) return [arg, arg, arg, arg];
  if (kind === "win") return [view.phase === "act" ? view.drawn : view.last_discard].filter(Boolean);
  return [];
}

const KEY_OF = {win: "W", pass: "Space", chow: "C", pung: "G", kong: "K", concealed_kong: "K", added_kong: "K"};

function renderActions(view) {
  const buttons = [];
  for (const action of view.legal_actions) {
    const [kind, arg] = action.split(" ");
    if (kind === "discard") continue;
    const claimed = view.phase !== "act" ? view.last_discard : null;
    let marked = false;  // the claimed tile, once, drawn turned
    const tiles = actionTiles(kind, arg, view).map((x) => {
      const mark = !marked && x === claimed && kind !== "win";
      if (mark) marked = true;
      return tile(x, {cls: mark ? "taken" : ""});
    });
    // its name without the key's letter ("Chow 1 Dots 2 Dots 3 Dots", not "… C"); the key apart
    const name = [t(kind), ...actionTiles(kind, arg, view).map(tileName)].join(" ");
    const key = KEY_OF[kind] === "Space" ? "Space" : KEY_OF[kind];
    buttons.push(el("button", {class: `act act-${kind}`, "data-action": action, onclick: () => act(action),
      "aria-label": name, "aria-keyshortcuts": key},
      el("span", {class: "act-name"}, t(kind)), tiles.length ? el("span", {class: "act-tiles"}, tiles) : null,
      el("kbd", {}, KEY_OF[kind] === "Space" ? t("spaceKey") : KEY_OF[kind] || "")));
  }
  // the winning chance first, pass last (as the keys read)
  const rank = (b) => (b.classList.contains("act-win") ? 0 : b.classList.contains("act-pass") ? 2 : 1);
  buttons.sort((a, b) => rank(a) - rank(b));
  // a second chow after the first: its name may give way where the row is short (fitActions)
  buttons.forEach((b, i) => { if (i && b.className === buttons[i - 1].className) b.classList.add("again"); });
  $("actions").replaceChildren(...buttons);
}

// The hint panel, compact: shanten, the best discard, the waits with their live counts; opened,
// the next best discards.
function renderHints() {
  const box = $("hints");
  const h = state.hints;
  box.hidden = !(hintsBox.checked && h) || state.view.phase === "over";  // nothing to hint at once over
  if (box.hidden) return;
  const open = box.open;
  const head = [el("b", {}, h.shanten === 0 ? t("ready") : `${t("shanten")} ${h.shanten}`)];
  const more = [];
  if (h.discards.length) {
    const d = h.discards[0];
    head.push(" · ", t("best"), " ", tile(d.tile, {cls: "mini"}), ` ${liveCount(d.live)}`);
    for (const o of h.discards.slice(1, 4)) {
      more.push(el("div", {class: "hint-row"}, t("best"), " ", tile(o.tile, {cls: "mini"}),
        ` → ${t("shanten")} ${o.shanten} · ${liveCount(o.live)}`));
    }
  } else if (h.waits.length) {
    head.push(" · ", t("waits"), " ", ...h.waits.slice(0, 5).map((w) => el("span", {class: "count"}, tile(w.tile, {cls: "mini"}), `×${w.live}`)));
  } else if (h.useful.length) {
    const live = h.useful.reduce((a, w) => a + w.live, 0);
    head.push(` · ${t("useful")} ${h.useful.length} (${liveCount(live)})`);
  }
  // the line apart from the summary, which takes a finger's tap beyond it (app.css)
  fill(box, el("summary", {}, el("span", {class: "hint-line"}, head)), more.length ? el("div", {class: "hint-more"}, more) : null);
  box.open = open;
}

// -- sizing: --tile-w per area so that everything fits its box -----------------------------------
function setW(node, w) { node.style.setProperty("--tile-w", `${Math.max(8, Math.floor(w))}px`); }

// A claim's buttons: their tiles (what each meld takes from the hand) as large as the row has room
// for, up to 28 px, in no more rows than at the stylesheet's size (15-18 px on a phone, where a
// claim of one chow and pass left the row half empty) and the row no higher.
function fitActions() {
  const box = $("actions");
  box.style.removeProperty("--tile-w");
  box.style.marginLeft = "";
  box.classList.remove("terse", "tersest");
  const first = box.querySelector(".tile");
  if (!first) return;
  const row = box.parentElement;
  const lines = () => new Set([...box.children].map((b) => b.offsetTop)).size;
  // held sideways a short screen keeps the buttons on one row (a second took the pools' height;
  // seven claims at 640x360 took two): a repeated kind's name gives way, then every meld's (its
  // tiles say what it is; its aria-label names it), then the tiles shrink
  if (lines() > 1 && matchMedia("(max-height: 500px) and (orientation: landscape)").matches) {
    for (const cls of ["terse", "tersest"]) if (lines() > 1) box.classList.add(cls);
    for (let w = Math.floor(first.getBoundingClientRect().width) - 1; w >= 12 && lines() > 1; w--) box.style.setProperty("--tile-w", `${w}px`);
  }
  const least = first.getBoundingClientRect().width;
  const [rows, height] = [lines(), row.offsetHeight];
  let w = least;
  for (let next = Math.floor(least) + 1; next <= 28; next++) {
    box.style.setProperty("--tile-w", `${next}px`);
    if (lines() > rows || row.offsetHeight > height + 0.5 || box.scrollWidth > box.clientWidth + 1) break;
    w = next;
  }
  if (w === least && !box.classList.contains("terse")) box.style.removeProperty("--tile-w");
  else box.style.setProperty("--tile-w", `${w}px`);
}

// The hint summary and the keys' legend beside the rest of the controls' row, or not at all: where
// a claim's buttons left them no room they went onto a line of their own, under the countdown, and
// made the row taller (中文 at 1280x720: 48 to 77 px, taken from the pond); each now gives way
// until there is room again (the legend first).
function fitKeys() {
  const row = document.querySelector(".controls-row");
  const parts = [$("hints"), $("keys")];
  for (const part of parts) part.classList.remove("no-room");
  $("actions").style.marginLeft = "";
  const claim = $("actions").children.length > 0;  // the hints give way only to a claim's buttons
  for (const part of [...parts].reverse()) {
    if (!part.getClientRects().length) continue;  // hidden: the hints off; a touch screen's legend
    if (part.id === "hints" && !claim) continue;
    const r = part.getBoundingClientRect();
    const others = [...row.children].filter((c) => c !== part && c.getClientRects().length);
    if (others.some((c) => r.top >= c.getBoundingClientRect().bottom - 1)) part.classList.add("no-room");
  }
  centreActions(row);
}

// A claim's buttons under the middle of the table, over the hand, as far as the row has room on
// their line (at 1920x1080 they stood at its left end, 600 px from the hand's middle).
function centreActions(row) {
  const box = $("actions");
  if (!box.children.length || new Set([...box.children].map((b) => b.offsetTop)).size > 1) return;
  const r = box.getBoundingClientRect(), pond = $("pond").getBoundingClientRect();
  const after = [...row.children].map((c) => c.getBoundingClientRect())
    .filter((c) => c.width && c.left >= r.right - 1 && c.top < r.bottom && c.bottom > r.top);
  const end = Math.min(row.getBoundingClientRect().right, ...after.map((c) => c.left)) - 8;
  const shift = Math.min((pond.left + pond.right - r.left - r.right) / 2, end - r.right);
  if (shift > 1) box.style.marginLeft = `${Math.floor(shift)}px`;
}
// the row's parts change size with what they show (a claim's buttons, the hints): again
const keysObserver = new ResizeObserver(() => { if (!$("table").hidden) fitKeys(); });
for (const id of ["actions", "countdown"]) keysObserver.observe($(id));
keysObserver.observe(document.querySelector(".controls-row"));

function fitTiles() {
  if ($("table").hidden || !state || !state.view) return;
  fitKeys();
  fitActions();  // its tiles as large as the row has room for, the legend aside where it had none
  fitKeys();
  const wide = innerWidth > innerHeight;
  // the hand, as large as fits: in one row with the melds beside it; or the melds above it;
  // or (a narrow phone) the melds above and the hand in two rows, so that tiles stay >= 36 px
  const mine = $("pos-0");
  const hand = $("hand");
  if (hand) {
    const n = hand.children.length;
    const melds = mine.querySelectorAll(".melds.mine .tile").length;
    const groups = mine.querySelectorAll(".melds.mine > *").length;
    const width = mine.clientWidth - 16;
    // upright, at most a fifteenth of the height: two rows of a small phone leave the pond room
    const maxW = wide ? Math.min(80, innerHeight / (innerHeight > 500 ? 11 : 9.5)) : Math.min(60, innerHeight / 15);
    const fits = (perRow, share) => width / (perRow + 0.5 + share) - 2;  // 0.5: the drawn tile's gap
    const meldRow = melds ? width / (melds * 0.6 + groups * 0.3) / 0.6 - 2 : maxW;  // melds alone
    // held sideways a short screen keeps one row down to 28 px: the melds above the hand took the
    // pond 45 px (four flowers at 640x360 left every pool 14 px tiles)
    const least = wide && innerHeight <= 500 ? 28 : 36;
    let w = fits(n, melds ? melds * 0.7 + groups * 0.25 : 0), layout = "one-row";
    if (w < least && melds) { w = Math.min(fits(n, 0), meldRow); layout = "stacked"; }
    if (w < least) { w = Math.min(fits(Math.ceil(n / 2), 0), meldRow); layout = "two-rows"; }
    mine.classList.toggle("stacked", layout !== "one-row");
    mine.classList.toggle("two-rows", layout === "two-rows");
    w = Math.floor(Math.min(maxW, w));
    setW(mine, w);
    mine.style.setProperty("--hand-w", `${w}px`);
    hand.style.maxWidth = layout === "two-rows" ? `${Math.ceil(n / 2) * (w + 2) + w * 0.5}px` : "";
  } else {
    setW(mine, Math.min(30, mine.clientWidth / 20));
  }
  // the top seat: a row as high as the pond can spare; higher where there is more than backs to
  // read, its melds (13 px on a phone held sideways; its row's padding makes up for them) or its
  // hand laid open at the end. Before the side seats: their strips are as high as it leaves.
  const top = $("pos-2");
  const open = top.querySelector(".revealed") !== null;
  const melds = top.querySelector(".melds .meld") !== null;
  setW(top, Math.min(sideCap(), top.clientWidth / 24, wide ? innerHeight / (open ? 19 : melds ? 25 : 30) : 26));
  for (const pos of [1, 3]) fitSide($("pos-" + pos));
  fitPond();  // after the rest: the pond is what is left
}

// the others: backs and melds, up to 26 px, more on a large screen (36 px at 1080 px high)
function sideCap() { return Math.max(26, Math.min(36, innerHeight / 30)); }

// A side seat's strip. Wide: by the box's width; upright: the melds stand in a column (app.css), as
// wide as the box lets the backs be; then smaller until the column fits the box's height.
function fitSide(box) {
  // wide, up to a 24th of the height (32 px at 1024x768: the strip has the room)
  const wide = innerWidth > innerHeight, cap = wide ? Math.max(sideCap(), Math.min(36, innerHeight / 24)) : sideCap();
  // over the box: what scrolls, and a tile out of it on any side (a centred row of flowers
  // wider than the strip spills to the left too, which no scroll size shows)
  const outside = () => {
    if (box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1) return true;
    const b = box.getBoundingClientRect();
    return [...box.querySelectorAll(".meld .tile, .flowers .tile")].some((t) => {
      const r = t.getBoundingClientRect();
      return r.left < b.left - 1 || r.right > b.right + 1 || r.bottom > b.bottom + 1;
    });
  };
  const fit = (w) => {
    setW(box, w);
    while (w > 8 && outside()) setW(box, --w);
    return w;
  };
  box.classList.remove("open-rows", "two-cols");
  // (wide: a chow or a pung with its claimed tile turned is 3.7 tiles across; a kong's 4.7 makes
  // them smaller only once there is one: a kong's width for all left 20 px tiles at 1024x768;
  // upright, up to a 30th of the height: 24 px left a tablet's strip half empty)
  let w = fit(Math.floor(wide ? Math.min(cap, (box.clientWidth - 4) / 3.7) : Math.min(Math.max(24, innerHeight / 30), (box.clientWidth - 4) / 1.25)));
  if (!wide && w < 20) w = twoColumns(box, w, fit);
  // a hand laid open at the end: a column of tiles lying across the strip, or upright in rows
  // where that makes them larger (held sideways, a phone's column left them 14-16 px)
  if (box.querySelector(".revealed")) {
    box.classList.add("open-rows");
    const across = fit(Math.floor(Math.min(cap, (box.clientWidth - 5) / 2)));
    if (across <= w) { box.classList.remove("open-rows"); fit(w); }
  }
}
// a strip's height changes with the rows around it after it was fitted (the top seat's, the
// controls' as the claim buttons and the hints find their room): fitted again, else its last
// flowers were cut off (CI, 360x640)
const sideObserver = new ResizeObserver((entries) => {
  if (!$("table").hidden && state && state.view) for (const e of entries) fitSide(e.target);
});
for (const pos of [1, 3]) sideObserver.observe($("pos-" + pos));

// Upright, a side seat's melds two abreast where one column of them left small tiles (four melds
// and flowers at 360x640: 14 px): kept where its tiles are larger (18 px), else one column again.
function twoColumns(box, w, fit) {
  if (box.querySelectorAll(".melds > *").length < 2) return w;
  box.classList.add("two-cols");
  const two = fit(Math.floor(Math.min(24, (box.clientWidth - 2) / 2)));
  if (two > w) return two;
  box.classList.remove("two-cols");
  return fit(w);
}

function poolCap() { return Math.min(50, Math.max(22, innerHeight / 22)); }  // 49 px on a 1080 px screen
// A desktop's pools (the pond wider than high) grow to use its room, up to 40 px at 720 px high and
// 60 at 1080 (poolCap's 32 left empty felt around them); fitPond sets how large all four are.
function deskCap() { return Math.min(60, Math.max(22, innerHeight / 18)); }
let pondCap = null;  // the tile width fitPond chose for every pool (a desktop's), else null

// The pond's three rows (the top pool, the centre, your pool), in pixels: the pools' tiles as
// large as the pond lets them be, every pool alike. Upright (a phone) the side pools stand in the
// middle row beside the centre: a fixed share of it left them 14 px tiles at 360x640, against the
// top and bottom pools' 22. On a wider screen the side pools span the pond and the centre gets
// what the top and bottom pools leave, up to room for its log (its text, 14 px at 1280x720, had
// 115 px and cut its lines); a short phone held sideways has its own layout (app.css).
function fitPond() {
  const pond = $("pond");
  pond.style.gridTemplateColumns = "";  // the stylesheet's shares, to measure the side pools' room
  pondCap = null;
  const rows = (pos) => Number($("pool-" + pos).dataset.rows) || 3;
  if (matchMedia("(max-height: 500px) and (orientation: landscape)").matches) {
    pond.style.gridTemplateRows = "";
    // the pools' width shared out by what their rows need for tiles as large as the height lets
    // each be: a side pool's rows side by side, the top and bottom pools' six across (the
    // stylesheet's 1 : 1.25 : 1 left these 15 px tiles at 640x360 against the side pools' 20)
    const cs = getComputedStyle(pond);
    const gap = parseFloat(cs.columnGap) || 0;
    const height = pond.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
    const parts = [".side-a", ".side-b"].map((s) => { const n = $("center").querySelector(s); return n ? n.offsetWidth : 0; });
    const width = pond.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 4 * gap - parts[0] - parts[1];
    const across = Math.min(rows(2), rows(0));  // the one with fewer rows has the larger tiles
    const sideH = (height - 6) / 6 * 0.75, midH = ((height - (parseFloat(cs.rowGap) || 0)) / 2 - across) / across * 0.75;
    // the top and bottom pools first, 18 px where their height allows it, the side pools what is
    // left (one width for all four fell to 14 px in every pool once a side pool had four or five
    // rows); a pool's tiles are w - 0.5 px rounded down, 1 px apart (fitPool)
    const least = Math.min(18, midH);
    const col = (n, w) => n * (w + 1.5);
    const needs = (w) => [col(rows(3), Math.min(w, sideH)), col(6, Math.max(least, Math.min(w, midH))), col(rows(1), Math.min(w, sideH))];
    let lo = 4, hi = poolCap();
    for (let i = 0; i < 20 && hi - lo > 0.05; i++) { const w = (lo + hi) / 2; if (needs(w).reduce((a, b) => a + b) <= width) lo = w; else hi = w; }
    const [left, mid, right] = needs(lo).map((n) => n.toFixed(2));
    pond.style.gridTemplateColumns = `minmax(0, ${left}fr) auto minmax(0, ${mid}fr) auto minmax(0, ${right}fr)`;
  } else {
    const upright = matchMedia("(orientation: portrait)").matches;
    const cs = getComputedStyle(pond);
    const height = pond.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom) - 2 * (parseFloat(cs.rowGap) || 0);
    const tall = (w, n) => n * w * 4 / 3 + n;  // n rows of tiles w px wide, 1 px apart
    const topMost = ($("pool-2").clientWidth - 6) / 6;  // six across the top and bottom pools
    const font = parseFloat(getComputedStyle($("center")).fontSize);
    // upright, the side pools leave the centre room for its two side plates side by side, each
    // its short name and its wind and score whole (机器人D at 12 px: a 90 px centre cut it)
    const inner = pond.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 2 * (parseFloat(cs.columnGap) || 0);
    const sideMax = upright ? (inner - centreLeast(font)) / 2 - 3 : Infinity;  // 3: the columns' slack (below)
    const sideMost = Math.min(...[1, 3].map((pos) => (Math.min($("pool-" + pos).clientWidth, sideMax) - rows(pos)) / rows(pos)));
    // the centre's least height (its plates, the round and the wall; upright its container
    // queries make do with less) and the most it uses (its log's three lines, wrapped)
    const [least, most] = upright ? [0, 0] : [font * 10, font * 12];
    const heights = (w) => {
      const top = tall(Math.min(w, topMost), rows(2)), bottom = tall(Math.min(w, topMost), rows(0));
      const mid = Math.max(least, upright ? tall(Math.min(w, sideMost), 6) : 0);
      return [top, mid, bottom];
    };
    let lo = 4, hi = upright ? poolCap() : deskCap();
    const fits = (w) => heights(w).reduce((a, b) => a + b) <= height;
    if (fits(hi)) lo = hi;
    for (let i = 0; i < 20 && hi - lo > 0.05; i++) { const w = (lo + hi) / 2; if (fits(w)) lo = w; else hi = w; }
    let [top, mid, bottom] = heights(lo);
    let spare = Math.max(0, height - top - mid - bottom);
    const more = Math.min(spare, Math.max(0, most - mid));
    mid += more;
    spare -= more;
    // the rest: upright to every row, else to the top and bottom pools (their tiles at their cap)
    if (upright) { top += spare / 3; mid += spare / 3; bottom += spare / 3; } else { top += spare / 2; bottom += spare / 2; }
    pond.style.gridTemplateRows = [top, mid, bottom].map((h) => `minmax(0, ${h.toFixed(2)}fr)`).join(" ");
    // a desktop's four pools alike: the side pools, which have more room, as large as the others
    pondCap = upright ? null : Math.max(8, lo);
    // upright, the side pools' columns as wide as their rows of tiles (they had a third of the
    // pond, 15 px of it empty on each side at 360x640), the centre the rest: its text 12 px wide
    if (upright) {
      const side = Math.floor(Math.min(poolCap(), (mid - 6) / 6 * 0.75, sideMost));
      const need = Math.max(rows(1), rows(3)) * (side + 1) + 3;
      pond.style.gridTemplateColumns = `${need}px minmax(0, 1fr) ${need}px`;
    }
  }
  for (let pos = 0; pos < 4; pos++) fitPool($("pool-" + pos));
  fitLog();
}

// The least width of a phone's centre: its two side plates side by side, each as wide as its
// widest line where the centre is narrow (its short name, "bot D", 机器人D; its wind's letter and
// its score, "N 500"), with their padding and the gaps.
function centreLeast(font) {
  const ctx = (centreLeast.canvas ||= document.createElement("canvas")).getContext("2d");
  const cs = getComputedStyle($("center"));
  const widest = (text, weight) => { ctx.font = `${weight} ${cs.fontSize} ${cs.fontFamily}`; return ctx.measureText(text).width; };
  let most = 0;
  for (const plate of document.querySelectorAll("#center .plate.p1, #center .plate.p3")) {
    const letter = plate.querySelector(".wind-letter"), score = plate.querySelector(".score"), abbr = plate.querySelector(".abbr");
    most = Math.max(most, widest(abbr ? abbr.textContent : "", "normal"),
      widest(`${letter ? letter.textContent : ""} ${score ? score.textContent : ""}`, "bold"));
  }
  return 2 * (most + font * 0.2) + font * 0.6;
}

// The centre's log: its lines wrap (a line cut with "…" lost its tile); the oldest go where the
// centre has no room for them.
function fitLog() {
  const box = $("log");
  if (!box) return;
  box.replaceChildren(...log.map((line) => el("li", {}, line.msg ? logLine(line.msg) : line.text)));
  const mid = box.parentElement;
  // (its box's bottom too: scrollHeight is rounded, and a line 1.4 px over the edge ran out of it)
  const over = () => mid.scrollHeight > mid.clientHeight + 1 || box.getBoundingClientRect().bottom > mid.getBoundingClientRect().bottom + 0.5;
  while (box.firstChild && over()) box.firstChild.remove();
}

// A pool: 6 tiles a row (the side seats' rows run up and down), 1 px apart, within its box.
function fitPool(box) {
  const rows = Number(box.dataset.rows) || 3;
  const side = box.classList.contains("d-left") || box.classList.contains("d-right");
  const [across, along] = side ? [box.clientHeight, box.clientWidth] : [box.clientWidth, box.clientHeight];
  const cap = pondCap === null ? poolCap() : pondCap;
  const byRow = side ? (across - 6) / 6 * 0.75 : (across - 6) / 6;       // six along a row
  const byRows = side ? (along - rows) / rows : (along - rows) / rows * 0.75;  // the rows side by side
  setW(box, Math.min(cap, byRow, byRows) - 0.5);
}

// a pool's box changes size when the rest of the table does: fit it again
const poolObserver = new ResizeObserver((entries) => { for (const e of entries) fitPool(e.target); });
for (let pos = 0; pos < 4; pos++) poolObserver.observe($("pool-" + pos));
// the pond's own size changes with the controls' (a claim's buttons): its rows again
const pondObserver = new ResizeObserver(() => { if (!$("table").hidden && state && state.view) fitPond(); });
pondObserver.observe($("pond"));

addEventListener("resize", () => fitTiles());

// -- clocks: every seat's turn ring, the claim window, your own bar ------------------------------
function totalFor(kind) {
  const lim = state.room.limits || {};
  if (kind === "claim") return lim.claim || 5;
  if (kind === "next") return lim.between_hands || 8;
  const left = timers && timers.turn ? timers.turn.left : 0;
  return left > (lim.turn || 15) ? (lim.first_discard || 30) : (lim.turn || 15);
}

function tick() {
  if (!state || !state.view || !timers) return;
  const view = state.view;
  const turnLeft = timers.turn ? secondsLeft(timers.turn.left) : null;
  const claimLeft = timers.claim ? secondsLeft(timers.claim.left) : null;
  // each plate's ring: the seat whose turn it is
  document.querySelectorAll("#center .ring").forEach((ring) => {
    const seat = Number(ring.dataset.seat);
    const on = timers.turn && timers.turn.seat === seat && turnLeft !== null;
    ring.classList.toggle("on", Boolean(on));
    ring.firstChild.style.transform = `scaleX(${on ? Math.min(1, turnLeft / totalFor("turn")) : 0})`;
    ring.classList.toggle("urgent", Boolean(on) && turnLeft < 4);
  });
  // your own decision: its bar and words
  const box = $("countdown");
  const bar = $("clock");
  const claiming = state.must_act && view.legal_actions.includes("pass");
  let left = null, total = 1, words = "";
  if (state.must_act) {
    if (claiming) { left = claimLeft ?? turnLeft; total = totalFor("claim"); words = claimWords(view); }
    else { left = turnLeft ?? claimLeft; total = totalFor("turn"); words = t("yourTurn"); }
  } else if (claimLeft !== null) {
    left = claimLeft; total = totalFor("claim"); words = t("claimWindow");  // the same for every seat
    // your own answer, noted: shown to you alone until the window closes
    if (state.answered) words = `${t(state.answered.split(" ")[0])} ✓ · ${t("claimNoted")}`;
  } else if (timers.turn && turnLeft !== null && view.phase === "act") {
    left = turnLeft; total = totalFor("turn"); words = `${t("winds")[timers.turn.seat]} ${nameOf(timers.turn.seat)} ${t("turnOf")}`;
  }
  // the words apart: where a claim's buttons need the row, the seconds alone stay (app.css)
  const text = left === null ? "" : `${words} · ${Math.ceil(left)}${t("sec")}`;
  if (box.textContent !== text) {
    box.replaceChildren(...(left === null ? [] : [el("span", {class: "words"}, `${words} · `), `${Math.ceil(left)}${t("sec")}`]));
  }
  box.className = "countdown" + (state.must_act ? " mine" : "") + (state.must_act && left !== null && left < 4 ? " urgent" : "");
  bar.classList.toggle("on", left !== null && state.must_act);
  bar.firstChild.style.transform = `scaleX(${left === null ? 0 : Math.min(1, left / total)})`;
  // between hands
  const next = $("next-hand");
  if (next) {
    const n = timers.next_hand !== null && timers.next_hand !== undefined ? secondsLeft(timers.next_hand) : null;
    next.textContent = (readySent === shownHand ? t("waitingOthers") + " " : "") + (n === null ? "" : `${t("nextHand")} ${Math.ceil(n)}${t("sec")}`);
  }
}
setInterval(tick, 200);

// -- keys (desktop): 1-9 0 - = discard by position, ←→ + Enter, Space/P pass, W win, C/G/K claim --
const POS_KEYS = "1234567890-=";

// The claim prompt: in 中文 the claims offered in the glossary's terms (吃碰？, 和？), in
// English "Claim?".
function claimWords(view) {
  if (LANG !== "zh") return t("claimNow");
  const kinds = new Set(view.legal_actions.map((a) => a.split(" ")[0]));
  const named = ["chow", "pung", "kong", "win"].filter((k) => kinds.has(k)).map((k) => t(k));
  return named.length ? `${named.join("")}？` : t("claimNow");
}

function tryAction(prefix) {
  if (!state || !state.must_act) return false;
  const found = state.view.legal_actions.find((a) => a === prefix || a.startsWith(prefix + " "));
  if (found) act(found);
  return Boolean(found);
}

// The header's switches and buttons give the focus back once used: a focused checkbox would
// take Space (pass) for itself, and the table's keys would seem dead.
for (const control of document.querySelectorAll("body > .bar input, body > .bar button")) {
  control.addEventListener(control.matches("input") ? "change" : "click", () => control.blur());
}

addEventListener("keydown", (ev) => {
  // only a field one types into keeps its keys (the join name); a switch or a button does not
  const typing = ev.target.matches("input:not([type=checkbox]):not([type=radio]), select, textarea");
  if (ev.ctrlKey || ev.metaKey || ev.altKey || typing) return;
  if (!$("overlay").hidden) {
    if (ev.key === "Tab") trapFocus(ev);
    if (ev.key === "Enter" && $("continue") && !$("continue").disabled) { ev.preventDefault(); $("continue").click(); }
    if (ev.key === "Escape") closeOverlay();
    return;
  }
  if (!state || !state.view || !state.must_act) return;
  const view = state.view;
  const order = handOrder(view);
  const key = ev.key.toLowerCase();
  const discard = (i) => { if (i < order.length && view.legal_actions.includes(`discard ${order[i]}`)) act(`discard ${order[i]}`); };
  let done = true;
  if (POS_KEYS.includes(key) && key.length === 1) discard(POS_KEYS.indexOf(key));
  else if (key === "arrowleft" || key === "arrowright") {
    const step = key === "arrowleft" ? -1 : 1;
    // from the tile the keyboard's focus is on (Tab), else from the selection
    const focused = $("hand") ? [...$("hand").children].indexOf(document.activeElement) : -1;
    const from = selected ?? (focused >= 0 ? focused : null);
    selected = from === null ? (step < 0 ? order.length - 1 : 0) : (from + step + order.length) % order.length;
    renderMine(view, state.seat, focused >= 0 ? selected : null); fitTiles();
  } else if (key === "enter" && selected !== null) discard(selected);
  else if (key === "d" && view.drawn) tryAction(`discard ${view.drawn}`);  // 摸切: the drawn tile
  else if (key === " " || key === "p") tryAction("pass");
  else if (key === "w") tryAction("win");
  else if (key === "c") tryAction("chow");
  else if (key === "g") tryAction("pung");
  else if (key === "k") tryAction("kong") || tryAction("concealed_kong") || tryAction("added_kong");
  else done = false;
  if (done) ev.preventDefault();
});

// -- the end of a hand and of the session -------------------------------------------------------
// The end of a hand or of the session: a dialog named by its title, the focus on its first
// button (Tab went to the table under it), given back where it was when it closes.
let focusBefore = null;
function showOverlay(kind, children, buttons) {
  overlayKind = kind;
  fill($("overlay-body"), children, el("div", {class: "overlay-buttons"}, buttons));
  const body = $("overlay-body");
  const title = body.querySelector("h2");
  if (title) title.id = "overlay-title";
  body.setAttribute("role", "dialog");
  body.setAttribute("aria-modal", "true");
  body.setAttribute("aria-labelledby", "overlay-title");
  if ($("overlay").hidden) focusBefore = document.activeElement;
  $("overlay").hidden = false;
  const first = body.querySelector(".overlay-buttons button:not([disabled]), .overlay-buttons a");
  if (first) first.focus({preventScroll: true});
}

function closeOverlay() {
  $("overlay").hidden = true;
  overlayKind = null;
  if (focusBefore && focusBefore.isConnected && focusBefore !== document.body) focusBefore.focus({preventScroll: true});
  focusBefore = null;
}

// The dialog keeps the focus: Tab and Shift+Tab go round its links and buttons.
function trapFocus(ev) {
  const items = [...$("overlay-body").querySelectorAll("a[href], button:not([disabled])")];
  if (!items.length) return;
  const [first, last] = [items[0], items[items.length - 1]];
  const inside = $("overlay-body").contains(document.activeElement);
  if (ev.shiftKey && (document.activeElement === first || !inside)) { ev.preventDefault(); last.focus(); }
  else if (!ev.shiftKey && (document.activeElement === last || !inside)) { ev.preventDefault(); first.focus(); }
}

function showHandEnd(msg) {
  shownHand = msg.hand_number;
  lastHandMsg = msg;
  $("last-hand").hidden = false;
  const r = msg.result;
  // names by seat; a bot's in the page's language (the seats of that hand: its own places_by_seat)
  const places = msg.hand_number === (state && state.hand_number) ? state.places_by_seat : null;
  const names = r.names.map((n, s) => places ? plateName(state.room.places[places[s]], "ABCD"[places[s]]) : levelName(n));  // an older hand: its stored names
  // each seat's score (局分) after the hand, beside its change
  const scores = msg.scores && places ? [0, 1, 2, 3].map((s) => msg.scores[places[s]]) : null;
  const title = LANG === "zh" ? `第 ${msg.hand_number + 1} 盘结束` : `${t("handEnd")} (${t("hand")} ${msg.hand_number + 1})`;
  const parts = [el("h2", {}, title), ...endColumns(handResultParts(r, names, r.winning_hand, msg.explain, scores))];
  parts.push(el("p", {class: "muted", id: "next-hand"}, ""));
  // the hand just over (not an older one brought back): Continue says we are ready for the next
  // (a watcher has no seat to be ready for: Close)
  const live = !watching() && !closed && (!state || (state.hand_number === msg.hand_number && !state.session_end));
  const buttons = [
    live ? el("button", {id: "continue", class: "big", onclick: () => {
      readySent = msg.hand_number; send({type: "ready"}); tick();
      $("continue").disabled = true;
    }}, t("continue")) : el("button", {class: "big", onclick: closeOverlay}, t("close")),
    el("a", {href: `/room/${ROOM}/replay?hand=${msg.hand_number + 1}`, id: "replay-hand", class: "button secondary",
      target: "_blank", rel: "noopener"}, t("replayHand")),
    // beside Continue, the table under the box, every hand laid open on it (a phone has no
    // Escape key; Close does it otherwise); Last hand brings the box back
    live ? el("button", {id: "see-table", class: "secondary", onclick: closeOverlay}, t("seeTable")) : null,
  ];
  showOverlay("hand_end", parts, buttons);
  if (live && readySent === msg.hand_number) $("continue").disabled = true;
  tick();
}

// The end of a hand's parts, its fans and its payments and scores in two columns that a large
// screen sets side by side (app.css .end-cols): in one, a 1080 px screen's box had to be narrow
// (576 px, its text 16 px) to keep its height.
function endColumns(parts) {
  const fans = parts.filter((p) => p.matches(".fans, .not-counted"));
  if (!fans.length) return parts;
  const top = parts.filter((p) => p.matches(".winner, .win-hand"));
  const rest = parts.filter((p) => !top.includes(p) && !fans.includes(p));
  return [...top, el("div", {class: "end-cols"}, el("div", {class: "end-fans"}, fans), el("div", {class: "end-pay"}, rest))];
}

// Each place's rank by its score: 1 and one more for every higher score, shared by a tie ("2=").
function ranks(scores) {
  return scores.map((s) => {
    const rank = 1 + scores.filter((o) => o > s).length;
    return scores.filter((o) => o === s).length > 1 ? `${rank}=` : String(rank);
  });
}

// Standard points as the printed papers write them (tournament/ranking.py format_points): the
// server's exact fraction "3/2" as 1 1/2, "-7/3" as -2 1/3.
function pointsText(text) {
  const found = /^(-?)(\d+)\/(\d+)$/.exec(String(text ?? ""));
  if (!found) return text ?? "—";
  const [, sign, num, den] = found;
  const [whole, rest] = [Math.floor(Number(num) / Number(den)), Number(num) % Number(den)];
  if (!rest) return `${sign}${whole}`;
  return whole ? `${sign}${whole} ${rest}/${den}` : `${sign}${rest}/${den}`;
}

// The session over: the places by rank, each with its score and standard points, yours marked.
function showSessionEnd(msg) {
  shownSession = true;
  // its creator, once (a table plays again once: its link is then shown to all, renderNext)
  const again = Boolean(roomKeys(ROOM).owner_token) && Boolean(state && state.room) && !(state.next || state.room.next);
  const practice = again && state.room.practice;
  const order = [0, 1, 2, 3].sort((a, b) => msg.scores[b] - msg.scores[a]);
  const rank = ranks(msg.scores);
  const you = state ? state.you : null;
  showOverlay("session_end", [el("h2", {}, t("sessionEnd")),
    el("table", {class: "deltas standings"},
      el("tr", {}, el("th", {class: "num"}, t("rank")), el("th", {}), el("th", {class: "num"}, t("score")), el("th", {class: "num"}, t("stdPoints"))),
      order.map((i) => el("tr", {class: i === you ? "me" : ""}, el("td", {class: "num rank"}, rank[i]),
        el("td", {}, levelName(msg.names[i]), i === you ? ` (${t("you")})` : ""), el("td", {class: "num"}, msg.scores[i]),
        el("td", {class: "num"}, pointsText(msg.standard_points[i]))))),
    el("p", {class: "links"}, el("a", {href: `/room/${ROOM}/replay`, id: "replay-link"}, t("replayHands")),
      el("a", {href: "/"}, t("lobby"))),
    again && !practice ? el("p", {class: "muted", id: "play-again-note"}, t("playAgainNote")) : null,
    el("p", {class: "error", id: "play-again-error"})],
  [again ? el("button", {id: "play-again", class: "big", onclick: playAgain}, t("playAgain")) : null,
    el("button", {class: again ? "secondary" : "", onclick: closeOverlay}, t("close"))]);
}

// The table plays again (its creator pressed Play again): the players are sent the new table's
// invite (state.next, theirs alone), a public table's spectators its id (to watch it).
function renderNext() {
  const box = $("next-table");
  const next = state && state.next;
  const id = next ? next.room : state && state.room.next;
  box.hidden = !id;
  if (!id) return;
  const href = next ? `/room/${id}?invite=${encodeURIComponent(next.invite)}` : `/room/${id}`;
  fill(box, t("nextTable"), " ", el("a", {href, id: "next-link"}, t(next ? "nextJoin" : "nextWatch")));
}

// Play again (the table's creator): a new table with this one's settings (its name, private or
// not, practice or not, its bots' kind), you at your place, each bot again at its place; a
// practice table starts at once, a table with friends waits in its waiting room for them to take
// their places with its new invite link (the server has no way to send them there).
async function playAgain() {
  const button = $("play-again");
  button.disabled = true;
  try {
    // the server makes it (POST /api/rooms/{id}/again): this table's settings, the creator at
    // their place, each bot at its place; this table's players are sent its invite
    const made = await api("POST", `/api/rooms/${ROOM}/again`, {owner_token: roomKeys(ROOM).owner_token});
    saveRoomKeys(made.id, {token: made.token, owner_token: made.owner_token, invite: made.invite,
                           watch_token: made.watch_token, place: made.place, at: Date.now()});
    location.href = `/room/${made.id}`;
  } catch (e) {
    button.disabled = false;
    $("play-again-error").textContent = e.message;
  }
}

setLang(LANG);
connect();
