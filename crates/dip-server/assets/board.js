// The board: DIP's program in the browser (docs/board.md). One person
// orders for every power by clicking or typing, resolves moves, retreats
// and adjustments, steps through the history, edits the position as DIP's
// Game menu does, and opens and saves files. The server holds the game
// (/api/v1/boards/{id}); this script shows it and sends what is done.
import { ZoomPan } from "/assets/map.js";
import { OrderLayer } from "/assets/draw.js";

const main = document.querySelector("main.board");
const bid = main.dataset.board;
const local = main.dataset.local === "true";
const readOnly = main.dataset.readonly === "true";
const token = document.querySelector('meta[name="csrf"]').content;
// A kept board's read-only link: every read carries its token.
const share = main.dataset.share || "";
const shared = (url) => (share ? `${url}${url.includes("?") ? "&" : "?"}share=${share}` : url);
const $ = (id) => document.getElementById(id);

let view = null;        // the board (GET /api/v1/boards/{id}), or a played phase of it (?at=N)
let showing = null;     // the index of the played phase in view, null for now
let sel = null;         // {province, kind, target}: a click under way
let mode = "move";      // the phone's order-type buttons; modifier keys win
let picked = null;      // the order selected in the list (for Delete)
let editUnits = false, editProvinces = false;
let clickedAt = null;   // when the pointer went up for the click being handled
let live = null;        // the orders entered, drawn over the map of now (draw.js)
let pendingDraws = [];  // orders clicked, drawn before the server has answered
const MAX_UPLOAD = 10 * 1024 * 1024;

// ---- Settings (DIP kept them in dip.ini) -------------------------------------

const SETTINGS = "dip-board-map";
const settings = Object.assign(
  { mode: "colour", panel: true, owners: false, results: true, colours: {}, viewOnly: false },
  JSON.parse(localStorage.getItem(SETTINGS) || "{}"),
);
function keepSettings() { localStorage.setItem(SETTINGS, JSON.stringify(settings)); }

// ---- Talking to the server ----------------------------------------------------

async function api(method, path, body, raw) {
  const headers = { "x-csrf-token": token };
  if (body !== undefined) headers["content-type"] = raw ? "application/octet-stream" : "application/json";
  const r = await fetch(method === "GET" ? shared(`/api/v1/boards/${bid}${path}`) : `/api/v1/boards/${bid}${path}`, {
    method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
  });
  const j = await r.json().catch(() => null);
  if (!r.ok) throw new Error(j?.error?.message || `${r.status} ${r.statusText}`);
  return j;
}

function error(e) {
  $("error").textContent = e ? String(e.message || e) : "";
  if (e) main.dataset.error = String(e.message || e); else delete main.dataset.error;
}

// Runs a change; the answer is the board, drawn again.
async function change(method, path, body, raw) {
  try {
    const v = await api(method, path, body, raw);
    error(null);
    wanted = null;
    main.dataset.stepAsked = main.dataset.stepShown = String(++stepAsked);
    await show(v);
    return v;
  } catch (e) {
    error(e);
    return null;
  }
}

// ---- The map ------------------------------------------------------------------

const zoom = new ZoomPan($("map"));
const firstSvg = $("map").querySelector("svg");
if (firstSvg) zoom.attach(firstSvg);
// The page came with the map of the board as it stands (default settings).
const DEFAULT_MAP = { mode: "colour", panel: true, owners: false, results: true, colours: {}, viewOnly: false };
$("zoom-in").onclick = () => zoom.zoom(1.5);
$("zoom-out").onclick = () => zoom.zoom(1 / 1.5);
$("zoom-reset").onclick = () => zoom.reset();

function mapQuery(extra = {}) {
  const q = new URLSearchParams({
    mode: settings.mode,
    panel: settings.panel ? "1" : "0",
    owners: settings.owners ? "1" : "0",
    results: settings.results ? "1" : "0",
    ...extra,
  });
  const colours = view?.powers.map((p) => (settings.colours[p.name] || "").replace("#", "")) || [];
  if (colours.some((c) => c)) q.set("colours", colours.join(","));
  if (showing !== null) q.set("at", String(showing));
  q.set("v", String(view?.picture ?? 0));
  if (share) q.set("share", share);
  return q;
}

// The map is asked for again only when what it shows changed: the
// position, the history in view, or the Map menu's settings (orders
// entered are drawn over it by the page).
let mapAsked = 0;
let mapShown = null;
function mapKey() { return `${view?.picture ?? 0}:${showing}:${JSON.stringify(settings)}`; }
let mapWanted = null;
async function showMap(force) {
  const key = mapKey();
  if (!force && key === mapWanted) return;
  if (!force && key === mapShown) {
    // The map drawn is wanted again: one still coming for another phase
    // is not drawn over it (◀ then ▶ before its answer).
    if (mapWanted !== null) { mapAsked++; mapWanted = null; }
    return;
  }
  mapWanted = key;
  const n = ++mapAsked;
  const r = await fetch(`/api/v1/boards/${bid}/map.svg?${mapQuery({ clickable: "1" })}`, { credentials: "same-origin" });
  if (n !== mapAsked) return;
  if (!r.ok) { mapWanted = null; return; }
  const text = await r.text();
  if (n !== mapAsked) return;
  $("map").innerHTML = text;
  mapShown = key;
  mapWanted = null;
  const svg = $("map").querySelector("svg");
  if (svg) zoom.attach(svg);
  $("history-mark").hidden = showing === null;
  attachLive();
  markSelection();
  main.dataset.mapKey = key;
}

