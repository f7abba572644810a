// Orders drawn on the map: while they are entered, and a phase's results.
// Moves and retreats are arrows (curved by convoy, dashed for a retreat),
// supports dashed lines (to the middle of the supported move, or a ring
// round the unit held), convoys dotted lines through the fleet, holds
// rings, builds dashed rings with the unit to come, disbands red crosses;
// an order that failed is faint with a red cross on it. The look is
// dip-render's, so the page, its history and the PNGs agree.
//
// It draws into a map made by dip-render's `svg_clickable` (the server's
// `map.svg?clickable=1`), whose `#hits` group carries the geometry: each
// region's point by name (`par`, `stp/sc`), where dislodged units stand,
// the powers' colours. It knows nothing of games or the server: any page
// with such a map can use it.
//
// An order (the `draw` of the API's legal orders, order lines and results):
//   {power, kind, unit, at, target_at, dest, via, ok}
//   kind       hold | move | support | convoy | retreat | disband | build | waive
//   unit       the unit type's letter (A, F, …), for a build's ghost unit
//   at         where the unit stands (a build: where it is built)
//   target_at  the supported or convoyed unit
//   dest       where a move, retreat, supported move or convoy goes; none
//              for a support to hold
//   via        a move by convoy
//   ok         false: failed (faint, crossed); absent or true: drawn plain

const NS = "http://www.w3.org/2000/svg";

/// The map's geometry, or null for a map without click targets.
export function geometry(svg) {
  const raw = svg?.querySelector("#hits")?.getAttribute("data-geometry");
  return raw ? JSON.parse(raw) : null;
}

function el(name, attrs) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

const r1 = (v) => Math.round(v * 10) / 10;

/// The segment a→b with `sa` cut from its start and `sb` from its end.
function shorten(a, b, sa, sb) {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len = Math.hypot(dx, dy);
  if (len < sa + sb + 4) return [a, b];
  const ux = dx / len, uy = dy / len;
  return [[a[0] + ux * sa, a[1] + uy * sa], [b[0] - ux * sb, b[1] - uy * sb]];
}

const mid = (a, b) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];

export class OrderLayer {
  /// A layer of orders on `svg`, above the units; `id` names its group,
  /// `faint` draws it lighter (results under the orders being entered).
  constructor(svg, { id = "live-orders", faint = false } = {}) {
    this.svg = svg;
    this.geo = geometry(svg);
    this.g = el("g", {
      id,
      class: "order-layer",
      transform: `translate(0,${this.geo?.dy ?? 0})`,
      fill: "none",
      "stroke-linecap": "round",
      "pointer-events": "none",
    });
    if (faint) this.g.setAttribute("opacity", "0.7");
    svg.querySelector(`#${id}`)?.remove();
    svg.append(this.g);
  }

  get hidden() { return this.g.style.display === "none"; }
  set hidden(v) { this.g.style.display = v ? "none" : ""; }

  clear() { this.g.replaceChildren(); }

  /// Draws these orders in place of the layer's others.
  draw(orders) {
    this.clear();
    if (!this.geo) return;
    // Where each unit moves, to draw a support's or convoy's move only
    // when the supported unit is not shown making it.
    const moving = new Set(orders.filter((o) => o?.kind === "move").map((o) => this.province(o.at)));
    for (const o of orders) if (o) this.one(o, moving);
  }

  province(region) { return (region || "").split("/")[0]; }

  /// A region's point; a coast missing from the map falls back to its province.
  point(region) {
    const pts = this.geo.points;
    return pts[region] || pts[this.province(region)] || pts[(region || "").toLowerCase()] || null;
  }

  /// Where the ordered unit stands: beside its province when dislodged.
  unitPoint(o) {
    if ((o.kind === "retreat" || o.kind === "disband") && this.geo.dislodged) {
      const d = this.geo.dislodged[this.province(o.at)];
      if (d) return d;
    }
    return this.point(o.at);
  }

  colour(o) { return this.geo.powers?.[o.power]?.order || "#222"; }

