//! Python bindings of dip: the `dip._dip` extension module. `Engine` is
//! one game on dip's engine with MILA's names and order strings; the
//! Python class `dip.Game` (python/dip/__init__.py) gives it MILA's API.
//! This crate only converts values at the edge; the game lives in
//! [`engine`], which has no Python in it.

pub mod engine;
mod fresh_dict;
mod text_index;

/// mimalloc for the module's own allocations: legal orders, orders and
/// results make a few hundred small allocations a phase, and glibc's
/// malloc and free were a quarter of the agent loop's time in Rust.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use engine::{Game, PhaseRecord};
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyDict, PyList, PyString};
use std::sync::Mutex;

/// Python strings of a variant's listed orders (by their number in the
/// variant's `OrderTable`) and of its locations, made once per process.
struct VariantStrings {
    orders: Vec<Option<Py<PyString>>>,
    locs: Vec<Py<PyString>>,
    /// Every location → `None`, in `locs` order: `get_all_possible_orders`
    /// copies it (a copy of a dict of string keys is one block copied, no
    /// hashing or growing) and sets the values.
    template: Py<PyDict>,
}

/// By variant (the address of its `VariantData`).
static STRINGS: Mutex<Vec<(usize, VariantStrings)>> = Mutex::new(Vec::new());

/// The Python strings of variant `v`, with one for every order numbered so far.
fn variant_strings<'a>(
    py: Python<'_>,
    all: &'a mut Vec<(usize, VariantStrings)>,
    v: &engine::VariantData,
) -> &'a VariantStrings {
    let key = v as *const engine::VariantData as usize;
    let at = match all.iter().position(|(k, _)| *k == key) {
        Some(i) => i,
        None => {
            let locs: Vec<Py<PyString>> = v.locs.iter().map(|l| PyString::intern(py, l).unbind()).collect();
            // The keys in MILA's order, which copies of the template keep.
            let template = PyDict::new(py);
            for l in v.mila_locs.iter().map(|&i| &locs[i]) {
                template
                    .set_item(l.bind(py), py.None())
                    .expect("a dict of strings takes a string key");
            }
            all.push((
                key,
                VariantStrings {
                    orders: Vec::new(),
                    locs,
                    template: template.unbind(),
                },
            ));
            all.len() - 1
        }
    };
    let strings = &mut all[at].1;
    let table = v.orders.lock().unwrap_or_else(|e| e.into_inner());
    for text in &table.texts[strings.orders.len().min(table.texts.len())..] {
        let s = PyString::new(py, text);
        // Its hash, kept in the str, tells `find_listed` that it may be one of these.
        let _ = s.hash();
        strings.orders.push(Some(s.unbind()));
    }
    strings
}

/// The legal orders of the position last listed, as numbers of the
/// variant's order table; the Python strings every list handed out is made
/// of are the variant's (`VariantStrings::orders`, which live as long as the
/// process). Each call of `get_all_possible_orders` makes new lists from
/// them, as MILA's does: a caller may keep or change a list it was given,
/// and nothing here reads it back. `set_orders` finds a str it was given
/// among its location's by address.
#[derive(Default)]
struct Given {
    /// The position (`Game::position_gen`) these are of.
    gen: Option<u64>,
    possible: Option<std::sync::Arc<engine::Possible>>,
    /// The address of the str of each order of `possible`, in the order of
    /// `Possible::all_ids`: the lists are made from it and a str given back
    /// is looked for in it, a location's addresses side by side instead of
    /// scattered over the variant's strings.
    addrs: Vec<usize>,
}

impl Given {
    /// The addresses of the strs of location `i`'s orders (each kept
    /// alive for the process by `STRINGS`).
    fn addrs_of(&self, i: usize) -> &[usize] {
        let span = self.possible.as_ref().map_or(0..0, |p| p.span(i));
        self.addrs.get(span).unwrap_or(&[])
    }
}

/// The number of order `text`, the str `item`, if it is one of the strings
/// handed out for its location in the dict last returned (`u32::MAX`: it
/// is not). Agents give back the very strings they were handed: found by
/// address among a dozen, without hashing the text. (Comparing the texts
/// there instead would read each candidate string, slower than the
/// variant's table of texts, which is where other strings are looked up.)
fn find_listed(given: &Given, v: &engine::VariantData, item: *mut pyo3::ffi::PyObject, text: &str) -> u32 {
    let (Some(possible), Some(i)) = (&given.possible, v.order_loc(text)) else {
        return u32::MAX;
    };
    let span = possible.span(i);
    let at = given
        .addrs
        .get(span.clone())
        .and_then(|a| a.iter().position(|&a| a == item as usize));
    at.map_or(u32::MAX, |k| possible.all_ids()[span.start + k])
}

