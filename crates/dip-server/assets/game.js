// The game page: ordering by clicking (as in DIP) and by typing, both
// editing the same order list, which the server's order reader checks;
// press, history, live updates and the game master's tools.
import { countdowns, ZoomPan } from "/assets/map.js";
import { OrderLayer } from "/assets/draw.js";

const main = document.querySelector("main.game");
const gid = main.dataset.game;
const isPlayer = main.dataset.player === "true";
const csrf = document.querySelector('meta[name="csrf"]').content;
const $ = (id) => document.getElementById(id);

let game = null;        // GET /games/{id}
let legal = null;       // GET /games/{id}/legal
let checked = [];       // the server's reading of the order lines
let mode = "move";      // the order-type buttons (phones); modifier keys win
let sel = null;         // {province, kind, target}
let history = [];       // processed phases
let showing = null;     // the phase in view when looking back
let playing = null;
let entering = null;    // the orders being entered, drawn on the map
const drawnAs = new Map();  // order text → how to draw it (from the legal orders clicked)

async function api(method, path, body) {
  const r = await fetch(`/api/v1/games/${gid}${path}`, {
    method,
    headers: { "content-type": "application/json", "x-csrf-token": csrf },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const j = await r.json().catch(() => null);
  if (!r.ok) throw new Error(j?.error?.message || `${r.status}`);
  return j;
}

function error(e) {
  $("error").textContent = e ? String(e.message || e) : "";
}

// ---- The map --------------------------------------------------------------

const touch = matchMedia("(pointer: coarse)").matches;
const zoom = new ZoomPan($("map"));
zoom.attach($("map").querySelector("svg"));
// On a narrow screen the whole map makes units of a few pixels: start
// zoomed in so that a unit (28 map units) is at least 24 px wide, around
// the player's own units, or the map's middle.
function phoneZoom(provinces) {
  // A desktop shows the whole map.
  if (!matchMedia("(max-width: 800px)").matches) return;
  const svg = $("map").querySelector("svg");
  zoom.reset();
  const width = svg.getBoundingClientRect().width;
  // A unit's width as drawn, or 28 map units where there is none.
  const unit = svg.querySelector("g.unit");
  const k = unit ? unit.getBoundingClientRect().width : (width / zoom.full.w) * 28;
  if (!width || !k || k >= 24) return;
  const m = svg.getScreenCTM().inverse();
  const pts = provinces.map(hit).filter((h) => h).map((h) => {
    const r = h.getBoundingClientRect();
    return new DOMPoint(r.x + r.width / 2, r.y + r.height / 2).matrixTransform(m);
  });
  zoom.zoom(27 / k);
  if (pts.length) zoom.centre({ x: pts.reduce((a, p) => a + p.x, 0) / pts.length, y: pts.reduce((a, p) => a + p.y, 0) / pts.length });
}
$("zoom-in").onclick = () => zoom.zoom(1.5);
$("zoom-out").onclick = () => zoom.zoom(1 / 1.5);
$("zoom-reset").onclick = () => zoom.reset();

function hit(p) {
  return $("map").querySelector(`#hits [data-province="${CSS.escape(p)}"]`);
}

function mark(provinces, cls) {
  for (const el of $("map").querySelectorAll(`#hits .${cls}`)) el.classList.remove(cls);
  for (const p of provinces) hit(p)?.classList.add(cls);
}

function clearMarks() {
  for (const c of ["legal", "selected", "target"]) mark([], c);
}

async function showMap(phase) {
  const q = phase ? `?phase=${encodeURIComponent(phase)}` : "?clickable=1";
  const r = await fetch(`/api/v1/games/${gid}/map.svg${q}`, { credentials: "same-origin" });
  if (!r.ok) return;
  $("map").innerHTML = await r.text();
  zoom.attach($("map").querySelector("svg"));
  $("history-mark").hidden = !phase;
  attachLayers(!phase);
  showResultsToggle();
}

// The last phase's orders and results, drawn by the server over the map
// of now (and a played phase's over its own): the toggle hides them, and
// stays as set while the page is open (the class is on the map's box,
// which every new map is drawn into).
function showResultsToggle() {
  const drawn = !!$("map").querySelector("svg .results");
  $("results-toggle").hidden = !drawn;
}
$("show-results").addEventListener("change", () => {
  $("map").classList.toggle("hide-results", !$("show-results").checked);
});

// The orders being entered are drawn on the map of now (a phase of the
// history shows its own orders, drawn by the server).
function attachLayers(now) {
  const svg = $("map").querySelector("svg");
  entering = now && svg ? new OrderLayer(svg) : null;
  drawLive();
}

// ---- Orders ---------------------------------------------------------------

const area = $("orders");

function unitOf(p) {
  return legal?.units.find((u) => u.province === p);
}

// The province of the unit a line orders, from the server's reading
// (`A Par-Bur`) or from the line itself.
function lineProvince(text, i) {
  const order = checked[i]?.text === text.trim() ? checked[i].order : null;
  const words = (order || text).replace(/^[A-Za-z]+:\s*/, "").trim().split(/[\s\-(/]+/);
  const w = /^[afAF]$/.test(words[0]) || /^(army|fleet)$/i.test(words[0]) ? words[1] : words[0];
  return (w || "").toLowerCase();
}

let clickedAt = null;  // when the click that makes an order happened

const norm = (t) => t.trim().replace(/\s+/g, " ").toUpperCase();

// The order lines drawn: each as the server read it, or as the legal
// order clicked (before the server has answered).
function drawLive() {
  if (!entering) return;
  const lines = area ? area.value.split("\n").filter((l) => l.trim()) : [];
  entering.draw(lines.map((l) => checked.find((c) => c.text === l.trim() && c.draw)?.draw ?? drawnAs.get(norm(l)) ?? null));
}

// A legal order clicked (`o.text`, `o.draw`) takes the line of its unit.
function setOrder(province, o) {
  if (o.draw) drawnAs.set(norm(o.text), o.draw);
  const text = o.text;
  const started = clickedAt ?? performance.now();
  const lines = area.value.split("\n");
  const keep = lines.filter((l, i) => l.trim() && (province === null || lineProvince(l, i) !== province));
  keep.push(text);
  area.value = keep.join("\n");
  renderPending();
  // How long from the pointer going up to the frame showing the order
  // (the browser test reads it).
  requestAnimationFrame(() => {
    const ms = (performance.now() - started).toFixed(2);
    main.dataset.orderMs = ms;
    // The arrow (ring, line, mark) is drawn by then too.
    if (entering?.g.querySelector(`.order[data-at="${CSS.escape(o.draw?.at ?? "")}"]`)) main.dataset.arrowMs = ms;
  });
  save();
}

function renderPending() {
  // Shown at once; the server's reading replaces it when it answers.
  const list = $("checked");
  list.replaceChildren();
  for (const l of area.value.split("\n").filter((l) => l.trim())) {
    const done = checked.find((c) => c.text === l.trim());
    const li = document.createElement("li");
    li.textContent = done?.error ? `${l} — [${done.error.number}] ${done.error.message}` : done?.order ? `${l} → ${done.order}` : l;
    if (done?.error) li.className = "bad";
    list.append(li);
  }
  drawLive();
}

// Each change saves the order lines after a pause of 350 ms. The PUTs go
// one after another, each reading the lines when it is sent, so the last
// change lands last; and only the latest change's save may say "saved" or
// "not saved" (an earlier PUT answering while a later change waited said
// "saved", and a player processed with stale orders).
let saveTimer = null;
let saveGeneration = 0;       // numbers the changes; the latest is current
let saving = Promise.resolve(); // the PUT in flight: the next waits for it
function save() {
  const generation = ++saveGeneration;
  clearTimeout(saveTimer);
  $("save-state").textContent = "saving…";
  saveTimer = setTimeout(() => { saving = saving.then(() => putOrders(generation)); }, 350);
}

async function putOrders(generation) {
  try {
    const lines = area.value.split("\n").map((l) => l.trim()).filter((l) => l);
    const r = await api("PUT", "/orders", { orders: lines, phase: game.phase });
    checked = r.lines;
    renderPending();
    if (generation !== saveGeneration) return;
    $("save-state").textContent = "saved";
    error(null);
  } catch (e) {
    if (generation !== saveGeneration) return;
    $("save-state").textContent = "not saved";
    error(e);
  }
}

// The province of the last click on the map: a chooser opens there.
let clickedProvince = null;

// The chooser beside the clicked province on the map (on a phone or a
// short screen, the ordering panel's place for it was below the fold).
function placeChooser(box) {
  const board = $("board");
  if (box.parentElement !== board) board.append(box);
  const el = clickedProvince && hit(clickedProvince);
  const b = board.getBoundingClientRect();
  const r = el ? el.getBoundingClientRect() : { left: b.left, bottom: b.top + 40, width: 0 };
  const centre = r.left + r.width / 2 - b.left;
  const x = Math.max(0, Math.min(centre - box.offsetWidth / 2, b.width - box.offsetWidth));
  const below = r.bottom - b.top + 6;
  const y = below + box.offsetHeight > b.height ? Math.max(0, r.top - b.top - box.offsetHeight - 6) : below;
  box.style.left = `${x}px`;
  box.style.top = `${y}px`;
}

function choose(options, then) {
  // Several orders fit the click (coasts, army or fleet): ask which.
  const box = $("chooser");
  box.replaceChildren();
  for (const o of options) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = o.text;
    b.onclick = () => { box.hidden = true; then(o); };
    box.append(b);
  }
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.textContent = "Cancel";
  cancel.onclick = () => { box.hidden = true; };
  box.append(cancel);
  box.hidden = false;
  placeChooser(box);
}

function pick(unit, orders) {
  if (orders.length === 1) setOrder(unit.province, orders[0]);
  else if (orders.length > 1) choose(orders, (o) => setOrder(unit.province, o));
  deselect();
}

function deselect() {
  sel = null;
  clearMarks();
}

function select(p, kind) {
  sel = { province: p, kind, target: null };
  clearMarks();
  mark([p], "selected");
  const u = unitOf(p);
  const goes = u.orders.filter((o) => o.kind === "move" || o.kind === "retreat").map((o) => o.to);
  if (kind === "move") mark(goes, "legal");
  if (kind === "support" || kind === "convoy") {
    mark([...new Set(u.orders.filter((o) => o.kind === kind).map((o) => o.target))], "legal");
  }
}

function onProvince(p, ev) {
  if (!legal || showing) return;
  clickedProvince = p;
  let kind = ev.shiftKey ? "support" : (ev.ctrlKey || ev.metaKey) ? "convoy" : mode;
  const phase = game.phase_kind;
  const u = unitOf(p);
  if (phase === "adjustment") {
    if (u && (kind === "disband" || kind === "move")) {
      const d = u.orders.filter((o) => o.kind === "disband");
      if (d.length) return setOrder(p, d[0]);
    }
    const builds = legal.builds.filter((o) => o.kind === "build" && o.province === p);
    if (builds.length === 1) setOrder(p, builds[0]);
    else if (builds.length) choose(builds, (o) => setOrder(p, o));
    return;
  }
  if (kind === "hold") {
    if (u) setOrder(p, u.orders.find((o) => o.kind === (phase === "retreat" ? "disband" : "hold")));
    return;
  }
  if (kind === "disband" && u) {
    const d = u.orders.find((o) => o.kind === "disband");
    if (d) setOrder(p, d);
    return;
  }
  if (!sel) {
    if (u) select(p, kind === "build" ? "move" : kind);
    return;
  }
  const me = unitOf(sel.province);
  if (sel.kind === "move" || phase === "retreat") {
    if (p === sel.province) return deselect();
    if (kind === "support" || kind === "convoy") {
      // Shift or ctrl on the second click: the unit to support or convoy.
      sel.kind = kind;
    } else {
      const fit = me.orders.filter((o) => (o.kind === "move" || o.kind === "retreat") && o.to === p);
      if (fit.length) return pick(me, fit);
      if (u) return select(p, "move");
      return deselect();
    }
  }
  if (!sel.target) {
    const fit = me.orders.filter((o) => o.kind === sel.kind && o.target === p);
    if (!fit.length) return deselect();
    sel.target = p;
    mark([p], "target");
    mark(fit.map((o) => o.to), "legal");
    return;
  }
  const fit = me.orders.filter((o) => o.kind === sel.kind && o.target === sel.target && o.to === p);
  pick(me, fit);
}

function onDouble(p) {
  if (!legal || showing) return;
  const u = unitOf(p);
  if (!u) return;
  const hold = u.orders.find((o) => o.kind === (game.phase_kind === "retreat" ? "disband" : "hold"));
  if (hold) setOrder(p, hold);
  deselect();
}

// The pointer going up starts the click: its time stamp is when the
// player let go, before any handler ran.
let pointerUp = null;
$("map").addEventListener("pointerup", (ev) => { pointerUp = ev.timeStamp; }, true);
$("map").addEventListener("click", (ev) => {
  clickedAt = pointerUp ?? ev.timeStamp;
  pointerUp = null;
  const t = ev.target.closest?.("[data-province]");
  if (t) onProvince(t.dataset.province, ev);
  clickedAt = null;
});
$("map").addEventListener("dblclick", (ev) => {
  clickedAt = pointerUp ?? ev.timeStamp;
  const t = ev.target.closest?.("[data-province]");
  if (t) onDouble(t.dataset.province);
  clickedAt = null;
});

if (isPlayer && area) {
  area.addEventListener("input", () => { renderPending(); save(); });
  for (const b of document.querySelectorAll("#modes [data-mode]")) {
    b.onclick = () => {
      mode = b.dataset.mode;
      for (const o of document.querySelectorAll("#modes [data-mode]")) o.classList.toggle("on", o === b);
      deselect();
    };
  }
  $("waive").onclick = () => {
    const w = legal?.builds.find((o) => o.kind === "waive");
    if (w) setOrder(null, w);
  };
  $("ready").onclick = async () => {
    const me = game.you;
    try { await api("POST", "/ready", { ready: !me.ready, phase: game.phase }); await refresh(); } catch (e) { error(e); }
  };
  $("draw").onclick = async () => {
    try { await api("POST", "/draw", { vote: !game.you.draw }); await refresh(); } catch (e) { error(e); }
  };
  $("concede").onclick = async () => {
    if (!confirm("Concede the game to the leader when all others do?")) return;
    try { await api("POST", "/concede", { vote: true }); await refresh(); } catch (e) { error(e); }
  };
}

// ---- The game's state -----------------------------------------------------

function renderStatus() {
  $("phase").textContent = game.phase_title;
  $("status").textContent = game.paused ? "paused" : game.status;
  $("game-name").textContent = game.name;
  const cd = document.querySelector(".game-head [data-deadline], .game-head .countdown");
  if (cd) {
    if (game.deadline) cd.dataset.deadline = game.deadline; else { delete cd.dataset.deadline; cd.textContent = game.paused ? "paused" : "no deadline"; }
  }
  for (const p of game.powers) {
    const row = document.querySelector(`#powers tr[data-power="${CSS.escape(p.name)}"]`);
    if (!row) continue;
    row.children[1].textContent = p.player ?? "—";
    row.children[2].textContent = p.centre_count;
    row.querySelector(".submitted").textContent = p.orders_submitted ? "✓" : "";
    row.querySelector(".ready").textContent = p.ready ? "✓" : "";
  }
  if (isPlayer && $("ready")) {
    $("ready").textContent = game.you?.ready ? "Not ready" : "Ready";
    $("draw").textContent = game.you?.draw ? "Withdraw draw vote" : "Vote draw";
  }
  const pause = $("gm-pause");
  if (pause) pause.textContent = game.paused ? "Resume" : "Pause";
  renderJoined();
}

// A forming game: who has joined and the powers still free, drawn again
// when the stream says someone joined or left (the server drew them
// first, as `pages::joined` does).
function renderJoined() {
  const box = $("joined-players");
  if (!box || game.status !== "forming") return;
  const waiting = game.waiting || [];
  const choice = game.assignment === "choice";
  const wanted = waiting.map((m) => m.wanted).filter((w) => w);
  const free = game.powers.filter((p) => !p.player && !wanted.includes(p.name)).map((p) => p.name);
  const h2 = document.createElement("h2");
  h2.textContent = `Joined (${waiting.length} of ${game.players.max})`;
  const parts = [h2];
  if (!waiting.length) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = "Nobody yet.";
    parts.push(p);
  }
  const ul = document.createElement("ul");
  for (const m of waiting) {
    const li = document.createElement("li");
    li.dataset.player = m.player;
    li.append(`${m.player} · `);
    if (m.wanted) li.append(m.wanted);
    else {
      const any = document.createElement("span");
      any.className = "muted";
      any.textContent = choice ? "any power" : "a power drawn at the start";
      li.append(any);
    }
    ul.append(li);
  }
  parts.push(ul);
  if (choice) {
    const p = document.createElement("p");
    p.className = "muted";
    p.id = "free-powers";
    p.textContent = `Free: ${free.join(", ")}`;
    parts.push(p);
  }
  box.replaceChildren(...parts);
  // The join form offers only the powers still free.
  const select = document.querySelector("#join-form select[name=power]");
  if (select) {
    const was = select.value;
    select.replaceChildren(new Option("any power", ""), ...free.map((n) => new Option(n, n)));
    select.value = free.includes(was) ? was : "";
  }
}

async function refresh() {
  game = await api("GET", "");
  renderStatus();
}

async function loadOrders() {
  if (!isPlayer || !area || game.status !== "active") return;
  const [o, l] = await Promise.all([api("GET", "/orders"), api("GET", "/legal")]);
  legal = l;
  main.dataset.legal = l.phase;  // which phase a click orders for (the browser test waits for it)
  checked = o.lines;
  area.value = o.orders.join("\n");
  renderPending();
  // A touch screen has no Shift, Ctrl or double-click: its hints name the buttons.
  const hint = touch ? {
    movement: "Tap a unit, then where it goes. For a hold, support or convoy, press its button first.",
    retreat: "Tap a dislodged unit, then where it retreats; Disband, then the unit, to disband.",
    adjustment: `Tap a home centre to build, a unit to disband. Builds or disbands: ${legal.balance}.`,
  } : {
    movement: "Click a unit, then where it goes. Double-click: hold. Shift: support. Ctrl: convoy.",
    retreat: "Click a dislodged unit, then where it retreats. Double-click: disband.",
    adjustment: `Click a home centre to build, a unit to disband. Builds or disbands: ${legal.balance}.`,
  };
  $("hint").textContent = hint[game.phase_kind] || "";
}

async function newPhase() {
  await refresh();
  deselect();
  if (!showing) await showMap(null);
  await loadOrders().catch(error);
  await loadHistory();
}

// ---- Press ----------------------------------------------------------------

async function loadMessages() {
  const r = await api("GET", "/messages");
  const list = $("messages");
  list.replaceChildren();
  for (const m of r.messages) {
    const li = document.createElement("li");
    const from = document.createElement("span");
    from.className = "from";
    from.textContent = `${m.from} → ${Array.isArray(m.to) ? m.to.join(", ") : "all"} (${m.phase}): `;
    const text = document.createElement("span");
    text.textContent = m.text;
    li.append(from, text);
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
}

$("send")?.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const boxes = [...document.querySelectorAll("#recipients input:checked")].map((b) => b.value);
  const to = boxes.includes("all") || !boxes.length ? "all" : boxes;
  try {
    await api("POST", "/messages", { to, text: $("message").value });
    $("message").value = "";
    await loadMessages();
  } catch (e) { error(e); }
});
for (const b of document.querySelectorAll('#recipients input:not([value="all"])')) {
  b.addEventListener("change", () => { document.querySelector('#recipients input[value="all"]').checked = false; });
}

