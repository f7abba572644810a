//! Accounts and sessions: passwords hashed with Argon2id, bearer tokens of
//! 32 random bytes stored only as their SHA-256, failed logins slowed down.

use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::time::now_ms;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use rand_core::{OsRng, RngCore};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// How long a session lasts.
pub const SESSION_MS: i64 = 30 * 86_400_000;

/// A signed-in account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: i64,
    pub name: String,
}

/// Checks a new account's name and password.
pub fn check_new(name: &str, password: &str) -> ApiResult<()> {
    let n = name.chars().count();
    if !(2..=32).contains(&n) {
        return Err(ApiError::bad_request("name: between 2 and 32 characters"));
    }
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        return Err(ApiError::bad_request("name: letters, digits, `_`, `-` and `.` only"));
    }
    let p = password.chars().count();
    if !(8..=256).contains(&p) {
        return Err(ApiError::bad_request("password: between 8 and 256 characters"));
    }
    Ok(())
}

/// The key that makes names unique regardless of case.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// The key that makes names unique regardless of look-alike letters: the
/// Unicode confusable skeleton (UTS #39) of the name in lower case (case
/// folded first, as UTS #39 says for comparisons without case), so that
/// "xavier", "xаvier" (a Cyrillic а) and "XAVΙER" (a Greek Ι) are one
/// name. The skeleton may bring back capitals (`0` becomes `O`), so it is
/// taken twice, in lower case each time: `m0nk` and `rnonk` are one name
/// too. Made by `unicode-security`, the crate rustc's own lint for
/// confusable identifiers uses, with the Unicode data it keeps current.
pub fn name_skeleton(name: &str) -> String {
    use unicode_security::confusable_detection::skeleton;
    let once: String = skeleton(&name.to_lowercase()).collect();
    skeleton(&once.to_lowercase()).collect()
}

pub fn hash_password(password: &str) -> ApiResult<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::internal(format!("argon2: {e}")))
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    CHECKS.fetch_add(1, Ordering::Relaxed);
    PasswordHash::new(hash)
        .map(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
        .unwrap_or(false)
}

static CHECKS: AtomicU64 = AtomicU64::new(0);

/// How many passwords this process has checked against a hash (tests
/// count them: an unknown name is checked too).
pub fn password_checks() -> u64 {
    CHECKS.load(Ordering::Relaxed)
}

/// A log-in for a name nobody has still checks a password against a hash
/// of the same cost, so that the time of the answer does not tell which
/// names exist.
pub fn verify_unknown(password: &str) {
    static DUMMY: OnceLock<String> = OnceLock::new();
    let hash = DUMMY.get_or_init(|| hash_password("no account has this name").unwrap_or_default());
    verify_password(password, hash);
}

pub fn create_account(tx: &mut dyn Tx, name: &str, hash: &str) -> ApiResult<Account> {
    let id =
        crate::db::accounts::insert(tx, name, &name_key(name), &name_skeleton(name), hash, now_ms()).map_err(|e| {
            match e {
                crate::db::DbError::Conflict => {
                    ApiError::conflict(format!("the name `{name}` is taken, or looks like one that is"))
                }
                e => e.into(),
            }
        })?;
    Ok(Account {
        id,
        name: name.to_string(),
    })
}

/// Gives the accounts made before names had skeletons theirs. Two old
/// accounts whose names look alike keep working: the later one keeps no
/// skeleton (and is logged), and no new name can look like either.
pub fn fill_skeletons(tx: &mut dyn Tx) -> Result<(), crate::db::DbError> {
    let missing = crate::db::accounts::without_skeleton(tx)?;
    if missing.is_empty() {
        return Ok(());
    }
    let mut taken: std::collections::HashSet<String> = crate::db::accounts::skeletons(tx)?.into_iter().collect();
    for Account { id, name } in missing {
        let sk = name_skeleton(&name);
        if taken.insert(sk.clone()) {
            crate::db::accounts::set_skeleton(tx, id, &sk)?;
        } else {
            tracing::warn!("account {id} `{name}` looks like an older account's name: it keeps working");
        }
    }
    Ok(())
}

