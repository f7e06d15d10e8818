//! The process-wide cache of corrected component data files: each parsed once while any
//! game or request uses it, named by the SHA-256 of its text, and freed when the last user
//! is gone. A server replays records that carry their data file, so without it every
//! request would parse (and keep) its own copy.
//!
//! What it holds stays bounded whatever the number of requests: a weak entry for each file
//! some game may still use (swept of the dead ones as the table grows) and a strong hold
//! on the [`RECENT`] files of each game loaded last, so that one file replayed over and
//! over is not parsed each time although no game keeps it.

use std::any::{Any, TypeId};
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use sha2::{Digest, Sha256};

use crate::ComponentData;

/// How many of the most recently loaded files of each game stay parsed while no game uses
/// them (per game: one game's loads do not push out another's).
pub(crate) const RECENT: usize = 8;

/// The table is swept of data nobody uses when it reaches twice the entries alive at the
/// last sweep, and never below this: sweeping costs one pass, paid once per as many loads.
pub(crate) const MIN_SWEEP: usize = 32;

/// A data file: the type it was parsed into (one text may be given to any game) and the
/// SHA-256 of its text.
type Key = (TypeId, [u8; 32]);

type Shared = Arc<dyn Any + Send + Sync>;

struct Cache {
    /// Every file parsed that may still be in use; the weak entry keeps nothing alive.
    parsed: BTreeMap<Key, Weak<dyn Any + Send + Sync>>,
    /// The last files loaded, the most recent last.
    recent: VecDeque<(Key, Shared)>,
    /// `parsed` is swept when it holds this many entries.
    sweep_at: usize,
}

static CACHE: Mutex<Cache> = Mutex::new(Cache {
    parsed: BTreeMap::new(),
    recent: VecDeque::new(),
    sweep_at: MIN_SWEEP,
});

fn cache() -> MutexGuard<'static, Cache> {
    // The table is consistent between any two statements that can panic.
    CACHE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `text` parsed as `T`: the copy already parsed from the same text while one is alive,
/// else a new one.
pub(crate) fn load<T: ComponentData>(text: &str) -> Result<Arc<T>, T::Error> {
    let key = (TypeId::of::<T>(), Sha256::digest(text.as_bytes()).into());
    if let Some(data) = cache().get::<T>(&key) {
        return Ok(data);
    }
    // Parsed outside the lock: one large file holds up no other load. When two threads
    // parse the same text at once, the first to insert wins and the other copy is dropped.
    let parsed = Arc::new(T::parse(text)?);
    Ok(cache().insert(key, parsed))
}

impl Cache {
    fn get<T: ComponentData>(&mut self, key: &Key) -> Option<Arc<T>> {
        let data = self.parsed.get(key)?.upgrade()?;
        self.remember(key, &data);
        data.downcast::<T>().ok()
    }

    fn insert<T: ComponentData>(&mut self, key: Key, data: Arc<T>) -> Arc<T> {
        if let Some(earlier) = self.get::<T>(&key) {
            return earlier;
        }
        let shared: Shared = data.clone();
        self.parsed.insert(key, Arc::downgrade(&shared));
        self.remember(&key, &shared);
        if self.parsed.len() >= self.sweep_at {
            self.parsed.retain(|_, data| data.strong_count() > 0);
            self.sweep_at = MIN_SWEEP.max(2 * self.parsed.len());
        }
        data
    }

    /// Makes `key` the most recent file, dropping the hold on the oldest of its game beyond
    /// [`RECENT`].
    fn remember(&mut self, key: &Key, data: &Shared) {
        let entry = match self.recent.iter().position(|(k, _)| k == key) {
            Some(at) => self.recent.remove(at),
            None => None,
        };
        self.recent
            .push_back(entry.unwrap_or_else(|| (*key, Arc::clone(data))));
        let game = key.0;
        if self.recent.iter().filter(|((t, _), _)| *t == game).count() > RECENT {
            if let Some(oldest) = self.recent.iter().position(|((t, _), _)| *t == game) {
                self.recent.remove(oldest);
            }
        }
    }
}

