//! Drawing on a jDip plugin's own map (docs/jdip-plugin.md): the plugin's
//! SVG, without the layers jDip fills itself, is the picture under dip's
//! position; the paths of its `MouseLayer` are the province shapes that
//! owners colour; its `PROVINCE_DATA` points (read with the variant) place
//! the units.

use crate::raster::{self, RasterError};
use crate::regions::Ring;
use crate::{Picture, Shapes};
use dip_variants::Variant;

/// The province shapes of a plugin's SVG (`MouseLayer`), in the variant's
/// coordinates; provinces without a path keep no shape.
pub fn shapes(variant: &Variant, svg: &str, file: &str) -> Result<Shapes, RasterError> {
    let map = &variant.map;
    let found = dip_variants::jdip::svg_shapes(svg, file).map_err(|e| RasterError::Svg(e.to_string()))?;
    let (_, (_, _, vw, vh)) =
        dip_variants::jdip::drawable_svg(svg, file).map_err(|e| RasterError::Svg(e.to_string()))?;
    let mut provinces: Vec<Vec<Ring>> = vec![Vec::new(); map.num_provinces()];
    for (name, rings) in found {
        let Some(p) = map.find_province(&name) else { continue };
        let Some(slot) = provinces.get_mut(p.index()) else {
            continue;
        };
        for r in rings {
            let ring: Ring = r
                .iter()
                .map(|&(x, y)| (x.round().clamp(-1e6, 1e6) as i32, y.round().clamp(-1e6, 1e6) as i32))
                .collect();
            if ring.len() >= 3 {
                slot.push(ring);
            }
        }
    }
    Ok(Shapes {
        width: vw.ceil().clamp(1.0, raster::MAX_SIDE as f32) as u32,
        height: vh.ceil().clamp(1.0, raster::MAX_SIDE as f32) as u32,
        provinces,
        land: Vec::new(),
        points: map.provinces().iter().map(|p| p.pos.unwrap_or((0.0, 0.0))).collect(),
        generated: false,
        places: Default::default(),
    })
}

/// The plugin's map drawn at one pixel per unit of its view box, as PNG.
pub fn background(svg: &str, file: &str) -> Result<Vec<u8>, RasterError> {
    let (text, (_, _, vw, vh)) =
        dip_variants::jdip::drawable_svg(svg, file).map_err(|e| RasterError::Svg(e.to_string()))?;
    let tree = raster::tree(&text)?;
    let size = tree.size();
    let (w, h) = (vw.ceil() as u32, vh.ceil() as u32);
    if w == 0 || h == 0 || w > raster::MAX_SIDE || h > raster::MAX_SIDE {
        return Err(RasterError::Size(w, h));
    }
    let mut pm = resvg::tiny_skia::Pixmap::new(w, h).ok_or(RasterError::Size(w, h))?;
    pm.fill(resvg::tiny_skia::Color::WHITE);
    let t = resvg::tiny_skia::Transform::from_scale(vw / size.width(), vh / size.height());
    resvg::render(&tree, t, &mut pm.as_mut());
    raster::encode_png(&pm)
}

/// The picture of a variant read from a plugin, on the plugin's map; the
/// centre markers where jDip draws them (the SVG's SUPPLY_CENTER points).
pub fn picture<'a>(variant: &'a Variant, svg: &str, file: &str) -> Result<Picture<'a>, RasterError> {
    let shapes = shapes(variant, svg, file)?;
    let png = background(svg, file)?;
    let mut pic = Picture::with_background(variant, shapes, png)?;
    pic.set_centre_points(centre_points(variant, svg, file)?);
    Ok(pic)
}

/// The SVG's SUPPLY_CENTER point of each province that has one.
pub fn centre_points(variant: &Variant, svg: &str, file: &str) -> Result<Vec<Option<(f32, f32)>>, RasterError> {
    let map = &variant.map;
    let found = dip_variants::jdip::svg_centre_points(svg, file).map_err(|e| RasterError::Svg(e.to_string()))?;
    let mut out = vec![None; map.num_provinces()];
    for (name, at) in found {
        if let Some(slot) = map.find_province(&name).and_then(|p| out.get_mut(p.index())) {
            *slot = Some(at);
        }
    }
    Ok(out)
}

/// The units of a jDip symbol pack as the variant's unit pictures: each
/// power's armies, fleets and wings (`Army`, `Fleet`, `Wing` symbols)
/// filled with the power's colour, as PNGs at twice the unit picture side.
/// Unit types the pack has no symbol for keep dip's own icon.
pub fn symbol_pictures(variant: &Variant, pack: &dip_variants::jdip::SymbolPack) -> Vec<dip_variants::UnitPicture> {
    let map = &variant.map;
    let palette = crate::colour::Palette::new(variant, crate::Mode::Colour);
    let side = (crate::svg::UNIT_PICTURE_SIDE * 2.0) as u32;
    let mut out = Vec::new();
    for ut in map.unit_type_ids() {
        let symbol = match map.unit_type(ut).letter.to_ascii_uppercase() {
            'A' => "Army",
            'F' => "Fleet",
            'W' => "Wing",
            _ => continue,
        };
        for pi in 0..map.powers().len() {
            let power = dip_core::PowerId(pi as u8);
            let Some(svg) = pack.unit_svg(symbol, &palette.power(power), side) else {
                continue;
            };
            if let Ok(png) = raster::png(&svg) {
                out.push(dip_variants::UnitPicture {
                    power,
                    unit_type: ut,
                    path: format!("{}#{symbol}", pack.svg.0),
                    bytes: png,
                });
            }
        }
    }
    out
}
