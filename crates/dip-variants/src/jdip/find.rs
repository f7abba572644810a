//! Finding plugins: what is a plugin, the plugins on a search path, a
//! variant by name or by path, and the bundled variants a plugin hides.

use super::*;

/// Is this path a plugin: a folder holding variants.xml, or a `.zip`/`.jar` file?
pub fn is_plugin(p: &Path) -> bool {
    if p.is_dir() {
        return std::fs::read_dir(p)
            .map(|rd| {
                rd.flatten().any(|e| {
                    e.file_name()
                        .to_str()
                        .is_some_and(|f| f.eq_ignore_ascii_case("variants.xml"))
                })
            })
            .unwrap_or(false);
    }
    p.is_file()
        && p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("zip") || e.eq_ignore_ascii_case("jar"))
}

/// Every plugin under the search paths (folders searched four levels
/// deep), in a stable order; symbol packs (`…Symbols.zip`) are not plugins.
pub fn plugin_paths(paths: &[PathBuf]) -> Vec<PathBuf> {
    fn walk(p: &Path, depth: usize, out: &mut Vec<PathBuf>) {
        if is_plugin(p) {
            let name = p
                .file_name()
                .and_then(|f| f.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            if !(name.ends_with("symbols.zip") || name.ends_with("symbols.jar")) {
                out.push(p.to_path_buf());
            }
            if p.is_file() {
                return;
            }
        }
        if depth == 0 || !p.is_dir() {
            return;
        }
        let Ok(rd) = std::fs::read_dir(p) else { return };
        let mut kids: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
        kids.sort();
        for k in kids {
            if k.is_dir() || is_plugin(&k) {
                walk(&k, depth - 1, out);
            }
        }
    }
    let mut out = Vec::new();
    for p in paths {
        walk(p, 4, &mut out);
    }
    out.dedup();
    out
}

/// The variant `name` from the plugins under the search paths `paths`
/// (dip-play's `Variants` holds them: there is no process-wide list): the
/// first plugin (in search order) that has a variant of that name or alias.
/// `None` when no plugin has it; an error when it is found and cannot be read.
pub fn find_in(paths: &[PathBuf], name: &str) -> Option<Result<(Plugin, JdipVariant), VariantError>> {
    if paths.is_empty() {
        return None;
    }
    // `PLUGIN#NAME`: the plugin by its file or folder name (`stdVariants`,
    // `stdVariants.zip`).
    if let Some((stem, vname)) = name.rsplit_once('#') {
        for p in plugin_paths(paths) {
            let file = p.file_name().and_then(|f| f.to_str()).unwrap_or("");
            let short = p.file_stem().and_then(|f| f.to_str()).unwrap_or("");
            if file.eq_ignore_ascii_case(stem.trim()) || short.eq_ignore_ascii_case(stem.trim()) {
                let plugin = match Plugin::open(&p) {
                    Ok(pl) => pl,
                    Err(e) => return Some(Err(e)),
                };
                let Some(n) = plugin.find(vname).map(str::to_string) else {
                    return Some(Err(err(
                        &plugin.file_name("variants.xml"),
                        0,
                        format!("no variant `{vname}` (it has {})", plugin.names()),
                    )));
                };
                return Some(plugin.variant(&n).map(|v| (plugin, v)));
            }
        }
    }
    for p in plugin_paths(paths) {
        let Ok(plugin) = Plugin::open(&p) else { continue };
        if let Some(n) = plugin.find(name).map(str::to_string) {
            return Some(plugin.variant(&n).map(|v| (plugin, v)));
        }
    }
    None
}

/// The plugin variants under the search paths that a bundled name hides
/// (`--variant standard` is dip's standard even when a plugin has a
/// `Standard`), each as `PLUGIN#NAME`, the spelling that picks it.
pub fn hidden_by_bundled(paths: &[PathBuf], name: &str) -> Vec<String> {
    let name = name.trim();
    if !crate::bundled().iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for p in plugin_paths(paths) {
        let Ok(plugin) = Plugin::open(&p) else { continue };
        if let Some(v) = plugin.find(name) {
            out.push(format!("{}#{v}", plugin.path));
        }
    }
    out
}

/// A variant from a plugin path: `PATH` (its default variant, else its
/// first) or `PATH#NAME`.
pub fn load_path(path: &str) -> Result<(Plugin, JdipVariant), VariantError> {
    let (p, name) = match path.rsplit_once('#') {
        Some((p, n)) if is_plugin(Path::new(p)) => (p, Some(n)),
        _ => (path, None),
    };
    let plugin = Plugin::open(Path::new(p))?;
    let name = match name {
        Some(n) => n.to_string(),
        None => default_variant(&plugin),
    };
    let v = plugin.variant(&name)?;
    Ok((plugin, v))
}

pub(super) fn default_variant(plugin: &Plugin) -> String {
    let Ok(doc) = xml(&plugin.variants_xml, "variants.xml") else {
        return plugin.variants.first().map(|v| v.0.clone()).unwrap_or_default();
    };
    doc.root_element()
        .children()
        .filter(|n| n.has_tag_name("VARIANT"))
        .find(|n| n.attribute("default") == Some("true"))
        .and_then(|n| n.attribute("name"))
        .map(str::to_string)
        .or_else(|| plugin.variants.first().map(|v| v.0.clone()))
        .unwrap_or_default()
}

/// The plugin variant a `--variant` value means: a plugin path
/// (`PLUGIN`, `PLUGIN#NAME`), or a name found under the search paths
/// `paths`; `None` for bundled names, other files and unknown names.
pub fn lookup_in(paths: &[PathBuf], spec: &str) -> Option<Result<(Plugin, JdipVariant), VariantError>> {
    if is_plugin_path(spec) {
        return Some(load_path(spec));
    }
    if crate::bundled()
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(spec.trim()))
        || Path::new(spec).exists()
    {
        return None;
    }
    find_in(paths, spec)
}

/// Is `path` a jDip plugin path (`PLUGIN` or `PLUGIN#NAME`)?
pub fn is_plugin_path(path: &str) -> bool {
    let p = match path.rsplit_once('#') {
        Some((p, _)) if is_plugin(Path::new(p)) => p,
        _ => path,
    };
    let pp = Path::new(p);
    if pp.is_file() {
        let n = p.to_ascii_lowercase();
        return n.ends_with(".zip") || n.ends_with(".jar");
    }
    is_plugin(pp)
}

// ---------------------------------------------------------------------------
// Writing.