/// The stored hash of an account, by name.
pub fn password_of(tx: &mut dyn Tx, name: &str) -> ApiResult<Option<(Account, String)>> {
    Ok(crate::db::accounts::password_of(tx, &name_key(name))?)
}

/// A token as stored: its SHA-256 in hexadecimal.
pub fn token_hash(token: &str) -> String {
    let d = Sha256::digest(token.as_bytes());
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new session for the account: the token (shown once) is returned.
pub fn create_session(tx: &mut dyn Tx, account: &Account) -> ApiResult<String> {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let now = now_ms();
    crate::db::sessions::insert(tx, &token_hash(&token), account.id, now, now + SESSION_MS)?;
    Ok(token)
}

/// Ends a session: its token no longer works, and its event streams end
/// once this commits.
pub fn delete_session(tx: &mut dyn Tx, token: &str) -> ApiResult<()> {
    let hash = token_hash(token);
    crate::db::sessions::delete(tx, &hash)?;
    tx.notify(crate::db::Notice::SessionEnded(hash));
    Ok(())
}

/// The account a token belongs to, if the session is alive.
pub fn account_of(tx: &mut dyn Tx, token: &str) -> ApiResult<Option<Account>> {
    Ok(session_of(tx, token)?.map(|(a, _)| a))
}

/// The account a token belongs to and when its session expires (Unix
/// milliseconds), if the session is alive.
pub fn session_of(tx: &mut dyn Tx, token: &str) -> ApiResult<Option<(Account, i64)>> {
    Ok(crate::db::sessions::account_of(tx, &token_hash(token), now_ms())?)
}

/// Is the session of this token hash ([`token_hash`]) still alive?
pub fn session_alive(tx: &mut dyn Tx, hash: &str) -> ApiResult<bool> {
    Ok(crate::db::sessions::alive(tx, hash, now_ms())?)
}

/// Failed logins per name: each failure in a row doubles the wait before
/// the answer (0.25 s, 0.5 s, 1 s … up to 8 s), so guessing is slow. The
/// attempts for one name take turns ([`Throttle::gate`]): guesses sent in
/// parallel wait for each other instead of sharing one wait. The counts are
/// this process's: each of several servers on one database counts alone.
#[derive(Default)]
pub struct Throttle {
    failures: Mutex<HashMap<String, u32>>,
    gates: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

/// How many attempts for one name may be under way or wait their turn;
/// more are refused at once (429) rather than queued for minutes.
pub const MAX_WAITING: usize = 4;

/// The right to try one name's password, held until the answer is sent.
pub struct Turn<'a> {
    throttle: &'a Throttle,
    key: String,
    gate: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        drop(self.gate.take());
        let mut gates = self.throttle.gates.lock().unwrap_or_else(|p| p.into_inner());
        // Nobody else holds or waits for it: forget the name.
        if gates.get(&self.key).is_some_and(|g| Arc::strong_count(g) == 1) {
            gates.remove(&self.key);
        }
    }
}

impl Throttle {
    /// Waits for this name's turn; `None` when too many attempts wait.
    pub async fn gate(&self, name: &str) -> Option<Turn<'_>> {
        let key = name_key(name);
        let gate = {
            let mut gates = self.gates.lock().unwrap_or_else(|p| p.into_inner());
            let g = gates.entry(key.clone()).or_default();
            if Arc::strong_count(g) > MAX_WAITING {
                return None;
            }
            g.clone()
        };
        let mut turn = Turn {
            throttle: self,
            key,
            gate: None,
        };
        turn.gate = Some(gate.lock_owned().await);
        Some(turn)
    }
    pub fn failed(&self, name: &str) -> Duration {
        let mut m = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if m.len() > 100_000 {
            m.clear();
        }
        let n = m.entry(name_key(name)).or_insert(0);
        *n = n.saturating_add(1);
        Duration::from_millis(250u64 << (*n - 1).min(5))
    }
    pub fn succeeded(&self, name: &str) {
        self.failures
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&name_key(name));
    }
}
