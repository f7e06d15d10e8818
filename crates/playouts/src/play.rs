//! One counted run: uniformly random games from fixed seeds, played by the library code
//! `tabletop simulate` plays them with, so that what is counted is what researchers run.

use clap::Args;
use engine::Game;
use serde::{Deserialize, Serialize};
use tabletop::games::{self, ConfigSpec, GameVisitor};
use tabletop::simulation;

use crate::count::GuardError;

/// A seeded run of random games: game `i` has seed `seed + i`, as in `tabletop simulate`.
#[derive(Debug, Clone, PartialEq, Eq, Args, Serialize, Deserialize)]
pub struct Run {
    /// The game (valdora, valley, pandoria).
    pub game: String,
    #[arg(long)]
    pub players: u64,
    #[arg(long)]
    pub seed: u64,
    #[arg(long)]
    pub games: u64,
}

/// Plays `run`; returns the number of actions applied.
pub fn play(run: &Run) -> Result<u64, GuardError> {
    games::with_game(&run.game, Play(run)).map_err(|e| GuardError::Usage(e.to_string()))?
}

struct Play<'a>(&'a Run);

impl GameVisitor for Play<'_> {
    type Output = Result<u64, GuardError>;
    fn visit<G: Game>(self) -> Self::Output {
        let run = self.0;
        let spec = ConfigSpec {
            players: Some(run.players),
            ..ConfigSpec::default()
        };
        let config = games::build_config::<G>(&spec).map_err(|e| GuardError::Usage(e.message))?;
        let seats = usize::try_from(run.players).map_err(|e| GuardError::Usage(e.to_string()))?;
        let stats = simulation::play_range::<G>(&config, run.seed, 0..run.games, seats, |_| {})
            .map_err(GuardError::Usage)?;
        Ok(stats.actions())
    }
}
