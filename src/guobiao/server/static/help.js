// The help page: how to play at the table, its keys, the time limits and the fans. The numbers
// come from the server: its table settings (GET /api/settings) and the fan table (GET /api/fans).
"use strict";

Object.assign(STRINGS.en, {
  helpTitle: "How to play",
  hPlay: "At the table",
  hKeys: "Keys",
  hLimits: "Time limits (第七条)",
  hWin: "Winning and scoring",
  hFansShort: "Fans",
  hFans: "The {count} fans",
  keysNote: "On a computer the keys play too (the table shows them under the hand).",
  playDiscard: "On your turn, click or tap a tile of your hand to discard it. The tile you just drew stands apart, at the right.",
  playClaim: "When another player's discard completes a chow, a pung, a kong or your hand, it is outlined in red and each claim you may make is a button showing the tiles it takes from your hand; Pass declines.",
  playWindow: "After every discard (and every added kong) the whole table waits {claim} s for claims, whether or not anyone can claim, so nobody learns what the others hold. The claims are settled when the time is up: a win before a pung or kong, before a chow (第七条五-七).",
  playOwn: "Your own kongs (concealed, or added to your pung) and a self-drawn win are buttons on your turn.",
  playEnd: "At the end of a hand the result stays until you press Continue; the next hand starts when everyone has, or after {between_hands} s. Last hand shows it again; Replay this hand opens in a new tab.",
  playHints: "Hints shows your shanten, the best discard and your waits with the copies still unseen. Labels writes a Latin index on each tile: 1m-9m characters, 1p-9p dots, 1s-9s bamboo, E S W N winds, R G Wh dragons, 1f-8f flowers.",
  playSession: "A session is {hands} hands: 4 rounds of 4, the seats moving after each hand (第五条).",
  keyDiscard: "discard the tile at that place of your hand (1: the leftmost)",
  keyChoose: "choose a tile, then discard it",
  keyDrawn: "discard the tile you just drew (摸切)",
  keyPass: "pass",
  keyWin: "win (和)",
  keyChow: "chow",
  keyPung: "pung",
  keyKong: "kong (concealed or added too)",
  keyEnd: "at the end of a hand: Continue / close the box",
  limFirst: "The dealer's first discard: {first_discard} s from the deal, flower replacements done (第七条四).",
  limTurn: "Every other discard: {turn} s from the previous player's discard, the claim window and flower replacements included (第七条六).",
  limClaim: "Claims: {claim} s after every discard (第七条六: 碰牌要快，要在3秒之内报出).",
  limTimeout: "When your time runs out the server plays for you: it passes a claim, and on your turn discards the tile you drew (or the last tile of your hand). It never declares a win for you.",
  limAuto: "After {auto_after} turn time-outs in a row a bot plays for you (auto-play, 托管) until you press I'm back or play again.",
  limGrace: "If your connection drops, a bot plays your place after {grace} s, until you come back in the same browser (the lobby's My tables: Rejoin).",
  limIdle: "A table nobody is connected to closes after {idle_min} min.",
  winMin: "A win needs at least {minimum} fan points, flowers not counted (起和分, 第五条).",
  winFlowers: "Each flower is 1 point, counted once the hand has reached the minimum.",
  winRules: "The fans of a hand are counted by the five principles (不重复, 不拆移, 不得相同, 就高不就低, 套算一次): the server scores every win for you and shows the breakdown.",
  winPay: "Payment (第十条): won on a discard, the discarder pays the fan points + {base} and the two others {base} each; self-drawn, each of the three pays the fan points + {base}.",
  fansNote: "Every fan with its points, as the table scores them. Filter by name or points:",
  fanFilter: "name or points",
  colNo: "No.",
  colName: "Fan",
  colOther: "中文",
  colPoints: "Points",
  group: "{points} points ({count})",
  noFan: "No fan matches.",
  loadError: "The server could not be reached: reload the page.",
});
Object.assign(STRINGS.zh, {
  helpTitle: "玩法说明",
  hPlay: "牌桌上",
  hKeys: "按键",
  hLimits: "时间限制（第七条）",
  hWin: "和牌与计分",
  hFansShort: "番种",
  hFans: "{count}个番种",
  keysNote: "在电脑上也可以用按键操作（牌桌上手牌下方有提示）。",
  playDiscard: "轮到你时，点击手牌中的一张牌即打出。刚摸到的牌放在最右边，与其他牌分开。",
  playClaim: "别家打出的牌可以让你吃、碰、杠或和时，这张牌以红框标出，每种可行的吃碰杠和都是一个按钮，显示它要用的手牌；按「过」放弃。",
  playWindow: "每打出一张牌（以及每次加杠）之后，全桌都等待 {claim} 秒供吃碰杠和，无论是否有人能吃碰，所以谁也无法从等待中推知别人的牌。时间到后一并处理：和优先于碰、杠，碰、杠优先于吃（第七条五至七）。",
  playOwn: "自己的暗杠、加杠和自摸，在你出牌时以按钮给出。",
  playEnd: "一盘结束后，结果一直显示，直到你按「继续」；所有人都继续后（最多 {between_hands} 秒）开始下一盘。「上一盘」再看一次结果，「回放本盘」在新标签页中打开。",
  playHints: "「提示」显示向听数、最佳打法和听牌（含未见张数）。「标注」在每张牌上写拉丁字母编号：1m-9m 万，1p-9p 饼，1s-9s 条，E S W N 东南西北，R G Wh 中发白，1f-8f 花。",
  playSession: "一局 {hands} 盘：4 圈，每圈 4 盘，每盘后换座（第五条）。",
  keyDiscard: "打出手牌中该位置的牌（1 为最左边）",
  keyChoose: "选一张牌，再打出",
  keyDrawn: "打出刚摸到的牌（摸切）",
  keyPass: "过",
  keyWin: "和",
  keyChow: "吃",
  keyPung: "碰",
  keyKong: "杠（含暗杠、加杠）",
  keyEnd: "一盘结束后：继续 / 关闭",
  limFirst: "庄家的第一张牌：配牌、补花完成后 {first_discard} 秒（第七条四）。",
  limTurn: "其余每次出牌：从上家打牌起 {turn} 秒，吃碰时间和补花都计在内（第七条六）。",
  limClaim: "吃碰杠和：每打出一张牌后 {claim} 秒（第七条六：碰牌要快，要在3秒之内报出）。",
  limTimeout: "超时后由服务器代为操作：吃碰时为「过」，出牌时打出刚摸到的牌（或手牌最后一张）。从不代为和牌。",
  limAuto: "连续 {auto_after} 次出牌超时后由机器人代打（托管），直到你按「我回来了」或自己出牌。",
  limGrace: "断线 {grace} 秒后由机器人代打，直到你用同一浏览器回来（大厅「我的牌桌」：回到牌桌）。",
  limIdle: "无人在线的牌桌 {idle_min} 分钟后关闭。",
  winMin: "和牌至少 {minimum} 番，花牌不计（起和分，第五条）。",
  winFlowers: "每张花牌 1 番，达到起和分后才计入。",
  winRules: "番种按五个原则计算（不重复、不拆移、不得相同、就高不就低、套算一次）：服务器为每次和牌计番并列出明细。",
  winPay: "计分（第十条）：点炮和，放炮者付 番数 + {base}，另两家各付 {base}；自摸和，三家各付 番数 + {base}。",
  fansNote: "所有番种及其番数，与牌桌计番一致。按名称或番数筛选：",
  fanFilter: "名称或番数",
  colNo: "序号",
  colName: "番种",
  colOther: "English",
  colPoints: "番数",
  group: "{points}番（{count}种）",
  noFan: "没有符合的番种。",
  loadError: "无法连接服务器：请刷新页面。",
});

