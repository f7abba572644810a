//! Pictures a variant names: `picture` maps and `unit-picture` icons
//! (read now, from beside the variant file).

use super::*;

/// A path a variant names; `confine` refuses one outside its folder.
pub(super) struct Folder<'f> {
    pub file: &'f str,
    pub confine: bool,
}

impl Folder<'_> {
    fn dir(&self) -> &std::path::Path {
        std::path::Path::new(self.file)
            .parent()
            .unwrap_or(std::path::Path::new(""))
    }

    fn confined(&self, path: &str) -> Res<()> {
        if self.confine {
            crate::files::confined(self.dir(), path).map(|_| ())
        } else {
            Ok(())
        }
    }
}

/// The `picture KIND PATH` lines.
pub(super) fn read_pictures(
    p: &Parser,
    folder: &Folder,
    stmts: &[Stmt],
) -> Result<Vec<(String, String)>, VariantError> {
    let mut pictures = Vec::new();
    for s in stmts {
        match s.args() {
            [kind, path] => {
                let path = unquote(path).into_owned();
                folder
                    .confined(&path)
                    .map_err(|m| p.err(s.line, format!("picture {m}")))?;
                pictures.push((unquote(kind).into_owned(), path))
            }
            _ => {
                return Err(p.err(
                    s.line,
                    "expected `picture KIND PATH`, e.g. `picture colour maps/standard.png`",
                ))
            }
        }
    }
    Ok(pictures)
}

/// The `unit-picture POWER TYPE FILE` lines, each file read and checked.
pub(super) fn read_unit_pictures(
    p: &Parser,
    map: &dip_core::Map,
    folder: &Folder,
    stmts: &[Stmt],
) -> Result<Vec<crate::UnitPicture>, VariantError> {
    let mut unit_pictures = Vec::new();
    for s in stmts {
        let pic = unit_picture(p, map, folder, s, &unit_pictures).map_err(|m| p.err(s.line, m))?;
        unit_pictures.push(pic);
    }
    Ok(unit_pictures)
}

fn unit_picture(
    p: &Parser,
    map: &dip_core::Map,
    folder: &Folder,
    s: &Stmt,
    known: &[crate::UnitPicture],
) -> Res<crate::UnitPicture> {
    let [power, ut, path] = s.args() else {
        return Err(
            "expected `unit-picture POWER TYPE FILE`, e.g. `unit-picture ENG F pictures/eng_fleet.png`".to_string(),
        );
    };
    let pw = map
        .find_power(&unquote(power))
        .ok_or_else(|| format!("unknown power `{power}`"))?;
    let ut = p.unit_type(ut)?;
    if known.iter().any(|u| u.power == pw && u.unit_type == ut) {
        return Err(format!(
            "`{power}` `{}` has a picture already",
            map.unit_type(ut).letter
        ));
    }
    let path = unquote(path).into_owned();
    folder.confined(&path).map_err(|m| format!("unit picture {m}"))?;
    let full = folder.dir().join(&path);
    let bytes = crate::files::read_bytes_capped(&full, crate::files::MAX_BINARY_BYTES)
        .map_err(|e| format!("cannot read the unit picture: {e}"))?;
    let known_format = bytes.starts_with(b"\x89PNG\r\n\x1a\n")
        || bytes.starts_with(b"BM")
        || bytes.starts_with(&[0, 0, 1, 0])
        || bytes.starts_with(b"II*\0")
        || bytes.starts_with(b"MM\0*");
    if !known_format {
        return Err(format!(
            "the unit picture {} is not a PNG, BMP, ICO or TIF",
            full.display()
        ));
    }
    Ok(crate::UnitPicture {
        power: pw,
        unit_type: ut,
        path,
        bytes,
    })
}
