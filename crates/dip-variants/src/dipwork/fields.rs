//! FIELDS.TXT: `#` fields, `-` borders and `=` synonyms, and what they
//! make of the model: provinces and coasts, where each unit type stands,
//! and the borders with their clockwise order.

use super::*;

/// A `- FROM TO VALUE...` line: its number, both fields and one value per
/// unit type.
type Border = (usize, String, String, Vec<String>);

pub(super) struct Fields {
    fields: Vec<Field>,
    /// Lower-case field name → its index in `fields`.
    index: HashMap<String, usize>,
    borders: Vec<Border>,
    synonyms: Vec<(usize, String, Vec<String>)>,
}

impl Fields {
    /// Reads the lines up to END; every border line has a value for each
    /// of the `n_types` unit types.
    pub(super) fn read(text: &str, ffile: &str, n_types: usize) -> Result<Fields, VariantError> {
        let mut f = Fields {
            fields: Vec::new(),
            index: HashMap::new(),
            borders: Vec::new(),
            synonyms: Vec::new(),
        };
        for (i, raw) in text.lines().enumerate() {
            let l = i + 1;
            let ws: Vec<&str> = raw.split_whitespace().collect();
            let Some(&kw) = ws.first() else { continue };
            match kw {
                "#" => f.field_line(&ws, ffile, l)?,
                "-" => {
                    let [_, from, to, vals @ ..] = ws.as_slice() else {
                        return Err(err(ffile, l, "expected `- FROM TO VALUE...` (one value per unit type)"));
                    };
                    if vals.len() < n_types {
                        return Err(err(
                            ffile,
                            l,
                            format!(
                                "expected {n_types} values (one per unit type: ja, nein, -, imp or a field name), found {}",
                                vals.len()
                            ),
                        ));
                    }
                    f.borders.push((
                        l,
                        from.to_string(),
                        to.to_string(),
                        vals.iter().map(|v| v.to_string()).collect(),
                    ));
                }
                "=" => {
                    let [_, name, syns @ ..] = ws.as_slice() else {
                        return Err(err(ffile, l, "expected `= NAME SYNONYM...`"));
                    };
                    f.synonyms
                        .push((l, name.to_string(), syns.iter().map(|s| s.to_string()).collect()));
                }
                k if k.eq_ignore_ascii_case("END") => break,
                other => {
                    return Err(err(
                        ffile,
                        l,
                        format!("expected `#` (field), `-` (border), `=` (synonym) or END, found `{other}`"),
                    ))
                }
            }
        }
        Ok(f)
    }

    /// `# NAME X Y COAST-OF TYPE POINTS [HOME]`.
    fn field_line(&mut self, ws: &[&str], ffile: &str, l: usize) -> Result<(), VariantError> {
        let [_, name, x, y, coast_of, letters, rest @ ..] = ws else {
            return Err(err(ffile, l, "expected `# NAME X Y COAST-OF TYPE POINTS [HOME]`"));
        };
        let num = |s: &str, what: &str| {
            s.parse::<f32>()
                .map_err(|_| err(ffile, l, format!("expected {what}, found `{s}`")))
        };
        let points = match rest.first() {
            Some(p) => p
                .parse()
                .map_err(|_| err(ffile, l, format!("expected the supply points (a number), found `{p}`")))?,
            None => 0,
        };
        let home = rest.get(1).filter(|h| **h != "-").map(|h| h.to_string());
        let key = name.to_lowercase();
        if self.index.insert(key, self.fields.len()).is_some() {
            return Err(err(ffile, l, format!("field `{name}` described twice")));
        }
        self.fields.push(Field {
            name: name.to_string(),
            x: num(x, "the x coordinate")?,
            y: num(y, "the y coordinate")?,
            coast_of: (*coast_of != "-").then(|| coast_of.to_string()),
            letters: letters.to_string(),
            points,
            home,
            line: l,
        });
        Ok(())
    }

