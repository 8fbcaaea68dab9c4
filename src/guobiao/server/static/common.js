// What both pages share: the two languages, the saved room keys, small DOM helpers.
"use strict";

// The pages' strings. The game's terms (盘, 碰, 点炮, 番, the winds ...) are not here: t() takes
// them from the glossary the papers print (TERM_KEYS below); server messages are MESSAGES.
const STRINGS = {
  en: {
    title: "guobiao — Chinese Official Mahjong",
    tournaments: "Tournaments",
    spaceKey: "Space",
    lobby: "Lobby",
    create: "Create a table",
    tableName: "Table name",
    yourName: "Your name",
    private: "Private (not listed; watched with its link only)",
    botKind: "Bots",
    createBtn: "Create",
    createStart: "Create and play against 3 bots",
    openTables: "Open tables",
    noTables: "No open table. Create one!",
    join: "Join",
    watch: "Watch",
    places: "Places",
    empty: "empty",
    bot: "bot",
    human: "player",
    offline: "offline",
    started: "playing",
    waiting: "waiting",
    addBots: "Fill empty places with bots",
    start: "Start the session",
    invite: "Invite link",
    share: "Share this link",
    needInvite: "A place is taken with the table's invite link: ask its creator.",
    practice: "practice",
    closed: "this table is closed",
    sessionOver: "the session is over",
    hints: "Hints",
    win: "Win (Hu)",
    added_kong: "Add kong",
    yourTurn: "Your turn",
    bestDiscards: "Best discards",
    useful: "Useful tiles",
    waits: "Waits",
    live: "live",
    handEnd: "Hand over",
    draw: "Draw (no winner)",
    wins: "wins",
    selfDrawn: "self-drawn",
    dealIn: "discarded by",
    points: "pts",
    nextHand: "Next hand in",
    sessionEnd: "Session over",
    timeout: "time-out",
    connected: "connected",
    disconnected: "disconnected — reconnecting…",
    spectating: "Watching",
    close: "Close",
    labels: "Labels",
    forfeit: "forfeit",
    acts: {discard: "discards", pung: "pungs", kong: "kongs", chow: "chows", concealed_kong: "declares a concealed kong",
           added_kong: "adds a kong", win: "wins", pass: "passes"},
    you: "you",
    replay: "Replay",
    replayHands: "Replay the hands",
    replayHand: "Replay this hand",
    finishedTables: "Finished tables",
    noFinished: "No finished table yet.",
    table: "Table",
    backToTable: "back to the table",
    deal: "The deal",
    liveHand: "in play",
    noReplay: "No hand is over yet.",
    first: "Start of the hand",
    prev: "Step back",
    next: "Step forward",
    last: "End of the hand",
    play: "Play",
    pause: "Pause",
  },
  zh: {
    title: "国标麻将",
    tournaments: "比赛",
    spaceKey: "空格",
    lobby: "大厅",
    create: "开桌",
    tableName: "桌名",
    yourName: "你的名字",
    private: "私人桌（不在大厅列出，凭链接观战）",
    botKind: "机器人",
    createBtn: "创建",
    createStart: "创建并与三个机器人对局",
    openTables: "开放的牌桌",
    noTables: "还没有牌桌，开一桌吧！",
    join: "入座",
    watch: "观战",
    places: "座位",
    empty: "空",
    bot: "机器人",
    human: "玩家",
    offline: "离线",
    started: "对局中",
    waiting: "等待中",
    addBots: "空位补机器人",
    start: "开始本局",
    invite: "邀请链接",
    share: "分享此链接",
    needInvite: "入座需要本桌的邀请链接：请向开桌人索取。",
    practice: "练习",
    closed: "本桌已关闭",
    sessionOver: "本场已结束",
    hints: "提示",
    yourTurn: "轮到你",
    bestDiscards: "最佳打法",
    useful: "有效牌",
    waits: "听",
    live: "张",
    handEnd: "本盘结束",
    wins: "和牌",
    nextHand: "下一盘",
    sessionEnd: "本局结束",
    timeout: "超时",
    connected: "已连接",
    disconnected: "连接断开，正在重连…",
    spectating: "观战中",
    close: "关闭",
    labels: "标注",
    you: "你",
    replay: "回放",
    replayHands: "回放各盘",
    replayHand: "回放本盘",
    finishedTables: "已结束的牌桌",
    noFinished: "还没有结束的牌桌。",
    table: "牌桌",
    backToTable: "回到牌桌",
    deal: "配牌",
    liveHand: "进行中",
    noReplay: "还没有结束的盘。",
    first: "本盘开始",
    prev: "后退一步",
    next: "前进一步",
    last: "本盘结束",
    play: "播放",
    pause: "暂停",
  },
};