/// How many entries of type `T` the table holds, alive or not.
#[cfg(test)]
fn entries_of<T: 'static>() -> usize {
    let id = TypeId::of::<T>();
    cache().parsed.keys().filter(|(t, _)| *t == id).count()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::DataRef;

    /// Parses of `Toy<N>` so far; each test has its own `N`, so tests running at once in
    /// this process do not count each other's.
    static PARSES: [AtomicUsize; 4] = [const { AtomicUsize::new(0) }; 4];

    /// A data file of a toy game: any non-empty text.
    #[derive(Debug, PartialEq)]
    struct Toy<const N: usize>(String);

    impl<const N: usize> ComponentData for Toy<N> {
        type Error = String;

        fn standard() -> &'static Arc<Self> {
            unreachable!("the cache never asks for the shipped data")
        }

        fn parse(text: &str) -> Result<Self, String> {
            PARSES[N].fetch_add(1, Ordering::SeqCst);
            if text.is_empty() {
                return Err("an empty file".into());
            }
            Ok(Toy(text.to_string()))
        }
    }

    fn parses<const N: usize>() -> usize {
        PARSES[N].load(Ordering::SeqCst)
    }

    #[test]
    fn one_text_is_parsed_once_and_shared() {
        let first = DataRef::<Toy<0>>::load("gems = 22").expect("valid");
        let parsed = parses::<0>();
        for _ in 0..100 {
            let again = DataRef::<Toy<0>>::load("gems = 22").expect("valid");
            assert!(Arc::ptr_eq(first.shared(), again.shared()));
        }
        assert_eq!(parses::<0>(), parsed, "the same text is not parsed again");
        let other = DataRef::<Toy<0>>::load("gems = 23").expect("valid");
        assert!(!Arc::ptr_eq(first.shared(), other.shared()));
        assert_eq!(other.0, "gems = 23");
    }

    #[test]
    fn a_refused_file_is_refused_each_time_and_kept_nowhere() {
        for _ in 0..3 {
            assert_eq!(
                DataRef::<Toy<1>>::load("").err().as_deref(),
                Some("an empty file")
            );
        }
        assert_eq!(parses::<1>(), 3);
        assert_eq!(entries_of::<Toy<1>>(), 0);
    }

    #[test]
    fn data_is_freed_with_its_last_user() {
        let data = DataRef::<Toy<2>>::load("the kept file").expect("valid");
        let watch = Arc::downgrade(data.shared());
        let copy = data.clone();
        // This game's, its copy's and the cache's hold on a recent file.
        assert_eq!(Arc::strong_count(data.shared()), 3);
        drop(copy);
        // Other files loaded after it end the cache's own hold, not the game's.
        for i in 0..RECENT {
            drop(DataRef::<Toy<2>>::load(&format!("file {i}")).expect("valid"));
        }
        assert_eq!(Arc::strong_count(data.shared()), 1);
        let parsed = parses::<2>();
        let again = DataRef::<Toy<2>>::load("the kept file").expect("valid");
        assert!(Arc::ptr_eq(data.shared(), again.shared()));
        assert_eq!(parses::<2>(), parsed, "shared while a game uses it");
        drop((data, again));
        assert!(watch.upgrade().is_some(), "recent again: held by the cache");
        for i in 0..RECENT {
            drop(DataRef::<Toy<2>>::load(&format!("later file {i}")).expect("valid"));
        }
        assert!(watch.upgrade().is_none(), "nothing holds the data any more");
    }

    #[test]
    fn many_distinct_files_leave_a_bounded_table() {
        let before = parses::<3>();
        for i in 0..2_000 {
            drop(DataRef::<Toy<3>>::load(&format!("file {i}")).expect("valid"));
        }
        assert_eq!(parses::<3>() - before, 2_000);
        // The table is swept at twice what was alive at the last sweep (or `MIN_SWEEP`):
        // alive are the recent files of each of the four toy games and at most two more
        // that the other tests hold at a time.
        let entries = entries_of::<Toy<3>>();
        let bound = MIN_SWEEP.max(2 * (4 * RECENT + 2));
        assert!(entries <= bound, "{entries} entries kept of 2000 files");
    }
}
