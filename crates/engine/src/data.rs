//! Component data (cards, boards, tiles) shared by a game's configs and states: parsed and
//! validated once, then shared through an [`Arc`], so that cloning a config or a state (a
//! bot's search clones one per iteration) costs a reference count, never a copy of the
//! data, and data no game uses any more is freed.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::data_cache;

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

    /// The data file shipped with the game, parsed once per process: one shared copy that
    /// every game on the shipped data points to.
    fn standard() -> &'static Arc<Self>;

    /// Parses and validates a data file.
    fn parse(text: &str) -> Result<Self, Self::Error>;
}

/// The data a game runs on: the shipped file unless a corrected one was loaded. A clone
/// shares the data; the data is freed with the last clone (the shipped data never is).
pub struct DataRef<T>(Arc<T>);

impl<T: ComponentData> DataRef<T> {
    /// Parses and validates a corrected data file, or shares the copy parsed before from
    /// the same text (the process-wide cache, keyed by the text's SHA-256): the same file
    /// loaded for many games or requests is parsed once, and pointer-equal every time.
    pub fn load(text: &str) -> Result<Self, T::Error> {
        data_cache::load(text).map(DataRef)
    }

    /// Data built in code (tests, tools), outside the cache.
    pub fn new(data: T) -> Self {
        DataRef(Arc::new(data))
    }

    /// Whether this is the shipped data.
    pub fn is_standard(&self) -> bool {
        Arc::ptr_eq(&self.0, T::standard())
    }
}

impl<T> DataRef<T> {
    /// Whether both are the very same copy of the data (no comparison of contents).
    pub fn ptr_eq(a: &Self, b: &Self) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }

    /// The shared data itself: for code that watches who still uses it
    /// ([`Arc::strong_count`], [`Arc::downgrade`]).
    pub fn shared(&self) -> &Arc<T> {
        &self.0
    }
}

impl<T> Deref for DataRef<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> Clone for DataRef<T> {
    fn clone(&self) -> Self {
        DataRef(Arc::clone(&self.0))
    }
}

impl<T: ComponentData> Default for DataRef<T> {
    fn default() -> Self {
        DataRef(Arc::clone(T::standard()))
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

/// Equal when both hold the same data, whether or not it was loaded twice. Data loaded
/// from one text is one allocation (the cache), so this is most often a pointer compare.
impl<T: PartialEq> PartialEq for DataRef<T> {
    fn eq(&self, other: &Self) -> bool {
        DataRef::ptr_eq(self, other) || *self.0 == *other.0
    }
}