// -- the glossary: the game's terms are the printed papers' ----------------------------------
// GLOSSARY (/static/glossary.js, made by the app, loaded before this file) is
// guobiao.table.glossary with the bots' names. t() takes these keys from it: [page key, glossary
// key, "zh" when the page keeps its own English phrase ("discarded by", "pts") and only the 中文
// is the glossary's].
const GLOSSARY_DATA = typeof GLOSSARY === "object" ? GLOSSARY : {terms: {}, winds: [], names: {}, bots: {}, levels: {}};
const TERM_KEYS = [
  ["hand", "hand"], ["wall", "wall"], ["round", "round"], ["shanten", "shanten"], ["ready", "ready"],
  ["pass", "pass"], ["pung", "pung"], ["kong", "kong"], ["chow", "chow"],
  ["concealed_kong", "concealed_kong"], ["discard", "discard"], ["total", "total"],
  ["score", "session_score"], ["stdPoints", "standard_points"], ["penalties", "penalties"],
  ["dealer", "dealer"], ["win", "win", "zh"], ["added_kong", "added_kong", "zh"],
  ["draw", "drawn_hand", "zh"], ["selfDrawn", "self_drawn", "zh"], ["dealIn", "deal_in", "zh"],
  ["points", "fan", "zh"], ["forfeit", "foul", "zh"], ["after", "session_score"],
  ["flowers", "flower", "zh"], ["dealerMark", "dealer", "zh"], ["rank", "rank"],
  // the end-of-hand breakdown's (explain.js)
  ["payDealIn", "deal_in", "zh"], ["pay_fans", "fan", "zh"], ["pay_flowers", "flowers", "zh"],
  ["pay_penalty", "penalties", "zh"], ["pen_false_win", "false_win", "zh"],
  ["pen_fake_win", "fake_win", "zh"], ["pen_violation", "violation", "zh"],
];
const TERM_OF = Object.fromEntries(TERM_KEYS.map(([page, key, only]) => [page, {key, only}]));
const ACTION_KINDS = ["discard", "pung", "kong", "chow", "concealed_kong", "added_kong", "win", "pass"];

// A glossary term by its key ("deal_in", a penalty's kind "false_win"), in lang.
function term(key, lang = LANG) {
  const found = GLOSSARY_DATA.terms[key];
  return found ? found[lang] ?? found.en : key;
}

// What t() reads from the glossary, or undefined.
function glossaryString(key, lang) {
  const mapped = TERM_OF[key];
  if (mapped && (!mapped.only || mapped.only === lang) && GLOSSARY_DATA.terms[mapped.key]) return term(mapped.key, lang);
  if (key === "winds" && GLOSSARY_DATA.winds.length) return GLOSSARY_DATA.winds.map((w) => term(w, lang));
  if (key === "acts" && lang === "zh") return Object.fromEntries(ACTION_KINDS.map((k) => [k, term(k, lang)]));
  if (key.startsWith("kind_") && GLOSSARY_DATA.bots[key.slice(5)]) return GLOSSARY_DATA.bots[key.slice(5)][lang];
  if (key.startsWith("botlevel_") && GLOSSARY_DATA.bots[key.slice(9)]) {  // the bots' list: level, then kind
    const kind = key.slice(9);
    const level = (GLOSSARY_DATA.levels || {})[kind];
    const name = GLOSSARY_DATA.bots[kind][lang];
    return !level || level[lang] === name ? name : `${level[lang]} · ${name}`;
  }
  return undefined;
}

// A name the server made (glossary names: "efficiency bot B", "Table Ab3x") in lang; any other
// name as it is.
function localName(name, lang = LANG) {
  if (typeof name !== "string") return name;
  for (const [kind, made] of Object.entries(GLOSSARY_DATA.names)) {
    const slots = [...made.en.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const pattern = made.en.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_, slot) =>
      slot === "kind" ? `(${Object.keys(GLOSSARY_DATA.bots).join("|")})` : slot === "place" ? "([A-D])" : "(\\S+)");
    const found = new RegExp(`^${pattern}$`).exec(name);
    if (!found) continue;
    const values = Object.fromEntries(slots.map((slot, i) => [slot, found[i + 1]]));
    if (kind === "bot") values.kind = GLOSSARY_DATA.bots[values.kind][lang];
    return (made[lang] || made.en).replace(/\{(\w+)\}/g, (_, slot) => values[slot]);
  }
  return name;
}

