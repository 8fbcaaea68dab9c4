// The list of tournaments in the database of `guobiao serve --db`.
"use strict";

(async () => {
  const list = document.getElementById("list");
  try {
    const rows = await api("GET", "/api/tournaments");
    if (!rows.length) fill(list, el("li", {class: "muted"}, "还没有比赛 No tournament yet (guobiao tournament create NAME)."));
    else fill(list, rows.map((r) => el("li", {},
      el("a", {href: tUrl(r.name)}, r.name), " ",
      el("span", {class: "muted"}, `${r.sessions} ${term("session", "zh")} sessions`), " · ",
      el("a", {href: tUrl(r.name, "projector")}, "投影 projector"), " · ",
      el("a", {href: tUrl(r.name, "referee")}, "裁判 referee"))));
  } catch (err) {
    fill(list, el("li", {class: "error"}, err.message));
  }
})();
