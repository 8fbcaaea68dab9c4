// What both pages share: the two languages, the saved room keys, small DOM helpers.
"use strict";

const STRINGS = {
  en: {
    title: "guobiao — Chinese Official Mahjong",
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
    hand: "Hand",
    wall: "Wall",
    round: "Round",
    hints: "Hints",
    shanten: "Shanten",
    ready: "Ready",
    win: "Win (Hu)",
    pass: "Pass",
    pung: "Pung",
    kong: "Kong",
    chow: "Chow",
    concealed_kong: "Concealed kong",
    added_kong: "Add kong",
    discard: "Discard",
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
    total: "Total",
    points: "pts",
    nextHand: "Next hand in",
    sessionEnd: "Session over",
    score: "Score",
    stdPoints: "Standard points",
    timeout: "time-out",
    connected: "connected",
    disconnected: "disconnected — reconnecting…",
    spectating: "Watching",
    close: "Close",
    labels: "Labels",
    penalties: "Penalties",
    forfeit: "forfeit",
    winds: ["East", "South", "West", "North"],
    acts: {discard: "discards", pung: "pungs", kong: "kongs", chow: "chows", concealed_kong: "declares a concealed kong",
           added_kong: "adds a kong", win: "wins", pass: "passes"},
    you: "you",
    replay: "Replay",
    replayHands: "Replay the hands",
    replayHand: "Replay this hand",
    finishedTables: "Finished tables",
    noFinished: "No finished table yet.",
    table: "Table",
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
    hand: "盘",
    wall: "牌墙",
    round: "圈风",
    hints: "提示",
    shanten: "向听",
    ready: "听牌",
    win: "和",
    pass: "过",
    pung: "碰",
    kong: "杠",
    chow: "吃",
    concealed_kong: "暗杠",
    added_kong: "加杠",
    discard: "打出",
    yourTurn: "轮到你",
    bestDiscards: "最佳打法",
    useful: "有效牌",
    waits: "听牌",
    live: "张",
    handEnd: "本盘结束",
    draw: "荒庄",
    wins: "和牌",
    selfDrawn: "自摸",
    dealIn: "点炮",
    total: "合计",
    points: "番",
    nextHand: "下一盘",
    sessionEnd: "本局结束",
    score: "局分",
    stdPoints: "标准分",
    timeout: "超时",
    connected: "已连接",
    disconnected: "连接断开，正在重连…",
    spectating: "观战中",
    close: "关闭",
    labels: "标注",
    penalties: "罚分",
    forfeit: "判负",
    winds: ["东", "南", "西", "北"],
    acts: {discard: "打出", pung: "碰", kong: "杠", chow: "吃", concealed_kong: "暗杠",
           added_kong: "加杠", win: "和", pass: "过"},
    you: "你",
    replay: "回放",
    replayHands: "回放各盘",
    replayHand: "回放本盘",
    finishedTables: "已结束的牌桌",
    noFinished: "还没有结束的牌桌。",
    table: "牌桌",
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

let LANG = new URLSearchParams(location.search).get("lang") || localStorage.getItem("guobiao:lang") || (navigator.language.startsWith("zh") ? "zh" : "en");

function t(key) {
  return (STRINGS[LANG] && STRINGS[LANG][key]) ?? STRINGS.en[key] ?? key;
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

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? {"Content-Type": "application/json"} : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = data.detail;
    throw new Error(typeof detail === "object" && detail ? detail.message : JSON.stringify(detail));
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

function face(name) {
  return el("img", {src: `/static/tiles/${name || "back"}.svg`, alt: name ? tileLabel(name) : "",
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
// result (HandResult.summary); names: by seat; w: the winning hand (concealed, melds, flowers).
function handResultParts(r, names, w) {
  const parts = [];
  if (r.winner === null) {
    parts.push(el("p", {}, r.forfeit ? `${names[r.forfeit.seat]}: ${t("forfeit")} (${r.forfeit.reason})` : t("draw")));
  } else {
    parts.push(el("p", {class: "winner"}, `${t("winds")[r.winner]} ${names[r.winner]} ${t("wins")} · `,
      r.discarder === null ? t("selfDrawn") : `${t("dealIn")} ${names[r.discarder]}`));
    if (w) {
      parts.push(el("div", {class: "win-hand"}, w.concealed.map((x) => tile(x)),
        w.melds.map((m) => el("span", {class: "meld"}, m.tiles.map((x) => tile(x)))),
        tile(r.win_tile, {cls: "win-tile"}), w.flowers.map((x) => tile(x, {cls: "flower"}))));
    }
    const zh = LANG === "zh";
    parts.push(el("table", {class: "fans"},
      r.fans.map((f) => el("tr", {}, el("td", {}, zh ? f.zh : f.en), el("td", {class: "muted"}, zh ? f.en : f.zh),
        el("td", {class: "num"}, `${f.points}${f.count > 1 ? " × " + f.count : ""}`))),
      el("tr", {class: "total"}, el("td", {}, t("total")), el("td", {}), el("td", {class: "num"}, `${r.total} ${t("points")}`))));
  }
  if (r.penalties.length) {
    parts.push(el("p", {}, `${t("penalties")}: ` + r.penalties.map((p) => `${names[p.seat]} ${p.kind} ${p.amount}`).join(", ")));
  }
  parts.push(el("table", {class: "deltas"}, r.deltas.map((d, s) => el("tr", {},
    el("td", {}, `${t("winds")[s]} ${names[s]}`), el("td", {class: "num " + (d > 0 ? "plus" : d < 0 ? "minus" : "")}, (d > 0 ? "+" : "") + d)))));
  return parts;
}
