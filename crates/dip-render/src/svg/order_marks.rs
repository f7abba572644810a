//! The marks of orders: holds, supports, convoys, builds, disbands, the
//! arrows of moves and the cross of a failed order.

use super::*;

/// An order's kind as pages name it, and the province of its unit;
/// none for a waived build.
pub(super) fn order_kind(k: &OrderKind) -> Option<(&'static str, ProvinceId)> {
    Some(match k {
        OrderKind::Hold(u) => ("hold", u.province),
        OrderKind::Move(u, ..) => ("move", u.province),
        OrderKind::SupportHold(u, _) | OrderKind::SupportMove(u, ..) => ("support", u.province),
        OrderKind::Convoy(u, ..) => ("convoy", u.province),
        OrderKind::Retreat(u, _) => ("retreat", u.province),
        OrderKind::Disband(u) => ("disband", u.province),
        OrderKind::Build(u) => ("build", u.province),
        OrderKind::Waive => return None,
    })
}

/// A hold: a ring round the unit.
pub(super) fn hold_mark(s: &mut String, (x, y): (f32, f32), colour: &str, ok: bool, pal: &Palette) {
    let _ = write!(
        s,
        r#"<circle cx="{}" cy="{}" r="17" stroke="{colour}" stroke-width="3"/>"#,
        fmt(x),
        fmt(y)
    );
    if !ok {
        cross(s, (x + 14.0, y - 14.0), pal);
    }
}

/// A support to hold: a dashed line from the supporter `a` to a dashed
/// ring round the supported unit `b`.
pub(super) fn support_hold_mark(
    s: &mut String,
    (a, b): ((f32, f32), (f32, f32)),
    colour: &str,
    ok: bool,
    pal: &Palette,
) {
    let (a2, b2) = shorten(a, b, 12.0, 19.0);
    let _ = write!(
        s,
        r#"<path d="M{},{} L{},{}" stroke="{colour}" stroke-width="2.4" stroke-dasharray="6 4"{}/><circle cx="{}" cy="{}" r="19" stroke="{colour}" stroke-width="2" stroke-dasharray="6 4"/>"#,
        fmt(a2.0),
        fmt(a2.1),
        fmt(b2.0),
        fmt(b2.1),
        dim(ok),
        fmt(b.0),
        fmt(b.1)
    );
    if !ok {
        cross(s, mid(a2, b2), pal);
    }
}

/// A support to move: a dashed line from the supporter `a` to a dot in
/// the middle of the supported move (`from`, `to`), and the move itself,
/// faint, when the supported unit does not make it (`moves` false).
pub(super) fn support_move_mark(
    s: &mut String,
    a: (f32, f32),
    (from, to, moves): ((f32, f32), (f32, f32), bool),
    colour: &str,
    ok: bool,
    pal: &Palette,
) {
    let target = mid(from, to);
    let (a2, _) = shorten(a, target, 12.0, 0.0);
    let _ = write!(
        s,
        r#"<path d="M{},{} L{},{}" stroke="{colour}" stroke-width="2.4" stroke-dasharray="6 4"{}/><circle cx="{}" cy="{}" r="3.5" fill="{colour}" stroke="none"/>"#,
        fmt(a2.0),
        fmt(a2.1),
        fmt(target.0),
        fmt(target.1),
        dim(ok),
        fmt(target.0),
        fmt(target.1)
    );
    if !moves {
        let (f2, t2) = shorten(from, to, 12.0, 14.0);
        let _ = write!(
            s,
            r#"<path d="M{},{} L{},{}" stroke="{colour}" stroke-width="1.4" stroke-dasharray="2 3" opacity="0.7"/>"#,
            fmt(f2.0),
            fmt(f2.1),
            fmt(t2.0),
            fmt(t2.1)
        );
    }
    if !ok {
        cross(s, mid(a2, target), pal);
    }
}

/// A convoy: a dotted line from the convoyed unit (`from`) through the
/// convoying fleet `a` to the destination `to`.
pub(super) fn convoy_mark(
    s: &mut String,
    a: (f32, f32),
    (from, to): ((f32, f32), (f32, f32)),
    colour: &str,
    ok: bool,
    pal: &Palette,
) {
    let (p1, _) = shorten(from, a, 12.0, 0.0);
    let (_, p3) = shorten(a, to, 0.0, 14.0);
    let _ = write!(
        s,
        r#"<path d="M{},{} L{},{} L{},{}" stroke="{colour}" stroke-width="2.2" stroke-dasharray="1 5" stroke-linejoin="round"{}/>"#,
        fmt(p1.0),
        fmt(p1.1),
        fmt(a.0),
        fmt(a.1),
        fmt(p3.0),
        fmt(p3.1),
        dim(ok)
    );
    if !ok {
        cross(s, (a.0 + 14.0, a.1 - 14.0), pal);
    }
}

