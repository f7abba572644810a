//! Characters a client may not send. PostgreSQL stores no U+0000 in text,
//! so a request carrying one failed there as the server's own error (500)
//! where SQLite took it: every JSON body with U+0000 in a string is refused
//! (400) before anything reads it. Names, press and edit lines refuse the
//! other control characters too (a line break in a name, a terminal's
//! escape sequence in a message), each keeping what it needs.

use crate::error::{ApiError, ApiResult};
use serde_json::Value as Json;

/// Refuses U+0000 anywhere in a JSON value (strings and keys), naming
/// where: `orders[2]`, `to[0]`, `name`.
pub fn refuse_nul(v: &Json) -> ApiResult<()> {
    fn walk(v: &Json, path: &mut String) -> ApiResult<()> {
        match v {
            Json::String(s) if s.contains('\0') => Err(nul_at(path, Some(s))),
            Json::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    walk(item, path)?;
                    path.truncate(len);
                }
                Ok(())
            }
            Json::Object(fields) => {
                for (k, item) in fields {
                    let len = path.len();
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(&k.replace('\0', "\\u0000"));
                    if k.contains('\0') {
                        return Err(nul_at(path, None));
                    }
                    walk(item, path)?;
                    path.truncate(len);
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
    walk(v, &mut String::new())
}

fn nul_at(path: &str, text: Option<&str>) -> ApiError {
    let at = if path.is_empty() { "the body" } else { path };
    let shown: Option<String> = text.map(|t| {
        t.chars()
            .take(40)
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect()
    });
    ApiError::bad_request(match shown {
        Some(t) => format!("{at}: the character U+0000 (NUL) is not allowed: `{t}`"),
        None => format!("{at}: the character U+0000 (NUL) is not allowed"),
    })
}

/// Refuses control characters in a field but those `allowed` (a tab in an
/// order line; line breaks and tabs in press).
pub fn refuse_control(field: &str, text: &str, allowed: &[char]) -> ApiResult<()> {
    match text.chars().find(|c| c.is_control() && !allowed.contains(c)) {
        None => Ok(()),
        Some(c) => Err(ApiError::bad_request(format!(
            "{field}: the control character U+{:04X} is not allowed",
            u32::from(c)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nul_is_found_and_named_anywhere() {
        assert!(refuse_nul(&json!({"name": "ok", "orders": ["A par H", "x"]})).is_ok());
        let e = refuse_nul(&json!({"orders": ["A par H", "A\u{0}"]})).unwrap_err();
        assert!(e.message.starts_with("orders[1]:"), "{}", e.message);
        let e = refuse_nul(&json!({"players": {"min": "\u{0}"}})).unwrap_err();
        assert!(e.message.starts_with("players.min:"), "{}", e.message);
        let e = refuse_nul(&json!({"a\u{0}": 1})).unwrap_err();
        assert!(e.message.starts_with("a\\u0000:"), "{}", e.message);
        let e = refuse_nul(&json!("\u{0}")).unwrap_err();
        assert!(e.message.starts_with("the body:"), "{}", e.message);
    }

    #[test]
    fn control_characters_but_the_allowed_ones_are_refused() {
        assert!(refuse_control("text", "a\nb\tc", &['\n', '\t']).is_ok());
        let e = refuse_control("text", "a\u{1b}[31m", &['\n']).unwrap_err();
        assert_eq!(e.message, "text: the control character U+001B is not allowed");
    }
}
