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
  hTables: "Tables: getting in and out",
  hTablesShort: "Tables",
  tablesPractice: "Create and play against 3 bots: your own table, started at once, against three bots of the kind chosen under Bots.",
  tablesFriends: "Create: a table for friends. Copy its invite link and send it; each friend who opens it types a name and takes an empty place. The waiting room shows who is here; only the table's creator starts the session, and bots take the places still empty then.",
  tablesPrivate: "A private table is not listed in the lobby: it is watched with its watch link, and taken with its invite link, both shown to its creator.",
  tablesBack: "If you close the page the session goes on: a bot plays your place after {grace} s. The lobby's My tables takes you back to your place (Rejoin), in the same browser.",
  tablesAgain: "At the end of the session its creator can press Play again: a new table with the same settings (the same bots; friends take their places again with the new invite link).",
  hSeats: "Seats and winds",
  seatsCentre: "The middle of the table shows the round (East round) and the hand (Hand 1/16), the tiles left in the wall, and a plate for each seat: its seat wind, its player, its score, and D (庄) for the dealer. The dealer is always East and plays first; the bar under a plate is the clock of the seat whose turn it is.",
  seatsRound: "A session is {hands} hands: 4 rounds (East, South, West, North: the round wind) of 4 hands. Within a round the deal passes every hand to the player on the dealer's right (下家), whose seat wind becomes East: every player deals once a round, and a dealer never deals twice running (第五条八).",
  seatsMove: "Between rounds the players change places (第五条九), so the players on your left and right change too. The places A B C D are the seats of the first hand; the table below shows where each sits in every hand.",
  seatsHand: "Hand",
  keyDiscard: "discard the tile at that place of your hand (1: the leftmost)",
  keyChoose: "choose a tile, then discard it",
  keyDrawn: "discard the tile you just drew (摸切)",
  keyPass: "pass",
  keyWin: "win (和)",
  keyChow: "chow",
  keyPung: "pung",
  keyKong: "kong (concealed or added too)",
  keyEnd: "at the end of a hand: Continue / close the box",
  keysReplay: "In a hand's replay",
  keyReplayStep: "the next action / the one before (on touch: swipe the board to the left / to the right)",
  keyReplayEnds: "the deal / the end of the hand",
  keyReplayPlay: "play / pause",
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
  fansNote: "Every fan with its points and, under its name, what it asks of a hand and an example: the winning tile outlined in red, declared sets (chow, pung, kong) set apart at the right, a concealed kong with its ends face down. An example shows its fan; a small fan's example may still lack the 8 points a win needs. Filter by name or points:",
  exDiscard: "won on a discard",
  exSelfDrawn: "self-drawn",
  exLastDraw: "self-drawn: the wall's last tile",
  exLastClaim: "won on the last discard of the hand",
  exReplacement: "self-drawn: a kong's replacement tile",
  exRobbing: "robbing a kong: the tile another player adds to a pung",
  exFourth: "the last tile of its kind: the other three in sight",
  exWinds: "seat wind {seat}, prevalent wind {round}",
  exFlowers: "{count} flowers",
  exWinTile: "the winning tile",
  exExample: "Example",
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
  hTables: "牌桌：入座与离开",
  hTablesShort: "牌桌",
  tablesPractice: "「创建并与三个机器人对局」：你自己的牌桌，立即开始，对手是「机器人」中所选的三个机器人。",
  tablesFriends: "「创建」：与朋友一起玩的牌桌。复制邀请链接发给朋友；朋友打开后填写名字，入座一个空位。等待页面显示谁在线；只有开桌人可以开始本局，届时空位由机器人补上。",
  tablesPrivate: "私人桌不在大厅列出：凭观战链接观战，凭邀请链接入座，两个链接都只有开桌人能看到。",
  tablesBack: "关闭页面后本局继续：{grace} 秒后由机器人代打。在同一浏览器中，大厅「我的牌桌」的「回到牌桌」可以回到你的座位。",
  tablesAgain: "本局结束后，开桌人可以按「再来一局」：用同样的设置开新桌（机器人不变；朋友用新的邀请链接重新入座）。",
  hSeats: "座位与风",
  seatsCentre: "牌桌中间显示圈风（东风圈）和盘数（第 1/16 盘）、牌墙剩余张数，以及每家的名牌：门风、玩家、局分，庄家标「庄」。庄家总是东，先出牌；名牌下的进度条是轮到出牌那家的计时。",
  seatsRound: "一局 {hands} 盘：4 圈（东、南、西、北风圈），每圈 4 盘。每圈之内每盘由下家接庄，门风变为东：每人每圈坐庄一次，庄家不连庄（第五条八）。",
  seatsMove: "每圈之间换位（第五条九），你的上家和下家也随之改变。A B C D 是首盘的座位；下表列出每一盘各家所坐的门风。",
  seatsHand: "盘",
  keyDiscard: "打出手牌中该位置的牌（1 为最左边）",
  keyChoose: "选一张牌，再打出",
  keyDrawn: "打出刚摸到的牌（摸切）",
  keyPass: "过",
  keyWin: "和",
  keyChow: "吃",
  keyPung: "碰",
  keyKong: "杠（含暗杠、加杠）",
  keyEnd: "一盘结束后：继续 / 关闭",
  keysReplay: "回放中",
  keyReplayStep: "下一步 / 上一步（触屏：在牌桌上向左 / 向右滑动）",
  keyReplayEnds: "配牌 / 本盘结束",
  keyReplayPlay: "播放 / 暂停",
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
  fansNote: "所有番种及其番数，名称下方是它对牌的要求和一手例牌：红框的是和牌的那张，吃、碰、杠的牌组分开放在右边，暗杠两端扣着。例牌只为显示该番种，小番的例牌未必够和牌所需的 8 番。按名称或番数筛选：",
  exDiscard: "和别人打出的牌",
  exSelfDrawn: "自摸",
  exLastDraw: "自摸牌墙最后一张",
  exLastClaim: "和本盘最后一张打出的牌",
  exReplacement: "开杠后自摸补牌",
  exRobbing: "抢杠：和别人加杠的那张牌",
  exFourth: "和绝张：其余三张已亮明",
  exWinds: "门风{seat}，圈风{round}",
  exFlowers: "{count}张花牌",
  exWinTile: "和牌的那张",
  exExample: "例牌",
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
// The replay's keys (replay.js: its keydown handler and the board's swipe).
const REPLAY_KEYS = [
  [["→", "←"], "keyReplayStep"],
  [["Home", "End"], "keyReplayEnds"],
  [["Space"], "keyReplayPlay"],
];