impl VariantStrings {
    /// The address of the str of order `id` (of None, for a number the
    /// strings do not reach, which `variant_strings` prevents).
    fn address(&self, id: u32) -> usize {
        match self.orders.get(id as usize) {
            Some(Some(s)) => s.as_ptr() as usize,
            // SAFETY: Py_None is a static object; its address is only compared or increfed.
            _ => unsafe { pyo3::ffi::Py_None() as usize },
        }
    }
}

fn value_err(e: String) -> PyErr {
    PyValueError::new_err(e)
}

/// One game on dip's engine.
#[pyclass(module = "dip._dip", subclass)]
pub struct Engine {
    g: Game,
    /// The legal orders last listed, as Python strings.
    given: Given,
    /// Every location → `None`: each dict of legal orders starts as a copy.
    template: Option<Py<PyDict>>,
    /// The variant's location strings (as `VariantStrings::locs`), for
    /// `orderable_locations` without taking the strings' lock.
    locs: Vec<Py<PyString>>,
    /// Each dict of legal orders' keys in its order, the template's (MILA's),
    /// as indices in `locs` and as strings: every location once.
    key_locs: Vec<usize>,
    keys: Vec<Py<PyString>>,
    /// The last dicts of legal orders handed out (see `fresh_dict::Kept`).
    kept: fresh_dict::Kept,
}

impl Engine {
    fn of(py: Python<'_>, g: Game) -> Engine {
        // The Python strings of the orders the variant numbered on loading.
        let locs: Vec<Py<PyString>> = variant_strings(py, &mut STRINGS.lock().unwrap_or_else(|e| e.into_inner()), g.v)
            .locs
            .iter()
            .map(|l| l.clone_ref(py))
            .collect();
        // Any location MILA's order lacks comes after, as it was set in the copy of the template.
        let mut key_locs = g.v.mila_locs.clone();
        key_locs.extend((0..locs.len()).filter(|i| !g.v.mila_locs.contains(i)));
        let keys = key_locs.iter().map(|&i| locs[i].clone_ref(py)).collect();
        Engine {
            g,
            given: Given::default(),
            template: None,
            locs,
            key_locs,
            keys,
            kept: fresh_dict::Kept::default(),
        }
    }

    fn power(&self, name: &str) -> PyResult<dip_core::PowerId> {
        self.g.power(name).map_err(PyKeyError::new_err)
    }
    fn opt_power(&self, name: Option<&str>) -> PyResult<Option<dip_core::PowerId>> {
        name.map(|n| self.power(n)).transpose()
    }
}

fn state_dict<'py>(py: Python<'py>, g: &Game, name: &str) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", name)?;
    let units = PyDict::new(py);
    let retreats = PyDict::new(py);
    let centers = PyDict::new(py);
    let homes = PyDict::new(py);
    let influence = PyDict::new(py);
    for (i, p) in g.v.powers.iter().enumerate() {
        let pw = dip_core::PowerId(i as u8);
        let mut us = g.units(pw);
        let rs = g.retreats(pw);
        us.extend(rs.iter().map(|(u, _)| format!("*{u}")));
        units.set_item(p, us)?;
        let r = PyDict::new(py);
        for (u, to) in rs {
            r.set_item(u, to)?;
        }
        retreats.set_item(p, r)?;
        centers.set_item(p, g.centers(pw))?;
        homes.set_item(p, g.homes(pw))?;
        influence.set_item(p, g.influence(pw))?;
    }
    d.set_item("units", units)?;
    d.set_item("influence", influence)?;
    d.set_item("retreats", retreats)?;
    d.set_item("centers", centers)?;
    d.set_item("homes", homes)?;
    d.set_item("zobrist_hash", g.hash().to_string())?;
    Ok(d)
}

