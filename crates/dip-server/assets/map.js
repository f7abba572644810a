// Shared pieces: countdowns, and zooming and panning an SVG map by
// changing its viewBox (wheel, buttons, drag, two-finger pinch).

export function countdowns(root = document) {
  const tick = () => {
    for (const el of root.querySelectorAll("[data-deadline]")) {
      const left = Math.max(0, Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
      const d = Math.floor(left / 86400), h = Math.floor((left % 86400) / 3600);
      const m = Math.floor((left % 3600) / 60), s = left % 60;
      el.textContent = left === 0 ? "deadline passed" :
        (d ? `${d}d ${h}h` : h ? `${h}h ${m}m` : `${m}m ${String(s).padStart(2, "0")}s`) + " left";
    }
  };
  tick();
  return setInterval(tick, 1000);
}

export class ZoomPan {
  constructor(container) {
    this.container = container;
    this.pointers = new Map();
    this.moved = false;
    container.addEventListener("wheel", (e) => {
      if (!this.svg) return;
      e.preventDefault();
      this.zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, this.point(e));
    }, { passive: false });
    container.addEventListener("pointerdown", (e) => {
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      this.moved = false;
      this.pinch = null;
    });
    container.addEventListener("pointermove", (e) => {
      const last = this.pointers.get(e.pointerId);
      if (!last || !this.svg) return;
      if (this.pointers.size === 2) {
        const [a, b] = [...this.pointers.values()];
        const dist = Math.hypot(a.x - b.x, a.y - b.y);
        this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
        const [c, d] = [...this.pointers.values()];
        const now = Math.hypot(c.x - d.x, c.y - d.y);
        if (dist > 0) this.zoom(now / dist, this.point({ clientX: (c.x + d.x) / 2, clientY: (c.y + d.y) / 2 }));
        this.moved = true;
        return;
      }
      const dx = e.clientX - last.x, dy = e.clientY - last.y;
      if (!this.moved && Math.hypot(dx, dy) < 6) return;
      this.moved = true;
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const k = this.box.w / this.svg.getBoundingClientRect().width;
      this.box.x -= dx * k;
      this.box.y -= dy * k;
      this.apply();
    });
    const up = (e) => this.pointers.delete(e.pointerId);
    container.addEventListener("pointerup", up);
    container.addEventListener("pointercancel", up);
    // A drag is no click.
    container.addEventListener("click", (e) => {
      if (this.moved) { e.stopPropagation(); e.preventDefault(); this.moved = false; }
    }, true);
  }

  attach(svg) {
    this.svg = svg;
    const vb = svg.viewBox.baseVal;
    this.full = { x: vb.x, y: vb.y, w: vb.width, h: vb.height };
    if (!this.box) this.box = { ...this.full };
    this.apply();
  }

  point(e) {
    const r = this.svg.getBoundingClientRect();
    return { x: this.box.x + (e.clientX - r.left) / r.width * this.box.w,
             y: this.box.y + (e.clientY - r.top) / r.height * this.box.h };
  }

  zoom(f, at) {
    if (!this.svg) return;
    const w = Math.min(this.full.w, Math.max(this.full.w / 8, this.box.w / f));
    const h = w * this.full.h / this.full.w;
    at = at || { x: this.box.x + this.box.w / 2, y: this.box.y + this.box.h / 2 };
    this.box = { x: at.x - (at.x - this.box.x) * w / this.box.w, y: at.y - (at.y - this.box.y) * h / this.box.h, w, h };
    this.apply();
  }

  reset() { if (this.full) { this.box = { ...this.full }; this.apply(); } }

  // Moves the view so that this map point is in its middle.
  centre(at) {
    if (!this.svg) return;
    this.box.x = Math.min(Math.max(this.full.x, at.x - this.box.w / 2), this.full.x + this.full.w - this.box.w);
    this.box.y = Math.min(Math.max(this.full.y, at.y - this.box.h / 2), this.full.y + this.full.h - this.box.h);
    this.apply();
  }

  apply() {
    const b = this.box;
    this.svg.setAttribute("viewBox", `${b.x} ${b.y} ${b.w} ${b.h}`);
  }
}