// 轮转 (第五条九), as the server seats a session (guobiao.table.session ROUND_START, the Green Book
// scheme): for each round, which of the places A B C D sits at E S W N at its first hand; within a
// round the deal passes to the 下家 every hand (East of one hand is North of the next).
const ROUND_START = [[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 1, 0], [3, 2, 0, 1]];
function seating(hand) {
  const start = ROUND_START[Math.floor(hand / 4)];
  return [0, 1, 2, 3].map((seat) => start[(hand % 4 + seat) % 4]);
}

// Each hand of a session: its round wind and which place sits E (the dealer), S, W, N.
function renderSeats(hands) {
  const winds = t("winds");
  fill(document.getElementById("seat-table"),
    el("thead", {}, el("tr", {}, el("th", {}, t("seatsHand")), el("th", {}, t("round")),
      winds.map((w, i) => el("th", {}, i === 0 ? `${w} (${t("dealer")})` : w)))),
    el("tbody", {}, Array.from({length: Math.min(hands, 16)}, (_, n) =>
      el("tr", {"data-hand": n, class: n % 4 === 0 && n ? "round-start" : ""}, el("td", {}, n + 1),
        el("td", {}, winds[Math.floor(n / 4)]), seating(n).map((place) => el("td", {class: "place"}, "ABCD"[place]))))));
}

let SETTINGS = null;
let FANS = null;
let TILES = {};  // the 中文 names of the examples' tiles (common.js tileLabel)

