//! "Why not?" ([`engine::Game::explain`]): the rule each action follows, and why
//! a well-formed action is not legal now.

use engine::{Game, Refusal, Seat};

use crate::actions::Action;
use crate::Pandoria;

/// The rule `action` follows.
pub(crate) fn rule_of(_game: &Pandoria, _action: &Action) -> &'static str {
    "P-T1"
}

/// Why `seat` may not take `action` now; `None` when it may.
pub(crate) fn explain(game: &Pandoria, seat: Seat, action: &Action) -> Option<Refusal> {
    if game.to_move() != Some(seat) {
        return Some(Refusal::new("P-T1", "not_your_turn"));
    }
    (!game.is_legal(action)).then(|| Refusal::new("P-T1", "not_legal_now"))
}
