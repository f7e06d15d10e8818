//! Seeks and quick play (docs/server.md, "Seeks and quick play"): a person posts the game
//! they want (players, clock, rated or casual, whom they may sit with); when enough
//! compatible seeks are open, the server makes the table, seats the seekers in random
//! seats and tells each, as they wait, the token of their seat.
//!
//! Every server process plans tables from the open seeks ([`matching::plan`]) and stores
//! one with [`crate::store::SeekStore::match_seeks`], which matches its seeks in the
//! table's own transaction only if none was matched meanwhile: of processes racing for
//! the same seeks, one stores its table and the others store nothing. A seek is matched
//! only while its browser waits for it (`GET /api/seeks/{id}/wait`, a long poll that
//! keeps it alive for `tabletop serve --seek-alive-secs`, 30 s), so nobody is seated at a table they left.

pub mod matching;
pub mod request;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rand::seq::SliceRandom;
use tokio::sync::{mpsc, watch, Notify};
use tokio::task::JoinHandle;

use crate::error::ApiError;
use crate::hub::{now_ms, Hub, MatchedTable};
use crate::model::NotificationKind;
use crate::names::clean_name;
use crate::notifier::{account_recipient, browser_recipient, About, Recipient};
use crate::protocol::ErrorKind;
use crate::rating::shown_rating;
use crate::store::{AccountRow, Change, SeekClaim, SeekRow};
use crate::tokens;
use request::{checked_browser, checked_spec, OpenSeek, PostSeek, SeekList, SeekPosted, SeekState};

/// How long one wait lasts before it answers "still waiting" (the browser asks again).
pub const WAIT_FOR: Duration = Duration::from_secs(20);
/// How often the open seeks are looked at when nothing woke the matcher (bots fill a
/// seek's table at most this late).
const MATCH_EVERY: Duration = Duration::from_secs(1);
/// Most open seeks one person has at once.
pub const MAX_OPEN_PER_PERSON: usize = 3;
/// Changes passed on to the hub that it has not read yet.
const CHANGES_BUFFER: usize = 1024;
/// How long a matched seek is kept (its holder may ask for its table again).
const KEEP_MATCHED: Duration = Duration::from_secs(3600);
/// How long a seek that ended unmatched is kept (its browser, back from sleep, is told it
/// expired rather than that it never was).
const KEEP_EXPIRED: Duration = Duration::from_secs(600);

/// The seeks this process serves: who waits here, and the matcher.
pub struct Seeks {
    hub: Arc<Hub>,
    /// The seeks whose browsers wait on this process, with what wakes their waits.
    waiters: Mutex<HashMap<String, Waiter>>,
    /// Wakes the matcher: a seek was posted (here or on another process).
    wake: Notify,
    /// How long a seek stays matchable after its browser last waited for it.
    alive_for: Duration,
}

struct Waiter {
    holders: usize,
    changed: Arc<Notify>,
}

/// A wait in progress on seek `id`: the seek is kept alive while one is.
struct Held<'a> {
    seeks: &'a Seeks,
    id: String,
    changed: Arc<Notify>,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        let mut waiters = self.seeks.waiters();
        if let Some(waiter) = waiters.get_mut(&self.id) {
            waiter.holders -= 1;
            if waiter.holders == 0 {
                waiters.remove(&self.id);
            }
        }
    }
}

impl Seeks {
    pub fn new(hub: Arc<Hub>, alive_for: Duration) -> Arc<Seeks> {
        Arc::new(Seeks {
            hub,
            alive_for,
            waiters: Mutex::new(HashMap::new()),
            wake: Notify::new(),
        })
    }

    fn alive_ms(&self) -> i64 {
        i64::try_from(self.alive_for.as_millis()).unwrap_or(i64::MAX)
    }