// t(key) with {name} filled in from params.
function helpText(key, params = {}) {
  return t(key).replace(/\{(\w+)\}/g, (_, k) => String(params[k]));
}

// The table's keys (room.js: POS_KEYS, the keydown handler and the overlay's keys).
const KEYS = [
  [["1", "…", "9", "0", "-", "="], "keyDiscard"],
  [["←", "→", "Enter"], "keyChoose"],
  [["D"], "keyDrawn"],
  [["Space", "P"], "keyPass"],
  [["W"], "keyWin"],
  [["C"], "keyChow"],
  [["G"], "keyPung"],
  [["K"], "keyKong"],
  [["Enter", "Esc"], "keyEnd"],
];

let SETTINGS = null;
let FANS = null;

function renderHelp() {
  fill(document.getElementById("keys-table"), KEYS.map(([keys, what]) =>
    el("tr", {}, el("td", {}, keys.map((k) => (k === "…" ? " … " : el("kbd", {}, k)))), el("td", {}, t(what)))));
  if (!SETTINGS || !FANS) return;
  const lim = SETTINGS.limits;
  const rules = SETTINGS.rules;
  const params = {...lim, ...rules, hands: rules.hands_per_session, idle_min: Math.round(lim.idle_close / 60)};
  const items = (keys) => keys.map((k) => el("li", {"data-key": k}, helpText(k, params)));
  fill(document.getElementById("play-list"),
    items(["playDiscard", "playClaim", "playWindow", "playOwn", "playEnd", "playHints", "playSession"]));
  fill(document.getElementById("limits-list"),
    items(["limFirst", "limTurn", "limClaim", "limTimeout", "limAuto", "limGrace", "limIdle"]));
  fill(document.getElementById("win-list"), items(["winMin", "winFlowers", "winRules", "winPay"]));
  document.getElementById("fans-title").textContent = helpText("hFans", {count: FANS.length});
  document.getElementById("fan-filter").placeholder = t("fanFilter");
  renderFans();
}

