//! The Game contract shared by every tabletop game, bot, the server and the CLI.
//!
//! A game is a pure function of `(config, seed, actions)`: [`Game::new`] builds the
//! start position from a config and a seed, and every later state is reached by
//! [`Game::apply`]ing atomic actions taken from [`Game::legal_actions`]. Hidden
//! information never leaves the state except through [`Game::view`], and bots search
//! over [`Game::determinize`]d copies, never the true state.
//!
//! The crate holds no game logic and does no I/O. See `docs/contract.md` for how each
//! of the three games maps onto it.

#![forbid(unsafe_code)]

pub mod conformance;
mod data;
mod data_cache;
pub mod encoding;
mod error;
mod explain;
mod fault;
mod game;
mod options;
mod outcome;
pub mod playout;
mod registry;
pub mod text;
mod view_parts;

pub use data::{ComponentData, Confidence, DataRef};
pub use error::{ActionError, ActionErrorKind, SetupError};
pub use explain::{Explanation, Reason, Refusal};
pub use fault::{Fault, FaultArg, FaultKey, FaultValue, MAX_FAULT_ARGS};
pub use game::{EventSink, Game, NoEvents, Seat, MAX_EVALUATION_FEATURES};
pub use options::{has_config_field, ConfigOption};
pub use outcome::{rank_by, Outcome, ScoreLine, SeatResult};
pub use registry::{
    replay, DynGame, ErasedGame, EventLog, GameError, GameErrorKind, GameRecord, LoggedEvent,
    Observation, OfferedAction, PublicView,
};
pub use view_parts::{same_key, MemberPrint, Observed, ObservedView, ViewPrint};

/// The one random number generator of the project: seeded, portable, fast.
pub type Rng = rand_chacha::ChaCha8Rng;

/// Builds the project RNG from a 64-bit seed.
pub fn rng_from_seed(seed: u64) -> Rng {
    use rand::SeedableRng;
    Rng::seed_from_u64(seed)
}
