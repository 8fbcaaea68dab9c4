// Referee score entry: log in (an account the organiser created for this tournament), pick a
// session and a table, enter the four 局分 E S W N. They must sum to 4 × the starting points less
// the deductions: checked here before saving, and again by the server. An entered table is
// corrected (the audit trail names this account). Organisers also run the session clock.
"use strict";

const NAME = tournamentName();
let ME = null;       // {username, role, csrf}
let SUMMARY = null;
let TABLES = [];     // the seating of the chosen session
let DIRTY = false;   // the referee is typing: live updates must not overwrite the form
const $ = (id) => document.getElementById(id);

async function post(path, body) {
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": ME ? ME.csrf : ""},
    body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const d = data.detail;
    throw serverError(d && typeof d === "object" && !Array.isArray(d) ? d
      : {code: res.status === 422 ? "bad_request" : undefined, message: String(d || res.status)}, res.status);
  }
  return data;
}

function showLoggedIn() {
  $("login-card").hidden = !!ME;
  $("entry-card").hidden = !ME;
  $("clock-card").hidden = !ME || ME.role !== "organiser";
  $("logout").hidden = !ME;
  $("who").textContent = ME ? `${ME.username} (${ME.role === "organiser" ? "组织者 organiser" : "裁判 referee"})` : "";
}

function currentTable() {
  const n = Number($("table").value);
  return TABLES.find((t) => t.table === n) || null;
}

function numberOf(input) {
  const v = input.value.trim();
  return /^-?\d+$/.test(v) ? Number(v) : null;
}

function check(event) {
  if (event) DIRTY = true;
  const t = currentTable();
  if (!t || !SUMMARY) { $("save").disabled = true; return; }
  const scores = [...document.querySelectorAll("input.score")].map(numberOf);
  const deducted = [...document.querySelectorAll("input.deduction")].map((i) => numberOf(i) ?? (i.value.trim() ? NaN : 0));
  const expected = 4 * SUMMARY.starting_points - deducted.reduce((a, b) => a + (b || 0), 0);
  const sum = scores.reduce((a, b) => a + (b ?? 0), 0);
  $("sum").textContent = sum;
  $("expected").textContent = expected;
  const complete = scores.every((s) => s !== null);
  const badDeduction = deducted.some((d) => Number.isNaN(d) || d < 0);
  let state = "";
  if (t.source === "hands") state = "已按盘录入：请用 guobiao tournament hand 更正 entered hand by hand: correct it with guobiao tournament hand";
  else if (badDeduction) state = `✗ ${term("deduction", "zh")}须为正整数 a deduction is a positive whole number`;
  else if (!complete) state = "";
  else if (sum !== expected) state = `✗ ${sum - expected > 0 ? "+" : ""}${sum - expected}`;
  else state = "✓";
  $("sum-state").textContent = state;
  $("sum-state").className = state.startsWith("✓") ? "ok" : "error";
  const ok = complete && !badDeduction && sum === expected && t.source !== "hands";
  $("save").disabled = !ok;
  if (ok) fill($("entry-error"));
  $("entry").dataset.valid = ok ? "yes" : "no";
  return ok;
}

function showTable() {
  const t = currentTable();
  DIRTY = false;
  fill($("entry-error"));
  if (!t) { fill($("entry-rows")); check(); return; }
  $("table-state").textContent = t.entered
    ? (t.source === "hands" ? "已按盘录入 Entered hand by hand" : "已录入 — 更正 Entered: saving corrects it (audit trail)")
    : "未录入 Not entered yet";
  $("save").textContent = t.entered ? "更正 Correct" : "保存 Save";
  fill($("entry-rows"), t.seats.map((s) => el("tr", {},
    el("th", {class: "wind"}, WIND_LABELS[s.wind]),
    el("td", {class: "name"}, s.name),
    el("td", {}, el("input", {class: "score", name: `score-${s.wind}`, inputmode: "numeric", pattern: "-?[0-9]*",
      autocomplete: "off", value: s.score ?? "", "aria-label": `score ${s.wind}`, oninput: check})),
    el("td", {}, el("input", {class: "deduction", name: `deduction-${s.wind}`, inputmode: "numeric", pattern: "[0-9]*",
      autocomplete: "off", value: t.deductions[s.wind] || "", placeholder: "0", "aria-label": `deduction ${s.wind}`, oninput: check})))));
  check();
}

