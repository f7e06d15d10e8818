use serde::{Deserialize, Serialize};

/// Why an action was refused. The state is unchanged whenever one is returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionErrorKind {
    /// The game is over.
    GameOver,
    /// Not among the legal actions of the seat to move.
    Illegal,
    /// The acting seat is not the seat to move.
    NotYourTurn,
}

/// A refused action with a message that says what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{message}")]
pub struct ActionError {
    pub kind: ActionErrorKind,
    pub message: String,
}

impl ActionError {
    pub fn new(kind: ActionErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
}

/// A config or data file that cannot start a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("unsupported player count {players}: {game} plays with {min} to {max}")]
    PlayerCount {
        game: &'static str,
        players: usize,
        min: usize,
        max: usize,
    },
    #[error("invalid config: {0}")]
    Config(String),
    #[error("invalid component data: {0}")]
    Data(String),
}
