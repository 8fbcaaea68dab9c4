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

// What each fan asks of a hand, in a line (第九条; the rules digest's short definitions): the names
// alone taught a newcomer nothing. By fan number: [English, 中文].
const FAN_DEFS = {
  1: ["Pungs or kongs of all four winds.", "东南西北四副风刻（或杠）。"],
  2: ["Pungs or kongs of all three dragons.", "中发白三副箭刻（或杠）。"],
  3: ["Green tiles only: 2 3 4 6 8 bamboo and the Green Dragon.", "只由 2、3、4、6、8 条和发财组成。"],
  4: ["1112345678999 of one suit, concealed, and any tile of that suit.", "同一花色 1112345678999 门前清听牌，和这一花色的任一张。"],
  5: ["Four kongs.", "四个杠。"],
  6: ["Seven pairs in a row in one suit.", "同一花色序数相连的七个对子。"],
  7: ["One of each 1, 9 and honour, and a second of one of them.", "万饼条的 1、9 和七种字牌各一张，其中一种成对。"],
  8: ["Pungs and a pair of 1s and 9s only.", "只由 1、9 的刻子（或杠）和将组成。"],
  9: ["Three wind pungs and a pair of the fourth wind.", "三副风刻，第四种风牌作将。"],
  10: ["Two dragon pungs and a pair of the third dragon.", "两副箭刻，第三种箭牌作将。"],
  11: ["Honours only: pungs and a pair.", "只由字牌的刻子（或杠）和将组成。"],
  12: ["Four concealed pungs or kongs.", "四副暗刻（或暗杠）。"],
  13: ["123 123 789 789 and a pair of 5s, all of one suit.", "同一花色两副 123、两副 789，5 作将。"],
  14: ["Four identical chows of one suit.", "同一花色四副相同的顺子。"],
  15: ["Four pungs of one suit, each one higher (3 4 5 6).", "同一花色四副依次递增一的刻子。"],
  16: ["Four chows of one suit, each starting one higher, or each two higher.", "同一花色四副依次递增一或递增二的顺子。"],
  17: ["Three kongs.", "三个杠。"],
  18: ["Only 1s, 9s and honours.", "只由 1、9 和字牌组成。"],
  19: ["Seven pairs.", "七个对子。"],
  20: ["All seven honours and seven knitted tiles (147, 258, 369 of three suits), each a single.", "七种字牌各一张，加上三种花色 147、258、369 中的七张，全为单张。"],
  21: ["Pungs and a pair of 2s, 4s, 6s and 8s only.", "只由 2、4、6、8 的刻子（或杠）和将组成。"],
  22: ["One suit only, no honours.", "只由一种花色的序数牌组成。"],
  23: ["Three identical chows of one suit.", "同一花色三副相同的顺子。"],
  24: ["Three pungs of one suit, each one higher.", "同一花色三副依次递增一的刻子。"],
  25: ["Suited 7, 8 and 9 only.", "只由序数牌 7、8、9 组成。"],
  26: ["Suited 4, 5 and 6 only.", "只由序数牌 4、5、6 组成。"],
  27: ["Suited 1, 2 and 3 only.", "只由序数牌 1、2、3 组成。"],
  28: ["123, 456 and 789 of one suit.", "同一花色的 123、456、789。"],
  29: ["123 and 789 of two suits, and a pair of 5s of the third.", "两种花色各有 123、789，第三种花色的 5 作将。"],
  30: ["Three chows of one suit, each starting one higher, or each two higher.", "同一花色三副依次递增一或递增二的顺子。"],
  31: ["Every set and the pair hold a 5.", "每副牌和将都有 5。"],
  32: ["Pungs of the same number in all three suits.", "三种花色同一数字的刻子。"],
  33: ["Three concealed pungs or kongs.", "三副暗刻（或暗杠）。"],
  34: ["Fourteen singles: knitted tiles (147, 258, 369 of three suits) and honours.", "十四张单张：三种花色 147、258、369 中的牌和字牌。"],
  35: ["147, 258 and 369, each in a different suit.", "147、258、369 分属三种花色。"],
  36: ["Suited 6 to 9 only.", "只由序数牌 6 至 9 组成。"],
  37: ["Suited 1 to 4 only.", "只由序数牌 1 至 4 组成。"],
  38: ["Three wind pungs or kongs.", "三副风刻（或杠）。"],
  39: ["123, 456 and 789, each in a different suit.", "123、456、789 分属三种花色。"],
  40: ["Tiles that look the same upside down only: 1234589 dots, 245689 bamboo, the White Dragon.", "只由 1234589 饼、245689 条和白板组成。"],
  41: ["The same chow in all three suits.", "三种花色同一数字的顺子。"],
  42: ["Pungs of three suits, each one higher (3 dots, 4 bamboo, 5 characters).", "三种花色依次递增一的刻子。"],
  43: ["A win with no other fan (flowers aside).", "除花牌外没有任何番种的和牌。"],
  44: ["Self-drawn on the last tile of the wall.", "自摸牌墙最后一张牌和牌。"],
  45: ["Won on the last discard.", "和最后一张打出的牌。"],
  46: ["Won on a kong's replacement tile (not a flower's).", "开杠后补的牌和牌（补花不算）。"],
  47: ["Won on the tile another player adds to a pung.", "和别人加杠的那张牌。"],
  48: ["Four pungs or kongs and a pair.", "四副刻子（或杠）加将。"],
  49: ["One suit and honours.", "一种花色的序数牌加字牌。"],
  50: ["Chows of three suits, each starting one higher.", "三种花色依次递增一的顺子。"],
  51: ["All three suits, a wind and a dragon.", "万、饼、条、风、箭五种牌俱全。"],
  52: ["Four melded sets, won on a discard for the pair.", "四副吃、碰、明杠，单钓别人打出的牌和牌。"],
  53: ["Two concealed kongs.", "两个暗杠。"],
  54: ["Two dragon pungs or kongs.", "两副箭刻（或杠）。"],
  55: ["Every set and the pair hold a 1, a 9 or an honour.", "每副牌和将都有 1、9 或字牌。"],
  56: ["Self-drawn with no melded set (concealed kongs allowed).", "没有吃、碰、明杠（暗杠可以），自摸和牌。"],
  57: ["Two melded kongs.", "两个明杠。"],
  58: ["Won on the last tile of its kind, the other three in sight.", "和其余三张已亮明的第四张牌。"],
  59: ["A pung or kong of a dragon.", "一副箭刻（或杠）。"],
  60: ["A pung or kong of the round's wind.", "与圈风相同的风刻（或杠）。"],
  61: ["A pung or kong of your seat wind.", "与本家门风相同的风刻（或杠）。"],
  62: ["Won on a discard with no melded set (concealed kongs allowed).", "没有吃、碰、明杠（暗杠可以），和别人打出的牌。"],
  63: ["Four chows and a pair of a suit.", "四副顺子，序数牌作将。"],
  64: ["All four of a tile in the hand, not as a kong.", "同一种牌四张都在手中，但不是杠。"],
  65: ["Pungs of the same number in two suits.", "两种花色同一数字的刻子。"],
  66: ["Two concealed pungs or kongs.", "两副暗刻（或暗杠）。"],
  67: ["A concealed kong.", "一个暗杠。"],
  68: ["No 1s, 9s or honours.", "没有 1、9 和字牌。"],
  69: ["Two identical chows of one suit.", "同一花色两副相同的顺子。"],
  70: ["The same chow in two suits.", "两种花色同一数字的顺子。"],
  71: ["Two chows of one suit, six tiles in a row (123 456).", "同一花色六张相连的两副顺子。"],
  72: ["123 and 789 of one suit.", "同一花色的 123 和 789。"],
  73: ["A pung or kong of 1s, 9s or a wind that no other fan counts.", "1、9 或风牌的刻子（或杠），未计入其他番种的。"],
  74: ["A melded kong.", "一个明杠。"],
  75: ["One of the three suits missing.", "缺少万、饼、条中的一种。"],
  76: ["No honours.", "没有字牌。"],
  77: ["Won on the 3 of 12 or the 7 of 89, the only tile waited on.", "只听 12 的 3 或 89 的 7 而和牌。"],
  78: ["Won on the middle tile of a chow, the only tile waited on.", "只听顺子中间的一张而和牌。"],
  79: ["Won on the pair's tile, the only tile waited on.", "只听将牌而和牌。"],
  80: ["Won on a tile you drew.", "自己摸到和牌的那张牌。"],
  81: ["1 point for each flower, counted once the hand has the minimum without them.", "每张花牌 1 番，只在达到起和分之后计入。"],
  82: ["A concealed kong and a melded kong.", "一个暗杠和一个明杠。"],
};

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
        // what it asks of a hand, on a line of its own under its name
        FAN_DEFS[f.number] ? el("tr", {class: "fan-def", "data-number": f.number}, el("td", {class: "no"}),
          el("td", {class: "def", colspan: 3}, FAN_DEFS[f.number][zh ? 1 : 0],
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
