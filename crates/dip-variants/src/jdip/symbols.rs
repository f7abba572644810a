//! A jDip unit symbol pack (`symbols.xml` and its SVG symbols).

use super::*;

/// A jDip unit symbol pack (`…Symbols.zip`, a folder holding symbols.xml
/// and symbols.svg, or symbols.svg itself): its name and the SVG whose
/// `<symbol id="Army|Fleet|Wing">` draw the units.
#[derive(Clone, Debug)]
pub struct SymbolPack {
    pub name: String,
    /// (file name for messages, text).
    pub svg: (String, String),
}

impl SymbolPack {
    pub fn open(path: &Path) -> Result<SymbolPack, VariantError> {
        let shown = path.display().to_string();
        let lower = shown.to_ascii_lowercase();
        let (xml_text, svg) = if lower.ends_with(".svg") {
            (
                None,
                (
                    shown.clone(),
                    crate::files::read_text(path).map_err(|m| err(&shown, 0, m))?,
                ),
            )
        } else if path.is_dir() {
            let x = read_dir_file(path, "symbols.xml", &shown).ok();
            let s = read_dir_file(path, "symbols.svg", &shown)?;
            (x, (path.join("symbols.svg").display().to_string(), s))
        } else {
            let bytes = crate::files::read_bytes_capped(path, MAX_ZIP_BYTES).map_err(|m| err(&shown, 0, m))?;
            let names: Vec<String> = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..]))
                .map_err(|e| err(&shown, 0, format!("not a zip file: {e}")))?
                .file_names()
                .filter_map(|n| n.ok().map(|c| c.into_owned()))
                .collect();
            let find = |want: &str| {
                names
                    .iter()
                    .filter(|n| n.rsplit('/').next().is_some_and(|f| f.eq_ignore_ascii_case(want)))
                    .min_by_key(|n| n.matches('/').count())
                    .cloned()
            };
            let sname = find("symbols.svg")
                .ok_or_else(|| err(&shown, 0, "no symbols.svg in the zip; is it a jDip symbol pack?"))?;
            let text = |n: &str| -> Result<String, VariantError> {
                let b = zip_entry(&bytes, &shown, n)?;
                crate::files::decode_utf8(b, &entry_name(&shown, n)).map_err(|m| err(&shown, 0, m))
            };
            let x = find("symbols.xml").and_then(|n| text(&n).ok());
            (x, (entry_name(&shown, &sname), text(&sname)?))
        };
        let name = xml_text
            .as_deref()
            .and_then(|t| {
                let doc = xml(t, "symbols.xml").ok()?;
                doc.root_element().attribute("name").map(str::to_string)
            })
            .unwrap_or_else(|| {
                path.file_stem()
                    .and_then(|f| f.to_str())
                    .unwrap_or("symbols")
                    .trim_end_matches("Symbols")
                    .to_string()
            });
        // The symbols must be readable and hold at least the army.
        with_svg(&svg.1, &svg.0, |doc| {
            if doc
                .descendants()
                .any(|n| n.tag_name().name() == "symbol" && n.attribute("id") == Some("Army"))
            {
                Ok(())
            } else {
                Err(err(&svg.0, 0, "no <symbol id=\"Army\"> in the symbol pack's SVG"))
            }
        })?;
        Ok(SymbolPack { name, svg })
    }

    /// The pack as a standalone SVG drawing one unit symbol (`Army`,
    /// `Fleet`, `Wing`) in `fill`, centred in a square of side `side`;
    /// `None` when the pack has no such symbol.
    pub fn unit_svg(&self, symbol: &str, fill: &str, side: u32) -> Option<String> {
        let owned = declare_jdip_ns(&self.svg.1);
        let text = owned.as_deref().unwrap_or(&self.svg.1);
        let doc = xml(text, &self.svg.0).ok()?;
        let sym = doc
            .descendants()
            .find(|n| n.tag_name().name() == "symbol" && n.attribute("id") == Some(symbol))?;
        let vb: Vec<f32> = sym
            .attribute("viewBox")
            .unwrap_or("0 0 10 10")
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter_map(|w| w.parse().ok())
            .collect();
        let (w, h) = match vb[..] {
            [_, _, w, h] if w > 0.0 && h > 0.0 && w.is_finite() && h.is_finite() => (w, h),
            _ => (10.0, 10.0),
        };
        // The pack's styles and symbols, then one use of the symbol; jDip's
        // symbols are drawn around their origin.
        let defs: String = doc
            .root_element()
            .children()
            .filter(|n| n.tag_name().name() == "defs")
            .map(|n| &text[n.range()])
            .collect();
        let m = w.max(h) * 0.75;
        Some(format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"{side}\" height=\"{side}\" viewBox=\"{} {} {} {}\">{defs}<use xlink:href=\"#{symbol}\" x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"{}\"/></svg>",
            -m,
            -m,
            2.0 * m,
            2.0 * m,
            esc(fill)
        ))
    }
}

// ---------------------------------------------------------------------------
// Search paths: `--variants PATH`.
