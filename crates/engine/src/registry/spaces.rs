//! The fixed spaces of [`DynGame`](super::DynGame) ([`crate::encoding`]): indices and
//! observations, without JSON on the fast path (`legal_indices`, `apply_index`).

use serde_json::Value;

use super::{parse_new_action, ErasedGame, GameError, GameErrorKind};
use crate::{Game, NoEvents, Seat};

/// A reusable buffer behind `&self`
/// ([`DynGame::legal_indices`](crate::DynGame::legal_indices) takes `&self`). A `Mutex`
/// keeps `ErasedGame` `Sync`; it is never contended in practice (one game, one caller),
/// and if it ever is, the caller lists into a fresh buffer instead of waiting.
pub(super) struct Scratch<A>(std::sync::Mutex<Vec<A>>);

impl<A> Scratch<A> {
    pub(super) fn new() -> Self {
        Self(std::sync::Mutex::new(Vec::new()))
    }

    /// Runs `f` on the buffer, cleared.
    fn with<R>(&self, f: impl FnOnce(&mut Vec<A>) -> R) -> R {
        match self.0.try_lock() {
            Ok(mut buffer) => {
                buffer.clear();
                f(&mut buffer)
            }
            Err(_) => f(&mut Vec::new()),
        }
    }
}

impl<A> Clone for Scratch<A> {
    /// A copy starts with its own empty buffer: the contents are never state.
    fn clone(&self) -> Self {
        Self::new()
    }
}

impl<A> std::fmt::Debug for Scratch<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Scratch")
    }
}

impl<G: Game> ErasedGame<G> {
    /// The size of the action space, or the typed error of a game without one.
    fn spaces_action_count(&self) -> Result<usize, GameError> {
        G::action_count(self.state.config()).ok_or_else(|| no_spaces(G::NAME, "action space"))
    }

    /// The action at `index`, or a typed error naming the range.
    pub(super) fn typed_action_at(&self, index: usize) -> Result<G::Action, GameError> {
        let count = self.spaces_action_count()?;
        G::action_at(self.state.config(), index).ok_or_else(|| {
            GameError::new(
                GameErrorKind::IndexOutOfRange,
                format!("action index {index} is outside 0..{count}"),
            )
        })
    }

    /// [`DynGame::action_index`](crate::DynGame::action_index).
    pub(super) fn index_of(&self, action: &Value) -> Result<usize, GameError> {
        let count = self.spaces_action_count()?;
        let (action, _) = parse_new_action::<G>(action)?;
        G::action_index(self.state.config(), &action).ok_or_else(|| {
            GameError::new(
                GameErrorKind::IndexOutOfRange,
                format!("{action:?} has no index in the action space (0..{count})"),
            )
        })
    }

    /// [`DynGame::legal_indices`](crate::DynGame::legal_indices): the legal actions listed
    /// into the kept buffer.
    pub(super) fn push_legal_indices(&self, out: &mut Vec<usize>) -> Result<(), GameError> {
        self.spaces_action_count()?;
        let config = self.state.config();
        self.scratch.with(|legal| {
            self.state.legal_actions(legal);
            for action in legal.iter() {
                // A legal action outside the space is a bug of the game's layout: the
                // conformance suite fails on it, and here it is an error, not a panic.
                let index = G::action_index(config, action).ok_or_else(|| {
                    GameError::new(
                        GameErrorKind::IndexOutOfRange,
                        format!("legal {action:?} has no index in the action space"),
                    )
                })?;
                out.push(index);
            }
            Ok(())
        })
    }

    /// [`DynGame::apply_index`](crate::DynGame::apply_index).
    pub(super) fn apply_at(&mut self, index: usize) -> Result<(), GameError> {
        let action = self.typed_action_at(index)?;
        if self.state.to_move().is_none() {
            return Err(GameError::new(
                GameErrorKind::GameOver,
                "the game is over; no action is accepted",
            ));
        }
        // Legality from the listed actions (not `Game::is_legal`, whose default allocates).
        let legal = self.scratch.with(|legal| {
            self.state.legal_actions(legal);
            legal.contains(&action)
        });
        if !legal {
            return Err(GameError::new(
                GameErrorKind::Illegal,
                format!("action index {index} ({action:?}) is not legal now"),
            ));
        }
        self.state.apply_unchecked(action, &mut NoEvents);
        self.actions.push(action);
        Ok(())
    }

    /// [`DynGame::observe_into`](crate::DynGame::observe_into), once the buffer and the
    /// seat are checked.
    pub(super) fn observe_checked(&self, seat: Seat, out: &mut [f32]) -> Result<(), GameError> {
        let len = G::observation_len(self.state.config())
            .ok_or_else(|| no_spaces(G::NAME, "observation tensor"))?;
        self.check_seat(seat)?;
        if out.len() != len {
            return Err(GameError::new(
                GameErrorKind::BadBuffer,
                format!(
                    "the observation buffer holds {} values; {} observations have {len}",
                    out.len(),
                    G::NAME
                ),
            ));
        }
        self.state.observe_into(seat, out);
        Ok(())
    }
}

fn no_spaces(game: &str, what: &str) -> GameError {
    GameError::new(
        GameErrorKind::NoSpaces,
        format!("{game} has no fixed {what}"),
    )
}