    /// Provinces, their coasts and the synonyms; returns each field's
    /// region (lower-case field name → `prov` or `prov/coast`).
    pub(super) fn add_provinces(&self, m: &mut Model, ffile: &str) -> Result<HashMap<String, String>, VariantError> {
        let mut region_of: HashMap<String, String> = HashMap::new();
        let mut prov_index: HashMap<String, usize> = HashMap::new();
        for f in self.fields.iter().filter(|f| f.coast_of.is_none()) {
            let mut p = MProvince::new(&f.name, &f.name, terrain_of(&f.letters));
            p.at = Some((f.x, f.y));
            p.center = f.points > 0;
            p.src = (1, f.line);
            match f.home.as_deref() {
                Some(h) if h.eq_ignore_ascii_case("all") => p.home_of_all = true,
                Some(h) => {
                    let pw = m
                        .powers
                        .iter()
                        .find(|p| p.abbr.eq_ignore_ascii_case(h) || p.name.eq_ignore_ascii_case(h))
                        .ok_or_else(|| err(ffile, f.line, format!("unknown nation `{h}` (not in NATIONLIST)")))?;
                    p.homes.push(pw.abbr.clone());
                }
                None => {}
            }
            region_of.insert(f.name.to_lowercase(), f.name.clone());
            prov_index.insert(f.name.to_lowercase(), m.provinces.len());
            m.provinces.push(p);
        }
        for f in self.fields.iter().filter(|f| f.coast_of.is_some()) {
            let parent = f.coast_of.clone().unwrap_or_default();
            let &pi = prov_index.get(&parent.to_lowercase()).ok_or_else(|| {
                err(
                    ffile,
                    f.line,
                    format!("`{}` is a coast of unknown field `{parent}`", f.name),
                )
            })?;
            let c = coast_name(&f.name);
            let pabbr = m.provinces[pi].abbr.clone();
            m.provinces[pi].coasts.push((c.clone(), Some((f.x, f.y))));
            // The subfield's own name (`PeS`), unless it is only the
            // province and the coast (`stp/sc`, as dip writes FIELDS.TXT).
            if !f.name.contains(['/', '(']) {
                m.provinces[pi].coast_names.push((c.clone(), f.name.clone()));
            }
            region_of.insert(f.name.to_lowercase(), format!("{pabbr}/{c}"));
        }
        self.add_synonyms(m, &prov_index, &region_of, ffile)?;
        Ok(region_of)
    }

    /// The first synonym is the full name when the field is a province.
    fn add_synonyms(
        &self,
        m: &mut Model,
        prov_index: &HashMap<String, usize>,
        region_of: &HashMap<String, String>,
        ffile: &str,
    ) -> Result<(), VariantError> {
        for (l, name, syns) in &self.synonyms {
            let key = name.to_lowercase();
            let Some(&pi) = prov_index.get(&key) else {
                if region_of.contains_key(&key) {
                    continue;
                }
                return Err(err(ffile, *l, format!("synonyms for unknown field `{name}`")));
            };
            for s in syns {
                let s = s.replace('_', " ");
                let p = &mut m.provinces[pi];
                if p.name == p.abbr && p.aliases.is_empty() && !s.contains(['/', '(']) {
                    p.name = s;
                } else if !s.contains(['/', '(', ')', ',', ':', '=']) {
                    p.aliases.push(s);
                }
            }
        }
        Ok(())
    }

    fn field(&self, name: &str, l: usize, ffile: &str) -> Result<&Field, VariantError> {
        self.index
            .get(&name.to_lowercase())
            .map(|&i| &self.fields[i])
            .ok_or_else(|| err(ffile, l, format!("unknown field `{name}`")))
    }

