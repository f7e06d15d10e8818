//! "Why not?" ([`engine::Game::explain`]): the rule each action follows, and why
//! a well-formed action is not legal now. The reasons come from the checks that list the
//! legal actions ([`crate::legal`]); codes and their arguments: `docs/contract.md`.

use engine::{Game, Refusal, Seat};

use crate::actions::Action;
use crate::legal::rule_of_committed;
use crate::state::Phase;
use crate::Valdora;

/// The rule `action` follows.
pub(crate) fn rule_of(game: &Valdora, action: &Action) -> &'static str {
    match action {
        Action::Move { .. } => "V-T1",
        Action::Pass => "V-A6",
        Action::TakeProvisions => "V-A5",
        Action::RefillSilver => "V-A4",
        Action::Turn { .. }
        | Action::BuyEquipment { .. }
        | Action::BuyCommission { .. }
        | Action::Return { .. } => "V-A1",
        Action::Load { .. } | Action::Unload { .. } => "V-A2",
        Action::Complete { .. } => "V-A3",
        // `End` closes the action begun this turn.
        Action::End => match game.phase() {
            Phase::Act {
                committed: Some(begun),
            } => rule_of_committed(begun),
            _ => "V-T4",
        },
    }
}

/// Why `seat` may not take `action` now; `None` when it may.
pub(crate) fn explain(game: &Valdora, seat: Seat, action: &Action) -> Option<Refusal> {
    if game.phase() == Phase::Over {
        return Some(Refusal::new("V-E1", "game_over"));
    }
    if game.to_move() != Some(seat) {
        // rule V-C1: seats play in clockwise order, one turn each.
        return Some(Refusal::new("V-C1", "not_your_turn").with("to_move", game.current()));
    }
    if game.is_legal(action) {
        return None;
    }
    // The checks list the legal actions, so a refused action has a reason; the fallback
    // only keeps "why not?" total should the two ever drift apart.
    Some(
        game.check(action)
            .err()
            .map(Refusal::from)
            .unwrap_or_else(|| Refusal::new("V-T4", "not_offered_now")),
    )
}
