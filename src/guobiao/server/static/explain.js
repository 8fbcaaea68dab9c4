// The end-of-hand breakdown (server/breakdown.py, the message's "explain"): the sets each fan
// uses, the fans the hand shows but does not count and the principle, each payment. Loaded
// after common.js by the table and replay pages; handResultParts calls fanSets / explainParts.
"use strict";

// zh follows the printed score sheet: 底分 base, 番 fan points, 花牌 flowers, 点炮, 自摸.
Object.assign(STRINGS.en, {
  notCounted: "Not counted",
  partOf: "part of",
  sameSet: "a set already counted in this fan",
  combinedOnce: "both sets already combined",
  waitedOn: "the hand waited on these tiles, not on one alone",
  payTitle: "Payments",
  payTo: "Paid to",
  pay_base: "base",
  pay_fans: "fans",
  pay_flowers: "flowers",
  pay_penalty: "penalty",
  deducted: "deducted",
  payDealIn: "dealt in",
  pen_false_win: "false win",
  pen_fake_win: "fake win",
  pen_violation: "violation",
});
Object.assign(STRINGS.zh, {
  notCounted: "不计的番种",
  partOf: "含于",
  sameSet: "其中一组已计入同一番种",
  combinedOnce: "两组都已组合过",
  waitedOn: "和牌前听这几张牌，不止一张",
  payTitle: "付分",
  payTo: "付给",
  pay_base: "底分",
  pay_fans: "番",
  pay_flowers: "花牌",
  pay_penalty: "罚分",
  deducted: "扣除",
  payDealIn: "点炮",
  pen_false_win: "错和",
  pen_fake_win: "诈和",
  pen_violation: "违例",
});

// Tile groups ("W1W2W3") drawn small, one span per group; a group longer than a kong (全不靠's
// fourteen tiles) may wrap (in one line it ran a phone's fan table 15 px past its box).
function setTiles(groups) {
  return groups.map((g) => {
    const tiles = splitTiles(g);
    return el("span", {class: tiles.length > 4 ? "set long" : "set"}, tiles.map((x) => tile(x, {cls: "mini"})));
  });
}

// Under fan i of the fan table: the sets it uses, one group of sets per time it counts.
function fanSets(x, i) {
  const fan = x && x.fans ? x.fans[i] : null;
  if (!fan || !fan.sets.some((use) => use.length)) return null;
  return el("div", {class: "fan-sets"}, fan.sets.filter((use) => use.length).map((use) => el("span", {class: "use"}, setTiles(use))));
}

function excludedText(e) {
  const zh = LANG === "zh";
  const by = zh ? e.by.zh : e.by.en;
  let why = "";
  if (e.by.code === "non_identical") why = t("sameSet");
  else if (e.by.code === "account_once") why = t("combinedOnce");
  else if (e.by.code === "single_wait") why = t("waitedOn");  // e.sets: the tiles waited on
  else if (e.because_of) why = `${t("partOf")}${zh ? "" : " "}${zh ? e.because_of.zh : e.because_of.en}`;
  return zh ? `${why}（${by}）` : `${why} (${by})`;
}

// Payments grouped by payer and payee, in the order the server lists them.
function paymentRows(x, names, r) {
  const rows = new Map();
  for (const p of x.payments) {
    const key = `${p.from}>${p.to}`;
    if (!rows.has(key)) rows.set(key, {from: p.from, to: p.to, items: []});
    rows.get(key).items.push(p);
  }
  const who = (s) => `${t("winds")[s]} ${names[s]}`;
  return [...rows.values()].map((row) => el("tr", {},
    el("td", {}, who(row.from), row.to === r.winner ? "" : ` → ${row.to === null ? t("deducted") : who(row.to)}`),
    el("td", {}, row.items.map((p) => `${t("pay_" + p.what)}${p.kind ? " " + t("pen_" + p.kind) : ""} ${p.amount}`).join(" + "),
      r.discarder !== null && r.discarder === row.from && row.to === r.winner ? ` (${t("payDealIn")})` : ""),
    el("td", {class: "num"}, String(row.items.reduce((a, p) => a + p.amount, 0)))));
}

// After the fan table: the fans not counted (folded), then the payments.
function explainParts(x, names, r) {
  const parts = [];
  const zh = LANG === "zh";
  if (x.excluded.length) {
    parts.push(el("details", {class: "not-counted"},
      el("summary", {}, `${t("notCounted")} (${x.excluded.length})`),
      el("ul", {}, x.excluded.map((e) => el("li", {},
        el("b", {}, zh ? e.zh : e.en), e.sets.length ? el("span", {class: "fan-sets"}, setTiles(e.sets)) : null,
        " " + excludedText(e))))));
  }
  if (x.payments.length) {
    parts.push(el("table", {class: "payments"},
      el("caption", {}, r.winner === null ? t("payTitle") : `${t("payTo")} ${t("winds")[r.winner]} ${names[r.winner]}`),
      paymentRows(x, names, r)));
  }
  return parts;
}