#[pymethods]
impl Engine {
    /// A new game, taking the arguments of `dip.Game` (`game_id`,
    /// `map_name`, `rules`, `variant`, …): the variant is `variant`, else
    /// `map` or `map_name` (a MILA map name, a dip variant name, or a path
    /// to a variant file); the rest is for the Python class.
    #[new]
    #[pyo3(signature = (*args, **kwargs))]
    fn new(
        py: Python<'_>,
        args: &Bound<'_, pyo3::types::PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let named = |key: &str| -> PyResult<Option<String>> {
            match kwargs.map(|k| k.get_item(key)).transpose()?.flatten() {
                Some(x) if !x.is_none() => Ok(Some(x.extract()?)),
                _ => Ok(None),
            }
        };
        let placed = |i: usize| -> PyResult<Option<String>> {
            match args.get_item(i) {
                Ok(x) if !x.is_none() => Ok(Some(x.extract()?)),
                _ => Ok(None),
            }
        };
        let map_name = match named("variant")?.or(placed(3)?) {
            Some(v) => v,
            None => named("map")?
                .or(named("map_name")?)
                .or(placed(1)?)
                .unwrap_or_else(|| "standard".into()),
        };
        let v = engine::variant(&map_name).map_err(value_err)?;
        Ok(Engine::of(py, Game::new(v)))
    }

    /// Makes this game a copy of `other` (for `copy.deepcopy`).
    #[pyo3(name = "_copy_from")]
    fn copy_from(&mut self, py: Python<'_>, other: PyRef<'_, Engine>) {
        *self = Engine::of(py, other.g.clone());
    }

    /// The objects it holds that may hold others: the dicts of legal
    /// orders it keeps (whose lists a caller may have put anything in).
    fn __traverse__(&self, visit: pyo3::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        self.kept.traverse(&visit)
    }

    fn __clear__(&mut self) {
        self.kept.clear();
    }

    /// MILA's `get_all_possible_orders`: location → its legal orders (or
    /// the list of `loc`). Listed once per position; each call returns a
    /// dict of lists no one else holds (see `fresh_dict`), which the
    /// caller may change.
    #[pyo3(signature = (loc = None))]
    fn get_all_possible_orders<'py>(&mut self, py: Python<'py>, loc: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        match loc {
            None => Ok(self.possible_orders(py)?.into_any()),
            Some(l) => {
                self.list_possible(py);
                let up = l.trim().to_ascii_uppercase();
                match self.g.v.locs.iter().position(|x| *x == up) {
                    Some(i) => Ok(self.new_list(py, i)?.into_any()),
                    None => Ok(PyList::empty(py).into_any()),
                }
            }
        }
    }

    /// MILA's `get_orderable_locations`: the locations `power_name` can
    /// order, or for every power (a dict) when none is named.
    #[pyo3(signature = (power_name = None))]
    fn get_orderable_locations<'py>(
        &mut self,
        py: Python<'py>,
        power_name: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Some(name) = power_name {
            return Ok(self.orderable_locations(py, name)?.into_any());
        }
        let mut names = self.g.v.powers.clone();
        names.sort();
        let d = PyDict::new(py);
        for name in &names {
            d.set_item(name, self.orderable_locations(py, name)?)?;
        }
        Ok(d.into_any())
    }

    /// MILA's `set_orders`: `orders` (a list of order strings, or one)
    /// for `power_name`; refused ones go to `game.error` (see `_errors`).
    #[pyo3(signature = (power_name, orders, expand = true, replace = true))]
    fn set_orders(
        slf: &Bound<'_, Self>,
        power_name: &str,
        orders: &Bound<'_, PyAny>,
        expand: bool,
        replace: bool,
    ) -> PyResult<()> {
        // MILA's `expand` fills in unit types and coasts, which dip's reader
        // does anyway, except that a support then keeps the coast it names.
        slf.borrow_mut().g.expand = expand;
        let (mut refused, unread) = if orders.is_instance_of::<PyString>() {
            let one = PyList::new(slf.py(), [orders])?;
            slf.borrow_mut().file_orders(power_name, one.as_any(), replace)?
        } else {
            slf.borrow_mut().file_orders(power_name, orders, replace)?
        };
        if let Some((at, texts)) = unread {
            refused += Self::file_as_mila_reads(slf, power_name, at, texts, replace)?;
        }
        slf.borrow_mut().g.expand = true;
        if refused > 0 {
            slf.call_method0("_errors")?;
        }
        Ok(())
    }

    /// MILA's `process`: adjudicates the phase (without holding the GIL)
    /// and moves on; returns the game.
    fn process(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf.borrow_mut().adjudicate(slf.py());
        slf
    }

    #[getter(_map_name)]
    fn map_name(&self) -> String {
        self.g.v.name.clone()
    }

    /// The variant's map as facts for `dip.Map` (MILA's `game.map`):
    /// provinces (abbreviation, name, terrain, supply centre, coasts,
    /// other names), each unit type's letter, name and borders (from
    /// location to location), home centres and the starting position.
    #[pyo3(name = "_map_facts")]
    fn map_facts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let v = self.g.v;
        let map = v.map;
        let d = PyDict::new(py);
        let provinces = PyList::empty(py);
        for p in map.province_ids() {
            let prov = map.province(p);
            let terrain = match prov.terrain {
                dip_core::Terrain::Land => "LAND",
                dip_core::Terrain::Coast => "COAST",
                dip_core::Terrain::Sea => "WATER",
                dip_core::Terrain::Impassable => "SHUT",
            };
            let coasts: Vec<&str> = map
                .coasts(p)
                .iter()
                .map(|r| v.region_names[r.index()].as_str())
                .collect();
            provinces.append((
                &v.prov_names[p.index()],
                &prov.name,
                terrain,
                prov.supply_center,
                coasts,
                prov.aliases.clone(),
                map.is_convoy_space(p),
            ))?;
        }
        d.set_item("provinces", provinces)?;
        let mila_locs: Vec<&str> = v.mila_locs.iter().map(|&i| v.locs[i].as_str()).collect();
        d.set_item("mila_locs", mila_locs)?;
        let touches: Vec<(&str, Vec<&str>)> = v
            .touches
            .iter()
            .map(|(p, ns)| {
                let name = |q: &dip_core::ProvinceId| v.prov_names[q.index()].as_str();
                (name(p), ns.iter().map(name).collect())
            })
            .collect();
        d.set_item("touches", touches)?;
        let units = PyList::empty(py);
        for k in map.unit_type_ids() {
            let t = map.unit_type(k);
            let mut edges: Vec<(&str, &str)> = Vec::new();
            for r in 0..map.num_regions() {
                let from = dip_core::RegionId(r as u16);
                if map.region(from).allows & (1 << k.index()) == 0 {
                    continue;
                }
                for e in map.edges(k, from) {
                    edges.push((&v.region_names[r], &v.region_names[e.to.index()]));
                }
            }
            let stands: Vec<&str> = (0..map.num_regions())
                .filter(|&r| map.region(dip_core::RegionId(r as u16)).allows & (1 << k.index()) != 0)
                .map(|r| v.region_names[r].as_str())
                .collect();
            units.append((t.letter.to_string(), t.name.to_ascii_uppercase(), edges, stands))?;
        }
        d.set_item("unit_types", units)?;
        let adjectives: Vec<String> = map.powers().iter().map(|p| p.adjective.to_ascii_uppercase()).collect();
        d.set_item("adjectives", adjectives)?;
        let start = Game::new(v);
        let homes = PyDict::new(py);
        let centers = PyDict::new(py);
        let start_units = PyDict::new(py);
        for (i, name) in v.powers.iter().enumerate() {
            let p = dip_core::PowerId(i as u8);
            homes.set_item(name, start.homes(p))?;
            centers.set_item(name, start.centers(p))?;
            start_units.set_item(name, start.units(p))?;
        }
        d.set_item("homes", homes)?;
        d.set_item("centers", centers)?;
        d.set_item("units", start_units)?;
        d.set_item("victory", map.victory_centers())?;
        d.set_item("build_any", map.build_rule == dip_core::map::BuildRule::Chaos)?;
        Ok(d)
    }

    #[getter(_no_check)]
    fn no_check(&self) -> bool {
        self.g.no_check
    }
    #[setter(_no_check)]
    fn set_no_check(&mut self, on: bool) {
        self.g.no_check = on;
    }

    /// Sets a dip rule option (docs/rules.md), e.g. `("coast-missing", "fails")`.
    #[pyo3(name = "_set_rule")]
    fn set_rule(&mut self, key: &str, value: &str) -> PyResult<()> {
        self.g.rules.set(key, value).map_err(|e| value_err(e.to_string()))?;
        self.g.touch();
        Ok(())
    }

    #[pyo3(name = "_powers")]
    fn powers(&self) -> Vec<String> {
        self.g.v.powers.clone()
    }

    #[pyo3(name = "_locs")]
    fn locs(&self) -> Vec<String> {
        self.g.v.locs.clone()
    }

    /// The supply centres, upper case (MILA's `map.scs`).
    #[pyo3(name = "_supply_centers")]
    fn supply_centers(&self) -> Vec<String> {
        let v = self.g.v;
        v.map
            .supply_centers()
            .iter()
            .map(|p| v.prov_names[p.index()].clone())
            .collect()
    }

    #[pyo3(name = "_phase")]
    fn phase(&self) -> String {
        self.g.phase_name()
    }

    #[pyo3(name = "_long_phase")]
    fn long_phase(&self) -> String {
        if self.g.done {
            "COMPLETED".into()
        } else {
            engine::long_phase(&self.g.state.phase)
        }
    }

    /// The year the variant starts in (MILA's `map.first_year`).
    #[getter(_first_year)]
    fn first_year(&self) -> i32 {
        self.g.first_year()
    }

    /// Ends the game in a draw (MILA's `draw`): `winners`, or every power
    /// with units.
    #[pyo3(name = "_draw", signature = (winners = None))]
    fn draw(&mut self, winners: Option<Vec<String>>) -> PyResult<()> {
        let ids = winners
            .map(|w| w.iter().map(|n| self.power(n)).collect::<PyResult<Vec<_>>>())
            .transpose()?;
        self.g.draw(ids.as_deref());
        Ok(())
    }

    /// Where each dislodged unit may retreat, as MILA's `state['retreats']`
    /// lists it: (unit, locations) for every power.
    #[pyo3(name = "_restore_retreats")]
    fn restore_retreats(&mut self, allowed: Vec<(String, Vec<String>)>) {
        self.g.restore_retreats(&allowed);
    }

    #[pyo3(name = "_set_phase")]
    fn set_phase(&mut self, name: &str) -> PyResult<()> {
        self.g.set_phase(name).map_err(value_err)
    }

    #[getter(_done)]
    fn done(&self) -> bool {
        self.g.done
    }

    #[getter(_outcome)]
    fn outcome(&self) -> Vec<String> {
        self.g.outcome.clone()
    }

    /// Puts back the outcome of a finished game (`Game.from_dict`).
    #[setter(_outcome)]
    fn set_outcome(&mut self, outcome: Vec<String>) {
        self.g.outcome = outcome;
    }

    /// The supply centres a power needs to win.
    #[getter(_victory)]
    fn victory(&self) -> usize {
        self.g.v.map.victory_centers()
    }

    #[getter(_generation)]
    fn generation(&self) -> u64 {
        self.g.generation
    }

    /// Messages for orders and units refused since the last call.
    #[pyo3(name = "_take_errors")]
    fn take_errors(&mut self) -> Vec<String> {
        std::mem::take(&mut self.g.errors)
    }

    #[pyo3(name = "_units")]
    fn units(&self, power: &str) -> PyResult<Vec<String>> {
        Ok(self.g.units(self.power(power)?))
    }

    #[pyo3(name = "_retreats")]
    fn retreats(&self, power: &str) -> PyResult<Vec<(String, Vec<String>)>> {
        Ok(self.g.retreats(self.power(power)?))
    }

    /// MILA's `power.influence`: where the power's units were last.
    #[pyo3(name = "_influence")]
    fn influence(&self, power: &str) -> PyResult<Vec<String>> {
        Ok(self.g.influence(self.power(power)?))
    }

    #[pyo3(name = "_set_influence")]
    fn set_influence(&mut self, power: &str, provinces: Vec<String>) -> PyResult<()> {
        let p = self.power(power)?;
        self.g.set_influence(p, &provinces);
        Ok(())
    }

    #[pyo3(name = "_set_units", signature = (power, units, reset = true))]
    fn set_units(&mut self, power: &str, units: Vec<String>, reset: bool) -> PyResult<()> {
        let p = self.power(power)?;
        self.g.set_units(p, &units, reset);
        Ok(())
    }

    #[pyo3(name = "_clear_units", signature = (power = None))]
    fn clear_units(&mut self, power: Option<&str>) -> PyResult<()> {
        let p = self.opt_power(power)?;
        self.g.clear_units(p);
        Ok(())
    }

    #[pyo3(name = "_centers")]
    fn centers(&self, power: &str) -> PyResult<Vec<String>> {
        Ok(self.g.centers(self.power(power)?))
    }

    #[pyo3(name = "_homes")]
    fn homes(&self, power: &str) -> PyResult<Vec<String>> {
        Ok(self.g.homes(self.power(power)?))
    }

    #[pyo3(name = "_set_centers", signature = (power, centers, reset = true))]
    fn set_centers(&mut self, power: &str, centers: Vec<String>, reset: bool) -> PyResult<()> {
        let p = self.power(power)?;
        self.g.set_centers(p, &centers, reset);
        Ok(())
    }

    #[pyo3(name = "_clear_centers", signature = (power = None))]
    fn clear_centers(&mut self, power: Option<&str>) -> PyResult<()> {
        let p = self.opt_power(power)?;
        self.g.clear_centers(p);
        Ok(())
    }

    /// Gives orders; returns how many were refused (see `take_errors`).
    #[pyo3(name = "_set_orders", signature = (power, orders, replace = true))]
    /// Files `orders` for `power`; returns how many were refused and, if
    /// the engine stopped at an order it could not read (see
    /// `Game::stop_unread`), where, with the orders' texts.
    #[allow(clippy::type_complexity)]
    fn file_orders(
        &mut self,
        power: &str,
        orders: &Bound<'_, PyAny>,
        replace: bool,
    ) -> PyResult<(usize, Option<(usize, Vec<String>)>)> {
        let p = self.power(power)?;
        let before = self.g.errors.len();
        // The lists of the dict last handed out are this position's: a
        // given order is first looked for there (see `find_listed`).
        let listed = self.given.gen == Some(self.g.position_gen);
        let v = self.g.v;
        // A list of strings (what agents give) is read in place, in one pass.
        let mut texts: Vec<&str> = Vec::new();
        let mut known: Vec<u32> = Vec::new();
        let in_place = match orders.cast::<PyList>() {
            Ok(list) => {
                texts.reserve(list.len());
                let mut all = true;
                for k in 0..list.len() {
                    // SAFETY: `k` is below the list's length; the item is
                    // read only if it is a str, whose UTF-8 form the str
                    // keeps (and the list keeps the str) while no Python
                    // code runs, which is until the orders are filed.
                    let text = unsafe {
                        let item = pyo3::ffi::PyList_GET_ITEM(list.as_ptr(), k as pyo3::ffi::Py_ssize_t);
                        if pyo3::ffi::PyUnicode_Check(item) == 0 {
                            all = false;
                            break;
                        }
                        let mut size: pyo3::ffi::Py_ssize_t = 0;
                        let data = pyo3::ffi::PyUnicode_AsUTF8AndSize(item, &mut size);
                        if data.is_null() {
                            return Err(PyErr::fetch(orders.py()));
                        }
                        let text =
                            std::str::from_utf8_unchecked(std::slice::from_raw_parts(data as *const u8, size as usize));
                        // Only a str whose hash was taken can be one of
                        // the variant's (all of whose hashes are): others
                        // are not looked for among them.
                        if listed && (*(item as *mut pyo3::ffi::PyASCIIObject)).hash != -1 {
                            let id = find_listed(&self.given, v, item, text);
                            if id != u32::MAX {
                                known.resize(k, u32::MAX);
                                known.push(id);
                            }
                        }
                        text
                    };
                    texts.push(text);
                }
                all
            }
            Err(_) => false,
        };
        let unread = if in_place {
            self.g.stop_unread = true;
            self.g.set_orders_known(p, &texts, &known, replace);
            // Copied while no Python code has run (the texts are the list's).
            self.g
                .unread_at
                .take()
                .map(|at| (at, texts.iter().map(|t| t.to_string()).collect()))
        } else {
            drop(texts);
            let owned: Vec<PyBackedStr> = orders.extract()?;
            self.g.stop_unread = true;
            self.g.set_orders(p, &owned, replace);
            self.g
                .unread_at
                .take()
                .map(|at| (at, owned.iter().map(|t| t.to_string()).collect()))
        };
        self.g.stop_unread = false;
        Ok((self.g.errors.len() - before, unread))
    }

    /// The cold path of `set_orders`: from `at` (in a movement phase; else
    /// the whole call again), each order neither of dip's readers reads is
    /// read as MILA's `set_orders` reads it (`Game._mila_reading`: MILA's
    /// other names of places, its phrases and brackets) and filed so.
    fn file_as_mila_reads(
        slf: &Bound<'_, Self>,
        power: &str,
        at: usize,
        mut texts: Vec<String>,
        replace: bool,
    ) -> PyResult<usize> {
        let p = slf.borrow().power(power)?;
        let from = if slf.borrow().g.state.phase.kind == dip_core::PhaseKind::Movement {
            at
        } else {
            0
        };
        let mut given = Vec::new();
        // Holds only dip's reader sees: MILA's reading, if a hold, is
        // filed; else nothing, as MILA files nothing (with MILA's error
        // unless it read a unit alone).
        let mut refused = Vec::new();
        let mut kept = Vec::with_capacity(texts.len() - from);
        for mut text in texts.drain(from..) {
            let held_only_by_dip = slf.borrow().g.held_only_by_dip(p, &text);
            if !held_only_by_dip && slf.borrow().g.readable(p, &text) {
                kept.push(text);
                continue;
            }
            let reading: Option<String> = slf.call_method1("_mila_reading", (text.as_str(),))?.extract()?;
            match reading {
                Some(r) if slf.borrow().g.held_only_by_dip(p, &r) => {
                    if text.split_whitespace().count() > 2 {
                        refused.push(format!("order `{}`: MILA reads no order in it", text.trim()));
                    }
                    continue;
                }
                None if held_only_by_dip => {
                    refused.push(format!("order `{}`: MILA reads no order in it", text.trim()));
                    continue;
                }
                Some(r) if slf.borrow().g.readable(p, &r) => given.push((r.clone(), std::mem::replace(&mut text, r))),
                _ => {}
            }
            kept.push(text);
        }
        let mut me = slf.borrow_mut();
        let before = me.g.errors.len();
        me.g.errors.extend(refused);
        me.g.set_orders(p, &kept, replace);
        if me.g.no_check && me.g.state.phase.kind == dip_core::PhaseKind::Movement {
            for (read, text) in &given {
                me.g.show_as_given(p, read, &text.split_whitespace().collect::<Vec<_>>().join(" "));
            }
        }
        Ok(me.g.errors.len() - before)
    }

    #[pyo3(name = "_orders")]
    fn orders(&self, power: &str) -> PyResult<Vec<String>> {
        Ok(self.g.orders(self.power(power)?))
    }

    /// MILA's `power.adjust`: the retreat or adjustment list as kept,
    /// void entries and WAIVEs included.
    #[pyo3(name = "_adjust")]
    fn adjust(&self, power: &str) -> PyResult<Vec<String>> {
        Ok(self.g.adjust_list(self.power(power)?))
    }

    #[pyo3(name = "_order_entries")]
    fn order_entries(&self, power: &str) -> PyResult<Vec<(String, String)>> {
        Ok(self.g.order_entries(self.power(power)?))
    }

    #[pyo3(name = "_clear_orders", signature = (power = None))]
    fn clear_orders(&mut self, power: Option<&str>) -> PyResult<()> {
        let p = self.opt_power(power)?;
        self.g.clear_orders(p);
        Ok(())
    }

    /// Location → legal orders, for every location: a new dict of new
    /// lists each call (as MILA's), made from the orders listed once per
    /// position.
    #[pyo3(name = "_possible_orders")]
    fn possible_orders<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.list_possible(py);
        let template = match &self.template {
            Some(t) => t.bind(py).clone(),
            None => {
                let mut guard = STRINGS.lock().unwrap_or_else(|e| e.into_inner());
                let t = variant_strings(py, &mut guard, self.g.v).template.bind(py).clone();
                self.template = Some(t.clone().unbind());
                t
            }
        };
        let (given, key_locs) = (&self.given, &self.key_locs);
        fresh_dict::fill(py, &template, &self.keys, &mut self.kept, |k| {
            given.addrs_of(key_locs[k])
        })
    }

    #[pyo3(name = "_orderable_locations")]
    fn orderable_locations<'py>(&mut self, py: Python<'py>, power: &str) -> PyResult<Bound<'py, PyList>> {
        let p = self.power(power)?;
        let possible = self.g.possible_ref();
        // Provinces come first in `locs`, in province order.
        let locs = &self.locs;
        PyList::new(py, possible.orderable(p).iter().map(|q| locs[q.index()].bind(py)))
    }

    /// Adjudicates the phase (without holding the GIL) and moves on;
    /// returns the name of the phase processed.
    #[pyo3(name = "_process")]
    fn process_phase<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyString> {
        let name = PyString::new(py, &self.g.phase_name());
        self.adjudicate(py);
        name
    }

    /// Results of the last phase processed: unit → MILA result words.
    #[pyo3(name = "_last_results")]
    fn last_results(&self) -> Vec<(engine::Name, Vec<&'static str>)> {
        self.g
            .last_results()
            .iter()
            .map(|(u, t)| (u.clone(), t.to_vec()))
            .collect()
    }
    #[pyo3(name = "_last_popped")]
    fn last_popped(&self) -> Vec<String> {
        self.g.last.popped.clone()
    }
    #[pyo3(name = "_last_command")]
    fn last_command(&self) -> Vec<(String, String)> {
        self.g.last_command()
    }
    #[pyo3(name = "_last_ordered_units")]
    fn last_ordered_units(&self) -> Vec<Vec<engine::Name>> {
        let mut by_power = vec![Vec::new(); self.g.v.powers.len()];
        for (p, unit) in &self.g.last.ordered_units {
            if let Some(list) = by_power.get_mut(p.index()) {
                list.push(unit.clone());
            }
        }
        by_power
    }
    #[pyo3(name = "_last_dislodged")]
    fn last_dislodged(&self) -> Vec<(String, String)> {
        self.g.last.dislodged.clone()
    }

    /// MILA's `get_hash`: a string (a number JSON could not hold).
    #[pyo3(name = "_hash")]
    fn hash(&self) -> String {
        self.g.hash().to_string()
    }

    /// The current position as MILA's `get_state` lays it out (the parts
    /// that come from the board).
    #[pyo3(name = "_state")]
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        state_dict(py, &self.g, &self.g.phase_name())
    }

    #[pyo3(name = "_history_len")]
    fn history_len(&self) -> usize {
        self.g.history.len()
    }

    #[pyo3(name = "_history_name")]
    fn history_name(&self, i: usize) -> PyResult<String> {
        Ok(self.record(i)?.name.clone())
    }

    /// Phase `i` of the history: (name, orders by power, results, state).
    #[pyo3(name = "_history_phase")]
    fn history_phase<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyDict>> {
        let r = self.record(i)?;
        let mut g = self.g.clone();
        let (state, seq, influence) = r.position.board(self.g.v.map);
        g.restore(state, seq, influence);
        g.done = false;
        let d = PyDict::new(py);
        d.set_item("name", &r.name)?;
        let orders = PyDict::new(py);
        for (i, p) in self.g.v.powers.iter().enumerate() {
            let list: Vec<&engine::Name> = r.orders_of(dip_core::PowerId(i as u8)).collect();
            orders.set_item(p, list)?;
        }
        d.set_item("orders", orders)?;
        let results = PyDict::new(py);
        for (u, tags) in &r.results {
            results.set_item(u, tags.to_vec())?;
        }
        d.set_item("results", results)?;
        d.set_item("state", state_dict(py, &g, &r.name)?)?;
        Ok(d)
    }

    /// Drops history from phase `i` on (for `set_state`/rewinding).
    #[pyo3(name = "_truncate_history")]
    fn truncate_history(&mut self, i: usize) {
        self.g.history.truncate(i);
    }

    /// Appends a phase read from a saved game to the history.
    #[pyo3(name = "_push_history")]
    fn push_history(
        &mut self,
        name: &str,
        orders: Vec<Vec<String>>,
        results: Vec<(String, Vec<String>)>,
    ) -> PyResult<()> {
        let tags = |v: Vec<String>| -> engine::Tags {
            let mut t = engine::Tags::default();
            for w in v.iter().filter_map(|w| engine::Tags::word(w)) {
                if !t.contains(w) {
                    t.push(w);
                }
            }
            t
        };
        self.g.history.push(PhaseRecord {
            name: name.to_string(),
            position: engine::Snapshot::of(&self.g.state, self.g.seq(), self.g.influence_stamps()),
            orders: orders
                .into_iter()
                .enumerate()
                .flat_map(|(p, l)| {
                    l.into_iter()
                        .map(move |o| (dip_core::PowerId(p as u8), engine::Name::Owned(o)))
                })
                .collect(),
            results: results
                .into_iter()
                .map(|(u, v)| (engine::Name::Owned(u), tags(v)))
                .collect(),
        });
        Ok(())
    }
}