// The orders entered are drawn on the map of now as they are entered
// (a played phase's map shows its own orders and results, drawn by the
// server).
function attachLive() {
  const svg = $("map").querySelector("svg");
  live = showing === null && svg ? new OrderLayer(svg) : null;
  drawLive();
}

function drawLive() {
  if (!live || !view) return;
  const pendingAt = new Set(pendingDraws.map((d) => d.at));
  const entered = view.orders.map((o) => o.draw).filter((d) => d && !pendingAt.has(d.at));
  live.draw([...entered, ...pendingDraws]);
}

function hit(p) {
  return $("map").querySelector(`#hits [data-province="${CSS.escape(p)}"]`);
}

function mark(provinces, cls) {
  for (const el of $("map").querySelectorAll(`#hits .${cls}`)) el.classList.remove(cls);
  for (const p of provinces) hit(p)?.classList.add(cls);
}

function markSelection() {
  for (const c of ["legal", "selected", "target"]) mark([], c);
  if (!sel) return;
  mark([sel.province], "selected");
  const u = unitAt(sel.province);
  if (!u) return;
  if (sel.target) {
    mark([sel.target], "target");
    mark(u.orders.filter((o) => o.kind === sel.kind && o.target === sel.target).map((o) => o.to), "legal");
  } else if (sel.kind === "move") {
    mark(u.orders.filter((o) => o.kind === "move" || o.kind === "retreat").map((o) => o.to), "legal");
  } else {
    mark([...new Set(u.orders.filter((o) => o.kind === sel.kind).map((o) => o.target))], "legal");
  }
}

// ---- The board as it stands ----------------------------------------------------

const STAGES = { moves: "Enter moves", retreats: "Enter retreats", adjustments: "Enter adjustments", finished: "Season finished" };

async function show(v) {
  // Answers may come back out of order: an older board is not shown over a newer one.
  if (view && v.version < view.version && (v.at ?? null) === (view.at ?? null)) return;
  // Another phase or stage: a click under way or a choice asked is gone.
  if (!view || view.phase !== v.phase || view.stage !== v.stage || (view.at ?? null) !== (v.at ?? null)) {
    sel = null;
    if ($("chooser")) $("chooser").hidden = true;
  }
  view = v;
  if (v.at === null || v.at === undefined) showing = null;
  pendingDraws = [];
  // The map is asked for first: the lists are drawn while it comes (a
  // resolve's round trip waits for both).
  const map = showMap();
  renderHead();
  renderOrders();
  renderReport();
  renderHistory();
  renderMenus();
  drawLive();
  await map;
}

function renderHead() {
  $("board-title").textContent = view.title || view.variant.title;
  document.title = `${view.title || view.variant.title} · dip board`;
  $("phase").textContent = view.phase_title;
  $("stage").textContent = showing !== null ? `history: phase ${showing + 1} of ${view.history.length}` : STAGES[view.stage];
  // The folder by its name (its whole path when the pointer rests on it).
  const folder = local && view.folder ? view.folder.split(/[\\/]/).filter((s) => s).pop() || view.folder : "";
  $("file").textContent = [view.file ? `File: ${view.file}` : "", folder ? `Folder: ${folder}` : ""].filter((s) => s).join(" · ");
  $("file").title = local && view.folder ? view.folder : "";
  $("at-phase").textContent = view.phase;
  $("back").disabled = (showing ?? view.history.length) === 0;
  $("forward").disabled = showing === null;
  main.dataset.version = String(view.version);
  main.dataset.pictureKey = mapKey();
  main.dataset.phase = view.phase;
  main.dataset.stage = view.stage;
  main.dataset.at = showing === null ? "now" : String(showing);
  const hint = {
    movement: "Click a unit, then where it goes. Double-click: hold. Shift-click a unit: support; ctrl-click: convoy.",
    retreat: "Click a dislodged unit, then where it retreats. Double-click: disband.",
    adjustment: "Click a vacant home centre to build, a unit to disband.",
  };
  if ($("hint")) {
    $("hint").textContent = view.stage === "finished" && showing === null
      ? "Season finished: Next season goes on (Save first to keep this season's file)."
      : editUnits ? "Edit units: drag a unit to move it; right-click (long press) a unit or a province for its properties."
      : editProvinces ? "Edit provinces: click a province to set its owner and whether it is open for retreats."
      : hint[view.kind] || "";
  }
}

function powerOf(name) { return view.powers.find((p) => p.name === name); }

function renderOrders() {
  const list = $("order-list");
  if (!list) return;
  list.replaceChildren();
  for (const o of view.orders) {
    const li = document.createElement("li");
    li.dataset.power = o.power;
    li.dataset.line = String(o.line);
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = powerOf(o.power)?.abbr || o.power;
    who.style.borderColor = powerOf(o.power)?.colour || "";
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = o.order || o.text;
    li.append(who, text);
    if (o.error) {
      li.classList.add("bad");
      const why = document.createElement("span");
      why.className = "why";
      why.textContent = ` [${o.error.number}] ${o.error.message}`;
      li.append(why);
    }
    if (o.result) {
      const r = document.createElement("span");
      r.className = `result ${o.result}`;
      r.textContent = ` ${o.result}`;
      li.append(r);
    }
    if (!readOnly) {
      const x = document.createElement("button");
      x.type = "button";
      x.className = "del";
      x.title = "Delete";
      x.textContent = "×";
      x.onclick = (e) => { e.stopPropagation(); deleteOrder(o); };
      li.append(x);
    }
    li.onclick = () => {
      picked = picked === o ? null : o;
      for (const x of list.children) x.classList.toggle("picked", x === li && picked === o);
    };
    list.append(li);
  }
  const sel = $("order-power");
  if (sel && sel.options.length !== view.powers.length + 1) {
    sel.replaceChildren(new Option("Country: from the order", ""), ...view.powers.map((p) => new Option(`${p.abbr} ${p.name}`, p.name)));
  }
}

