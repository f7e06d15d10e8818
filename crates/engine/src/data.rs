//! Component data (cards, boards, tiles) shared by a game's configs and states: parsed and
//! validated once, then held through a plain `&'static` reference, so that cloning a config
//! or a state stays a flat copy.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How sure the project is of a component data entry (the reference data's own marks).
/// Anything but `Confirmed` is provisional, and users are told so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// Stated by a cited source.
    Confirmed,
    /// Derived from confirmed facts.
    Inferred,
    /// No source found: an engine placeholder, not the printed component.
    Unknown,
}

/// A game's validated component data.
pub trait ComponentData: PartialEq + Send + Sync + Sized + 'static {
    /// Why a data file was refused; the message names the offending entry.
    type Error: fmt::Display;

    /// The data file shipped with the game, parsed once per process.
    fn standard() -> &'static Self;

    /// Parses and validates a data file.
    fn parse(text: &str) -> Result<Self, Self::Error>;
}

/// The data a game runs on: the shipped file unless a corrected one was loaded.
pub struct DataRef<T: 'static>(pub &'static T);

impl<T: ComponentData> DataRef<T> {
    /// Parses a corrected data file and keeps it for the rest of the process. It is loaded
    /// once per file by `Game::load_data`, never per game, so what is kept stays small.
    pub fn load(text: &str) -> Result<Self, T::Error> {
        Ok(DataRef(Box::leak(Box::new(T::parse(text)?))))
    }

    /// Whether this is the shipped data.
    pub fn is_standard(self) -> bool {
        std::ptr::eq(self.0, T::standard())
    }
}

impl<T> Clone for DataRef<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for DataRef<T> {}

impl<T: ComponentData> Default for DataRef<T> {
    fn default() -> Self {
        DataRef(T::standard())
    }
}

impl<T: ComponentData> fmt::Debug for DataRef<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_standard() {
            "standard data"
        } else {
            "custom data"
        })
    }
}

/// Equal when both hold the same data, whether or not it was loaded twice.
impl<T: PartialEq> PartialEq for DataRef<T> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0) || self.0 == other.0
    }
}
