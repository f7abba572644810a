//! The dict of legal orders `get_all_possible_orders` hands out: a copy of
//! a template (every location → None, in MILA's order) whose values are
//! then set to new lists, or one handed out before that nothing holds any
//! more, filled again (see `Kept`). Setting them by key (`PyDict_SetItem`, a look-up
//! per location) was a quarter of building the dict; on CPython 3.11 each
//! list is written straight into its entry of the copy, which holds the
//! template's keys in the template's order. Any other interpreter, or a
//! copy not laid out so, is filled by `PyDict_SetItem`.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

/// CPython 3.11's dict object (`PyDictObject`, Include/cpython/dictobject.h).
// Fields not read here hold their places in the layout.
#[allow(dead_code)]
#[repr(C)]
struct Dict311 {
    refcnt: isize,
    ob_type: *mut ffi::PyTypeObject,
    used: isize,
    version_tag: u64,
    keys: *mut Keys311,
    values: *mut ffi::PyObject,
}

/// CPython 3.11's dict keys object (`struct _dictkeysobject`,
/// Include/internal/pycore_dict.h), up to its hash table, which the
/// entries follow.
#[allow(dead_code)]
#[repr(C)]
struct Keys311 {
    refcnt: isize,
    log2_size: u8,
    log2_index_bytes: u8,
    kind: u8,
    version: u32,
    usable: isize,
    nentries: isize,
}

/// `dk_kind` of a table of str keys whose values are in its entries.
const DICT_KEYS_UNICODE: u8 = 1;

/// An entry of such a table (`PyDictUnicodeEntry`).
#[repr(C)]
struct Entry311 {
    key: *mut ffi::PyObject,
    value: *mut ffi::PyObject,
}

/// May entries be written in place here (CPython 3.11)? Asked once.
fn in_place(py: Python<'_>) -> bool {
    static IN_PLACE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *IN_PLACE.get_or_init(|| {
        let v = py.version_info();
        (v.major, v.minor) == (3, 11)
    })
}

/// The last two dicts of legal orders handed out, for the one before
/// the last to be filled again when nothing but this holds it: an agent
/// that writes `possible = game.get_all_possible_orders()` still holds the
/// last one during the call, and let go of the one before. Filling it
/// again (a list nothing else holds, of the length wanted, in place; any
/// other list replaced by a new one) spares making and freeing the dict
/// and its lists, half of them empty, every phase. To whoever calls, the
/// dict is as new: no one else can reach it or its lists.
#[derive(Default)]
pub(crate) struct Kept {
    dicts: [Option<Py<PyDict>>; 2],
    next: usize,
    /// References given up while filling, let go of once it is done (an
    /// object a caller put in a list may run code when freed).
    drop_after: Vec<usize>,
}

impl Kept {
    /// For the garbage collector: the dicts kept.
    pub(crate) fn traverse(&self, visit: &pyo3::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        for d in self.dicts.iter().flatten() {
            visit.call(d)?;
        }
        Ok(())
    }

    pub(crate) fn clear(&mut self) {
        self.dicts = [None, None];
    }
}

/// A new list of the strs at `addrs` (each kept alive for the process).
pub(crate) fn list_of<'py>(py: Python<'py>, addrs: &[usize]) -> PyResult<Bound<'py, PyList>> {
    // SAFETY: PyList_New gives a new list of `len` empty slots (or null
    // with an exception set); each slot is filled once with a new
    // reference to a live object, as PyList_SET_ITEM wants.
    unsafe {
        let l = ffi::PyList_New(addrs.len() as ffi::Py_ssize_t);
        let l: Bound<'py, PyList> = Bound::from_owned_ptr_or_err(py, l)?.cast_into_unchecked();
        for (k, &addr) in addrs.iter().enumerate() {
            let item = addr as *mut ffi::PyObject;
            ffi::Py_INCREF(item);
            ffi::PyList_SET_ITEM(l.as_ptr(), k as ffi::Py_ssize_t, item);
        }
        Ok(l)
    }
}

/// A dict of `keys` (in this order, the template's: every key → None) to
/// new lists, `keys[k]` to a list of the strs at `items(k)`: the one
/// before the last handed out, filled again when `kept` alone holds it,
/// else a copy of `template`.
pub(crate) fn fill<'py, 'a>(
    py: Python<'py>,
    template: &Bound<'py, PyDict>,
    keys: &[Py<PyString>],
    kept: &mut Kept,
    items: impl Fn(usize) -> &'a [usize],
) -> PyResult<Bound<'py, PyDict>> {
    let slot = kept.next;
    kept.next ^= 1;
    if let Some(d) = refill(py, kept, slot, keys, &items)? {
        return Ok(d);
    }
    let d = copy_filled(py, template, keys, &items)?;
    // (The dict this replaces is freed here if nothing else holds it.)
    kept.dicts[slot] = Some(d.clone().unbind());
    Ok(d)
}

