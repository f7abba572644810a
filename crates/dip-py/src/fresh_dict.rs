//! The dict of legal orders `get_all_possible_orders` hands out: a copy of
//! a template (every location → None, in MILA's order) whose values are
//! then set to new lists. Setting them by key (`PyDict_SetItem`, a look-up
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

/// A copy of `template` (string keys `keys[k]` in this order, each → None)
/// with the value of `keys[k]` set to `list(k)`.
pub(crate) fn fill<'py>(
    py: Python<'py>,
    template: &Bound<'py, PyDict>,
    keys: &[Py<PyString>],
    mut list: impl FnMut(usize) -> PyResult<Bound<'py, PyList>>,
) -> PyResult<Bound<'py, PyDict>> {
    // SAFETY: `template` is a dict; PyDict_Copy returns a new reference
    // (or null with an exception set, which `from_owned_ptr_or_err` raises).
    let d: Bound<'py, PyDict> =
        unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyDict_Copy(template.as_ptr()))?.cast_into_unchecked() };
    if let Some(entries) = entries_in_order(py, &d, keys) {
        for (k, _) in keys.iter().enumerate() {
            let value = list(k)?.into_ptr();
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
        d.set_item(key.bind(py), list(k)?)?;
    }
    Ok(d)
}

/// The entries of `d`, a fresh copy of the template, if it is laid out as
/// CPython 3.11 lays out a dict of str keys and these are `keys`, entry
/// by entry (so that nothing else is written over).
fn entries_in_order(py: Python<'_>, d: &Bound<'_, PyDict>, keys: &[Py<PyString>]) -> Option<*mut Entry311> {
    if !in_place(py) {
        return None;
    }
    // SAFETY: on CPython 3.11 a dict object is a `Dict311`, whose
    // `keys` is a `Keys311` followed by its index table (of
    // 1 << log2_index_bytes bytes) and its entries, which are `Entry311`
    // when `kind` says so. Only a combined table (no separate values)
    // holding exactly `keys` in this order is written to; the table was
    // made by PyDict_Copy for `d` alone (a combined table is cloned).
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
        let none = ffi::Py_None();
        for (k, key) in keys.iter().enumerate() {
            let e = &*entries.add(k);
            if e.key != key.as_ptr() || e.value != none {
                return None;
            }
        }
        Some(entries)
    }
}