// A seat's name where a page has only the name a hand keeps (the replay: "efficiency bot B"):
// a bot by its level and place, as the table's plates name it ("easy bot B", 入门机器人B);
// any other name as localName gives it. Its full name, with its kind, is localName's.
function levelName(name, lang = LANG) {
  const kinds = Object.keys(GLOSSARY_DATA.bots).join("|");
  const bot = kinds && typeof name === "string" ? new RegExp(`^(${kinds}) bot ([A-D])$`).exec(name) : null;
  const parts = bot && levelParts(bot[1], bot[2], lang);
  return parts ? parts.join(lang === "zh" ? "" : " ") : localName(name, lang);
}

// A bot of ``kind`` at ``place`` (A-D) by its level, in two parts a plate may break between
// (["easy", "bot B"], ["入门", "机器人B"]); null for a kind with no level
function levelParts(kind, place, lang = LANG) {
  const level = ((GLOSSARY_DATA.levels || {})[kind] || {})[lang];
  if (!level) return null;
  const word = glossaryString("bot", lang) ?? (STRINGS[lang] || STRINGS.en).bot;  // t("bot")
  return lang === "zh" ? [level, `${word}${place}`] : [level, `${word} ${place}`];
}

// -- the server's messages ---------------------------------------------------------------------
// Every code the server sends (socket errors, notices, time-outs, HTTP refusals) in both
// languages, {param} filled from the message's params; a code not here shows the server's
// English. Keep it JSON (quoted keys, no trailing comma): tests/test_web_messages.py reads it and
// checks it against every code and param in the server's sources.
const MESSAGES = {
  "en": {
    "bad_json": "The server could not read that message (not JSON).",
    "bad_message": "The server could not read that message.",
    "bad_action": "That is not an action.",
    "too_long": "That message is too long (at most {max} characters).",
    "bad_token": "This link opens no place at this table.",
    "private_room": "This table is private: open it with the invite link or the watch link its creator shares.",
    "not_over": "The session is not over yet.",
    "again_done": "This table plays again already.",
    "changed": "Table {table} was entered or corrected meanwhile: check its scores and save again to correct them.",
    "too_many": "Too many connections (at most {max}): close another tab.",
    "rate_limited": "Too many messages: at most {rate} a second.",
    "spectator": "Spectators cannot play.",
    "not_started": "The session has not started.",
    "hand_over": "The hand is over.",
    "not_your_turn": "You have nothing to do now.",
    "illegal_action": "Not a legal action now: {action}.",
    "not_between_hands": "There is no next hand to be ready for.",
    "not_auto": "You are playing already.",
    "timeout": "{name}: time-out → {action}",
    "auto_on": "{name} ran out of time twice: a bot plays for them.",
    "auto_off": "{name} plays again.",
    "no_room": "No such table.",
    "no_hand": "No such hand.",
    "hand_live": "That hand is still in play: only a hand that is over can be replayed.",
    "not_found": "Not found.",
    "forbidden": "You may not do this.",
    "bad_invite": "A place is taken with the table's invite link: ask its creator.",
    "bad_name": "A name is {min}-{max} characters.",
    "bad_place": "A place is {min}-{max}.",
    "bad_bot": "There is no bot {kind}.",
    "taken": "Place {place} is taken.",
    "full": "Every place is taken.",
    "started": "The session has started.",
    "not_full": "Seat a person or a bot at every place first.",
    "seed": "A seed may be chosen only for a practice table.",
    "slow_down": "Too many attempts: wait a while.",
    "busy": "The server has as many tables as it takes: try again later.",
    "no_tournament": "No such tournament.",
    "refused": "Refused: {detail}",
    "login": "Log in as a referee of this tournament.",
    "bad_login": "Wrong user name or password.",
    "csrf": "The page's security token is missing or wrong: reload the page.",
    "json": "Send JSON.",
    "bad_scores": "Give the four scores E S W N.",
    "bad_request": "The request was refused: a value is missing or out of range.",
    "too_large": "The request was refused: it is too long.",
    "stale": "Too late: the table had moved on before your answer arrived.",
    "network": "The server cannot be reached."
  },
  "zh": {
    "bad_json": "服务器无法读取该消息（不是 JSON）。",
    "bad_message": "服务器无法读取该消息。",
    "bad_action": "这不是一个操作。",
    "too_long": "消息太长（最多 {max} 个字符）。",
    "bad_token": "此链接不能进入本桌。",
    "private_room": "这是私人桌：请用开桌人分享的邀请链接或观战链接打开。",
    "not_over": "本局尚未结束。",
    "again_done": "本桌已经再来一局了。",
    "changed": "第 {table} 桌已被他人录入或更正：请核对分数，再次保存即为更正。",
    "too_many": "连接太多（最多 {max} 个）：请关闭其他标签页。",
    "rate_limited": "消息太频繁：每秒最多 {rate} 条。",
    "spectator": "观战者不能出牌。",
    "not_started": "本局尚未开始。",
    "hand_over": "本盘已结束。",
    "not_your_turn": "现在没有你要做的。",
    "illegal_action": "现在不能这样做：{action}。",
    "not_between_hands": "现在没有下一盘可准备。",
    "not_auto": "你已经在自己出牌了。",
    "timeout": "{name}：超时 → {action}",
    "auto_on": "{name} 两次超时：由机器人托管。",
    "auto_off": "{name} 回来了，自己出牌。",
    "no_room": "没有这张牌桌。",
    "no_hand": "没有这一盘。",
    "hand_live": "这一盘还在进行中：只能回放已结束的盘。",
    "not_found": "找不到。",
    "forbidden": "你没有权限这样做。",
    "bad_invite": "入座需要本桌的邀请链接：请向开桌人索取。",
    "bad_name": "名字须为 {min}-{max} 个字符。",
    "bad_place": "座位须为 {min}-{max}。",
    "bad_bot": "没有 {kind} 这种机器人。",
    "taken": "{place} 座已有人。",
    "full": "座位已满。",
    "started": "本局已经开始。",
    "not_full": "请先在每个座位安排玩家或机器人。",
    "seed": "只有练习桌可以指定种子。",
    "slow_down": "尝试太频繁：请稍后再试。",
    "busy": "服务器的牌桌已满：请稍后再试。",
    "no_tournament": "没有这个比赛。",
    "refused": "被拒绝：{detail}",
    "login": "请以本比赛的裁判身份登录。",
    "bad_login": "用户名或密码错误。",
    "csrf": "页面的安全令牌缺失或错误：请刷新页面。",
    "json": "请以 JSON 发送。",
    "bad_scores": "请填写东南西北四家的局分。",
    "bad_request": "请求被拒绝：有数值缺失或超出范围。",
    "too_large": "请求被拒绝：内容太长。",
    "stale": "太迟了：你的操作到达前牌局已继续。",
    "network": "无法连接服务器。"
  }
};

