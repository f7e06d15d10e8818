//! Player names as the server keeps them: one check for every name a client gives.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
use unicode_security::general_security_profile::IdentifierType;
use unicode_security::GeneralSecurityProfile;

use crate::error::ApiError;

/// Longest player name kept.
pub const MAX_NAME_CHARS: usize = 32;

/// A player name as kept: in Unicode NFKC (full-width and other compatibility lookalikes
/// become their plain forms: "Ｂｅｎ" is "Ben"), trimmed, 1 to [`MAX_NAME_CHARS`]
/// characters, and holding no character that is invisible or rearranges the text around
/// it where the name is shown (controls, bidirectional controls, zero-width and other
/// format characters, line separators): such a name could pass for another player's, or
/// garble the lobby and the log. Every name a client gives goes through here (create, join,
/// hello). Characters that show as nothing (U+034F, variation selectors, Hangul fillers,
/// the blank Braille pattern) are refused too: "Ada" followed by one is "Ada" on screen.
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

/// The name as look-alikes compare (Unicode TS #39's confusable skeleton of its lower
/// case): "Ada", "ada", "Аda" (Cyrillic А) and "Αda" (Greek Α) have one. No two accounts
/// share one, so that nobody can pass for another by a look-alike name.
pub fn name_skeleton(clean: &str) -> String {
    unicode_security::skeleton(&clean.to_lowercase()).collect()
}

/// Whether `c` is a bidirectional control, which reorders the text around it where it is
/// shown ("Ben" + U+202E + "nimda" shows as "Benadmin").
pub(crate) fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// Whether `c` is a zero-width character (space, joiners, word joiner, byte order mark).
pub(crate) fn is_zero_width(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}')
}

/// What makes `c` unfit for a name, if anything.
fn hidden_char_kind(c: char) -> Option<&'static str> {
    match c {
        _ if is_bidi_control(c) => {
            Some("a bidirectional control, which reorders the text around it")
        }
        _ if is_zero_width(c) => Some("a zero-width character"),
        '\u{2800}' => Some("a blank that shows as nothing"),
        _ if c.identifier_type() == Some(IdentifierType::Default_Ignorable) => {
            Some("a character that shows as nothing")
        }
        _ => match c.general_category() {
            GeneralCategory::Control => Some("a control character"),
            GeneralCategory::Format => Some("an invisible format character"),
            GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator => {
                Some("a line separator")
            }
            _ if c.is_whitespace() && c != ' ' => Some("a space other than the plain one"),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::{clean_name, name_skeleton};

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
            ("Ben\u{00AD}", "U+00AD (a character that shows as nothing"),
            ("Ben\u{2028}x", "U+2028 (a line separator"),
            ("Ada\u{034F}", "U+034F (a character that shows as nothing"),
            ("Ada\u{FE0F}", "U+FE0F (a character that shows as nothing"),
            ("Ada\u{2800}", "U+2800 (a blank"),
            ("\u{3164}", "(a character that shows as nothing"),
            (
                "\u{115F}\u{115F}",
                "U+115F (a character that shows as nothing",
            ),
            ("Ana\u{1680}María", "U+1680 (a space other"),
        ] {
            let error = clean_name(name).expect_err(name);
            assert!(error.message.contains(why), "{name:?}: {}", error.message);
        }
        for empty in ["", "   ", &"x".repeat(33)] {
            assert!(clean_name(empty).is_err(), "{empty:?}");
        }
    }

    #[test]
    fn look_alike_names_share_a_skeleton() {
        let ada = name_skeleton("Ada");
        for look_alike in ["ada", "ADA", "\u{0410}da", "\u{0391}da"] {
            let clean = clean_name(look_alike).expect(look_alike);
            assert_eq!(name_skeleton(&clean), ada, "{look_alike:?}");
        }
        for other in ["Adam", "Ana", "Ada María"] {
            assert_ne!(name_skeleton(other), ada, "{other:?}");
        }
    }
}
