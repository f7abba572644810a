// Global War pages: a new game (/war) and the game (/war/{id}). The turn
// is played by clicking countries on the map; every action goes to the
// API, and the page is reloaded from the stored game (the dice are in the
// log), so a closed browser comes back to the same turn.
import { countdowns } from "/assets/map.js";

const csrf = document.querySelector('meta[name="csrf"]').content;
const $ = (id) => document.getElementById(id);

function error(e) {
  const el = $("error");
  if (el) el.textContent = e ? String(e.message || e) : "";
}

async function api(method, path, body) {
  const r = await fetch(`/api/v1/war${path}`, {
    method,
    headers: { "content-type": "application/json", "x-csrf-token": csrf },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const j = await r.json().catch(() => null);
  if (!r.ok) throw new Error(j?.error?.message || `${r.status}`);
  return j;
}

// ---- /war: a new game -------------------------------------------------------

const form = $("new-war");
if (form) {
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const f = new FormData(form);
    const teams = f.get("teams") === "on";
    const body = {
      name: f.get("name"),
      hidden_names: f.get("hidden_names") === "on",
      unlimited_fortifications: f.get("unlimited_fortifications") === "on",
      teams,
    };
    // One field per team, taken whole: a password may contain a comma.
    if (teams) body.passwords = [1, 2, 3].map((t) => String(f.get(`password${t}`) || ""));
    else body.players = f.get("players");
    for (const k of ["time_limit", "keep"]) if (f.get(k)) body[k] = f.get(k);
    try {
      const r = await api("POST", "/games", body);
      location.href = `/war/${r.id}`;
    } catch (e) {
      error(e);
    }
  };
}

// ---- /war/{id}: the game -----------------------------------------------------

const main = document.querySelector("main.war");
if (main) {
  const gid = main.dataset.game;
  const phase = main.dataset.phase; // empty unless it is the viewer's turn
  let from = null; // the country clicked first (attack, fortify)

  const act = async (body) => {
    try {
      await api("POST", `/games/${gid}/actions`, body);
      location.reload();
    } catch (e) {
      error(e);
    }
  };
  const armies = () => Number($("armies")?.value || 1);
  const select = (c) => {
    for (const g of document.querySelectorAll("#map g.selected")) g.classList.remove("selected");
    from = c;
    if (c) document.getElementById(`c${c}`)?.classList.add("selected");
  };

  const click = (c) => {
    error(null);
    if (phase === "deploy") return act({ action: "deploy", country: c, armies: armies() });
    if (phase === "attack") {
      if (from === null || from === c) return select(from === c ? null : c);
      const dice = $("dice")?.value;
      const body = { action: "attack", from, to: c };
      if (dice) body.dice = Number(dice);
      return act(body);
    }
    if (phase === "fortify") {
      if (from === null || from === c) return select(from === c ? null : c);
      return act({ action: "fortify", from, to: c, armies: armies() });
    }
  };

  for (const g of document.querySelectorAll("#map g[id^=c]")) {
    const c = Number(g.id.slice(1));
    if (!c) continue;
    g.style.cursor = phase ? "pointer" : "default";
    g.addEventListener("click", () => click(c));
  }
  for (const b of document.querySelectorAll("button.turn-in")) {
    b.onclick = () => act({ action: "turn_in", set: b.dataset.set });
  }
  const on = (id, f) => {
    if ($(id)) $(id).onclick = f;
  };
  on("move-in", () => act({ action: "move_in", armies: armies() }));
  on("end-attack", () => act({ action: "end_attack" }));
  on("end-turn", () => act({ action: "end_turn" }));
  // The game master only: the turn to move is rolled back and passed on.
  on("skip", async () => {
    if (!confirm("Skip this turn? What was done in it is rolled back.")) return;
    try {
      await api("POST", `/games/${gid}/skip`, {});
      location.reload();
    } catch (e) {
      error(e);
    }
  });
  const signup = (path, body) => async () => {
    try {
      await api("POST", `/games/${gid}/${path}`, body ? body() : {});
      location.reload();
    } catch (e) {
      error(e);
    }
  };
  on("join", signup("join", () => ($("password") ? { password: $("password").value } : {})));
  on("vote-yes", signup("vote", () => ({ vote: true })));
  on("vote-no", signup("vote", () => ({ vote: false })));
  on("leave", async () => {
    await fetch(`/api/v1/war/games/${gid}/leave`, {
      method: "POST",
      headers: { "x-csrf-token": csrf },
      credentials: "same-origin",
    });
    location.reload();
  });
  countdowns();

  // Others' moves: reload when the stored game changes (not mid-selection).
  setInterval(async () => {
    if (from !== null) return;
    try {
      const r = await fetch(`/api/v1/war/games/${gid}`, { credentials: "same-origin" });
      const g = await r.json();
      if (g.version && g.version !== main.dataset.version) location.reload();
    } catch (_) {
      /* the server is restarting: try again */
    }
  }, 3000);
}