// An action ("chow W1W2W3") in lang's terms, its tiles as the page labels them.
function actionWords(text, lang = LANG) {
  const [kind, arg] = String(text).split(" ");
  const name = ACTION_KINDS.includes(kind) ? term(kind, lang) : kind;
  return arg ? `${name} ${splitTiles(arg).map(tileLabel).join("")}` : name;
}

function paramText(key, value, lang) {
  if (Array.isArray(value)) return value.map((v) => paramText(key, v, lang)).join(", ");
  if (key === "action" || key === "legal") return actionWords(value, lang);
  if (key === "name") return localName(value, lang);
  if (key === "seat" && Number.isInteger(value)) return GLOSSARY_DATA.winds.length ? term(GLOSSARY_DATA.winds[value], lang) : String(value);
  if (key === "place" && Number.isInteger(value)) return "ABCD"[value] ?? String(value);
  return value === null || value === undefined ? "" : String(value);
}

// A server message ({code, message, params}: an error, a notice, an HTTP refusal's detail) in lang.
function describe(msg, lang = LANG) {
  if (!msg || typeof msg !== "object") return String(msg ?? "");
  const text = (MESSAGES[lang] || {})[msg.code];
  if (text === undefined) return msg.message || msg.code || "";
  const params = msg.params || {};
  return text.replace(/\{(\w+)\}/g, (_, key) => paramText(key, params[key], lang));
}