  one(o, moving) {
    const c = this.colour(o);
    const failed = o.ok === false;
    const g = el("g", { class: `order ${o.kind}`, "data-at": o.at ?? "" });
    if (failed) g.setAttribute("opacity", "0.6");
    const a = this.unitPoint(o);
    if (!a && o.kind !== "waive") return;
    let crossAt = null;
    switch (o.kind) {
      case "hold":
        g.append(el("circle", { cx: r1(a[0]), cy: r1(a[1]), r: 17, stroke: c, "stroke-width": 3 }));
        crossAt = [a[0] + 14, a[1] - 14];
        break;
      case "move":
      case "retreat": {
        const b = this.point(o.dest);
        if (!b) return;
        crossAt = this.arrow(g, a, b, c, !!o.via, o.kind === "retreat");
        break;
      }
      case "support": {
        const from = this.point(o.target_at);
        if (!from) return;
        const to = o.dest ? this.point(o.dest) : null;
        if (!to || this.province(o.dest) === this.province(o.target_at)) {
          const [a2, b2] = shorten(a, from, 12, 19);
          g.append(el("path", { d: `M${r1(a2[0])},${r1(a2[1])} L${r1(b2[0])},${r1(b2[1])}`, stroke: c, "stroke-width": 2.4, "stroke-dasharray": "6 4" }));
          g.append(el("circle", { cx: r1(from[0]), cy: r1(from[1]), r: 19, stroke: c, "stroke-width": 2, "stroke-dasharray": "6 4" }));
          crossAt = mid(a2, b2);
        } else {
          const target = mid(from, to);
          const [a2] = shorten(a, target, 12, 0);
          g.append(el("path", { d: `M${r1(a2[0])},${r1(a2[1])} L${r1(target[0])},${r1(target[1])}`, stroke: c, "stroke-width": 2.4, "stroke-dasharray": "6 4" }));
          g.append(el("circle", { cx: r1(target[0]), cy: r1(target[1]), r: 3.5, fill: c, stroke: "none" }));
          if (!moving.has(this.province(o.target_at))) {
            // The supported unit is not shown moving there: the move asked for.
            const [f2, t2] = shorten(from, to, 12, 14);
            g.append(el("path", { d: `M${r1(f2[0])},${r1(f2[1])} L${r1(t2[0])},${r1(t2[1])}`, stroke: c, "stroke-width": 1.4, "stroke-dasharray": "2 3", opacity: 0.7 }));
          }
          crossAt = mid(a2, target);
        }
        break;
      }
      case "convoy": {
        const from = this.point(o.target_at), to = this.point(o.dest);
        if (!from || !to) return;
        const [p1] = shorten(from, a, 12, 0);
        const [, p3] = shorten(a, to, 0, 14);
        g.append(el("path", {
          d: `M${r1(p1[0])},${r1(p1[1])} L${r1(a[0])},${r1(a[1])} L${r1(p3[0])},${r1(p3[1])}`,
          stroke: c, "stroke-width": 2.2, "stroke-dasharray": "1 5", "stroke-linejoin": "round",
        }));
        crossAt = [a[0] + 14, a[1] - 14];
        break;
      }
      case "build":
        if (o.unit) g.append(this.ghost(o, a));
        g.append(el("circle", { cx: r1(a[0]), cy: r1(a[1]), r: 19, stroke: c, "stroke-width": 2.4, "stroke-dasharray": "5 3" }));
        g.append(el("path", { d: `M${r1(a[0] + 13)},${r1(a[1] - 17)} h10 M${r1(a[0] + 18)},${r1(a[1] - 22)} v10`, stroke: c, "stroke-width": 3 }));
        crossAt = a;
        break;
      case "disband":
        g.append(el("path", {
          d: `M${r1(a[0] - 10)},${r1(a[1] - 10)} l20,20 M${r1(a[0] + 10)},${r1(a[1] - 10)} l-20,20`,
          stroke: this.geo.fail, "stroke-width": 3.2,
        }));
        break;
      default:
        return;
    }
    this.g.append(g);
    if (failed && crossAt) this.cross(crossAt);
  }

  /// A move or retreat arrow with its head; curved for a convoyed move.
  /// Returns where a failure's cross goes.
  arrow(g, a, b, colour, curved, retreat) {
    const [a2, b2] = shorten(a, b, 12, 13);
    const dx = b2[0] - a2[0], dy = b2[1] - a2[1];
    const len = Math.max(Math.hypot(dx, dy), 0.01);
    const ux = dx / len, uy = dy / len;
    let ctrl = null, hx = ux, hy = uy;
    if (curved) {
      ctrl = [a2[0] + dx / 2 - uy * len * 0.25, a2[1] + dy / 2 + ux * len * 0.25];
      const ex = b2[0] - ctrl[0], ey = b2[1] - ctrl[1];
      const el2 = Math.max(Math.hypot(ex, ey), 0.01);
      hx = ex / el2; hy = ey / el2;
    }
    const base = [b2[0] - hx * 11, b2[1] - hy * 11];
    const d = ctrl
      ? `M${r1(a2[0])},${r1(a2[1])} Q${r1(ctrl[0])},${r1(ctrl[1])} ${r1(base[0])},${r1(base[1])}`
      : `M${r1(a2[0])},${r1(a2[1])} L${r1(base[0])},${r1(base[1])}`;
    const line = el("path", { d, stroke: colour, "stroke-width": 3.4 });
    if (retreat) line.setAttribute("stroke-dasharray", "10 4");
    g.append(line);
    g.append(el("path", {
      d: `M${r1(b2[0])},${r1(b2[1])} L${r1(base[0] - hy * 6)},${r1(base[1] + hx * 6)} L${r1(base[0] + hy * 6)},${r1(base[1] - hx * 6)} Z`,
      fill: colour, stroke: "none",
    }));
    return ctrl
      ? [0.25 * a2[0] + 0.5 * ctrl[0] + 0.25 * base[0], 0.25 * a2[1] + 0.5 * ctrl[1] + 0.25 * base[1]]
      : mid(a2, base);
  }

  /// A failed order's red cross.
  cross([x, y]) {
    this.g.append(el("path", {
      class: "failed",
      d: `M${r1(x - 5)},${r1(y - 5)} l10,10 M${r1(x + 5)},${r1(y - 5)} l-10,10`,
      stroke: this.geo.fail, "stroke-width": 3.4,
    }));
  }

  /// The unit a build makes, faint, drawn as dip-render draws units.
  ghost(o, [x, y]) {
    const p = this.geo.powers?.[o.power] || {};
    const g = el("g", { transform: `translate(${r1(x)},${r1(y)})`, opacity: 0.55, stroke: this.geo.outline || "#111", "stroke-width": 1.6 });
    const letter = (o.unit || "").toUpperCase();
    const shape = letter === "A" ? el("rect", { x: -12, y: -10, width: 24, height: 20, rx: 4 })
      : letter === "F" ? el("path", { d: "M-14,-3 L14,-3 L9,9 L-9,9 Z M-2,-3 L-2,-12 L7,-5 L-2,-5" })
      : letter === "W" ? el("path", { d: "M0,-13 L14,9 L-14,9 Z" })
      : el("path", { d: "M0,-13 L13,0 L0,13 L-13,0 Z" });
    shape.setAttribute("fill", p.fill || "#888");
    g.append(shape);
    return g;
  }
}
