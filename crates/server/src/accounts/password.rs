//! Passwords: kept only as argon2id hashes (RFC 9106), checked in constant time.

use std::sync::OnceLock;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::SaltString;
use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier};

use crate::error::ApiError;
use crate::protocol::ErrorKind;

/// Fewest characters of a password (NIST SP 800-63B's least for a chosen secret).
pub const MIN_PASSWORD_CHARS: usize = 8;
/// Most characters of a password: long passphrases fit; hashing stays bounded.
pub const MAX_PASSWORD_CHARS: usize = 256;

/// Refuses a password too short or too long; any characters are allowed.
pub fn check(password: &str) -> Result<(), ApiError> {
    let chars = password.chars().count();
    if (MIN_PASSWORD_CHARS..=MAX_PASSWORD_CHARS).contains(&chars) {
        Ok(())
    } else {
        Err(ApiError::malformed(format!(
            "a password has {MIN_PASSWORD_CHARS} to {MAX_PASSWORD_CHARS} characters"
        )))
    }
}

/// The argon2id hash of `password` with a new random salt, in the PHC string format.
/// Argon2's default parameters are OWASP's (19 MiB, 2 passes, 1 lane). Slow on purpose:
/// call it off the async threads.
pub fn hash(password: &str) -> Result<String, ApiError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| ApiError::new(ErrorKind::Internal, format!("cannot hash a password: {e}")))
}

/// Whether `password` is the one `stored` was made from (`None`: an unknown name or an
/// account without a password, which no password opens). Either way the same work is
/// done, so that the time taken does not tell whether a name has an account.
pub fn verify(stored: Option<&str>, password: &str) -> bool {
    let (stored, real) = match stored {
        Some(stored) => (stored, true),
        None => (dummy_hash(), false),
    };
    let Ok(parsed) = PasswordHash::new(stored) else {
        return false;
    };
    let matches = Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok();
    matches && real
}

/// A hash of no one's password, made once, to verify against when there is no account.
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| hash("no account has this password").unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_opens_with_its_password_only() {
        let stored = hash("correct horse battery").expect("hashed");
        assert!(stored.starts_with("$argon2id$"), "{stored}");
        assert!(!stored.contains("correct horse"));
        assert!(verify(Some(&stored), "correct horse battery"));
        assert!(!verify(Some(&stored), "correct horse batterY"));
        // Salted: the same password never hashes the same twice.
        assert_ne!(hash("correct horse battery").expect("hashed"), stored);
    }

    #[test]
    fn no_account_is_opened_by_any_password() {
        assert!(!verify(None, "no account has this password"));
        assert!(!verify(Some("not a hash"), "anything"));
    }

    #[test]
    fn lengths_are_checked_in_characters() {
        assert!(check("seven77").is_err());
        assert!(check("eight888").is_ok());
        assert!(check(&"é".repeat(MAX_PASSWORD_CHARS)).is_ok());
        assert!(check(&"é".repeat(MAX_PASSWORD_CHARS + 1)).is_err());
    }
}
