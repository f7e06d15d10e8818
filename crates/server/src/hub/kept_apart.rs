//! Who is kept apart from whom ([`crate::store::BlockStore`]), cached for the chat every
//! connection sends: each chat message written signed in is checked against its reader's
//! blocks, and reading the store for each would cost a query per message per reader.
//! An account's entry is dropped when a block of its changes, here or (heard as
//! [`crate::store::Change::Blocks`]) in another process.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};

use super::Hub;
use crate::chat::ChatMessage;
use crate::error::ApiError;
use crate::protocol::ErrorKind;
use crate::store::StoreError;

/// The most accounts whose blocks are cached; past it the cache starts again (an entry is
/// one query away).
const MOST_CACHED: usize = 10_000;

/// The accounts kept apart from each cached account.
#[derive(Default)]
pub(super) struct KeptApart {
    by_account: Mutex<HashMap<String, Arc<HashSet<String>>>>,
}

impl KeptApart {
    fn cached(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<HashSet<String>>>> {
        self.by_account
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl Hub {
    /// The accounts whose chat `reader` (signed in) does not see, nor they theirs.
    pub async fn kept_apart(&self, reader: &str) -> Result<Arc<HashSet<String>>, StoreError> {
        if let Some(apart) = self.kept_apart.cached().get(reader) {
            return Ok(apart.clone());
        }
        let apart: Arc<HashSet<String>> =
            Arc::new(self.store.kept_apart(reader).await?.into_iter().collect());
        let mut cached = self.kept_apart.cached();
        if cached.len() >= MOST_CACHED {
            cached.clear();
        }
        cached.insert(reader.to_string(), apart.clone());
        Ok(apart)
    }

    /// A block of `account`'s, or against it, changed: its entry is read again.
    pub fn blocks_changed(&self, account: &str) {
        self.kept_apart.cached().remove(account);
    }

    /// Refuses `account` a seat at table `game` where an account kept apart from it sits.
    /// The refusal does not say who, nor which of the two blocked the other.
    pub async fn may_sit_at(&self, account: &str, game: &str) -> Result<(), ApiError> {
        if self.store.apart_at_game(account, game).await? {
            return Err(ApiError::new(
                ErrorKind::Forbidden,
                "this table is not open to you; choose another",
            ));
        }
        Ok(())
    }

    /// Changes may have gone unheard: every entry is read again.
    pub(super) fn forget_kept_apart(&self) {
        self.kept_apart.cached().clear();
    }
}

/// Whether a reader kept apart from `apart` sees `message`.
pub fn shown_to(apart: &HashSet<String>, message: &ChatMessage) -> bool {
    message
        .account
        .as_ref()
        .is_none_or(|writer| !apart.contains(writer))
}