function renderReport() {
  const head = $("report-head"), table = $("report-table");
  head.textContent = view.report_title || "Report";
  table.replaceChildren();
  if (!view.report_rows?.length) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = showing === null && view.stage !== "finished" && !view.report_rows?.length ? "Nothing resolved this season yet." : "";
    table.append(p);
  } else {
    const t = document.createElement("table");
    t.className = "report";
    const hr = t.createTHead().insertRow();
    for (const h of ["Country", "Order", "Result"]) { const th = document.createElement("th"); th.textContent = h; hr.append(th); }
    const body = t.createTBody();
    for (const r of view.report_rows) {
      const tr = body.insertRow();
      tr.className = r.success === false ? "failed" : "";
      for (const c of [r.nation, r.order, r.result]) tr.insertCell().textContent = c ?? "";
    }
    table.append(t);
  }
  $("report").textContent = view.report_text || "";
}

function renderHistory() {
  const ol = $("phases");
  ol.replaceChildren();
  view.history.forEach((h, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "link";
    b.textContent = `${h.phase} ${h.title}`;
    if (showing === i) b.classList.add("on");
    b.onclick = () => goTo(i);
    li.append(b);
    ol.append(li);
  });
  const li = document.createElement("li");
  const b = document.createElement("button");
  b.type = "button";
  b.className = "link";
  b.textContent = `${view.now_phase} now`;
  if (showing === null) b.classList.add("on");
  b.onclick = () => goTo(null);
  li.append(b);
  ol.append(li);
  if ($("undo")) $("undo").disabled = !view.can_undo;
}

function renderMenus() {
  for (const b of document.querySelectorAll('[data-act="mode"]')) b.setAttribute("aria-checked", String(b.dataset.value === settings.mode));
  for (const b of document.querySelectorAll('[data-act="stage"]')) {
    b.setAttribute("aria-checked", String(b.dataset.value === view.stage));
    b.disabled = true;
  }
  const checks = { panel: settings.panel, owners: settings.owners, results: settings.results, "view-only": settings.viewOnly,
                   "edit-units": editUnits, "edit-provinces": editProvinces };
  for (const [k, v] of Object.entries(checks)) {
    for (const b of document.querySelectorAll(`[data-act="${k}"]`)) b.setAttribute("aria-checked", String(v));
  }
  const finished = view.stage === "finished" && showing === null;
  for (const b of document.querySelectorAll('[data-act="resolve"]')) b.disabled = finished || settings.viewOnly;
  for (const b of document.querySelectorAll('[data-act="next"]')) b.disabled = !finished || settings.viewOnly;
  for (const b of document.querySelectorAll('[data-act="undo"]')) b.disabled = !view.can_undo;
  main.classList.toggle("view-only", settings.viewOnly || readOnly);
  main.classList.toggle("editing", editUnits || editProvinces);
  $("edit-mark").hidden = !(editUnits || editProvinces);
  $("edit-mark").textContent = editUnits ? "editing units" : editProvinces ? "editing provinces" : "";
}

// ---- History ------------------------------------------------------------------

// The phase asked for last (the arrow keys may be quicker than the server).
let wanted = null;
// Every step asked for is numbered: the answer to an earlier one, or what
// is left of drawing it once a later one is asked for, is dropped (quick
// taps on ◀ otherwise left the heading of one phase over another's map).
let stepAsked = 0;

async function goTo(i) {
  if (i !== null && (i < 0 || i >= view.history.length)) i = null;
  const n = ++stepAsked;
  main.dataset.stepAsked = String(n);
  wanted = i;
  sel = null;
  try {
    const v = await api("GET", i === null ? "" : `?at=${i}`);
    if (n !== stepAsked) return;
    showing = i;
    view = null;
    await show(v);
    if (n !== stepAsked) return;
    renderHead();
    renderHistory();
    renderMenus();
    main.dataset.stepShown = String(n);
  } catch (e) {
    if (n === stepAsked) error(e);
  }
}

function step(d) {
  const n = view.history.length;
  const now = wanted ?? n;
  const next = Math.max(0, Math.min(n, now + d));
  if (next !== now) goTo(next === n ? null : next);
}

// ---- Orders -------------------------------------------------------------------

function units() { return view?.units || []; }
// The unit a click orders: in a retreat the dislodged one.
function unitAt(p) { return units().find((u) => u.province === p && u.orders.length) || units().find((u) => u.province === p); }

// Sends an order for `power` (the line replaces the unit's earlier one).
// In the history, the board first goes back to that phase: the later ones
// are put aside (Undo brings them back).
async function enter(power, text, draw) {
  const started = clickedAt ?? performance.now();
  pending(power, text);
  if (draw && showing === null) {
    pendingDraws = [...pendingDraws.filter((d) => d.at !== draw.at), draw];
    drawLive();
  }
  // From the pointer going up to the frame showing the order in the list
  // and its arrow on the map (the browser test reads them).
  requestAnimationFrame(() => {
    const ms = (performance.now() - started).toFixed(2);
    main.dataset.orderMs = ms;
    if (draw && live?.g.querySelector(`.order[data-at="${CSS.escape(draw.at ?? "")}"]`)) main.dataset.arrowMs = ms;
  });
  const body = { text, power: power || null };
  if (showing !== null) body.at = showing;
  return change("POST", "/orders", body);
}

