//! Seat tokens (capability links) and game ids. A token is shown once, at creation or
//! join; only its SHA-256 is stored, so a leaked database does not leak seats.

use std::fmt::Write;

use rand::distributions::{Alphanumeric, DistString};
use rand::RngCore;
use sha2::{Digest, Sha256};

/// Characters of a game id.
const GAME_ID_CHARS: usize = 12;

/// A new secret token: 32 random bytes from the OS, as 64 hex digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex(&bytes)
}

/// The SHA-256 of `token`, hex: the stored form of a token, the name of a data file by its
/// content, and the stored form of a client's address key.
pub fn hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// The seat token a seek's holder plays with once it is matched: derived from the seek's
/// token, so that the server keeps neither (only their hashes) and yet tells the seat's
/// token to the seek's holder alone, from whichever process they wait on.
pub fn seat_token_of_seek(seek_token: &str) -> String {
    hash(&format!("seat {seek_token}"))
}

/// `bytes` as lower-case hex digits.
pub fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// The bytes of hex digits `text`; `None` if it is not hex.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A new game id: 12 lower-case letters and digits.
pub fn new_game_id() -> String {
    Alphanumeric
        .sample_string(&mut rand::thread_rng(), GAME_ID_CHARS)
        .to_ascii_lowercase()
}

/// A new account id: of the same form as a game id.
pub fn new_account_id() -> String {
    new_game_id()
}

/// Whether `id` has the form of a game id (anything else is not looked up).
pub fn is_game_id(id: &str) -> bool {
    id.len() == GAME_ID_CHARS
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_goes_both_ways() {
        let bytes = [0u8, 1, 0xab, 0xff];
        assert_eq!(hex(&bytes), "0001abff");
        assert_eq!(unhex("0001abff").as_deref(), Some(&bytes[..]));
        for bad in ["0", "zz", "0g", "é0"] {
            assert_eq!(unhex(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn tokens_are_new_and_hashes_are_stable() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(hash(&a), hash(&a));
        assert_ne!(hash(&a), hash(&b));
        assert_ne!(hash(&a), a);
        // SHA-256 of "abc".
        assert_eq!(
            hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn game_ids() {
        let id = new_game_id();
        assert!(is_game_id(&id), "{id}");
        assert!(!is_game_id("../../etc/passwd"));
        assert!(!is_game_id("ABCDEFGHIJKL"));
    }
}