function renderHelp() {
  const row = ([keys, what]) =>
    el("tr", {"data-key": what}, el("td", {}, keys.map((k) => (k === "…" ? " … " : el("kbd", {}, k)))), el("td", {}, t(what)));
  fill(document.getElementById("keys-table"), el("tbody", {}, KEYS.map(row)),
    el("tbody", {class: "replay-keys"}, el("tr", {}, el("th", {colspan: 2}, t("keysReplay"))), REPLAY_KEYS.map(row)));
  if (!SETTINGS || !FANS) return;
  const lim = SETTINGS.limits;
  const rules = SETTINGS.rules;
  const params = {...lim, ...rules, hands: rules.hands_per_session, idle_min: Math.round(lim.idle_close / 60)};
  const items = (keys) => keys.map((k) => el("li", {"data-key": k}, helpText(k, params)));
  fill(document.getElementById("tables-list"),
    items(["tablesPractice", "tablesFriends", "tablesPrivate", "tablesBack", "tablesAgain"]));
  fill(document.getElementById("play-list"),
    items(["playDiscard", "playClaim", "playWindow", "playOwn", "playEnd", "playHints"]));
  fill(document.getElementById("seats-list"), items(["seatsCentre", "seatsRound", "seatsMove"]));
  renderSeats(rules.hands_per_session);
  fill(document.getElementById("limits-list"),
    items(["limFirst", "limTurn", "limClaim", "limTimeout", "limAuto", "limGrace", "limIdle"]));
  fill(document.getElementById("win-list"), items(["winMin", "winFlowers", "winRules", "winPay"]));
  document.getElementById("fans-title").textContent = helpText("hFans", {count: FANS.length});
  document.getElementById("fan-filter").placeholder = t("fanFilter");
  renderFans();
}

// A fan's example hand (GET /api/fans "example"), with the table's tiles (common.js tile()):
// the standing tiles, the winning tile outlined as the end of a hand marks it, the declared sets
// apart (a concealed kong's ends face down, as on the table), the flowers; then how it was won.
function exampleHand(x) {
  const zh = LANG === "zh";
  const win = tile(x.win_tile, {cls: "win-tile"});
  win.title = `${tileLabel(x.win_tile)}: ${t("exWinTile")}`;
  const meld = (m) => el("span", {class: "meld", "data-kind": m.kind},
    m.tiles.map((n, i) => (m.kind === "concealed_kong" && (i === 0 || i === 3) ? tile(null) : tile(n))));
  const how = [];
  if (x.kong) how.push(t(x.self_drawn ? "exReplacement" : "exRobbing"));
  else if (x.last_tile) how.push(t(x.self_drawn ? "exLastDraw" : "exLastClaim"));
  else how.push(t(x.self_drawn ? "exSelfDrawn" : "exDiscard"));
  if (x.fourth_tile) how.push(t("exFourth"));
  const winds = t("winds");
  const windOf = (w) => winds["ESWN".indexOf(w)];
  if (x.winds) how.push(helpText("exWinds", {seat: windOf(x.seat_wind), round: windOf(x.round_wind)}));
  if (x.flowers.length) how.push(helpText("exFlowers", {count: x.flowers.length}));
  return el("div", {class: "fan-example", role: "group", "aria-label": t("exExample")},
    el("div", {class: "ex-tiles"},
      el("span", {class: "ex-standing"}, x.concealed.map((n) => tile(n)), win),
      x.melds.map(meld),
      x.flowers.length ? el("span", {class: "ex-flowers"}, x.flowers.map((n) => tile(n, {cls: "flower"}))) : null),
    el("div", {class: "ex-how"}, how.join(zh ? "；" : "; ")));
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
      g.fans.flatMap((f) => [el("tr", {class: "fan", id: `fan-${f.number}`, "data-number": f.number},
        el("td", {class: "no"}, f.number), el("td", {class: zh ? "name zh" : "name"}, zh ? f.zh : f.en),
        el("td", {class: zh ? "other" : "other zh"}, zh ? f.en : f.zh), el("td", {class: "points"}, f.points)),
        // what it asks of a hand (GET /api/fans en_def, zh_def), on a line of its own under its name
        f.en_def ? el("tr", {class: "fan-def", "data-number": f.number}, el("td", {class: "no"}),
          el("td", {class: "def", colspan: 3}, zh ? f.zh_def : f.en_def,
            f.example ? exampleHand(f.example) : null)) : null]))),
    shown.length ? null : el("tbody", {}, el("tr", {}, el("td", {colspan: 4, class: "muted"}, t("noFan")))));
}

async function loadHelp() {
  try {
    [SETTINGS, FANS] = await Promise.all([api("GET", "/api/settings"), api("GET", "/api/fans")]);
    for (const f of FANS) for (const [n, zh] of Object.entries(f.example ? f.example.names : {})) TILES[n] = {zh};
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
