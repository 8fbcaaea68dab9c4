// The list of tournaments in the database of `guobiao serve --db`.
"use strict";

(async () => {
  const list = document.getElementById("list");
  try {
    const rows = await api("GET", "/api/tournaments");
    if (!rows.length) fill(list, el("li", {class: "muted"}, "No tournament yet (guobiao tournament create NAME)."));
    else fill(list, rows.map((r) => el("li", {},
      el("a", {href: tUrl(r.name)}, r.name), " ",
      el("span", {class: "muted"}, `${r.sessions} 局 sessions`), " · ",
      el("a", {href: tUrl(r.name, "projector")}, "projector"), " · ",
      el("a", {href: tUrl(r.name, "referee")}, "referee"))));
  } catch (err) {
    fill(list, el("li", {class: "error"}, err.message));
  }
})();
