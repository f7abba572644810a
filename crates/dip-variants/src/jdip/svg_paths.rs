//! SVG path data and transforms flattened to rings of points (curves
//! followed in short straight steps), for the province shapes.

/// An SVG transform as its matrix `a b c d e f`.
pub(super) type Affine = [f64; 6];

pub(super) const IDENTITY: Affine = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

pub(super) fn mul(p: Affine, q: Affine) -> Affine {
    [
        p[0] * q[0] + p[2] * q[1],
        p[1] * q[0] + p[3] * q[1],
        p[0] * q[2] + p[2] * q[3],
        p[1] * q[2] + p[3] * q[3],
        p[0] * q[4] + p[2] * q[5] + p[4],
        p[1] * q[4] + p[3] * q[5] + p[5],
    ]
}

/// The transform from an element's coordinates to the document's: its own
/// `transform` and its ancestors'. A transform that does not parse (or is
/// not finite) counts as none, as a picture without it would be drawn.
pub(super) fn transform_of(n: roxmltree::Node) -> Affine {
    let mut t = IDENTITY;
    for a in n.ancestors() {
        let Some(text) = a.attribute("transform") else { continue };
        if let Ok(m) = text.parse::<svgtypes::Transform>() {
            let m = [m.a, m.b, m.c, m.d, m.e, m.f];
            if m.iter().all(|v| v.is_finite()) {
                t = mul(m, t);
            }
        }
    }
    t
}

pub(super) fn apply(t: Affine, (x, y): (f32, f32)) -> (f32, f32) {
    let (x, y) = (x as f64, y as f64);
    let p = (t[0] * x + t[2] * y + t[4], t[1] * x + t[3] * y + t[5]);
    if p.0.is_finite() && p.1.is_finite() {
        (p.0 as f32, p.1 as f32)
    } else {
        (x as f32, y as f32)
    }
}

/// Polygons of SVG path data (curves by points along them).
pub(super) fn path_rings(d: &str) -> Vec<Vec<(f32, f32)>> {
    let Some(toks) = path_tokens(d) else {
        return Vec::new();
    };
    let mut rings = Vec::new();
    let mut cur: Vec<(f32, f32)> = Vec::new();
    let (mut x, mut y) = (0.0f32, 0.0f32);
    let (mut sx, mut sy) = (0.0f32, 0.0f32);
    let mut cmd = 'M';
    let mut last_cubic: Option<(f32, f32)> = None;
    let mut last_quad: Option<(f32, f32)> = None;
    let mut k = 0;
    let mut guard = 0usize;
    while k < toks.len() {
        guard += 1;
        if guard > toks.len() * 2 + 8 {
            break;
        }
        if let Ok(c) = toks[k] {
            cmd = c;
            k += 1;
            if c == 'Z' || c == 'z' {
                close_ring(&mut rings, &mut cur);
                (x, y) = (sx, sy);
            }
            continue;
        }
        let n = match cmd.to_ascii_uppercase() {
            'M' | 'L' | 'T' => 2,
            'H' | 'V' => 1,
            'C' => 6,
            'S' | 'Q' => 4,
            'A' => 7,
            _ => {
                k += 1;
                continue;
            }
        };
        let args: Vec<f32> = toks[k..].iter().take(n).map_while(|t| t.err()).collect();
        if args.len() < n {
            break;
        }
        k += n;
        let rel = cmd.is_ascii_lowercase();
        let (ox, oy) = if rel { (x, y) } else { (0.0, 0.0) };
        let (px, py) = (x, y);
        let upper = cmd.to_ascii_uppercase();
        match upper {
            'H' => x = args[0] + if rel { x } else { 0.0 },
            'V' => y = args[0] + if rel { y } else { 0.0 },
            _ => {
                x = args[n - 2] + ox;
                y = args[n - 1] + oy;
            }
        }
        let ctrl = curve_controls(
            upper,
            &args,
            (ox, oy),
            (px, py),
            (x, y),
            &mut last_cubic,
            &mut last_quad,
        );
        if let Some(((c1x, c1y), (c2x, c2y))) = ctrl {
            for i in 1..8 {
                let t = i as f32 / 8.0;
                let u = 1.0 - t;
                let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
                cur.push((a * px + b * c1x + c * c2x + d * x, a * py + b * c1y + c * c2y + d * y));
            }
        }
        if cmd == 'M' || cmd == 'm' {
            close_ring(&mut rings, &mut cur);
            (sx, sy) = (x, y);
            cur.push((x, y));
            cmd = if rel { 'l' } else { 'L' };
        } else {
            cur.push((x, y));
        }
    }
    if cur.len() >= 3 {
        rings.push(cur);
    }
    rings
}