// ---- History --------------------------------------------------------------

async function loadHistory() {
  const [r, e] = await Promise.all([api("GET", "/phases"), api("GET", "/edits")]);
  const edits = $("edits");
  edits.replaceChildren();
  for (const x of e.edits) {
    const li = document.createElement("li");
    li.textContent = `Game master's edit in ${x.phase}: ${x.lines.join("; ")}`;
    edits.append(li);
  }
  history = r.phases.filter((p) => !p.current);
  const s = $("slider");
  s.max = history.length;
  if (!showing) s.value = history.length;
  $("history-phase").textContent = showing ? showing : history.length ? `${history.length} phases played` : "no phase played yet";
}

async function showPhase(i) {
  const p = history[i];
  if (!p) {
    showing = null;
    showReport(null);
    $("history-phase").textContent = `${history.length} phases played`;
    await showMap(null);
    return;
  }
  showing = p.phase;
  deselect();
  const d = await api("GET", `/phases/${encodeURIComponent(p.phase)}`);
  $("history-phase").textContent = `${d.title} (${p.phase})`;
  showReport(d);
  await showMap(p.phase);
}

// A processed phase's orders as a table (power, order, result, why), from
// the phase's results; its PLAIN.TXT report a download beside it.
function showReport(d) {
  const box = $("report");
  box.replaceChildren();
  if (!d) return;
  const rows = Array.isArray(d.results) ? d.results : [];
  if (rows.length) {
    const table = document.createElement("table");
    table.className = "report";
    const head = table.createTHead().insertRow();
    for (const h of ["Power", "Order", "Result", "Reason"]) {
      const th = document.createElement("th");
      th.textContent = h;
      head.append(th);
    }
    const body = table.createTBody();
    for (const r of rows) {
      const tr = body.insertRow();
      const result = r.attacked_from ? "dislodged" : r.failed ? "failed" : "succeeded";
      tr.className = result;
      const why = [
        r.attacked_from ? `attacked from ${r.attacked_from}` : "",
        r.note,
        r.automatic ? "not ordered: the rules' default" : "",
      ].filter((x) => x).join("; ");
      for (const text of [r.nation, r.order, result, why]) tr.insertCell().textContent = text;
    }
    box.append(table);
  }
  if (d.report) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([d.report], { type: "text/plain" }));
    a.download = `${d.phase}-PLAIN.TXT`;
    a.textContent = "PLAIN.TXT";
    a.id = "report-text";
    box.append(a);
  }
}

