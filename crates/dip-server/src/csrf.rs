//! Cross-site request forgery: a browser's forms and scripts are signed
//! in by a cookie, which the browser also sends with a form that another
//! page posts here. Two checks refuse such a post:
//!
//! - its origin: a browser says where a request comes from (`Origin`,
//!   `Sec-Fetch-Site`); anything but this server's own origin is refused
//!   (a page on another port of the same host included: it is the same
//!   *site*, but not the same *origin*);
//! - its token: the form or script sends a token that is a hash of the
//!   browser's session (signed out: of a random pre-session cookie). A
//!   page elsewhere cannot read it, and a cookie it sets for this host
//!   ("cookie tossing", which ports do not keep apart) gives it no token
//!   for the victim's session.
//!
//! Behind an HTTPS proxy the cookies are `Secure` ([`secure_cookies`]).

use crate::error::{ApiError, ApiResult};
use crate::routes::{cookie, SESSION_COOKIE};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::Response;
use rand_core::{OsRng, RngCore};
use sha2::{Digest, Sha256};

/// The signed-out browser's pre-session cookie: random, the base of the
/// token of the log-in and sign-up forms.
pub const NONCE_COOKIE: &str = "dip_csrf";

/// This browser's CSRF token, and the pre-session cookie's value to set
/// when it is signed out and has none.
pub fn token(headers: &HeaderMap) -> (String, Option<String>) {
    if let Some(s) = cookie(headers, SESSION_COOKIE) {
        return (hash("session", &s), None);
    }
    match cookie(headers, NONCE_COOKIE) {
        Some(n) if n.len() >= 32 && n.bytes().all(|b| b.is_ascii_hexdigit()) => (hash("nonce", &n), None),
        _ => {
            let mut bytes = [0u8; 16];
            OsRng.fill_bytes(&mut bytes);
            let n = hex(&bytes);
            (hash("nonce", &n), Some(n))
        }
    }
}

/// The token of a secret: one-way, so that the page's copy of it does
/// not give the session away.
fn hash(kind: &str, secret: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"dip csrf token\0");
    h.update(kind.as_bytes());
    h.update(b"\0");
    h.update(secret.as_bytes());
    hex(&h.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Refuses a state-changing request from another origin, or without the
/// token of the browser's cookies (`sent`: the form's field or the
/// script's `X-CSRF-Token` header).
pub fn check(headers: &HeaderMap, sent: Option<&str>) -> ApiResult<()> {
    if let Some(from) = foreign_origin(headers) {
        return Err(ApiError::forbidden(format!(
            "a form or script from another site ({from}) may not change anything here"
        )));
    }
    let want = token(headers).0;
    match sent {
        Some(s) if equal(s.as_bytes(), want.as_bytes()) => Ok(()),
        _ => Err(ApiError::forbidden(
            "the form's CSRF token is missing or wrong: reload the page and try again",
        )),
    }
}

/// Compares without stopping at the first difference (no timing hint).
fn equal(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// Where a request comes from when that is not here: `Sec-Fetch-Site`
/// other than `same-origin` (or `none`, the user's own doing), or an
/// `Origin` whose host and port are not this request's `Host` (or the
/// proxy's `X-Forwarded-Host`). Requests that carry neither (old
/// browsers, programs) are left to the token.
fn foreign_origin(headers: &HeaderMap) -> Option<String> {
    let get = |h: &str| headers.get(h).and_then(|v| v.to_str().ok()).map(str::trim);
    if let Some(site) = get("sec-fetch-site") {
        if site != "same-origin" && site != "none" {
            return Some(format!("Sec-Fetch-Site: {site}"));
        }
    }
    let origin = get("origin")?;
    // `null`: a sandboxed frame, a file, a redirect across sites.
    let authority = origin
        .split_once("://")
        .map(|(_, rest)| rest.trim_end_matches('/'))
        .unwrap_or("");
    let here = [get("x-forwarded-host"), get("host")];
    let ours = here
        .iter()
        .flatten()
        .flat_map(|h| h.split(','))
        .any(|h| !authority.is_empty() && h.trim().eq_ignore_ascii_case(authority));
    (!ours).then(|| origin.to_string())
}

/// Marks every cookie set `Secure` when the server is reached over HTTPS:
/// always with `dip serve --secure-cookies`, else when the proxy in front
/// says so (`X-Forwarded-Proto: https`).
pub async fn secure_cookies(State(always): State<bool>, req: Request, next: axum::middleware::Next) -> Response {
    let https = always
        || req
            .headers()
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|p| p.split(',').next().unwrap_or("").trim().eq_ignore_ascii_case("https"));
    let mut resp = next.run(req).await;
    if https {
        let set: Vec<HeaderValue> = resp.headers().get_all(header::SET_COOKIE).iter().cloned().collect();
        resp.headers_mut().remove(header::SET_COOKIE);
        for v in set {
            let marked = v
                .to_str()
                .ok()
                .filter(|s| !s.to_ascii_lowercase().contains("; secure"))
                .and_then(|s| HeaderValue::from_str(&format!("{s}; Secure")).ok())
                .unwrap_or(v);
            resp.headers_mut().append(header::SET_COOKIE, marked);
        }
    }
    resp
}