// Both languages at once, for the bilingual tournament pages.
function bilingual(msg) {
  const zh = describe(msg, "zh");
  const en = describe(msg, "en");
  return zh === en ? en : `${zh} — ${en}`;
}

// The tournament pages speak both languages at once (tournament-common.js sets this).
let BILINGUAL = false;

// An Error for a refusal, its message in the page's language; code, params and status kept.
function serverError(msg, status) {
  const err = new Error(BILINGUAL ? bilingual(msg) : describe(msg));
  err.code = msg.code;
  err.params = msg.params || {};
  err.status = status;
  return err;
}

let LANG = new URLSearchParams(location.search).get("lang") || localStorage.getItem("guobiao:lang") || (navigator.language.startsWith("zh") ? "zh" : "en");

// A page string: the glossary's term (TERM_KEYS) first, else STRINGS, else the English.
function t(key) {
  return glossaryString(key, LANG) ?? (STRINGS[LANG] && STRINGS[LANG][key]) ?? STRINGS.en[key] ?? key;
}

function setLang(lang) {
  LANG = lang;
  localStorage.setItem("guobiao:lang", lang);
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  if (typeof syncLabelsBox === "function") syncLabelsBox();
}

function toggleLang() { setLang(LANG === "zh" ? "en" : "zh"); }

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function fill(node, ...children) {
  node.replaceChildren();
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function roomKeys(id) {
  try { return JSON.parse(localStorage.getItem("guobiao:room:" + id)) || {}; } catch { return {}; }
}

function saveRoomKeys(id, keys) {
  localStorage.setItem("guobiao:room:" + id, JSON.stringify({...roomKeys(id), ...keys}));
}

// A JSON request; a refusal throws serverError(detail): its message in the page's language.
async function api(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: body ? {"Content-Type": "application/json"} : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    throw serverError({code: "network", message: String(err && err.message)}, 0);
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const d = data.detail;
    // a 422's detail is the validation's list: no code of ours
    const msg = d && typeof d === "object" && !Array.isArray(d) ? d
      : {code: res.status === 422 ? "bad_request" : undefined, message: typeof d === "string" ? d : `HTTP ${res.status}`};
    throw serverError(msg, res.status);
  }
  return data;
}

// -- tiles, as the table and replay pages draw them (TILES: the page's tile table) ----------
function splitTiles(s) { return s.match(/[A-Z]\d/g) || []; }
// The Latin index, for players who do not read Chinese: 1m..9m characters, 1p..9p dots, 1s..9s
// bamboo, E S W N winds, R G Wh dragons, 1f..8f flowers (春夏秋冬 1f-4f, 梅兰竹菊 5f-8f).
const INDEX_SUIT = {W: "m", B: "p", T: "s", H: "f"};
function tileIndex(name) {
  if (!name || name.length !== 2) return "";
  const k = Number(name[1]);
  if (name[0] === "F") return ["E", "S", "W", "N"][k - 1] || name;
  if (name[0] === "J") return ["R", "G", "Wh"][k - 1] || name;
  return INDEX_SUIT[name[0]] ? k + INDEX_SUIT[name[0]] : name;
}

function tileLabel(name) {
  const info = typeof TILES === "object" && TILES ? TILES[name] : null;
  if (LANG === "zh" && info) return info.zh;
  return tileIndex(name);
}

// Tiles are images (static/tiles, drawn by scripts/make_tiles.py): no font needed. GLYPHS stays
// for pages that still test it (false: no Unicode tile glyphs are used).
const GLYPHS = false;

// The "labels" setting (the page's labels-on checkbox, saved as guobiao:labels) shows the Latin
// index on each tile; unset, it is on in English and off in 中文.
function labelsOn() {
  const saved = localStorage.getItem("guobiao:labels");
  return saved === null ? LANG !== "zh" : saved !== "0";
}
function syncLabelsBox() {
  const box = document.getElementById("labels-on");
  if (box) box.checked = labelsOn();
}
document.addEventListener("DOMContentLoaded", syncLabelsBox);

// A tile's name as a screen reader says it, in the page's language: 三万 in 中文; in English the
// words, not the index ("3m" was read as three metres): 3 Characters, East Wind, Plum.
const SPOKEN_SUIT = {W: "Characters", B: "Dots", T: "Bamboo"};
const SPOKEN_HONOR = {F: ["East Wind", "South Wind", "West Wind", "North Wind"], J: ["Red Dragon", "Green Dragon", "White Dragon"],
  H: ["Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo flower", "Chrysanthemum"]};
