//! The position text format (docs/position-format.md): a readable, diffable
//! state that dip writes and reads back. Case files use the same lines.

use crate::parse::parse_order_with;
use crate::vocab::Vocabulary;
use dip_core::{CoastSpec, Dislodged, Map, OrderKind, Phase, PowerId, ProvinceId, State, Unit};

/// A position file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", dip_core::colon_line(.line))]
pub struct PositionError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

/// The largest year a position may name (every reader's: dip-core's).
pub use dip_core::MAX_YEAR;

/// `spring 1901 movement`, `Fall 1901, Retreat`, `winter 1901`, `S1901M`:
/// dip-core's one reader of phase names ([`Phase`]'s `FromStr`).
pub fn parse_phase(text: &str) -> Result<Phase, String> {
    text.parse()
}

/// `spring 1901 movement`.
pub fn format_phase(p: &Phase) -> String {
    p.long().to_string().to_ascii_lowercase()
}

/// A province by the abbreviation the position format writes, before any
/// other name: a province whose full name or alias is another's
/// abbreviation must not take its place.
fn province_by_abbr(map: &Map, word: &str) -> Option<ProvinceId> {
    map.provinces()
        .iter()
        .position(|p| p.abbr.eq_ignore_ascii_case(word))
        .map(|i| ProvinceId(i as u16))
        .or_else(|| map.find_province(word))
}

/// A power by the name the position format writes, before its
/// abbreviation or adjective (which may be another power's name).
fn power_by_name(map: &Map, name: &str) -> Option<PowerId> {
    map.powers()
        .iter()
        .position(|p| p.name.eq_ignore_ascii_case(name))
        .map(|i| PowerId(i as u8))
        .or_else(|| map.find_power(name))
}

/// A unit as [`format_unit`] writes it, `POWER: LETTER PROV[/COAST]`,
/// read by those exact words and nothing else: a power's name may be any
/// text (`St Petersburg`, a power of Chaos that is also a province), so
/// it is everything before the last colon. `None` when the line is not of
/// that form (the order reader then reads it).
fn exact_unit(map: &Map, text: &str) -> Option<Result<Unit, String>> {
    let (power, unit) = text.rsplit_once(':')?;
    let power = power_by_name(map, power.trim())?;
    let mut words = unit.split_whitespace();
    let (letter, place, None) = (words.next()?, words.next()?, words.next()) else {
        return None;
    };
    let kind = map.find_unit_type(letter)?;
    let (prov, coast) = match place.split_once('/') {
        Some((p, c)) => (p, Some(c)),
        None => (place, None),
    };
    let province = province_by_abbr(map, prov)?;
    let coast = match coast {
        Some(c) => Some(map.find_coast(province, c)?),
        None => None,
    };
    Some(place_unit(map, text, power, kind, province, coast))
}

/// The region a unit of `kind` stands in: the coast written, or the
/// province's only region for that unit type.
fn place_unit(
    map: &Map,
    text: &str,
    power: PowerId,
    kind: dip_core::UnitTypeId,
    province: ProvinceId,
    coast: Option<dip_core::RegionId>,
) -> Result<Unit, String> {
    let region = match coast {
        // A coast written for a unit that moves between whole provinces (an
        // army, jDip's wing: `W Bulgaria (east coast)`) says nothing about
        // it: the unit stands in the province.
        Some(r) if !map.allows(r, kind) && !map.unit_type(kind).uses_coasts => map
            .only_region_for(province, kind)
            .ok_or_else(|| format!("`{text}`: this unit type cannot stand there"))?,
        Some(r) => r,
        None => map
            .only_region_for(province, kind)
            .ok_or_else(|| format!("`{text}`: this unit needs a coast, or cannot stand there"))?,
    };
    if !map.allows(region, kind) {
        return Err(format!("`{text}`: this unit type cannot stand there"));
    }
    Ok(Unit { power, kind, region })
}

/// `England: F nth`, `Russia: F stp/sc` → a unit.
pub fn parse_unit(map: &Map, text: &str) -> Result<Unit, String> {
    parse_unit_with(&Vocabulary::new(map).with_spellcheck(0), text)
}

/// The same with words already built (reading many units).
pub fn parse_unit_with(vocab: &Vocabulary, text: &str) -> Result<Unit, String> {
    parse_unit_of(vocab, None, text)
}