async function loadSession(keepTable) {
  const session = Number($("session").value);
  if (!session) { TABLES = []; showTable(); return; }
  const data = await api("GET", tApi(NAME, "seating", session));
  TABLES = data.tables;
  const before = $("table").value;
  fill($("table"), TABLES.map((t) => el("option", {value: t.table}, `${t.table}${t.entered ? " ✓" : ""}`)));
  if (keepTable && TABLES.some((t) => String(t.table) === before)) {
    $("table").value = before;
    if (DIRTY) { check(); return; }  // keep what the referee is typing
  } else {
    // on to the next table not yet entered; with none left, stay on the table just saved (the
    // first one would look like the table the referee was entering)
    const open = TABLES.find((t) => !t.entered);
    if (open) $("table").value = String(open.table);
    else if (TABLES.some((t) => String(t.table) === before)) $("table").value = before;
  }
  showTable();
}

async function loadSummary(keepTable = true) {
  SUMMARY = await api("GET", tApi(NAME));
  const before = $("session").value;
  fill($("session"), SUMMARY.seated.map((n) => el("option", {value: n}, `${n}`)));
  $("session").value = before && SUMMARY.seated.includes(Number(before)) ? before : String(SUMMARY.current ?? "");
  if (!$("clock-session").value && SUMMARY.current) $("clock-session").value = SUMMARY.current;
  showClock(SUMMARY.clock);
  await loadSession(keepTable);
}

$("login").addEventListener("submit", async (e) => {
  e.preventDefault();
  fill($("login-error"));
  const form = new FormData(e.target);
  try {
    ME = await post(tApi(NAME, "login"), {username: form.get("username"), password: form.get("password")});
    e.target.reset();
    showLoggedIn();
    await loadSummary();
  } catch (err) {
    $("login-error").textContent = err.message;
  }
});

$("logout").addEventListener("click", async () => {
  try { await post(tApi(NAME, "logout"), {}); } catch (err) { /* the session may be over already */ }
  ME = null;
  showLoggedIn();
});

$("entry").addEventListener("submit", async (e) => {
  e.preventDefault();
  fill($("entry-error"));
  fill($("entry-ok"));
  if (!check()) {
    $("entry-error").textContent = `${term("session_score", "zh")}合计须为 ${$("expected").textContent} The scores must sum to ${$("expected").textContent}.`;
    return;
  }
  const t = currentTable();
  const scores = {};
  const deductions = {};
  document.querySelectorAll("input.score").forEach((i) => { scores[i.name.slice(6)] = numberOf(i); });
  document.querySelectorAll("input.deduction").forEach((i) => { deductions[i.name.slice(10)] = numberOf(i) || 0; });
  try {
    await post(tApi(NAME, "results"), {
      session: Number($("session").value), table: t.table, scores, deductions,
      note: $("note").value || null, correct: t.entered,
    });
    $("entry-ok").textContent = `✓ ${t.entered ? "已更正 corrected" : "已保存 saved"}: 第${t.table}${term("table", "zh")} table ${t.table}`;
    $("note").value = "";
    await loadSummary(false);  // on to the next table not yet entered
  } catch (err) {
    if (err.status === 401) { ME = null; showLoggedIn(); }
    $("entry-error").textContent = err.message;
  }
});

const showClock = makeCountdown((clock, remaining) => {
  $("clock-time").textContent = clockText(remaining);
  $("clock-state").textContent = remaining <= 0 ? "时间到 time is up" : clock.running ? "" : "暂停 paused";
  $("clock-time").classList.toggle("warn", remaining <= clock.warning);
});

async function clockAction(action) {
  fill($("clock-error"));
  const body = {action};
  const session = Number($("clock-session").value);
  if (session) body.session = session;
  if (action === "reset") body.minutes = Number($("clock-minutes").value) || 180;
  try {
    showClock(await post(tApi(NAME, "clock"), body));
  } catch (err) {
    $("clock-error").textContent = err.message;
  }
}

$("clock-start").addEventListener("click", () => clockAction("start"));
$("clock-pause").addEventListener("click", () => clockAction("pause"));
$("clock-reset").addEventListener("click", () => clockAction("reset"));
// another table or session: the last save's confirmation is about a table no longer shown
$("session").addEventListener("change", () => { fill($("entry-ok")); loadSession(false); });
$("table").addEventListener("change", () => { fill($("entry-ok")); showTable(); });

(async () => {
  $("t-name").textContent = NAME;
  document.title = NAME + " — referee";
  try {
    ME = await api("GET", tApi(NAME, "me"));
  } catch (err) {
    ME = null;
  }
  showLoggedIn();
  try { await loadSummary(); } catch (err) { $("entry-error").textContent = err.message; }
  watchTournament(NAME, async (v, clock) => {
    if (clock) showClock(clock);
    // another referee's entry: refresh the tables (their ✓) unless this form is being filled
    if (ME && !DIRTY && !$("note").value) {
      try { await loadSummary(true); } catch (err) { /* shown on the next save */ }
    }
  });
})();