function tileName(name) {
  if (!name) return "";
  if (LANG === "zh") return tileLabel(name);
  const k = Number(name[1]);
  if (SPOKEN_SUIT[name[0]]) return `${k} ${SPOKEN_SUIT[name[0]]}`;
  return (SPOKEN_HONOR[name[0]] || [])[k - 1] || tileIndex(name);
}

function face(name) {
  return el("img", {src: `/static/tiles/${name || "back"}.svg`, alt: name ? tileName(name) : "",
    draggable: "false"});
}

// One tile: opts.cls adds classes, opts.button draws a button (opts.onclick, else disabled); a
// tile without a name is a back. The Latin index sits over the image's top left corner.
function tile(name, opts = {}) {
  const cls = ["tile", opts.cls || "", name && "JF".includes(name[0]) ? "honor" : "", name ? "s-" + name[0] : "back"].join(" ");
  const node = el(opts.button ? "button" : "span",
    {class: cls, title: name ? tileLabel(name) : "", "data-tile": name || null, onclick: opts.onclick},
    face(name),
    name && labelsOn() ? el("span", {class: "index", "aria-hidden": "true"}, tileIndex(name)) : null);
  if (opts.button && !opts.onclick) node.disabled = true;
  return node;
}

// The end of a hand as the table and replay pages show it: the winner (or the draw, the
// forfeit), the winning hand, the fans, penalties and each seat's score change. r: the hand's
// result (HandResult.summary); names: by seat; w: the winning hand (concealed, melds, flowers);
// x: the breakdown (explain.js draws it: each fan's sets, the fans not counted, the payments);
// scores: each seat's score (局分) after the hand, by seat, shown beside its change when given.
function handResultParts(r, names, w, x, scores) {
  names = names.map((n) => localName(n));  // a bot's name in the page's language
  const explained = x && typeof explainParts === "function";
  const parts = [];
  if (r.winner === null) {
    parts.push(el("p", {}, r.forfeit ? `${names[r.forfeit.seat]}: ${t("forfeit")} (${r.forfeit.reason})` : t("draw")));
  } else {
    parts.push(el("p", {class: "winner"}, `${t("winds")[r.winner]} ${names[r.winner]} ${t("wins")} · `,
      r.discarder === null ? t("selfDrawn") : `${t("dealIn")} ${t("winds")[r.discarder]} ${names[r.discarder]}`));
    if (w) {
      parts.push(el("div", {class: "win-hand"}, w.concealed.map((x) => tile(x)),
        w.melds.map((m) => el("span", {class: "meld"}, m.tiles.map((x) => tile(x)))),
        tile(r.win_tile, {cls: "win-tile"}), w.flowers.map((x) => tile(x, {cls: "flower"}))));
    }
    const zh = LANG === "zh";
    parts.push(el("table", {class: "fans"},
      r.fans.map((f, i) => el("tr", {}, el("td", {}, zh ? f.zh : f.en, explained ? fanSets(x, i) : null), el("td", {class: "muted"}, zh ? f.en : f.zh),
        el("td", {class: "num"}, `${f.points}${f.count > 1 ? " × " + f.count : ""}`))),
      el("tr", {class: "total"}, el("td", {}, t("total")), el("td", {}), el("td", {class: "num"}, `${r.total} ${t("points")}`))));
  }
  if (explained) parts.push(...explainParts(x, names, r));
  if (r.penalties.length) {
    parts.push(el("p", {}, `${t("penalties")}: ` + r.penalties.map((p) => `${names[p.seat]} ${term(p.kind)} ${p.amount}`).join(", ")));
  }
  parts.push(el("table", {class: "deltas"},
    scores ? el("tr", {}, el("th", {}), el("th", {class: "num"}, "±"), el("th", {class: "num"}, t("after"))) : null,
    r.deltas.map((d, s) => el("tr", {},
      el("td", {}, `${t("winds")[s]} ${names[s]}`), el("td", {class: "num " + (d > 0 ? "plus" : d < 0 ? "minus" : "")}, (d > 0 ? "+" : "") + d),
      scores ? el("td", {class: "num score"}, String(scores[s])) : null))));
  return parts;
}