/// A unit of `power` when the text names none (`A Vie` under `NATION Austria`).
pub fn parse_unit_of(vocab: &Vocabulary, power: Option<PowerId>, text: &str) -> Result<Unit, String> {
    let map = vocab.map();
    if let Some(unit) = exact_unit(map, text) {
        return unit;
    }
    let order = parse_order_with(vocab, text, power).map_err(|e| format!("{e}: `{text}`"))?;
    let OrderKind::Hold(u) = order.kind else {
        return Err(format!("expected a unit such as `England: F nth`, found `{text}`"));
    };
    let kind = u.kind.ok_or_else(|| format!("no unit type in `{text}`"))?;
    let coast = match u.coast {
        CoastSpec::Coast(r) => Some(r),
        _ => None,
    };
    place_unit(map, text, order.power, kind, u.province, coast)
}

/// `England: F nth`.
pub fn format_unit(map: &Map, u: &Unit) -> String {
    format!(
        "{}: {} {}",
        map.power(u.power).name,
        map.unit_type(u.kind).letter,
        map.region_name(u.region)
    )
}

/// `Germany: A ber from sil` or `... from sil by convoy`.
pub fn parse_dislodged(map: &Map, text: &str) -> Result<Dislodged, String> {
    parse_dislodged_with(&Vocabulary::new(map).with_spellcheck(0), text)
}

/// The same with words already built.
pub fn parse_dislodged_with(vocab: &Vocabulary, text: &str) -> Result<Dislodged, String> {
    let map = vocab.map();
    // The power's name may hold ` from `; the province after it cannot.
    let (unit_text, from) = text
        .rsplit_once(" from ")
        .ok_or_else(|| format!("expected `Power: A prov from PROV`, found `{text}`"))?;
    let unit = parse_unit_with(vocab, unit_text)?;
    let f = from.trim();
    let (name, by_convoy) = match f.strip_suffix("by convoy") {
        Some(n) => (n.trim(), true),
        None => (f, false),
    };
    let attacker_from = province_by_abbr(map, name).ok_or_else(|| format!("unknown province `{name}`"))?;
    Ok(Dislodged {
        unit,
        attacker_from,
        by_convoy,
    })
}

pub fn format_dislodged(map: &Map, d: &Dislodged) -> String {
    format!(
        "{} from {}{}",
        format_unit(map, &d.unit),
        map.province(d.attacker_from).abbr,
        if d.by_convoy { " by convoy" } else { "" }
    )
}

/// `England: lon edi lvp` → the power and its centres.
pub fn parse_owners(map: &Map, text: &str) -> Result<(PowerId, Vec<dip_core::ProvinceId>), String> {
    // The power's name may hold a colon; a province list cannot.
    let (p, rest) = text
        .rsplit_once(':')
        .ok_or_else(|| format!("expected `Power: prov prov ...`, found `{text}`"))?;
    let power = power_by_name(map, p.trim()).ok_or_else(|| format!("unknown power `{}`", p.trim()))?;
    let mut provinces = Vec::new();
    for w in rest.split_whitespace() {
        // jDip lists units (`F lon`); the unit letter is skipped.
        if map.find_unit_type(w).is_some() && map.find_province(w).is_none() {
            continue;
        }
        let name = w.split(['/', '(']).next().unwrap_or(w);
        provinces.push(province_by_abbr(map, name).ok_or_else(|| format!("unknown province `{w}`"))?);
    }
    Ok((power, provinces))
}

/// A position as a reader finds it, before it is a [`State`]: dip-core's
/// (`State::from_position` is the one way from it to a state).
pub use dip_core::Position;

/// The provinces a unit of the position being read already stands in: the
/// readers' check that no two units stand in one province, by a flag per
/// province rather than a search of the units read so far.
pub struct Occupied(Vec<bool>);

impl Occupied {
    /// No province occupied yet.
    pub fn new(map: &Map) -> Self {
        Occupied(vec![false; map.num_provinces()])
    }

    /// Marks the province of `unit` occupied; false if it already was.
    pub fn take(&mut self, map: &Map, unit: &Unit) -> bool {
        match self.0.get_mut(map.province_of(unit.region).index()) {
            Some(o) => !std::mem::replace(o, true),
            None => true,
        }
    }

    /// Every province free again (a new board).
    pub fn clear(&mut self) {
        self.0.fill(false);
    }
}

/// The line each entry of a position was read from, list by list (as
/// [`Position`]'s), to say where an entry the map refuses stands.
#[derive(Default)]
pub struct EntryLines {
    pub units: Vec<usize>,
    pub dislodged: Vec<usize>,
    pub standoffs: Vec<usize>,
    pub owners: Vec<usize>,
}

impl EntryLines {
    /// The line of `entry`; 0 when none was kept.
    pub fn line(&self, entry: dip_core::position::Entry) -> usize {
        use dip_core::position::Entry;
        let (list, i) = match entry {
            Entry::Unit(i) => (&self.units, i),
            Entry::Dislodged(i) => (&self.dislodged, i),
            Entry::Standoff(i) => (&self.standoffs, i),
            Entry::Owner(i) => (&self.owners, i),
        };
        list.get(i).copied().unwrap_or(0)
    }

