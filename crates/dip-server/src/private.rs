//! Private games: seen only by their members and game master, joined with
//! the game's invitation link or its password, listed only to members.
//!
//! One guard ([`guard`]) stands before every route under
//! `/api/v1/games/{id}` and `/games/{id}` (position, history, press,
//! events, maps, exports, the page): to anyone else a private game does
//! not exist (404, as for an id nobody has). The invitation (a random
//! token) opens the game's own view and page, so that the invited can see
//! what they join; joining checks it, or the password, in [`may_join`].

use crate::auth::Account;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::AppState;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use rand_core::{OsRng, RngCore};

/// A new invitation token: 16 random bytes in hex.
pub fn new_invite() -> String {
    let mut b = [0u8; 16];
    OsRng.fill_bytes(&mut b);
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// How a game may be seen and joined.
#[derive(Clone, Debug, Default)]
pub struct Access {
    pub private: bool,
    pub creator: i64,
    pub invite: Option<String>,
    pub password_hash: Option<String>,
    /// Whether the viewer is a member (player or observer) of the game.
    pub member: bool,
}

impl Access {
    /// Whether `viewer` may see the game (the invitation aside).
    pub fn visible_to(&self, viewer: Option<i64>) -> bool {
        !self.private || viewer.is_some_and(|v| v == self.creator) || self.member
    }
    /// Whether `invite` is the game's invitation.
    pub fn invited(&self, invite: Option<&str>) -> bool {
        match (&self.invite, invite) {
            (Some(want), Some(got)) => constant_time_eq(want.as_bytes(), got.as_bytes()),
            _ => false,
        }
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The game's access, for this viewer; `None` when there is no such game.
pub fn access(tx: &mut dyn Tx, id: i64, viewer: Option<i64>) -> ApiResult<Option<Access>> {
    Ok(crate::db::private::access(tx, id, viewer.unwrap_or(0))?.map(
        |(private, creator, invite, password_hash, member)| Access {
            private,
            creator,
            invite,
            password_hash,
            member,
        },
    ))
}

/// Makes a new game private: its invitation and, if given, the hash of
/// its password.
pub fn make_private(tx: &mut dyn Tx, id: i64, password_hash: Option<String>) -> ApiResult<String> {
    let invite = new_invite();
    crate::db::private::make_private(tx, id, &invite, password_hash)?;
    Ok(invite)
}

/// The list filter that keeps private games to their members.
pub const LISTED: &str = crate::db::private::LISTED;

fn no_such_game() -> ApiError {
    ApiError::not_found("no such game")
}

/// The id in `/api/v1/games/{id}/…` or `/games/{id}/…`, and whether the
/// route is the join (which checks the invitation itself).
fn game_in_path(path: &str) -> Option<(&str, bool)> {
    let rest = path
        .strip_prefix("/api/v1/games/")
        .or_else(|| path.strip_prefix("/games/"))?;
    let (id, tail) = rest.split_once('/').unwrap_or((rest, ""));
    Some((id, tail == "join"))
}

fn percent_decoded(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The invitation in a query string (`?invite=…`).
pub fn invite_in_query(query: Option<&str>) -> Option<String> {
    query?
        .split('&')
        .find_map(|kv| kv.strip_prefix("invite="))
        .map(String::from)
}

/// Stands before every game route: a private game is a 404 to whoever is
/// not its member or game master, unless the request carries the game's
/// invitation (then only its view and page, not its history or press).
pub async fn guard(State(st): State<AppState>, req: Request, next: axum::middleware::Next) -> Response {
    let path = req.uri().path().to_string();
    let Some((id, join)) = game_in_path(&path) else {
        return next.run(req).await;
    };
    // Decoded as the router's `Path` decodes it: `%31%32` is game 12.
    let Ok(id) = percent_decoded(id).parse::<i64>() else {
        return next.run(req).await;
    };
    if join {
        return next.run(req).await;
    }
    let viewer = match crate::routes::viewer(&st, req.headers()).await {
        Ok(v) => v.map(|a| a.id),
        // A bad token is told as such by the route.
        Err(_) => None,
    };
    let found = st.read(move |tx| access(tx, id, viewer)).await;
    match found {
        Ok(Some(a)) if !a.visible_to(viewer) => {
            // The invitation opens the game's own view and page only.
            let view_only = path == format!("/api/v1/games/{id}") || path == format!("/games/{id}");
            if view_only && a.invited(invite_in_query(axum::http::Uri::query(req.uri())).as_deref()) {
                return next.run(req).await;
            }
            // A page answers a page (the outsider's browser showed the
            // API's JSON), the API its JSON.
            if path.starts_with("/api/") {
                no_such_game().into_response()
            } else {
                let e = no_such_game();
                crate::web::error_page_for(&st, req.headers(), e.status, &e.message).await
            }
        }
        Err(e) => e.into_response(),
        _ => next.run(req).await,
    }
}

/// Whether `who` may join the game: any public game; a private one with
/// its invitation, or its password (checked on the hashing threads).
pub async fn may_join(
    st: &AppState,
    id: i64,
    who: &Account,
    invite: Option<String>,
    password: Option<String>,
) -> ApiResult<()> {
    let me = who.id;
    let Some(a) = st.read(move |tx| access(tx, id, Some(me))).await? else {
        return Err(no_such_game());
    };
    if a.visible_to(Some(me)) || a.invited(invite.as_deref()) {
        return Ok(());
    }
    match (password, a.password_hash) {
        (Some(p), Some(h)) => {
            let ok = st.hasher.run(move || crate::auth::verify_password(&p, &h)).await?;
            if ok {
                Ok(())
            } else {
                Err(ApiError::forbidden("wrong password for this game"))
            }
        }
        _ => Err(no_such_game()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guard_finds_the_game_in_every_route() {
        assert_eq!(game_in_path("/api/v1/games/12"), Some(("12", false)));
        assert_eq!(game_in_path("/api/v1/games/12/map.svg"), Some(("12", false)));
        assert_eq!(game_in_path("/api/v1/games/12/join"), Some(("12", true)));
        assert_eq!(game_in_path("/games/7"), Some(("7", false)));
        assert_eq!(game_in_path("/api/v1/games"), None);
        assert_eq!(game_in_path("/api/v1/war/games/3"), None);
        assert_eq!(percent_decoded("%31%32"), "12");
        assert_eq!(invite_in_query(Some("a=1&invite=ff")), Some("ff".into()));
    }
}
