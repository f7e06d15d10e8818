//! The Python exceptions: one hierarchy under `tabletop.GameError`, so that a caller can
//! catch every refusal of the engine at once or one kind of it. Each instance carries the
//! engine's stable `kind` (`malformed`, `illegal`, `game_over`, `not_your_turn`, `setup`,
//! `bad_seat`, `unknown_game`) besides its message.

use engine::{GameError as EngineError, GameErrorKind};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

pyo3::create_exception!(
    tabletop,
    GameError,
    PyException,
    "Every refusal of the engine; `kind` is its stable name."
);
pyo3::create_exception!(tabletop, UnknownGame, GameError, "No game has this name.");
pyo3::create_exception!(
    tabletop,
    BadConfig,
    GameError,
    "The config, player count or data file cannot start a game."
);
pyo3::create_exception!(
    tabletop,
    MalformedAction,
    GameError,
    "The value is not an action of this game at all."
);
pyo3::create_exception!(
    tabletop,
    IllegalAction,
    GameError,
    "A well-formed action that the rules do not allow now."
);
pyo3::create_exception!(
    tabletop,
    GameOver,
    IllegalAction,
    "The game is over: no action is legal."
);
pyo3::create_exception!(
    tabletop,
    NotYourTurn,
    IllegalAction,
    "The action is another seat's to take."
);
pyo3::create_exception!(tabletop, BadSeat, GameError, "No seat has this number.");
pyo3::create_exception!(
    tabletop,
    NoSpaces,
    GameError,
    "The game has no fixed action space or observation tensor."
);
pyo3::create_exception!(
    tabletop,
    BadBuffer,
    GameError,
    "An output array of the wrong length or layout."
);
pyo3::create_exception!(
    tabletop,
    NoRecord,
    GameError,
    "A determinized game is a sample, not a game that was played: it has no record."
);

/// Where an engine error came from: what a `malformed` value was meant to be.
#[derive(Clone, Copy)]
pub enum Context {
    /// Setting up a game: `malformed` and `setup` are the config's fault.
    Setup,
    /// Taking an action: `malformed` is the action's fault.
    Action,
}

/// The exception of `kind` with `message`, carrying `kind` as an attribute.
pub fn raise(kind: &str, message: impl Into<String>, context: Context) -> PyErr {
    let message = message.into();
    let err = match (kind, context) {
        ("unknown_game", _) => UnknownGame::new_err(message),
        ("setup", _) | ("malformed", Context::Setup) => BadConfig::new_err(message),
        ("malformed", Context::Action) => MalformedAction::new_err(message),
        ("illegal", _) => IllegalAction::new_err(message),
        ("game_over", _) => GameOver::new_err(message),
        ("not_your_turn", _) => NotYourTurn::new_err(message),
        ("bad_seat", _) => BadSeat::new_err(message),
        // An index outside the action space names no action at all.
        ("index_out_of_range", _) => MalformedAction::new_err(message),
        ("no_spaces", _) => NoSpaces::new_err(message),
        ("bad_buffer", _) => BadBuffer::new_err(message),
        ("no_record", _) => NoRecord::new_err(message),
        _ => GameError::new_err(message),
    };
    Python::attach(|py| {
        // Setting an attribute on a fresh exception instance cannot fail in practice; the
        // message still says everything if it did.
        let _ = err.value(py).setattr("kind", kind);
    });
    err
}

/// The engine's error as the matching Python exception.
pub fn from_engine(e: EngineError, context: Context) -> PyErr {
    raise(kind_name(e.kind), e.message, context)
}

fn kind_name(kind: GameErrorKind) -> &'static str {
    match kind {
        GameErrorKind::Malformed => "malformed",
        GameErrorKind::Illegal => "illegal",
        GameErrorKind::GameOver => "game_over",
        GameErrorKind::NotYourTurn => "not_your_turn",
        GameErrorKind::Setup => "setup",
        GameErrorKind::BadSeat => "bad_seat",
        GameErrorKind::NoSpaces => "no_spaces",
        GameErrorKind::IndexOutOfRange => "index_out_of_range",
        GameErrorKind::BadBuffer => "bad_buffer",
    }
}

/// Registers the exceptions in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("GameError", py.get_type::<GameError>())?;
    m.add("UnknownGame", py.get_type::<UnknownGame>())?;
    m.add("BadConfig", py.get_type::<BadConfig>())?;
    m.add("MalformedAction", py.get_type::<MalformedAction>())?;
    m.add("IllegalAction", py.get_type::<IllegalAction>())?;
    m.add("GameOver", py.get_type::<GameOver>())?;
    m.add("NotYourTurn", py.get_type::<NotYourTurn>())?;
    m.add("BadSeat", py.get_type::<BadSeat>())?;
    m.add("NoRecord", py.get_type::<NoRecord>())?;
    m.add("NoSpaces", py.get_type::<NoSpaces>())?;
    m.add("BadBuffer", py.get_type::<BadBuffer>())?;
    Ok(())
}