/// The dict kept in `slot`, filled again, if nothing else holds it and it
/// still has the template's keys in order.
fn refill<'py, 'a>(
    py: Python<'py>,
    kept: &mut Kept,
    slot: usize,
    keys: &[Py<PyString>],
    items: &impl Fn(usize) -> &'a [usize],
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(d) = &kept.dicts[slot] else {
        return Ok(None);
    };
    // SAFETY: `d` is a live dict (this holds a reference).
    if unsafe { ffi::Py_REFCNT(d.as_ptr()) } != 1 {
        return Ok(None);
    }
    let d = d.bind(py).clone();
    let Some(entries) = entries_in_order(py, &d, keys, false) else {
        return Ok(None);
    };
    kept.drop_after.clear();
    for k in 0..keys.len() {
        let want = items(k);
        // SAFETY: `entries` are the entries of `d`'s own table (see
        // `entries_in_order`), which no Python code runs to change until
        // the loop ends (references given up are let go of after it).
        // A list is written in place only when it is exactly a list, of
        // the length wanted, held by the dict alone: each of its items is
        // replaced by a new reference, the old one let go of later.
        unsafe {
            let e = entries.add(k);
            let old = (*e).value;
            if ffi::PyList_CheckExact(old) != 0
                && ffi::Py_REFCNT(old) == 1
                && ffi::PyList_GET_SIZE(old) == want.len() as ffi::Py_ssize_t
            {
                for (i, &addr) in want.iter().enumerate() {
                    let item = addr as *mut ffi::PyObject;
                    let before = ffi::PyList_GET_ITEM(old, i as ffi::Py_ssize_t);
                    // The same str where it was (a unit whose orders did
                    // not change): not even read, which after another
                    // program's work would be a miss of the cache per str.
                    if before == item {
                        continue;
                    }
                    ffi::Py_INCREF(item);
                    ffi::PyList_SET_ITEM(old, i as ffi::Py_ssize_t, item);
                    kept.drop_after.push(before as usize);
                }
            } else {
                (*e).value = list_of(py, want)?.into_ptr();
                kept.drop_after.push(old as usize);
            }
        }
    }
    for &x in &kept.drop_after {
        // SAFETY: each is a reference this gave up above.
        unsafe { ffi::Py_DECREF(x as *mut ffi::PyObject) };
    }
    kept.drop_after.clear();
    Ok(Some(d))
}

/// A copy of `template` with the value of `keys[k]` set to a new list of
/// `items(k)`.
fn copy_filled<'py, 'a>(
    py: Python<'py>,
    template: &Bound<'py, PyDict>,
    keys: &[Py<PyString>],
    items: &impl Fn(usize) -> &'a [usize],
) -> PyResult<Bound<'py, PyDict>> {
    // SAFETY: `template` is a dict; PyDict_Copy returns a new reference
    // (or null with an exception set, which `from_owned_ptr_or_err` raises).
    let d: Bound<'py, PyDict> =
        unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyDict_Copy(template.as_ptr()))?.cast_into_unchecked() };
    if let Some(entries) = entries_in_order(py, &d, keys, true) {
        for k in 0..keys.len() {
            let value = list_of(py, items(k))?.into_ptr();
            // SAFETY: `entries` are the `keys.len()` entries of the new
            // dict's own table (its copy of the template's, see
            // `entries_in_order`), each holding a reference to None, which
            // is given back as the entry takes the list's reference.
            unsafe {
                let e = entries.add(k);
                let old = std::mem::replace(&mut (*e).value, value);
                ffi::Py_DECREF(old);
            }
        }
        // SAFETY: `d` is a live dict; one holding lists is tracked by the
        // garbage collector, as PyDict_SetItem would have made it.
        unsafe {
            if ffi::PyObject_GC_IsTracked(d.as_ptr()) == 0 {
                ffi::PyObject_GC_Track(d.as_ptr().cast());
            }
        }
        return Ok(d);
    }
    for (k, key) in keys.iter().enumerate() {
        d.set_item(key.bind(py), list_of(py, items(k))?)?;
    }
    Ok(d)
}

/// The entries of `d`, if it is laid out as CPython 3.11 lays out a dict
/// of str keys, these are `keys`, entry by entry (so that nothing else is
/// written over), and each value is None (`none`: a fresh copy of the
/// template) or not null.
fn entries_in_order(py: Python<'_>, d: &Bound<'_, PyDict>, keys: &[Py<PyString>], none: bool) -> Option<*mut Entry311> {
    if !in_place(py) {
        return None;
    }
    // SAFETY: on CPython 3.11 a dict object is a `Dict311`, whose
    // `keys` is a `Keys311` followed by its index table (of
    // 1 << log2_index_bytes bytes) and its entries, which are `Entry311`
    // when `kind` says so. Only a combined table (no separate values)
    // holding exactly `keys` in this order, and its own (PyDict_Copy
    // clones a combined table), is written to.
    unsafe {
        let dict = d.as_ptr() as *const Dict311;
        if !(*dict).values.is_null() || (*dict).used != keys.len() as isize {
            return None;
        }
        let table = (*dict).keys;
        if (*table).kind != DICT_KEYS_UNICODE || (*table).nentries != keys.len() as isize || (*table).refcnt != 1 {
            return None;
        }
        let indices = (table as *mut u8).add(std::mem::size_of::<Keys311>());
        let entries = indices.add(1usize << (*table).log2_index_bytes) as *mut Entry311;
        let no = ffi::Py_None();
        for (k, key) in keys.iter().enumerate() {
            let e = &*entries.add(k);
            if e.key != key.as_ptr() || (if none { e.value != no } else { e.value.is_null() }) {
                return None;
            }
        }
        Some(entries)
    }
}