    /// Which unit types stand where (a border value other than `-` means
    /// the start field exists for that type) and where they are built
    /// (`allowed_in`, per type); the convoy unit of column `convoy_nr`.
    pub(super) fn set_unit_terrains(
        &self,
        m: &mut Model,
        allowed_in: &[String],
        convoy_nr: usize,
        ffile: &str,
    ) -> Result<(), VariantError> {
        let n_types = m.unit_types.len();
        let total_types = if convoy_nr > n_types { convoy_nr } else { n_types };
        let mut stands: Vec<TerrainSet> = vec![TerrainSet::default(); total_types];
        let mut on_coast: Vec<bool> = vec![false; total_types];
        for (l, from, to, vals) in &self.borders {
            let f = self.field(from, *l, ffile)?;
            self.field(to, *l, ffile)?;
            for (j, v) in vals.iter().enumerate().take(total_types) {
                if v != "-" {
                    let t = match &f.coast_of {
                        Some(parent) => terrain_of(&self.field(parent, *l, ffile)?.letters),
                        None => terrain_of(&f.letters),
                    };
                    stands[j] = TerrainSet(stands[j].0 | t.bit());
                    if f.coast_of.is_some() {
                        on_coast[j] = true;
                    }
                }
            }
        }
        let letters_of = |t: Terrain| -> String {
            self.fields
                .iter()
                .filter(|f| f.coast_of.is_none() && terrain_of(&f.letters) == t)
                .map(|f| f.letters.clone())
                .collect::<Vec<_>>()
                .join("")
        };
        for (j, ut) in m.unit_types.iter_mut().enumerate() {
            ut.stands_on = stands[j];
            ut.uses_coasts = on_coast[j];
            let allowed = &allowed_in[j];
            let mut b = TerrainSet::default();
            for t in Terrain::ALL {
                let ls = letters_of(t);
                if allowed.chars().any(|c| ls.contains(c)) {
                    b = TerrainSet(b.0 | t.bit());
                }
            }
            ut.builds_on = TerrainSet(b.0 & ut.stands_on.0);
        }
        let has_column = self.borders.iter().any(|(_, _, _, v)| v.len() > convoy_nr - 1);
        if convoy_nr > n_types && convoy_nr <= total_types && has_column {
            let used: Vec<char> = m.unit_types.iter().map(|u| u.letter).collect();
            let letter = "ZYXVQJ".chars().find(|c| !used.contains(c)).unwrap_or('Z');
            m.unit_types.push(UnitType {
                strength: 0,
                cost: 0,
                stands_on: stands[convoy_nr - 1],
                ..UnitType::named(letter, "Convoy")
            });
            m.convoy_unit = Some(m.unit_types.len() - 1);
        } else if convoy_nr >= 1 && convoy_nr <= n_types {
            // The first type that can convoy is the default convoy unit.
            if m.unit_types.iter().position(|u| u.can_convoy) != Some(convoy_nr - 1) {
                m.convoy_unit = Some(convoy_nr - 1);
            }
        }
        Ok(())
    }

    /// The borders of each unit type, and the clockwise order of each
    /// province's neighbours from the order of the border lines.
    pub(super) fn add_borders(
        &self,
        m: &mut Model,
        region_of: &HashMap<String, String>,
        n_types: usize,
        ffile: &str,
    ) -> Result<(), VariantError> {
        let mut order: HashMap<String, Vec<String>> = HashMap::new();
        let prov_of = |region: &str| region.split('/').next().unwrap_or(region).to_string();
        for (l, from, to, vals) in &self.borders {
            let from_r = region_of[&from.to_lowercase()].clone();
            for (j, v) in vals.iter().enumerate() {
                let Some(ut) = m.unit_types.get(j) else { continue };
                if m.unit_types.len() > n_types && j >= n_types && Some(j) != m.convoy_unit {
                    continue;
                }
                let target = match v.to_ascii_lowercase().as_str() {
                    "ja" | "yes" => to.clone(),
                    "nein" | "no" | "-" | "imp" => continue,
                    _ => v.clone(),
                };
                let to_r = region_of
                    .get(&target.to_lowercase())
                    .ok_or_else(|| {
                        err(
                            ffile,
                            *l,
                            format!("unknown field `{target}` (expected ja, nein, -, imp or a field name)"),
                        )
                    })?
                    .clone();
                let (fr, tr) = if ut.uses_coasts {
                    (from_r.clone(), to_r)
                } else {
                    (prov_of(&from_r), prov_of(&to_r))
                };
                if prov_of(&fr) == prov_of(&tr) {
                    continue;
                }
                m.edges.push(MEdge {
                    ut: j,
                    from: fr.clone(),
                    to: tr.clone(),
                    flags: EdgeFlags::default(),
                    src: (1, *l),
                });
                let ord = order.entry(prov_of(&fr)).or_default();
                let tp = prov_of(&tr);
                if !ord.contains(&tp) {
                    ord.push(tp);
                }
            }
        }
        for p in &m.provinces {
            if let Some(o) = order.get(&p.abbr) {
                m.clockwise.push((p.abbr.clone(), o.clone()));
            }
        }
        Ok(())
    }
}