impl Engine {
    /// Adjudicates the phase without holding the GIL and moves on.
    fn adjudicate(&mut self, py: Python<'_>) {
        let g = &mut self.g;
        py.detach(|| g.process());
    }

    /// Lists the position's legal orders (without the GIL) into `given`,
    /// unless they are listed already. (Their strings are made by
    /// `variant_strings`, which whoever reads them calls.)
    fn list_possible(&mut self, py: Python<'_>) {
        let gen = self.g.position_gen;
        if self.given.gen == Some(gen) {
            return;
        }
        let g = &mut self.g;
        let possible = py.detach(|| g.possible());
        let mut addrs = std::mem::take(&mut self.given.addrs);
        addrs.clear();
        {
            // After the listing, which may have numbered new orders.
            let mut guard = STRINGS.lock().unwrap_or_else(|e| e.into_inner());
            let strings = variant_strings(py, &mut guard, self.g.v);
            addrs.extend(possible.all_ids().iter().map(|&id| strings.address(id)));
        }
        self.given = Given {
            gen: Some(gen),
            possible: Some(possible),
            addrs,
        };
    }

    /// A new list of the legal orders of location `i` (`list_possible`
    /// first; `strings` the variant's).
    fn new_list<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyList>> {
        fresh_dict::list_of(py, self.given.addrs_of(i))
    }