    /// The first entry `errors` names, with its line.
    pub fn first(&self, errors: dip_core::PositionErrors) -> (usize, String) {
        match errors.0.into_iter().next() {
            Some(f) => (self.line(f.entry), f.message),
            None => (0, String::new()),
        }
    }
}

/// Reads a position file.
pub fn parse_position(map: &Map, text: &str, file: &str) -> Result<State, PositionError> {
    let err = |line: usize, message: String| PositionError {
        file: file.to_string(),
        line,
        message,
    };
    let vocab = Vocabulary::new(map).with_spellcheck(0);
    let mut position: Option<Position> = None;
    let mut lines = EntryLines::default();
    let mut occupied = Occupied::new(map);
    let mut block = "";
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let (word, rest) = match content.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (content, ""),
        };
        match word {
            "variant" => continue,
            "phase" => {
                let phase = parse_phase(rest).map_err(|e| err(n, e))?;
                // A second `phase` line starts the board again; an
                // `owners` block seen before it still means owners are given.
                let given = position.as_ref().is_some_and(|p| p.owners.is_some());
                let mut fresh = Position::new(phase);
                if given {
                    fresh.owners = Some(Vec::new());
                }
                position = Some(fresh);
                lines = EntryLines::default();
                occupied.clear();
                continue;
            }
            _ => {}
        }
        let pos = position
            .as_mut()
            .ok_or_else(|| err(n, "expected `phase SEASON YEAR KIND` before anything else".into()))?;
        match word {
            "units" | "dislodged" | "owners" => {
                block = word;
                if word == "owners" && pos.owners.is_none() {
                    pos.owners = Some(Vec::new());
                }
            }
            "standoffs" => {
                for name in rest.split_whitespace() {
                    let q = province_by_abbr(map, name).ok_or_else(|| err(n, format!("unknown province `{name}`")))?;
                    pos.standoffs.push(q);
                    lines.standoffs.push(n);
                }
            }
            _ => match block {
                "units" => {
                    let u = parse_unit_with(&vocab, content).map_err(|e| err(n, e))?;
                    if !occupied.take(map, &u) {
                        return Err(err(n, format!("a second unit in the same province: `{content}`")));
                    }
                    pos.units.push(u);
                    lines.units.push(n);
                }
                "dislodged" => {
                    let d = parse_dislodged_with(&vocab, content).map_err(|e| err(n, e))?;
                    pos.dislodged.push(d);
                    lines.dislodged.push(n);
                }
                "owners" => {
                    let (power, ps) = parse_owners(map, content).map_err(|e| err(n, e))?;
                    if let Some(owners) = pos.owners.as_mut() {
                        lines.owners.extend(ps.iter().map(|_| n));
                        owners.extend(ps.into_iter().map(|p| (power, p)));
                    }
                }
                _ => {
                    return Err(err(
                        n,
                        format!("unknown keyword `{word}` (expected phase, units, dislodged, standoffs or owners)"),
                    ))
                }
            },
        }
    }
    let pos = position.ok_or_else(|| err(1, "empty position: expected `phase SEASON YEAR KIND`".into()))?;
    State::from_position(map, &pos).map_err(|e| {
        let (line, message) = lines.first(e);
        err(line, message)
    })
}

/// Writes a position; `parse_position` reads it back to the same state.
pub fn format_position(map: &Map, state: &State) -> String {
    let mut out = String::new();
    out.push_str(&format!("variant {}\n", map.name));
    out.push_str(&format!("phase {}\n", format_phase(&state.phase)));
    out.push_str("units\n");
    for (_, u) in state.units() {
        out.push_str(&format!("  {}\n", format_unit(map, &u)));
    }
    let dislodged: Vec<_> = state.all_dislodged().collect();
    if !dislodged.is_empty() {
        out.push_str("dislodged\n");
        for (_, d) in dislodged {
            out.push_str(&format!("  {}\n", format_dislodged(map, &d)));
        }
    }
    if !state.standoffs.is_empty() {
        let names: Vec<&str> = state
            .standoffs
            .iter()
            .map(|i| map.provinces()[i].abbr.as_str())
            .collect();
        out.push_str(&format!("standoffs {}\n", names.join(" ")));
    }
    out.push_str("owners\n");
    for p in map.power_ids() {
        let cs: Vec<&str> = state
            .centers_of(map, p)
            .map(|c| map.province(c).abbr.as_str())
            .collect();
        if !cs.is_empty() {
            out.push_str(&format!("  {}: {}\n", map.power(p).name, cs.join(" ")));
        }
    }
    out
}