$("slider").addEventListener("input", () => showPhase(Number($("slider").value)).catch(error));
$("current").onclick = () => { stopPlaying(); $("slider").value = history.length; showPhase(history.length).catch(error); };

// Play: dip-render's animation of the game so far (an animated PNG made by
// the server), in place of the map until Stop.
function stopPlaying() {
  playing?.remove();
  playing = null;
  $("map").hidden = false;
  $("play").textContent = "Play";
}
$("play").onclick = () => {
  if (playing) return stopPlaying();
  if (!history.length) return error("no phase played yet");
  playing = document.createElement("img");
  playing.id = "animation";
  playing.alt = "The game so far, animated";
  playing.onerror = () => { stopPlaying(); error("the animation could not be made"); };
  // The number of phases in the address: a new phase makes a new picture.
  playing.src = `/api/v1/games/${gid}/animation.png?phases=${history.length}`;
  $("map").hidden = true;
  $("map").after(playing);
  $("play").textContent = "Stop";
};

// ---- The game master ------------------------------------------------------

if (main.dataset.gm === "true") {
  const gm = async (f) => { try { await f(); await refresh(); $("gm-state").textContent = "done"; } catch (e) { error(e); } };
  $("gm-pause").onclick = () => gm(() => api("PATCH", "", { paused: !game.paused }));
  $("gm-extend-go").onclick = () => gm(() => api("PATCH", "", { extend: $("gm-extend").value || "1h" }));
  $("gm-process").onclick = () => gm(() => api("POST", "/process", {}));
  $("gm-start")?.addEventListener("click", () => gm(() => api("POST", "/start", {})));
  $("gm-apply").onclick = () => gm(async () => {
    const edits = $("gm-edits").value.split("\n").map((l) => l.trim()).filter((l) => l);
    await api("POST", "/edit", { edits });
    $("gm-edits").value = "";
    await newPhase();
  });
}