// The order shown at once, before the server's reading comes back.
function pending(power, text) {
  const list = $("order-list");
  if (!list) return;
  const li = document.createElement("li");
  li.className = "pending";
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = power ? powerOf(power)?.abbr || power : "";
  const t = document.createElement("span");
  t.className = "text";
  t.textContent = text;
  li.append(who, t);
  list.append(li);
}

async function deleteOrder(o) {
  picked = null;
  const body = { power: o.power, line: o.line };
  if (showing !== null) body.at = showing;
  await change("POST", "/orders/delete", body);
}

function choose(options, then) {
  // Several orders fit the click (coasts, by land or by convoy): ask which.
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
}

function pick(unit, orders) {
  if (orders.length === 1) enter(unit.power, orders[0].text, orders[0].draw);
  else if (orders.length > 1) choose(orders, (o) => enter(unit.power, o.text, o.draw));
  deselect();
}

function deselect() { sel = null; markSelection(); }

function select(p, kind) {
  sel = { province: p, kind, target: null };
  markSelection();
}

function ordering() { return !readOnly && !settings.viewOnly && !editUnits && !editProvinces && !(view.stage === "finished" && showing === null); }

function onProvince(p, ev) {
  if (!view) return;
  if (editProvinces && showing === null) return provinceDialog(p);
  if (!ordering()) return;
  const kind = ev.shiftKey ? "support" : (ev.ctrlKey || ev.metaKey) ? "convoy" : mode;
  const u = unitAt(p);
  // What the click was taken for (tests read it when an order is missing).
  main.dataset.lastClick = `${p} ${kind} ${sel ? `${sel.province}/${sel.kind}/${sel.target ?? ""}` : "-"}`;
  if (view.kind === "adjustment") {
    if (u && u.orders.some((o) => o.kind === "disband") && !(ev.detail > 1)) {
      const d = u.orders.find((o) => o.kind === "disband");
      return enter(u.power, d.text, d.draw);
    }
    const builds = view.builds.filter((o) => o.kind === "build" && o.province === p);
    // An army first, as DIP: A/F (or a double click) makes it a fleet.
    const army = builds.find((o) => o.unit === "A" && !o.coast) || builds[0];
    if (army) enter(army.power, army.text, army.draw);
    return;
  }
  if (kind === "hold") {
    const h = u?.orders.find((o) => o.kind === (view.kind === "retreat" ? "disband" : "hold"));
    if (h) enter(u.power, h.text, h.draw);
    return;
  }
  if (kind === "disband" && u) {
    const d = u.orders.find((o) => o.kind === "disband");
    if (d) enter(u.power, d.text, d.draw);
    return;
  }
  if (!sel) {
    if (u && u.orders.length) select(p, kind === "support" || kind === "convoy" ? kind : "move");
    return;
  }
  const me = unitAt(sel.province);
  if (!me) return deselect();
  if (sel.kind === "move" || view.kind === "retreat") {
    if (p === sel.province) return deselect();
    if (kind === "support" || kind === "convoy") {
      // Shift or ctrl on the second click: the unit to support or convoy.
      sel.kind = kind;
    } else {
      const fit = me.orders.filter((o) => (o.kind === "move" || o.kind === "retreat") && o.to === p);
      if (fit.length) return pick(me, fit);
      if (u && u.orders.length) return select(p, "move");
      return deselect();
    }
  }
  if (!sel.target) {
    const fit = me.orders.filter((o) => o.kind === sel.kind && o.target === p);
    if (!fit.length) return deselect();
    sel.target = p;
    markSelection();
    return;
  }
  const fit = me.orders.filter((o) => o.kind === sel.kind && o.target === sel.target && o.to === p);
  pick(me, fit);
}

function onDouble(p) {
  if (!view || !ordering()) return;
  const u = unitAt(p);
  if (view.kind === "adjustment") {
    // A double click builds a fleet (DIP: a click, then A/F).
    const fleet = view.builds.filter((o) => o.kind === "build" && o.province === p && o.unit === "F");
    if (fleet.length === 1) enter(fleet[0].power, fleet[0].text, fleet[0].draw);
    else if (fleet.length > 1) choose(fleet, (o) => enter(o.power, o.text, o.draw));
    return;
  }
  if (!u) return;
  const hold = u.orders.find((o) => o.kind === (view.kind === "retreat" ? "disband" : "hold"));
  if (hold) enter(u.power, hold.text, hold.draw);
  deselect();
}

// The province under a map event: a unit's icon, a name or a province.
function provinceOf(ev) {
  return ev.target.closest?.("[data-province]")?.dataset.province || null;
}

let pointerUp = null;
let suppressClick = false;
$("map").addEventListener("pointerup", (ev) => { pointerUp = ev.timeStamp; }, true);
$("map").addEventListener("click", (ev) => {
  // The click a long press or a drag ends with is theirs: it does not
  // reach the page either (it closed the menu the long press opened).
  if (suppressClick) { suppressClick = false; ev.stopPropagation(); return; }
  clickedAt = pointerUp ?? ev.timeStamp;
  pointerUp = null;
  const p = provinceOf(ev);
  if (p) onProvince(p, ev);
  clickedAt = null;
});
// The provinces of the last two clicks anywhere on the page. A phone
// fires dblclick for two quick taps near each other (a unit, then where
// it goes; a mode button, then a unit): only two on the same province
// are a double click (it made the unit there hold).
let lastClicks = [null, null];
document.addEventListener("click", (ev) => { lastClicks = [lastClicks[1], provinceOf(ev)]; }, true);
$("map").addEventListener("dblclick", (ev) => {
  clickedAt = pointerUp ?? ev.timeStamp;
  const p = provinceOf(ev);
  if (p && lastClicks[0] === p && lastClicks[1] === p) onDouble(p);
  clickedAt = null;
});

