//! The SVG documents put together from their layers: a whole position, the
//! base once and the overlays over it, moments and scenes of an animation.

use super::*;

impl<'a> Picture<'a> {
    /// The SVG of `state`, with the orders and results of `outcome` when
    /// given (the units stand where they stood when the orders were given).
    pub fn svg(&self, state: &State, outcome: Option<&PhaseOutcome>, opts: &Options) -> String {
        let pieces = self.pieces(state);
        self.svg_frame(state, outcome, &pieces, opts)
    }

    /// The units of `state` where they stand; dislodged units beside.
    pub fn pieces(&self, state: &State) -> Vec<Piece> {
        let mut v: Vec<Piece> = state
            .units()
            .map(|(_, u)| Piece {
                unit: u,
                at: self.unit_at(&u),
                dislodged: false,
                opacity: 1.0,
            })
            .collect();
        for (_, d) in state.all_dislodged() {
            v.push(Piece {
                unit: d.unit,
                at: self.aside(&d.unit),
                dislodged: true,
                opacity: 1.0,
            });
        }
        v
    }

    /// One picture with the given pieces (the animation moves them).
    pub fn svg_frame(&self, state: &State, outcome: Option<&PhaseOutcome>, pieces: &[Piece], opts: &Options) -> String {
        let mut s = self.svg_open(opts);
        s.push_str(&self.svg_base(opts));
        s.push_str(&self.svg_overlay(state, outcome, pieces, opts, true));
        s.push_str("</svg>\n");
        s
    }

    /// The `<svg>` start tag.
    pub fn svg_open(&self, opts: &Options) -> String {
        let (w, h) = self.size(opts);
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{}" height="{}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans">"#,
            fmt(w * opts.scale),
            fmt(h * opts.scale),
        ) + "\n"
    }

    /// What every position of the variant shares: patterns, sea, land,
    /// the province outlines (with ids `pN`, N the province index) and names.
    pub fn svg_base(&self, opts: &Options) -> String {
        self.base_svg(opts, true)
    }

    pub(super) fn base_svg(&self, opts: &Options, with_picture: bool) -> String {
        let pal = Palette::for_options(self.variant, opts);
        let mut s = String::with_capacity(120_000);
        self.write_defs(&mut s, &pal);
        let _ = writeln!(s, r#"<g transform="translate(0,{TITLE_H})">"#);
        self.write_base(&mut s, &pal, with_picture);
        if self.names_drawn(opts) {
            self.write_names(&mut s, &pal);
        }
        s.push_str("</g>\n");
        s
    }

    /// What one position adds: owners, centres, standoffs, orders,
    /// units, title and panel: [`Picture::svg_position`] then
    /// [`Picture::svg_moment`].
    pub fn svg_overlay(
        &self,
        state: &State,
        outcome: Option<&PhaseOutcome>,
        pieces: &[Piece],
        opts: &Options,
        by_reference: bool,
    ) -> String {
        self.svg_position(state, opts, by_reference) + &self.svg_moment(state, outcome, pieces, opts)
    }

    /// What changes once a phase: owned provinces, centres, title and panel. With `by_reference`, owned provinces refer to the
    /// outlines of [`Picture::svg_base`]; else they carry their own outline
    /// (to draw this layer alone over a picture of the base).
    pub fn svg_position(&self, state: &State, opts: &Options, by_reference: bool) -> String {
        let pal = Palette::for_options(self.variant, opts);
        let mut s = String::with_capacity(40_000);
        if !by_reference && pal.mode == Mode::BlackWhite {
            // Drawn alone over a kept base (PNG, BMP, animations): the
            // hatching its owners and panel are filled with comes along.
            s.push_str("<defs>\n");
            self.write_owner_patterns(&mut s, &pal);
            s.push_str("</defs>\n");
        }
        let _ = writeln!(s, r#"<g transform="translate(0,{TITLE_H})">"#);
        self.write_owners(&mut s, state, &pal, by_reference);
        self.write_centres(&mut s, state, &pal, opts.centre_owners);
        s.push_str("</g>\n");
        self.write_title(&mut s, state, &pal, opts);
        if opts.panel {
            self.write_panel(&mut s, state, &pal);
        }
        s
    }

    /// What changes from moment to moment: standoffs, orders and units.
    pub fn svg_moment(
        &self,
        state: &State,
        outcome: Option<&PhaseOutcome>,
        pieces: &[Piece],
        opts: &Options,
    ) -> String {
        self.svg_moment_over(state, outcome.map(|o| (state, o)), pieces, opts)
    }

    /// [`Picture::svg_moment`] over the position `standing`: its standoffs
    /// and the `pieces`, and, when `given`, orders and their results drawn
    /// where they were given (that position, and what became of them),
    /// in groups of class `results` that a page may hide. The map of now
    /// draws the last phase's orders over the position they led to; a
    /// played phase, its orders over its own position.
    pub fn svg_moment_over(
        &self,
        standing: &State,
        given: Option<(&State, &PhaseOutcome)>,
        pieces: &[Piece],
        opts: &Options,
    ) -> String {
        let pal = Palette::for_options(self.variant, opts);
        let mut s = String::with_capacity(20_000);
        if pal.mode != Mode::Colour && self.unit_images.iter().any(Option::is_some) {
            // Unit pictures in grey (the moment layer carries its own defs,
            // as it is also drawn alone over a kept base).
            s.push_str(r#"<defs><filter id="unitgrey"><feColorMatrix type="saturate" values="0"/></filter></defs>"#);
            s.push('\n');
        }
        let _ = writeln!(s, r#"<g transform="translate(0,{TITLE_H})">"#);
        // The position's standoffs are no result to hide: in a retreat
        // phase no unit may retreat there.
        let own: Vec<usize> = standing.standoffs.iter().collect();
        self.write_standoffs(&mut s, &own, &pal);
        if let Some((before, o)) = given {
            s.push_str(r#"<g class="results">"#);
            if let PhaseOutcome::Movement(m) = o {
                let more: Vec<usize> = m.standoffs.iter().filter(|p| !own.contains(p)).collect();
                self.write_standoffs(&mut s, &more, &pal);
            }
            self.write_orders(&mut s, before, o, pieces, &pal);
            s.push_str("</g>\n");
        }
        for p in pieces {
            self.write_piece(&mut s, p, &pal);
        }
        if let Some((_, o)) = given {
            s.push_str(r#"<g class="results">"#);
            self.write_results(&mut s, o, pieces, &pal);
            s.push_str("</g>\n");
        }
        s.push_str("</g>\n");
        s
    }

    /// The position `now` as a page shows it: with the click layer when
    /// `clickable` ([`Picture::svg_click_layer`], under the units), and
    /// the orders and results of the phase that led to it when given
    /// (`last`: the position they were given in and what became of them;
    /// [`Picture::svg_moment_over`]). The moment is in a group of class
    /// `moment`, which a page's stylesheet lets clicks through but for
    /// its units.
    pub fn svg_scene(
        &self,
        now: &State,
        last: Option<(&State, &PhaseOutcome)>,
        opts: &Options,
        clickable: bool,
    ) -> String {
        let pieces = self.pieces(now);
        let mut s = self.svg_open(opts);
        s.push_str(&self.svg_base(opts));
        s.push_str(&self.svg_position(now, opts, true));
        if clickable {
            s.push_str(&self.svg_click_layer(now, opts));
        }
        s.push_str(r#"<g class="moment">"#);
        s.push_str(&self.svg_moment_over(now, last, &pieces, opts));
        s.push_str("</g>\n</svg>\n");
        s
    }
}