/// A path's tokens: command letters (`Ok`) and numbers (`Err`); `None` when
/// a number does not read as a finite one.
pub(super) fn path_tokens(d: &str) -> Option<Vec<Result<char, f32>>> {
    let mut toks: Vec<Result<char, f32>> = Vec::new();
    let b = d.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_ascii_alphabetic() && c != 'e' && c != 'E' {
            toks.push(Ok(c));
            i += 1;
        } else if c.is_ascii_digit() || c == '-' || c == '+' || c == '.' {
            let start = i;
            i += 1;
            let mut dot = c == '.';
            while i < b.len() {
                let d = b[i] as char;
                if d.is_ascii_digit() {
                    i += 1;
                } else if d == '.' && !dot {
                    dot = true;
                    i += 1;
                } else if (d == 'e' || d == 'E') && i + 1 < b.len() {
                    i += 1;
                    if b[i] == b'-' || b[i] == b'+' {
                        i += 1;
                    }
                } else {
                    break;
                }
            }
            match d[start..i].parse::<f32>() {
                Ok(v) if v.is_finite() => toks.push(Err(v)),
                _ => return None,
            }
        } else {
            i += 1;
        }
    }
    Some(toks)
}

/// Ends the ring being drawn: kept when it has an area (three points or
/// more), else dropped.
pub(super) fn close_ring(rings: &mut Vec<Vec<(f32, f32)>>, cur: &mut Vec<(f32, f32)>) {
    if cur.len() >= 3 {
        rings.push(std::mem::take(cur));
    } else {
        cur.clear();
    }
}

/// Curves: the two control points of a cubic (a quadratic raised to one),
/// the first control point of S and T reflected from the previous curve's
/// last one; `None` for straight segments. `o` is the origin of relative
/// arguments, `p` the segment's start and `end` its end.
pub(super) fn curve_controls(
    upper: char,
    args: &[f32],
    (ox, oy): (f32, f32),
    (px, py): (f32, f32),
    (x, y): (f32, f32),
    last_cubic: &mut Option<(f32, f32)>,
    last_quad: &mut Option<(f32, f32)>,
) -> Option<((f32, f32), (f32, f32))> {
    let reflect = |c: Option<(f32, f32)>| c.map_or((px, py), |(cx, cy)| (2.0 * px - cx, 2.0 * py - cy));
    let raise = |q: (f32, f32)| {
        (
            (px + 2.0 / 3.0 * (q.0 - px), py + 2.0 / 3.0 * (q.1 - py)),
            (x + 2.0 / 3.0 * (q.0 - x), y + 2.0 / 3.0 * (q.1 - y)),
        )
    };
    let smooth_quad = reflect(*last_quad);
    let ctrl = match upper {
        'C' => Some(((args[0] + ox, args[1] + oy), (args[2] + ox, args[3] + oy))),
        'S' => Some((reflect(*last_cubic), (args[0] + ox, args[1] + oy))),
        'Q' => Some(raise((args[0] + ox, args[1] + oy))),
        'T' => Some(raise(smooth_quad)),
        _ => None,
    };
    *last_cubic = match upper {
        'C' | 'S' => ctrl.map(|c| c.1),
        _ => None,
    };
    *last_quad = match upper {
        'Q' => Some((args[0] + ox, args[1] + oy)),
        'T' => Some(smooth_quad),
        _ => None,
    };
    ctrl
}

// ---------------------------------------------------------------------------
// Unit symbol packs.