for (const b of document.querySelectorAll("#modes [data-mode]")) {
  b.onclick = () => {
    mode = b.dataset.mode;
    for (const o of document.querySelectorAll("#modes [data-mode]")) o.classList.toggle("on", o === b);
    deselect();
  };
}

// Typing: DIP's text box with its Enter and Cancel buttons and typing aids.
function typed() {
  const text = $("order-text").value.trim();
  if (!text) return;
  const power = $("order-power").value;
  $("order-text").value = "";
  enter(power || null, text);
}
function cancel() {
  $("order-text") && ($("order-text").value = "");
  $("chooser") && ($("chooser").hidden = true);
  closeMenus();
  deselect();
}
if (!readOnly) {
  $("enter").onclick = typed;
  $("cancel").onclick = cancel;
  for (const b of document.querySelectorAll("[data-aid]")) {
    b.onclick = () => { const t = $("order-text"); t.value = (t.value.trimEnd() + b.dataset.aid).trimStart(); t.focus(); };
  }
  $("af").onclick = () => {
    const t = $("order-text");
    t.value = t.value.replace(/\b([AF])(?=\s*\(|\s+[a-z])/i, (m) => (m.toUpperCase() === "A" ? "F" : "A"));
    t.focus();
  };
  $("delete").onclick = () => { if (picked) deleteOrder(picked); };
  $("import").onclick = () => $("import-file").click();
  $("import-file").onchange = async () => {
    const f = $("import-file").files[0];
    $("import-file").value = "";
    if (!f) return;
    if (f.size > MAX_UPLOAD) return error(`${f.name} is larger than 10 MB`);
    const text = await f.text();
    const body = { text, import: true };
    if (showing !== null) body.at = showing;
    const v = await change("POST", "/orders", body);
    if (v?.note) $("hint").textContent = v.note;
  };
  $("paste").onclick = async () => {
    const sel = $("paste-power");
    sel.replaceChildren(...view.powers.map((p) => new Option(p.name, p.name)));
    $("paste-text").value = await navigator.clipboard?.readText?.().catch(() => "") || "";
    $("dlg-paste").showModal();
  };
  $("dlg-paste").addEventListener("close", async () => {
    if ($("dlg-paste").returnValue !== "ok") return;
    const body = { text: $("paste-text").value, power: $("paste-power").value, paste: true };
    if (showing !== null) body.at = showing;
    const v = await change("POST", "/orders", body);
    // A line that could not be read is put in the text box to be mended.
    const bad = v?.unread?.[0];
    if (bad) { $("order-text").value = bad; $("order-power").value = body.power; $("order-text").focus(); }
  });
  $("export-orders").onclick = () => download(ordersText(), `orders-${view.phase}.txt`, "text/plain");
  $("copy-orders").onclick = () => navigator.clipboard?.writeText(ordersText()).catch(error);
}

function ordersText() {
  return view.orders.map((o) => `${powerOf(o.power)?.abbr || o.power} ${o.order || o.text}`).join("\n") + "\n";
}

function download(text, name, type) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function fetchFile(url) {
  const a = document.createElement("a");
  a.href = url;
  a.download = "";
  document.body.append(a);
  a.click();
  a.remove();
}

// ---- Menus --------------------------------------------------------------------

function closeMenus() {
  for (const m of document.querySelectorAll(".menu-items")) m.hidden = true;
  for (const t of document.querySelectorAll(".menu-title")) t.setAttribute("aria-expanded", "false");
  $("context-menu").hidden = true;
}

for (const t of document.querySelectorAll(".menu-title")) {
  t.onclick = (e) => {
    e.stopPropagation();
    const items = t.nextElementSibling;
    const open = items.hidden;
    closeMenus();
    items.hidden = !open;
    t.setAttribute("aria-expanded", String(open));
  };
}
document.addEventListener("click", (e) => {
  if (!e.target.closest?.(".menu") && !e.target.closest?.("#context-menu")) closeMenus();
});

const ACTS = {
  new: () => $("dlg-new").showModal(),
  blank: () => change("POST", "/edit", { op: "blank" }),
  open: () => $("open-file").click(),
  save: () => save(),
  "save-as": () => { if (local && $("save-name")) $("save-name").value = view.suggested_name || ""; $("dlg-save").showModal(); },
  "export-png": () => fetchFile(`/api/v1/boards/${bid}/map.png?${mapQuery({ download: "1" })}`),
  "export-bmp": () => fetchFile(`/api/v1/boards/${bid}/map.bmp?${mapQuery({ download: "1" })}`),
  "export-svg": () => fetchFile(`/api/v1/boards/${bid}/map.svg?${mapQuery({ download: "1" })}`),
  "export-text": () => fetchFile(shared(`/api/v1/boards/${bid}/save?format=text`)),
  "animate-move": () => animate("move"),
  "animate-game": () => animate("game"),
  "download-animation": () => fetchFile(shared(`/api/v1/boards/${bid}/animation.png?what=game&download=1&v=${view.version}`)),
  fork: async () => {
    try {
      const r = await fetch("/api/v1/boards", { method: "POST", headers: { "content-type": "application/json", "x-csrf-token": token }, body: JSON.stringify({ from: bid, share: share || null }), credentials: "same-origin" });
      const j = await r.json();
      if (!r.ok) throw new Error(j?.error?.message || r.status);
      location.href = j.url;
    } catch (e) { error(e); }
  },
  "copy-map": () => copyMap(),
  undo: () => change("POST", "/undo", {}),
  mode: (b) => { settings.mode = b.dataset.value; keepSettings(); renderMenus(); showMap(); },
  panel: () => { settings.panel = !settings.panel; keepSettings(); renderMenus(); showMap(); },
  owners: () => { settings.owners = !settings.owners; keepSettings(); renderMenus(); showMap(); },
  results: () => { settings.results = !settings.results; keepSettings(); renderMenus(); showMap(); },
  colours: () => coloursDialog(),
  "view-only": () => { settings.viewOnly = !settings.viewOnly; keepSettings(); deselect(); renderMenus(); renderHead(); },
  resolve: () => resolve(),
  next: () => change("POST", "/next", {}),
  "edit-units": () => { editUnits = !editUnits; editProvinces = false; deselect(); renderMenus(); renderHead(); },
  "edit-provinces": () => { editProvinces = !editProvinces; editUnits = false; deselect(); renderMenus(); renderHead(); },
  "edit-season": () => seasonDialog(),
  "edit-title": () => { $("title-text").value = view.title; $("dlg-title").showModal(); },
  "edit-names": () => namesDialog(),
  back: () => step(-1),
  forward: () => step(1),
};

document.addEventListener("click", (e) => {
  const b = e.target.closest?.("[data-act]");
  if (!b || b.disabled || !ACTS[b.dataset.act]) return;
  closeMenus();
  ACTS[b.dataset.act](b);
});

async function resolve() {
  const t0 = performance.now();
  const body = showing !== null ? { at: showing } : {};
  const v = await change("POST", "/resolve", body);
  if (v) main.dataset.resolveMs = (performance.now() - t0).toFixed(1);
}

async function save() {
  if (!local) return fetchFile(shared(`/api/v1/boards/${bid}/save?format=dip`));
  if (!view.file) return ACTS["save-as"]();
  const v = await change("POST", "/save", { format: view.file_format || "dip", name: view.file });
  if (v) $("hint").textContent = v.note || "Saved.";
}

$("dlg-save").addEventListener("close", async () => {
  if ($("dlg-save").returnValue !== "ok") return;
  const format = $("save-format").value;
  if (!local) return fetchFile(shared(`/api/v1/boards/${bid}/save?format=${format}`));
  const v = await change("POST", "/save", { format, name: $("save-name").value.trim() });
  if (v) $("hint").textContent = v.note || "Saved.";
});

$("dlg-new").addEventListener("close", () => {
  if ($("dlg-new").returnValue === "ok") change("POST", "/edit", { op: "new", variant: $("new-variant").value });
});

$("open-file").onchange = async () => {
  const f = $("open-file").files[0];
  $("open-file").value = "";
  if (!f) return;
  if (f.size > MAX_UPLOAD) return error(`${f.name} is larger than 10 MB: not opened`);
  const bytes = await f.arrayBuffer();
  const v = await change("POST", `/open?name=${encodeURIComponent(f.name)}`, bytes, true);
  if (v) { showing = null; zoom.box = null; const svg = $("map").querySelector("svg"); if (svg) zoom.attach(svg); }
};

async function copyMap() {
  try {
    const r = await fetch(`/api/v1/boards/${bid}/map.png?${mapQuery()}`, { credentials: "same-origin" });
    const blob = await r.blob();
    await navigator.clipboard.write([new ClipboardItem({ "image/png": blob })]);
    $("hint").textContent = "The map is on the clipboard.";
  } catch (e) { error(`the map could not be copied: ${e.message || e}`); }
}

function animate(what) {
  if (!view.history.length) return error("nothing resolved yet: no move to animate");
  const src = shared(`/api/v1/boards/${bid}/animation.png?what=${what}&v=${view.version}`);
  $("animation-head").textContent = what === "move" ? `Animate move: ${view.history[view.history.length - 1].phase}` : "Animate game";
  $("animation-img").src = src;
  $("animation-download").href = `${src}&download=1`;
  $("dlg-animation").showModal();
}

// ---- Editing (DIP's Game menu) --------------------------------------------------

function option(value, text, selected) { const o = new Option(text, value); o.selected = !!selected; return o; }

function provinceInfo(p) { return view.provinces.find((x) => x.abbr === p); }

function unitDialog(p, existing) {
  const info = provinceInfo(p);
  if (!info) return;
  const dlg = $("dlg-unit");
  $("unit-head").textContent = existing ? `Unit in ${info.name}` : `New unit in ${info.name}`;
  const owner = existing?.power || info.owner || view.powers[0].name;
  $("unit-power").replaceChildren(...view.powers.map((pw) => option(pw.name, pw.name, pw.name === owner)));
  const type = existing?.type || (info.sea ? "F" : "A");
  $("unit-type").replaceChildren(...view.unit_types.map((t) => option(t.letter, t.name, t.letter === type)));
  $("unit-region").replaceChildren(...info.regions.map((r) => option(r, r, r === existing?.region)));
  $("unit-dislodged").checked = !!existing?.dislodged;
  $("unit-remove").hidden = !existing;
  dlg.dataset.province = p;
  dlg.dataset.dislodged = existing?.dislodged ? "1" : "";
  dlg.showModal();
}

$("dlg-unit").addEventListener("close", () => {
  const dlg = $("dlg-unit"), p = dlg.dataset.province;
  if (dlg.returnValue === "remove") {
    change("POST", "/edit", { op: "remove", province: p, dislodged: dlg.dataset.dislodged === "1" });
  } else if (dlg.returnValue === "ok") {
    change("POST", "/edit", {
      op: "unit", province: p, power: $("unit-power").value, type: $("unit-type").value,
      region: $("unit-region").value, dislodged: $("unit-dislodged").checked, was_dislodged: dlg.dataset.dislodged === "1",
    });
  }
});

function provinceDialog(p) {
  const info = provinceInfo(p);
  if (!info) return;
  $("province-head").textContent = `${info.name} (${info.abbr})`;
  $("province-owner-row").hidden = !info.supply;
  $("province-owner").replaceChildren(option("", "nobody", !info.owner), ...view.powers.map((pw) => option(pw.name, pw.name, pw.name === info.owner)));
  $("province-open").checked = !info.closed;
  $("dlg-province").dataset.province = p;
  $("dlg-province").showModal();
}

$("dlg-province").addEventListener("close", () => {
  const dlg = $("dlg-province");
  if (dlg.returnValue !== "ok") return;
  const info = provinceInfo(dlg.dataset.province);
  change("POST", "/edit", {
    op: "province", province: dlg.dataset.province,
    owner: info?.supply ? ($("province-owner").value || null) : undefined,
    open: $("province-open").checked,
  });
});

function seasonDialog() {
  $("season-season").value = view.season;
  $("season-year").value = String(view.year);
  $("season-stage").value = view.stage;
  $("dlg-season").showModal();
}
$("dlg-season").addEventListener("close", () => {
  if ($("dlg-season").returnValue !== "ok") return;
  change("POST", "/edit", { op: "season", season: $("season-season").value, year: Number($("season-year").value), stage: $("season-stage").value });
});

$("dlg-title").addEventListener("close", () => {
  if ($("dlg-title").returnValue === "ok") change("POST", "/edit", { op: "title", title: $("title-text").value });
});

function namesDialog() {
  const box = $("names-list");
  box.replaceChildren();
  for (const p of view.powers) {
    const l = document.createElement("label");
    l.textContent = p.name;
    const i = document.createElement("input");
    i.dataset.power = p.name;
    i.maxLength = 100;
    i.value = view.names[p.name] || "";
    box.append(l, i);
  }
  $("dlg-names").showModal();
}
$("dlg-names").addEventListener("close", () => {
  if ($("dlg-names").returnValue !== "ok") return;
  const names = {};
  for (const i of $("names-list").querySelectorAll("input")) names[i.dataset.power] = i.value.trim();
  change("POST", "/edit", { op: "names", names });
});

function coloursDialog() {
  const box = $("colours-list");
  box.replaceChildren();
  for (const p of view.powers) {
    const l = document.createElement("label");
    l.textContent = p.name;
    const i = document.createElement("input");
    i.type = "color";
    i.dataset.power = p.name;
    i.value = settings.colours[p.name] || p.colour;
    box.append(l, i);
  }
  $("dlg-colours").showModal();
}
$("dlg-colours").addEventListener("close", () => {
  const v = $("dlg-colours").returnValue;
  if (v === "reset") settings.colours = {};
  else if (v === "ok") {
    for (const i of $("colours-list").querySelectorAll("input")) {
      const p = powerOf(i.dataset.power);
      if (p && i.value.toLowerCase() !== p.colour.toLowerCase()) settings.colours[p.name] = i.value;
      else delete settings.colours[i.dataset.power];
    }
  } else return;
  keepSettings();
  showMap();
});

// The context menu of a unit or a province: right-click, or a long press.
function contextMenu(p, x, y) {
  if (readOnly || !view || showing !== null) return;
  const info = provinceInfo(p);
  if (!info) return;
  const menu = $("context-menu");
  menu.replaceChildren();
  const add = (label, f) => {
    const b = document.createElement("button");
    b.type = "button";
    b.role = "menuitem";
    b.textContent = label;
    b.onclick = () => { closeMenus(); f(); };
    menu.append(b);
  };
  const head = document.createElement("p");
  head.className = "head";
  head.textContent = info.name;
  menu.append(head);
  const here = view.units.filter((u) => u.province === p);
  for (const u of here) {
    const name = `${u.power} ${u.type}${u.dislodged ? " (dislodged)" : ""}`;
    const o = view.orders.find((x) => x.unit === p && x.power === u.power);
    if (o) {
      const q = document.createElement("p");
      q.className = "muted";
      q.textContent = `Order: ${o.order || o.text}`;
      menu.append(q);
    }
    add(`${name}: properties…`, () => unitDialog(p, u));
    for (const t of view.unit_types.filter((t) => t.letter !== u.type)) {
      add(`Change to ${t.name.toLowerCase()}`, () => change("POST", "/edit", { op: "unit", province: p, power: u.power, type: t.letter, dislodged: u.dislodged, was_dislodged: u.dislodged }));
    }
    add(`Remove ${name}`, () => change("POST", "/edit", { op: "remove", province: p, dislodged: u.dislodged }));
  }
  if (!here.some((u) => !u.dislodged)) add("Add unit…", () => unitDialog(p, null));
  if (info.supply) {
    const q = document.createElement("p");
    q.className = "muted";
    q.textContent = `Owner: ${info.owner || "nobody"}`;
    menu.append(q);
  }
  add("Province properties…", () => provinceDialog(p));
  menu.hidden = false;
  const w = menu.offsetWidth, h = menu.offsetHeight;
  menu.style.left = `${Math.max(4, Math.min(x, innerWidth - w - 4)) + scrollX}px`;
  menu.style.top = `${Math.max(4, Math.min(y, innerHeight - h - 4)) + scrollY}px`;
}

$("map").addEventListener("contextmenu", (ev) => {
  const p = provinceOf(ev);
  if (!p) return;
  ev.preventDefault();
  contextMenu(p, ev.clientX, ev.clientY);
});

// A long press (a finger held still) opens the same menu.
let press = null;
$("map").addEventListener("pointerdown", (ev) => {
  if (ev.pointerType === "mouse") return;
  const p = provinceOf(ev);
  if (!p) return;
  const at = { x: ev.clientX, y: ev.clientY };
  press = { at, timer: setTimeout(() => { press = null; suppressClick = true; contextMenu(p, at.x, at.y); }, 550) };
}, true);
const endPress = (ev) => {
  if (!press) return;
  if (ev.type === "pointermove" && Math.hypot(ev.clientX - press.at.x, ev.clientY - press.at.y) < 10) return;
  clearTimeout(press.timer);
  press = null;
};
for (const t of ["pointerup", "pointercancel", "pointermove"]) $("map").addEventListener(t, endPress, true);

// Edit units: drag a unit to another province or coast.
let drag = null;
$("map").addEventListener("pointerdown", (ev) => {
  if (!editUnits || showing !== null || readOnly || ev.button !== 0) return;
  const p = provinceOf(ev);
  const u = p && view.units.find((x) => x.province === p && !x.dislodged) || (p && view.units.find((x) => x.province === p));
  if (!u) return;
  const icon = $("map").querySelector(`svg g.unit[data-province="${CSS.escape(p)}"]`);
  if (!icon) return;
  // The map does not pan while a unit is dragged.
  ev.stopPropagation();
  drag = { unit: u, from: p, start: { x: ev.clientX, y: ev.clientY }, icon, ghost: null, id: ev.pointerId };
  $("map").setPointerCapture?.(ev.pointerId);
}, true);
$("map").addEventListener("pointermove", (ev) => {
  if (!drag || ev.pointerId !== drag.id) return;
  ev.stopPropagation();
  const dx = ev.clientX - drag.start.x, dy = ev.clientY - drag.start.y;
  if (!drag.ghost && Math.hypot(dx, dy) < 6) return;
  const svg = $("map").querySelector("svg");
  const k = svg.viewBox.baseVal.width / svg.getBoundingClientRect().width;
  if (!drag.ghost) {
    drag.ghost = drag.icon.cloneNode(true);
    drag.ghost.classList.add("ghost");
    drag.ghost.setAttribute("pointer-events", "none");
    drag.base = drag.icon.getAttribute("transform") || "";
    drag.icon.setAttribute("opacity", "0.35");
    svg.append(drag.ghost);
  }
  drag.ghost.setAttribute("transform", `translate(${dx * k},${dy * k}) ${drag.base}`);
}, true);
$("map").addEventListener("pointerup", (ev) => {
  if (!drag || ev.pointerId !== drag.id) return;
  const d = drag;
  drag = null;
  if (!d.ghost) return;
  ev.stopPropagation();
  suppressClick = true;
  d.ghost.remove();
  d.icon.removeAttribute("opacity");
  const under = document.elementsFromPoint(ev.clientX, ev.clientY).map((el) => el.closest?.("#hits [data-province]")).find((el) => el);
  const to = under?.dataset.province;
  if (!to) return;
  const svg = $("map").querySelector("svg");
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const at = pt.matrixTransform(svg.getScreenCTM().inverse());
  change("POST", "/edit", { op: "move", from: d.from, to, x: at.x, y: at.y, dislodged: d.unit.dislodged && !view.units.some((x) => x.province === d.from && !x.dislodged) });
}, true);

// ---- Keyboard -------------------------------------------------------------------

document.addEventListener("keydown", (ev) => {
  const inField = ev.target.closest?.("input, textarea, select, dialog");
  if (ev.key === "Escape") {
    if (!inField || ev.target.id === "order-text") { cancel(); }
    return;
  }
  if (ev.target.id === "order-text" && ev.key === "Enter") { ev.preventDefault(); typed(); return; }
  if (inField) return;
  if (ev.key === "ArrowLeft") { ev.preventDefault(); step(-1); }
  else if (ev.key === "ArrowRight") { ev.preventDefault(); step(1); }
  else if ((ev.key === "Delete" || ev.key === "Backspace") && picked) { ev.preventDefault(); deleteOrder(picked); }
  else if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === "z" && !readOnly) { ev.preventDefault(); ACTS.undo(); }
  else if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === "s" && !readOnly) { ev.preventDefault(); save(); }
});

// ---- Start ------------------------------------------------------------------------

// The map the page came with, when the Map menu's settings are the default.
if (JSON.stringify(settings) === JSON.stringify(DEFAULT_MAP)) {
  mapShown = `${main.dataset.picture}:null:${JSON.stringify(settings)}`;
  main.dataset.mapKey = mapShown;
}

try {
  await show(await api("GET", ""));
  if (!live) attachLive();
} catch (e) { error(e); }
main.dataset.readyMs = performance.now().toFixed(0);
main.dataset.ready = "true";