#[cfg(test)]
mod year_tests {
    use super::*;

    #[test]
    fn year_2147483647_wraps_with_next() {
        let e = parse_phase("spring 2147483647 movement").unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        let e = parse_phase("spring 99999999999 movement").unwrap_err();
        assert!(e.contains("year 99999999999 is out of range"), "{e}");
        let p = parse_phase(&format!("fall {MAX_YEAR} adjustment")).unwrap();
        assert_eq!(p.year, MAX_YEAR);
        // The engine never wraps a year.
        let v = dip_core::Phase::new(i32::MAX, dip_core::Season::Fall, dip_core::PhaseKind::Adjustment);
        assert_eq!(v.year.saturating_add(1), i32::MAX);
    }

    #[test]
    fn a_negative_year_a_variant_may_start_in_was_refused() {
        let p = parse_phase("spring -50 movement").unwrap();
        assert_eq!(p.year, -50);
        assert_eq!(parse_phase(&format_phase(&p)).unwrap(), p);
        let e = parse_phase(&format!("spring -{} movement", MAX_YEAR as i64 + 1)).unwrap_err();
        assert!(e.contains("out of range (years from -1000000"), "{e}");
    }
}

#[cfg(test)]
mod coast_tests {
    use super::*;

    #[test]
    fn coast_written_for_a_unit_without_coasts_is_its_province() {
        // jDip's wing.txt writes `W Bulgaria (east coast)`; an army is the
        // same kind of unit: it stands in the whole province.
        let map = dip_variants::standard().map;
        let u = parse_unit(&map, "Turkey: A bul/ec").unwrap();
        assert_eq!(format_unit(&map, &u), "Turkey: A bul");
        // A fleet keeps its coast, and a place it cannot stand is still an error.
        let f = parse_unit(&map, "Turkey: F bul/ec").unwrap();
        assert_eq!(format_unit(&map, &f), "Turkey: F bul/ec");
        assert!(parse_unit(&map, "Turkey: F mun").is_err());
    }
}

#[cfg(test)]
mod position_tests {
    use super::*;

    fn spring() -> Phase {
        parse_phase("spring 1901 movement").unwrap()
    }

    #[test]
    fn owners_not_given_are_the_home_centres_and_an_empty_list_is_none() {
        let map = dip_variants::standard().map;
        let lon = map.find_province("lon").unwrap();
        let home = Position::new(spring()).into_state(&map);
        assert!(home.owner(lon).is_some());
        let mut bare = Position::new(spring());
        bare.owners = Some(Vec::new());
        assert_eq!(bare.into_state(&map).owner(lon), None);
    }

    #[test]
    fn a_position_built_by_hand_is_the_position_text_reads() {
        let map = dip_variants::standard().map;
        let text = "phase spring 1901 movement\nunits\n  England: F lon\n  France: A par\n\
                    dislodged\n  France: A bur from mun\nstandoffs ruh\nowners\n  England: lon edi\n";
        let read = parse_position(&map, text, "t").unwrap();
        let mut built = Position::new(spring());
        built.units.push(parse_unit(&map, "England: F lon").unwrap());
        built.units.push(parse_unit(&map, "France: A par").unwrap());
        let vocab = Vocabulary::new(&map);
        built
            .dislodged
            .push(parse_dislodged_with(&vocab, "France: A bur from mun").unwrap());
        built.standoffs.push(map.find_province("ruh").unwrap());
        let (eng, cs) = parse_owners(&map, "England: lon edi").unwrap();
        built.owners = Some(cs.into_iter().map(|c| (eng, c)).collect());
        assert_eq!(
            format_position(&map, &built.into_state(&map)),
            format_position(&map, &read)
        );
    }

    #[test]
    fn owners_before_a_second_phase_line_still_count_as_given() {
        let map = dip_variants::standard().map;
        let text = "phase spring 1901 movement\nowners\n  England: lon\nphase fall 1901 movement\n";
        let st = parse_position(&map, text, "t").unwrap();
        assert_eq!(st.owner(map.find_province("edi").unwrap()), None);
    }

    #[test]
    fn two_units_in_one_province_are_refused_unless_a_new_phase_starts_the_board_again() {
        let map = dip_variants::standard().map;
        let text = "phase spring 1901 movement\nunits\n  England: F lon\n  France: A lon\n";
        let e = parse_position(&map, text, "t").unwrap_err();
        assert_eq!(e.line, 4);
        assert!(
            e.message.contains("a second unit in the same province"),
            "{}",
            e.message
        );
        let again =
            "phase spring 1901 movement\nunits\n  England: F lon\nphase fall 1901 movement\nunits\n  France: A lon\n";
        assert!(parse_position(&map, again, "t").is_ok());
    }
}