// The fans grouped by points (the table's order), filtered by the search box.
function renderFans() {
  const query = document.getElementById("fan-filter").value.trim().toLowerCase();
  const zh = LANG === "zh";
  const shown = FANS.filter((f) => !query || f.zh.includes(query) || f.en.toLowerCase().includes(query)
    || String(f.points) === query || String(f.number) === query);
  const groups = [];
  for (const f of shown) {
    if (!groups.length || groups[groups.length - 1].points !== f.points) groups.push({points: f.points, fans: []});
    groups[groups.length - 1].fans.push(f);
  }
  const head = el("thead", {}, el("tr", {}, el("th", {class: "no"}, t("colNo")), el("th", {}, t("colName")),
    el("th", {}, t("colOther")), el("th", {class: "points"}, t("colPoints"))));
  fill(document.getElementById("fan-table"), head,
    groups.map((g) => el("tbody", {"data-points": g.points},
      el("tr", {}, el("th", {class: "group", colspan: 4}, helpText("group", {points: g.points, count: g.fans.length}))),
      g.fans.map((f) => el("tr", {class: "fan", id: `fan-${f.number}`, "data-number": f.number},
        el("td", {class: "no"}, f.number), el("td", {class: zh ? "name zh" : "name"}, zh ? f.zh : f.en),
        el("td", {class: zh ? "other" : "other zh"}, zh ? f.en : f.zh), el("td", {class: "points"}, f.points))))),
    shown.length ? null : el("tbody", {}, el("tr", {}, el("td", {colspan: 4, class: "muted"}, t("noFan")))));
}

async function loadHelp() {
  try {
    [SETTINGS, FANS] = await Promise.all([api("GET", "/api/settings"), api("GET", "/api/fans")]);
  } catch {
    document.getElementById("help-error").textContent = t("loadError");
    return;
  }
  renderHelp();
  // a link to a part or a fan (/help#fans, /help#fan-48): the browser went to it before the
  // lists above it were filled; go there again now that it stands where it will stay
  const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target) target.scrollIntoView();
  document.body.dataset.ready = "1";  // for the tests: the numbers are in
}

document.getElementById("lang").addEventListener("click", () => { toggleLang(); renderHelp(); });
document.getElementById("fan-filter").addEventListener("input", () => { if (FANS) renderFans(); });
setLang(LANG);
renderHelp();
loadHelp();