    fn record(&self, i: usize) -> PyResult<&PhaseRecord> {
        self.g
            .history
            .get(i)
            .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err(format!("no phase {i} in the history")))
    }
}

/// Processes many games at once, in parallel threads, without the GIL.
#[pyfunction]
fn process_many(py: Python<'_>, engines: Vec<Bound<'_, Engine>>) -> PyResult<()> {
    let mut refs: Vec<PyRefMut<'_, Engine>> = engines.iter().map(|e| e.borrow_mut()).collect();
    {
        let mut games: Vec<&mut Game> = refs.iter_mut().map(|r| &mut r.g).collect();
        py.detach(|| engine::process_many(&mut games));
    }
    Ok(())
}

/// Adds a jDip plugin (folder, `.zip` or `.jar`) or a folder searched
/// for plugins to where variant names are looked up (dip's `--variants`).
#[pyfunction]
fn add_variant_path(path: std::path::PathBuf) -> PyResult<()> {
    if !path.exists() {
        return Err(pyo3::exceptions::PyFileNotFoundError::new_err(format!(
            "{}: no such file or folder",
            path.display()
        )));
    }
    engine::add_search_path(path);
    Ok(())
}

/// Names of the variants bundled with dip.
#[pyfunction]
fn variants() -> Vec<String> {
    dip_variants::bundled().iter().map(|(n, _)| n.to_string()).collect()
}

#[pymodule]
fn _dip(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Engine>()?;
    m.add_function(wrap_pyfunction!(process_many, m)?)?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(add_variant_path, m)?)?;
    Ok(())
}