/// A build: a dashed ring with a plus where the unit is to stand.
pub(super) fn build_mark(s: &mut String, (x, y): (f32, f32), colour: &str, ok: bool, pal: &Palette) {
    let _ = write!(
        s,
        r#"<circle cx="{}" cy="{}" r="19" stroke="{colour}" stroke-width="2.4" stroke-dasharray="5 3"/><path d="M{},{} h10 M{},{} v10" stroke="{colour}" stroke-width="3"/>"#,
        fmt(x),
        fmt(y),
        fmt(x + 13.0),
        fmt(y - 17.0),
        fmt(x + 18.0),
        fmt(y - 22.0)
    );
    if !ok {
        cross(s, (x, y), pal);
    }
}

/// A disband: a cross over the unit.
pub(super) fn disband_mark(s: &mut String, (x, y): (f32, f32), ok: bool, pal: &Palette) {
    let _ = write!(
        s,
        r#"<path d="M{},{} l20,20 M{},{} l-20,20" stroke="{}" stroke-width="3.2"{}/>"#,
        fmt(x - 10.0),
        fmt(y - 10.0),
        fmt(x + 10.0),
        fmt(y - 10.0),
        pal.fail(),
        dim(ok)
    );
}

pub(super) fn mid(a: (f32, f32), b: (f32, f32)) -> (f32, f32) {
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

/// The segment a→b with `sa` cut from its start and `sb` from its end.
pub(super) fn shorten(a: (f32, f32), b: (f32, f32), sa: f32, sb: f32) -> ((f32, f32), (f32, f32)) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < sa + sb + 4.0 {
        return (a, b);
    }
    let (ux, uy) = (dx / len, dy / len);
    ((a.0 + ux * sa, a.1 + uy * sa), (b.0 - ux * sb, b.1 - uy * sb))
}

pub(super) fn dim(ok: bool) -> &'static str {
    if ok {
        ""
    } else {
        r#" opacity="0.6""#
    }
}

/// A failed order: a red cross.
pub(super) fn cross(s: &mut String, (x, y): (f32, f32), pal: &Palette) {
    let _ = write!(
        s,
        r#"<path d="M{},{} l10,10 M{},{} l-10,10" stroke="{}" stroke-width="3.4" stroke-linecap="round"/>"#,
        fmt(x - 5.0),
        fmt(y - 5.0),
        fmt(x + 5.0),
        fmt(y - 5.0),
        pal.fail()
    );
}

/// A move or retreat arrow with its head; curved for a convoyed move.
#[allow(clippy::too_many_arguments)]
pub(super) fn arrow(
    s: &mut String,
    a: (f32, f32),
    b: (f32, f32),
    colour: &str,
    ok: bool,
    curved: bool,
    retreat: bool,
    pal: &Palette,
) {
    let (a2, b2) = shorten(a, b, 12.0, 13.0);
    let (dx, dy) = (b2.0 - a2.0, b2.1 - a2.1);
    let len = (dx * dx + dy * dy).sqrt().max(0.01);
    let (ux, uy) = (dx / len, dy / len);
    // The head's direction: along the line, or along the curve's end.
    let (ctrl, hx, hy) = if curved {
        let c = (a2.0 + dx / 2.0 - uy * len * 0.25, a2.1 + dy / 2.0 + ux * len * 0.25);
        let (ex, ey) = (b2.0 - c.0, b2.1 - c.1);
        let el = (ex * ex + ey * ey).sqrt().max(0.01);
        (Some(c), ex / el, ey / el)
    } else {
        (None, ux, uy)
    };
    let head = 11.0;
    let base = (b2.0 - hx * head, b2.1 - hy * head);
    let dash = if retreat { r#" stroke-dasharray="10 4""# } else { "" };
    let d = match ctrl {
        Some(c) => format!(
            "M{},{} Q{},{} {},{}",
            fmt(a2.0),
            fmt(a2.1),
            fmt(c.0),
            fmt(c.1),
            fmt(base.0),
            fmt(base.1)
        ),
        None => format!("M{},{} L{},{}", fmt(a2.0), fmt(a2.1), fmt(base.0), fmt(base.1)),
    };
    let _ = write!(
        s,
        r#"<g{}><path d="{d}" stroke="{colour}" stroke-width="3.4"{dash}/><path d="M{},{} L{},{} L{},{} Z" fill="{colour}" stroke="none"/></g>"#,
        dim(ok),
        fmt(b2.0),
        fmt(b2.1),
        fmt(base.0 - hy * 6.0),
        fmt(base.1 + hx * 6.0),
        fmt(base.0 + hy * 6.0),
        fmt(base.1 - hx * 6.0),
    );
    if !ok {
        let m = match ctrl {
            Some(c) => (
                0.25 * a2.0 + 0.5 * c.0 + 0.25 * base.0,
                0.25 * a2.1 + 0.5 * c.1 + 0.25 * base.1,
            ),
            None => mid(a2, base),
        };
        cross(s, m, pal);
    }
}