// ---- Live -----------------------------------------------------------------

function live() {
  // From the last event before the page was made: nothing is missed
  // between the page and the stream.
  const es = new EventSource(`/api/v1/games/${gid}/events?after=${main.dataset.events}`);
  // A page left for another keeps its stream's connection open (Chromium
  // keeps it in its back-forward cache): after six game pages, a seventh
  // waited a minute for a connection. Closed when left; drawn again when
  // come back to.
  addEventListener("pagehide", () => es.close());
  addEventListener("pageshow", (e) => { if (e.persisted) location.reload(); });
  es.addEventListener("phase", () => newPhase().catch(error));
  es.addEventListener("edit", () => newPhase().catch(error));
  es.addEventListener("message", () => loadMessages().catch(error));
  // A game that starts or ends changes what the page offers (the order
  // panel, the game master's tools): the server draws it again.
  for (const k of ["started", "finished"]) es.addEventListener(k, () => location.reload());
  for (const k of ["ready", "orders", "joined", "left", "draw", "concede", "paused", "resumed", "extended", "civil_disorder"]) {
    es.addEventListener(k, () => refresh().catch(error));
  }
}

countdowns();
attachLayers(true);
showResultsToggle();
await refresh().catch(error);
if (game) phoneZoom((game.powers.find((p) => p.name === game.you?.power)?.units ?? []).map((u) => u.split(" ")[1].split("/")[0]));
await Promise.all([loadOrders(), loadMessages(), loadHistory()]).catch(error);
live();
main.dataset.readyMs = performance.now().toFixed(0);
main.dataset.ready = "true";