    fn waiters(&self) -> MutexGuard<'_, HashMap<String, Waiter>> {
        self.waiters.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs the matcher, and keeps the seeks waited for here alive, until the process
    /// ends.
    pub fn start(self: &Arc<Self>) -> JoinHandle<()> {
        let seeks = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(MATCH_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut last_renewal = tokio::time::Instant::now();
            let mut last_sweep = tokio::time::Instant::now();
            loop {
                let Some(this) = seeks.upgrade() else {
                    return;
                };
                tokio::select! {
                    _ = every.tick() => {}
                    () = this.wake.notified() => {}
                }
                // Three times within the time a seek stays alive.
                if last_renewal.elapsed() >= this.alive_for / 3 {
                    last_renewal = tokio::time::Instant::now();
                    this.keep_alive().await;
                }
                if last_sweep.elapsed() >= this.alive_for {
                    last_sweep = tokio::time::Instant::now();
                    this.forget_old().await;
                }
                if let Err(error) = this.match_round().await {
                    tracing::warn!(%error, "matching seeks failed");
                }
            }
        })
    }

    /// A change another process (or this one) stored: a new seek may complete a table, an
    /// ended one must be told to its waiter here.
    pub fn hear(&self, change: &Change) {
        match change {
            Change::SeekPosted { .. } => self.wake.notify_one(),
            Change::SeekEnded { id } => self.tell(id),
            Change::Missed => {
                for waiter in self.waiters().values() {
                    waiter.changed.notify_waiters();
                }
                self.wake.notify_one();
            }
            Change::Moves { .. }
            | Change::Game { .. }
            | Change::Chat { .. }
            | Change::Presence { .. }
            | Change::Notified { .. }
            | Change::Blocks { .. } => {}
        }
    }

    /// Wakes the waits on seek `id`: it was matched or withdrawn.
    fn tell(&self, id: &str) {
        if let Some(waiter) = self.waiters().get(id) {
            waiter.changed.notify_waiters();
        }
    }

    /// Posts a seek for `account` (signed in) or a guest.
    pub async fn post(
        &self,
        request: PostSeek,
        account: Option<&AccountRow>,
    ) -> Result<SeekPosted, ApiError> {
        let catalog = self.hub.catalog();
        let kind = catalog.named(&request.game)?;
        let info = catalog
            .infos()
            .iter()
            .find(|info| info.game == kind.name())
            .ok_or_else(|| ApiError::malformed("unknown game"))?;
        let clock = self.hub.check_clock(request.clock.unwrap_or_default())?;
        let spec = checked_spec(&request, info, clock, account.is_some())?;
        let store = self.hub.store();
        let (owner, name, rating) = match account {
            Some(account) => {
                if let Some(name) = &request.name {
                    if !clean_name(name)?.eq_ignore_ascii_case(&account.name) {
                        return Err(ApiError::malformed(
                            "signed in, you sit as your account's name: leave name out",
                        ));
                    }
                }
                let stored = store
                    .ratings_in(kind.name(), std::slice::from_ref(&account.id))
                    .await?
                    .first()
                    .map(|row| (row.mu, row.sigma));
                let owner = account_recipient(&account.id).as_str().to_string();
                (owner, account.name.clone(), Some(shown_rating(stored)))
            }
            None => {
                let browser = checked_browser(request.browser.as_deref())?;
                let name = request
                    .name
                    .as_deref()
                    .ok_or_else(|| ApiError::malformed("a guest's seek needs a name"))?;
                let owner = browser_recipient(browser).as_str().to_string();
                (owner, clean_name(name)?, None)
            }
        };
        let now = now_ms();
        let open = store.open_seeks_of(&owner, now).await?;
        if open.iter().any(|s| s.game == kind.name() && s.spec == spec) {
            return Err(ApiError::malformed(
                "you have a seek with these settings open already",
            ));
        }
        if open.len() >= MAX_OPEN_PER_PERSON {
            return Err(ApiError::too_many(
                &format!("open seeks (at most {MAX_OPEN_PER_PERSON} at once; withdraw one)"),
                self.alive_for.as_secs(),
            ));
        }
        let token = tokens::new_token();
        let row = SeekRow {
            id: tokens::new_game_id(),
            secret_hash: tokens::hash(&token),
            seat_hash: tokens::hash(&tokens::seat_token_of_seek(&token)),
            owner,
            account_id: account.map(|a| a.id.clone()),
            name,
            rating,
            game: kind.name().to_string(),
            spec,
            created: now,
            alive_until: now + self.alive_ms(),
            matched: None,
        };
        store.post_seek(&row).await?;
        metrics::counter!("tabletop_seeks_posted_total").increment(1);
        self.wake.notify_one();
        Ok(SeekPosted { id: row.id, token })
    }

    /// The open seeks, oldest first, with the count of each game.
    pub async fn list(&self) -> Result<SeekList, ApiError> {
        let open = self.hub.store().open_seeks(now_ms()).await?;
        let mut per_game: BTreeMap<String, u32> = self
            .hub
            .catalog()
            .infos()
            .iter()
            .map(|info| (info.game.clone(), 0))
            .collect();
        for seek in &open {
            *per_game.entry(seek.game.clone()).or_default() += 1;
        }
        Ok(SeekList {
            seeks: open.iter().map(OpenSeek::from).collect(),
            per_game,
        })
    }

    /// Seek `id` for the holder of `token`.
    async fn authorized(&self, id: &str, token: &str) -> Result<SeekRow, ApiError> {
        let row = self
            .hub
            .store()
            .seek(id)
            .await?
            .ok_or_else(|| ApiError::not_found("no such seek (withdrawn, or long gone)"))?;
        // Hashes are compared, never the token: equal prefixes reveal nothing.
        if tokens::hash(token) != row.secret_hash {
            return Err(ApiError::new(
                ErrorKind::BadToken,
                "this is not the seek's token",
            ));
        }
        Ok(row)
    }

    /// Waits up to [`WAIT_FOR`] for seek `id` to be matched, keeping it alive meanwhile
    /// (`stop`: the server shuts down, answer at once).
    pub async fn wait(
        &self,
        id: &str,
        token: &str,
        mut stop: watch::Receiver<bool>,
    ) -> Result<SeekState, ApiError> {
        self.authorized(id, token).await?;
        let held = self.hold(id);
        let now = now_ms();
        let store = self.hub.store();
        store
            .keep_seeks_alive(std::slice::from_ref(&held.id), now, now + self.alive_ms())
            .await?;
        let deadline = tokio::time::Instant::now() + WAIT_FOR;
        loop {
            let changed = held.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            let row = self.authorized(id, token).await?;
            let state = state_of(&row, token, now_ms());
            if !matches!(state, SeekState::Waiting) || *stop.borrow() {
                return Ok(state);
            }
            tokio::select! {
                () = changed => {}
                () = tokio::time::sleep_until(deadline) => return Ok(SeekState::Waiting),
                _ = stop.changed() => return Ok(SeekState::Waiting),
            }
        }
    }

    fn hold(&self, id: &str) -> Held<'_> {
        let mut waiters = self.waiters();
        let waiter = waiters.entry(id.to_string()).or_insert_with(|| Waiter {
            holders: 0,
            changed: Arc::new(Notify::new()),
        });
        waiter.holders += 1;
        Held {
            seeks: self,
            id: id.to_string(),
            changed: waiter.changed.clone(),
        }
    }

    /// Withdraws seek `id` for the holder of `token`, unless it was matched.
    pub async fn withdraw(&self, id: &str, token: &str) -> Result<(), ApiError> {
        let row = self.authorized(id, token).await?;
        if let Some((game, _)) = row.matched {
            return Err(ApiError::new(
                ErrorKind::Conflict,
                format!("the seek was matched already: its table is {game}"),
            ));
        }
        if !self.hub.store().withdraw_seek(id).await? {
            return Err(ApiError::new(
                ErrorKind::Conflict,
                "the seek was matched meanwhile: wait for it to read its table",
            ));
        }
        self.tell(id);
        Ok(())
    }

    /// Keeps the seeks waited for here alive.
    async fn keep_alive(&self) {
        let ids: Vec<String> = self.waiters().keys().cloned().collect();
        let now = now_ms();
        let until = now + self.alive_ms();
        if let Err(error) = self.hub.store().keep_seeks_alive(&ids, now, until).await {
            tracing::warn!(%error, "keeping seeks alive failed");
        }
    }

    /// Forgets seeks long dead or long matched.
    async fn forget_old(&self) {
        let now = now_ms();
        let dead_before = now - KEEP_EXPIRED.as_millis() as i64;
        let matched_before = now - KEEP_MATCHED.as_millis() as i64;
        if let Err(error) = self
            .hub
            .store()
            .forget_seeks(dead_before, matched_before)
            .await
        {
            tracing::warn!(%error, "forgetting old seeks failed");
        }
    }

    /// Makes the tables the open seeks make now.
    async fn match_round(&self) -> Result<(), ApiError> {
        let now = now_ms();
        let open = self.hub.store().open_seeks(now).await?;
        let mut seekers: Vec<String> = open.iter().filter_map(|s| s.account_id.clone()).collect();
        seekers.sort();
        seekers.dedup();
        let apart = matching::Apart::new(self.hub.store().apart_among(&seekers).await?);
        for plan in matching::plan(&open, now, &apart) {
            let first = &open[plan.seeks[0]];
            let mut seats: Vec<Option<(SeekClaim, String, String)>> = plan
                .seeks
                .iter()
                .map(|&i| {
                    let seek = &open[i];
                    let claim = SeekClaim {
                        seek: seek.id.clone(),
                        seat: 0,
                        account_id: seek.account_id.clone(),
                        owner: seek.owner.clone(),
                    };
                    Some((claim, seek.name.clone(), seek.seat_hash.clone()))
                })
                .chain(std::iter::repeat_n(None, usize::from(plan.bots)))
                .collect();
            seats.shuffle(&mut rand::thread_rng());
            for (seat, taken) in seats.iter_mut().enumerate() {
                if let Some((claim, _, _)) = taken {
                    claim.seat = u8::try_from(seat).unwrap_or(u8::MAX);
                }
            }
            // The seekers, told by their bells too (on another page, or another tab than
            // the one waiting): a seek's owner is whom its notifications are for, an
            // account's or a guest browser's.
            let seekers: Vec<(Recipient, u8)> = seats
                .iter()
                .flatten()
                .map(|(claim, _, _)| (Recipient::stored(claim.owner.clone()), claim.seat))
                .collect();
            let table = MatchedTable {
                game: first.game.clone(),
                clock: first.spec.clock,
                rated: first.spec.rated,
                seats,
            };
            match self.hub.start_matched(table).await {
                Ok(Some(game)) => {
                    metrics::counter!("tabletop_seek_tables_total").increment(1);
                    tracing::info!(
                        game,
                        seekers = plan.seeks.len(),
                        bots = plan.bots,
                        "seeks matched"
                    );
                    for (recipient, seat) in &seekers {
                        let about = About {
                            game_id: &game,
                            game: &first.game,
                            seat: *seat,
                        };
                        let matched = NotificationKind::SeekMatched;
                        let notifier = self.hub.notifier();
                        notifier
                            .notify(recipient, matched, Some(about), None, false)
                            .await;
                    }
                    // Once their bells have it: a waiting page that opens the table
                    // finds the bell of the person's other pages told too.
                    for &i in &plan.seeks {
                        self.tell(&open[i].id);
                    }
                }
                // Another process matched one of them first: the next round reads again.
                Ok(None) => {}
                Err(error) => tracing::warn!(%error, "starting a matched table failed"),
            }
        }
        Ok(())
    }
}

/// The store's changes for the hub, after the seeks heard theirs (which the hub does not
/// need).
pub fn split_changes(
    mut changes: mpsc::Receiver<Change>,
    seeks: &Arc<Seeks>,
) -> mpsc::Receiver<Change> {
    let (hub_changes, receiver) = mpsc::channel(CHANGES_BUFFER);
    let seeks = Arc::downgrade(seeks);
    tokio::spawn(async move {
        while let Some(change) = changes.recv().await {
            if let Some(seeks) = seeks.upgrade() {
                seeks.hear(&change);
            }
            if matches!(change, Change::SeekPosted { .. } | Change::SeekEnded { .. }) {
                continue;
            }
            if hub_changes.send(change).await.is_err() {
                return;
            }
        }
    });
    receiver
}

/// Where seek `row` is at `now`, for the holder of `token`.
fn state_of(row: &SeekRow, token: &str, now: i64) -> SeekState {
    match &row.matched {
        Some((game, seat)) => SeekState::Matched {
            game: game.clone(),
            seat: *seat,
            token: tokens::seat_token_of_seek(token),
        },
        None if row.alive_until < now => SeekState::Expired,
        None => SeekState::Waiting,
    }
}
