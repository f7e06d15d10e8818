//! Chat at the table (docs/server.md, "Chat"): the seated people talk in the players'
//! channel, which everyone reads; spectators talk in the spectators' channel, which the
//! seats are not sent before the game is over. Messages are stored with the game, are
//! plain text (the browser never reads them as HTML), and are limited in length, in rate
//! per connection and in number per table and channel.

use std::num::NonZeroU32;

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

use crate::error::ApiError;
pub use crate::model::{ChatChannel, ChatMessage};
use crate::names::{is_bidi_control, is_zero_width};
use crate::protocol::ErrorKind;

/// The longest message, in characters.
pub const MAX_CHAT_CHARS: usize = 500;
/// Messages each chat channel of a table keeps: a table is for a game, not a chat room.
/// Per channel, so that spectators filling theirs never silence the players.
pub const MAX_CHAT_PER_CHANNEL: u32 = 2_000;
/// Messages one connection may send at once, then [`CHAT_PER_MINUTE`] a minute: a
/// conversation's pace, not a flood's.
pub const CHAT_BURST: NonZeroU32 = NonZeroU32::new(5).unwrap();
pub const CHAT_PER_MINUTE: NonZeroU32 = NonZeroU32::new(30).unwrap();

/// The message as the table stores it: trimmed, other control characters than line
/// breaks and tabs removed, and the characters names refuse for hiding or reordering text
/// (bidirectional controls, zero-width characters: a message could otherwise show
/// backwards, or pass one word off as another) except the joiner inside an emoji
/// sequence (👩‍👩‍👧); at most [`MAX_CHAT_CHARS`] characters and not empty.
pub fn clean_text(text: &str) -> Result<String, ApiError> {
    let mut cleaned = String::with_capacity(text.len());
    let mut previous = None;
    for c in text.trim().chars() {
        let kept = match c {
            '\n' | '\t' => true,
            '\u{200D}' => previous.is_some_and(in_emoji),
            _ => !c.is_control() && !is_bidi_control(c) && !is_zero_width(c),
        };
        if kept {
            cleaned.push(c);
            previous = Some(c);
        }
    }
    let cleaned = cleaned.trim().to_string();
    let chars = cleaned.chars().count();
    if chars == 0 {
        return Err(ApiError::malformed("an empty message; write something"));
    }
    if chars > MAX_CHAT_CHARS {
        return Err(ApiError::new(
            ErrorKind::TooLarge,
            format!("a message has at most {MAX_CHAT_CHARS} characters (this one {chars})"),
        ));
    }
    Ok(cleaned)
}

/// Whether `c` may come before a joiner in an emoji sequence: a symbol or a variation
/// selector, never a letter (a joiner inside a word hides a difference).
fn in_emoji(c: char) -> bool {
    matches!(c, '\u{FE0F}' | '\u{1F3FB}'..='\u{1F3FF}')
        || c.general_category() == GeneralCategory::OtherSymbol
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Status;

    #[test]
    fn text_is_trimmed_and_controls_removed() {
        assert_eq!(
            clean_text("  hi\u{7}\u{1b}[31m there\n  ").ok().as_deref(),
            Some("hi[31m there")
        );
        assert_eq!(
            clean_text("a\nb\tc").ok().as_deref(),
            Some("a\nb\tc"),
            "line breaks and tabs stay"
        );
        assert_eq!(
            clean_text("pay\u{202E}lanigiro\u{2066} x\u{200B}y\u{FEFF}\u{200C}z")
                .ok()
                .as_deref(),
            Some("paylanigiro xyz"),
            "bidirectional controls and zero-width characters removed"
        );
        assert_eq!(
            clean_text("a\u{200D}b \u{1F469}\u{200D}\u{1F467}")
                .ok()
                .as_deref(),
            Some("ab \u{1F469}\u{200D}\u{1F467}"),
            "a joiner stays inside an emoji sequence only"
        );
        assert!(clean_text("\u{200B}\u{202E}").is_err(), "nothing left");
        assert_eq!(
            clean_text("<b>bold</b>").ok().as_deref(),
            Some("<b>bold</b>"),
            "text is text: the browser shows the brackets"
        );
    }

    #[test]
    fn empty_and_long_messages_are_refused() {
        let kind = |text: &str| clean_text(text).err().map(|e| e.kind);
        assert_eq!(kind("   \u{0}  "), Some(ErrorKind::Malformed));
        let longest = "é".repeat(MAX_CHAT_CHARS);
        assert_eq!(clean_text(&longest).ok(), Some(longest.clone()));
        assert_eq!(kind(&format!("{longest}x")), Some(ErrorKind::TooLarge));
    }

    #[test]
    fn seats_read_the_spectators_only_at_the_end() {
        use ChatChannel::*;
        assert!(Players.read_by(Some(0), Status::Running));
        assert!(Players.read_by(None, Status::Running));
        assert!(Spectators.read_by(None, Status::Running));
        assert!(!Spectators.read_by(Some(1), Status::Running));
        assert!(!Spectators.read_by(Some(1), Status::Open));
        assert!(Spectators.read_by(Some(1), Status::Over));
    }
}
