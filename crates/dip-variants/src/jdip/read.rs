//! Reading a plugin's files: a folder or a zip, each entry read through the
//! size caps and named `plugin.zip!/inner` in errors; the variants it
//! names and one variant loaded into a [`Model`].

use super::*;

pub(super) fn entry_name(plugin: &str, inner: &str) -> String {
    format!("{plugin}!/{inner}")
}

impl Plugin {
    /// A plugin folder (holding `variants.xml`) or zip.
    pub fn open(path: &Path) -> Result<Plugin, VariantError> {
        let shown = path.display().to_string();
        if path.is_dir() {
            let text = read_dir_file(path, "variants.xml", &shown)?;
            let file = path.join("variants.xml").display().to_string();
            return Plugin::with_index(shown, Source::Dir(path.to_path_buf()), String::new(), text, &file);
        }
        let bytes = crate::files::read_bytes_capped(path, MAX_ZIP_BYTES).map_err(|m| err(&shown, 0, m))?;
        Plugin::from_zip_bytes(&shown, bytes)
    }

    /// A plugin zip from its bytes; `name` names it in messages.
    pub fn from_zip_bytes(name: &str, bytes: Vec<u8>) -> Result<Plugin, VariantError> {
        let names = {
            let z = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..]))
                .map_err(|e| err(name, 0, format!("not a zip file: {e}")))?;
            z.file_names()
                .filter_map(|n| n.ok().map(|c| c.into_owned()))
                .collect::<Vec<_>>()
        };
        // variants.xml at the top, or in the shallowest folder.
        let index = names
            .iter()
            .filter(|n| {
                n.rsplit('/')
                    .next()
                    .is_some_and(|f| f.eq_ignore_ascii_case("variants.xml"))
            })
            .min_by_key(|n| n.matches('/').count())
            .cloned()
            .ok_or_else(|| err(name, 0, "no variants.xml in the zip; is it a jDip variant plugin?"))?;
        let prefix = index[..index.len() - "variants.xml".len()].to_string();
        let text = zip_entry(&bytes, name, &index)?;
        let text = crate::files::decode_utf8(text, &entry_name(name, &index)).map_err(|m| err(name, 0, m))?;
        Plugin::with_index(
            name.to_string(),
            Source::Zip(bytes),
            prefix,
            text,
            &entry_name(name, &index),
        )
    }

    /// A plugin from files in memory (name, bytes): for tests and fuzzing.
    pub fn from_memory(name: &str, files: Vec<(String, Vec<u8>)>) -> Result<Plugin, VariantError> {
        let text = files
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("variants.xml"))
            .map(|(_, b)| b.clone())
            .ok_or_else(|| err(name, 0, "no variants.xml"))?;
        let file = entry_name(name, "variants.xml");
        let text = crate::files::decode_utf8(text, &file).map_err(|m| err(name, 0, m))?;
        Plugin::with_index(name.to_string(), Source::Memory(files), String::new(), text, &file)
    }

    fn with_index(
        path: String,
        source: Source,
        prefix: String,
        text: String,
        file: &str,
    ) -> Result<Plugin, VariantError> {
        let variants = {
            let doc = xml(&text, file)?;
            let root = doc.root_element();
            if !root.has_tag_name("VARIANTS") {
                return Err(err(
                    file,
                    line_of(&doc, root),
                    format!("expected the element VARIANTS, found {}", root.tag_name().name()),
                ));
            }
            let mut v = Vec::new();
            for n in root.children().filter(|n| n.has_tag_name("VARIANT")) {
                let name = attr_req(&doc, n, "name", file)?;
                let aliases = n.attribute("aliases").map(split_csv).unwrap_or_default();
                v.push((name.to_string(), aliases));
            }
            if v.is_empty() {
                return Err(err(file, line_of(&doc, root), "no VARIANT element"));
            }
            v
        };
        Ok(Plugin {
            path,
            source,
            prefix,
            variants_xml: text,
            variants,
        })
    }

    /// The name of a file of the plugin in messages.
    pub fn file_name(&self, inner: &str) -> String {
        match &self.source {
            Source::Dir(d) => d.join(inner).display().to_string(),
            _ => entry_name(&self.path, &format!("{}{inner}", self.prefix)),
        }
    }

    /// A file of the plugin (named relative to `variants.xml`), as bytes.
    pub fn read_bytes(&self, inner: &str) -> Result<Vec<u8>, VariantError> {
        let shown = self.file_name(inner);
        if inner.contains("..") || inner.starts_with(['/', '\\']) || inner.contains(':') {
            return Err(err(
                &shown,
                0,
                "a file named by a plugin must be inside the plugin (no absolute path, no `..`)",
            ));
        }
        match &self.source {
            Source::Dir(d) => {
                let p = d.join(inner);
                if !p.exists() {
                    return Err(err(&shown, 0, "no such file in the plugin"));
                }
                // The message names the path; the error names it already.
                crate::files::read_bytes_capped(&p, MAX_ENTRY_BYTES).map_err(|m| {
                    let prefix = format!("{}: ", p.display());
                    err(&shown, 0, m.strip_prefix(&prefix).unwrap_or(&m))
                })
            }
            Source::Zip(bytes) => {
                let want = format!("{}{inner}", self.prefix);
                let names: Vec<String> = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..]))
                    .map_err(|e| err(&self.path, 0, format!("not a zip file: {e}")))?
                    .file_names()
                    .filter_map(|n| n.ok().map(|c| c.into_owned()))
                    .collect();
                let name = names
                    .iter()
                    .find(|n| **n == want)
                    .or_else(|| names.iter().find(|n| n.eq_ignore_ascii_case(&want)))
                    .ok_or_else(|| err(&shown, 0, "no such file in the plugin"))?;
                zip_entry(bytes, &self.path, name)
            }
            Source::Memory(files) => files
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(inner))
                .map(|(_, b)| b.clone())
                .ok_or_else(|| err(&shown, 0, "no such file in the plugin")),
        }
    }

    /// A text file of the plugin.
    pub fn read_text(&self, inner: &str) -> Result<String, VariantError> {
        let shown = self.file_name(inner);
        let b = self.read_bytes(inner)?;
        crate::files::decode_utf8(b, &shown).map_err(|m| err(&shown, 0, m))
    }

    /// The variant named `name` (or one of its aliases, or dip's short name
    /// for it: `Modern__with_Wings_`), case-insensitive.
    pub fn find(&self, name: &str) -> Option<&str> {
        let name = name.trim();
        self.variants
            .iter()
            .find(|(n, a)| n.eq_ignore_ascii_case(name) || a.iter().any(|x| x.eq_ignore_ascii_case(name)))
            .or_else(|| {
                self.variants
                    .iter()
                    .find(|(n, _)| safe_name(n).eq_ignore_ascii_case(name))
            })
            .map(|(n, _)| n.as_str())
    }

    /// The names of the plugin's variants, for a message that `name` is not one.
    pub(crate) fn names(&self) -> String {
        self.variants
            .iter()
            .map(|v| v.0.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Reads one variant of the plugin.
    pub fn variant(&self, name: &str) -> Result<JdipVariant, VariantError> {
        read_variant(self, name)
    }
}

pub(super) fn read_dir_file(dir: &Path, name: &str, shown: &str) -> Result<String, VariantError> {
    let exact = dir.join(name);
    let path = if exact.is_file() {
        exact
    } else {
        std::fs::read_dir(dir)
            .ok()
            .and_then(|rd| {
                rd.flatten().map(|e| e.path()).find(|p| {
                    p.file_name()
                        .and_then(|f| f.to_str())
                        .is_some_and(|f| f.eq_ignore_ascii_case(name))
                })
            })
            .ok_or_else(|| {
                err(
                    shown,
                    0,
                    format!("no {name} in the folder; is it a jDip variant plugin?"),
                )
            })?
    };
    crate::files::read_text(&path).map_err(|m| err(&path.display().to_string(), 0, m))
}

/// One entry of a zip, refused when it would unpack larger than
/// [`MAX_ENTRY_BYTES`] (checked before unpacking, and while unpacking).
pub(super) fn zip_entry(bytes: &[u8], zip_name: &str, inner: &str) -> Result<Vec<u8>, VariantError> {
    let shown = entry_name(zip_name, inner);
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| err(zip_name, 0, format!("not a zip file: {e}")))?;
    let f = z
        .by_name(inner)
        .map_err(|e| err(&shown, 0, format!("cannot read: {e}")))?;
    if f.size() > MAX_ENTRY_BYTES {
        return Err(err(
            &shown,
            0,
            format!(
                "unpacks to {} bytes, more than the {} MiB dip reads from one file of a plugin",
                f.size(),
                MAX_ENTRY_BYTES >> 20
            ),
        ));
    }
    let mut out = Vec::new();
    f.take(MAX_ENTRY_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| err(&shown, 0, format!("cannot unpack: {e}")))?;
    if out.len() as u64 > MAX_ENTRY_BYTES {
        return Err(err(
            &shown,
            0,
            format!(
                "unpacks to more than the {} MiB dip reads from one file of a plugin",
                MAX_ENTRY_BYTES >> 20
            ),
        ));
    }
    Ok(out)
}
