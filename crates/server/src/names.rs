//! Player names as the server keeps them: one check for every name a client gives.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

use crate::error::ApiError;

/// Longest player name kept.
pub const MAX_NAME_CHARS: usize = 32;

/// A player name as kept: in Unicode NFKC (full-width and other compatibility lookalikes
/// become their plain forms: "Ｂｅｎ" is "Ben"), trimmed, 1 to [`MAX_NAME_CHARS`]
/// characters, and holding no character that is invisible or rearranges the text around
/// it where the name is shown (controls, bidirectional controls, zero-width and other
/// format characters, line separators): such a name could pass for another player's, or
/// garble the lobby and the log. Every name a client gives goes through here (create, join,
/// hello).
pub fn clean_name(name: &str) -> Result<String, ApiError> {
    let normalized: String = name.nfkc().collect();
    let hidden = normalized
        .chars()
        .find_map(|c| hidden_char_kind(c).map(|why| (c, why)));
    if let Some((c, why)) = hidden {
        return Err(ApiError::malformed(format!(
            "a name may not hold U+{:04X} ({why})",
            u32::from(c)
        )));
    }
    let name = normalized.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(ApiError::malformed(format!(
            "a name has 1 to {MAX_NAME_CHARS} characters, not counting spaces around it"
        )));
    }
    Ok(name.to_string())
}

/// What makes `c` unfit for a name, if anything.
fn hidden_char_kind(c: char) -> Option<&'static str> {
    match c {
        '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}'
        | '\u{200E}'
        | '\u{200F}'
        | '\u{061C}' => Some("a bidirectional control, which reorders the text around it"),
        '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => Some("a zero-width character"),
        _ => match c.general_category() {
            GeneralCategory::Control => Some("a control character"),
            GeneralCategory::Format => Some("an invisible format character"),
            GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator => {
                Some("a line separator")
            }
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::clean_name;

    #[test]
    fn lookalikes_become_plain_and_hidden_characters_are_refused() {
        assert_eq!(clean_name("  Ｂｅｎ ").as_deref(), Ok("Ben"));
        assert_eq!(clean_name("Ana María").as_deref(), Ok("Ana María"));
        assert_eq!(clean_name("花子").as_deref(), Ok("花子"));
        for (name, why) in [
            ("Ben\u{202E}nimda", "U+202E (a bidirectional"),
            ("\u{2066}Ben", "U+2066 (a bidirectional"),
            ("Be\u{200D}n", "U+200D (a zero-width"),
            ("Ben\u{FEFF}", "U+FEFF (a zero-width"),
            ("Ben\u{0007}", "U+0007 (a control"),
            ("Ben\u{00AD}", "U+00AD (an invisible format"),
            ("Ben\u{2028}x", "U+2028 (a line separator"),
        ] {
            let error = clean_name(name).expect_err(name);
            assert!(error.message.contains(why), "{name:?}: {}", error.message);
        }
        for empty in ["", "   ", &"x".repeat(33)] {
            assert!(clean_name(empty).is_err(), "{empty:?}");
        }
    }
}
