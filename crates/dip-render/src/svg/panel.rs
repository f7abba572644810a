//! The title and the side panel: the centre counts per power and the key to
//! the order marks.

use super::*;

impl<'a> Picture<'a> {
    pub(super) fn write_title(&self, s: &mut String, state: &State, pal: &Palette, opts: &Options) {
        let (w, _) = self.size(opts);
        let title = opts
            .title
            .clone()
            .unwrap_or_else(|| format!("{} — {}", self.variant.title, state.phase.long()));
        let _ = write!(
            s,
            r#"<rect width="{}" height="{TITLE_H}" fill="{}"/><text x="14" y="29" font-size="20" font-weight="bold" fill="{}">{}</text>"#,
            fmt(w),
            pal.title_bar(),
            pal.title_text(),
            esc(&clip(&title, 200))
        );
        s.push('\n');
    }

    pub(super) fn write_panel(&self, s: &mut String, state: &State, pal: &Palette) {
        let x0 = self.shapes.width as f32;
        let h = self.shapes.height as f32;
        let _ = write!(
            s,
            r#"<g transform="translate({},{TITLE_H})"><rect width="{PANEL_W}" height="{}" fill="{}"/>"#,
            fmt(x0),
            fmt(h),
            pal.panel()
        );
        let _ = write!(
            s,
            r#"<text x="14" y="28" font-size="15" font-weight="bold" fill="{}">Centres</text><text x="{}" y="28" font-size="11" text-anchor="end" fill="{}">units</text>"#,
            pal.text(),
            fmt(PANEL_W - 14.0),
            pal.text()
        );
        let y = self.write_centre_counts(s, state, pal);
        // A key to the order marks, at the foot of the panel when it fits.
        let ky = h - 150.0;
        if ky > y + 40.0 {
            write_order_key(s, pal, ky);
        }
        s.push_str("</g>\n");
    }

    /// Each power's centres and units, most centres first; then the neutral
    /// and total centres and how many win. Returns where the text ends.
    pub(super) fn write_centre_counts(&self, s: &mut String, state: &State, pal: &Palette) -> f32 {
        let map = self.map();
        let h = self.shapes.height as f32;
        let mut rows: Vec<(PowerId, usize, usize)> = map
            .power_ids()
            .map(|p| {
                (
                    p,
                    state.center_count(map, p),
                    state.units().filter(|(_, u)| u.power == p).count(),
                )
            })
            .collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let row_h = ((h - 120.0) / rows.len().max(1) as f32).min(26.0);
        let fs = (row_h * 0.55).clamp(7.0, 13.0);
        for (i, (p, c, u)) in rows.iter().enumerate() {
            let y = 44.0 + i as f32 * row_h;
            let name = &clip(&map.power(*p).name, MAX_LABEL);
            let _ = write!(
                s,
                r#"<rect x="14" y="{}" width="{}" height="{}" rx="2" fill="{}" stroke="{}" stroke-width="0.8"/><text x="{}" y="{}" font-size="{}" fill="{}">{}</text><text x="{}" y="{}" font-size="{}" font-weight="bold" text-anchor="end" fill="{}">{c}</text><text x="{}" y="{}" font-size="{}" text-anchor="end" fill="{}">{u}</text>"#,
                fmt(y),
                fmt(row_h * 0.7),
                fmt(row_h * 0.7),
                pal.owner_tint(*p),
                pal.text(),
                fmt(20.0 + row_h * 0.7),
                fmt(y + row_h * 0.55),
                fmt(fs),
                pal.text(),
                esc(name),
                fmt(PANEL_W - 50.0),
                fmt(y + row_h * 0.55),
                fmt(fs),
                pal.text(),
                fmt(PANEL_W - 14.0),
                fmt(y + row_h * 0.55),
                fmt(fs),
                pal.text(),
            );
        }
        let total = map.supply_centers().len();
        let owned: usize = rows.iter().map(|r| r.1).sum();
        let y = 44.0 + rows.len() as f32 * row_h + 18.0;
        let _ = write!(
            s,
            r#"<text x="14" y="{}" font-size="11" fill="{}">Neutral {} · total {total}</text><text x="14" y="{}" font-size="11" fill="{}">{} centres win</text>"#,
            fmt(y),
            pal.text(),
            total - owned.min(total),
            fmt(y + 16.0),
            pal.text(),
            map.victory_centers()
        );
        y
    }
}

/// The key to the order marks: move, support, convoy, failed, dislodged
/// and standoff, as the map draws them.
pub(super) fn write_order_key(s: &mut String, pal: &Palette, ky: f32) {
    let ink = pal.text();
    let red = pal.fail();
    let _ = write!(
        s,
        r#"<g font-size="11" fill="{ink}"><text x="14" y="{}" font-weight="bold">Orders</text>"#,
        fmt(ky)
    );
    let rows: [(&str, String); 6] = [
        (
            "move",
            format!(
                r#"<path d="M0,0 h22" stroke="{ink}" stroke-width="3"/><path d="M30,0 l-9,-5 v10 Z" fill="{ink}"/>"#
            ),
        ),
        (
            "support",
            format!(r#"<path d="M0,0 h30" stroke="{ink}" stroke-width="2.4" stroke-dasharray="6 4"/>"#),
        ),
        (
            "convoy",
            format!(
                r#"<path d="M0,0 h30" stroke="{ink}" stroke-width="2.2" stroke-dasharray="1 5" stroke-linecap="round"/>"#
            ),
        ),
        (
            "failed",
            format!(
                r#"<path d="M10,-5 l10,10 M20,-5 l-10,10" stroke="{red}" stroke-width="3.4" stroke-linecap="round"/>"#
            ),
        ),
        (
            "dislodged",
            format!(
                r#"<circle cx="15" cy="0" r="8" fill="none" stroke="{red}" stroke-width="2.4" stroke-dasharray="5 3"/>"#
            ),
        ),
        (
            "standoff",
            format!(
                r#"<circle cx="15" cy="0" r="8" fill="none" stroke="{red}" stroke-width="2" stroke-dasharray="4 3"/><path d="M11,-4 l8,8 M19,-4 l-8,8" stroke="{red}" stroke-width="2"/>"#
            ),
        ),
    ];
    for (k, (name, mark)) in rows.iter().enumerate() {
        let yy = ky + 20.0 + k as f32 * 19.0;
        let _ = write!(
            s,
            r#"<g transform="translate(16,{})" fill="none">{mark}</g><text x="58" y="{}">{name}</text>"#,
            fmt(yy - 4.0),
            fmt(yy)
        );
    }
    s.push_str("</g>");
}
