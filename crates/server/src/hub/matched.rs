//! Tables that seeks complete ([`crate::matchmaking`]): created running, every person's seat
//! taken by its seeker, and stored in the transaction that matches the seeks.

use std::sync::Arc;

use serde_json::json;

use super::clock::check_clock;
use super::{now_ms, Hub, MAX_SAFE_INTEGER};
use crate::bots::BotSeat;
use crate::error::ApiError;
use crate::model::Clock;
use crate::store::{GameRow, SeatRecord, SeekClaim, Status, StoreError, TableSettings};
use crate::tokens;

/// What a match seats: the seekers (each at its seat) and the bots that fill the rest.
#[derive(Debug, Clone)]
pub struct MatchedTable {
    pub game: String,
    pub clock: Clock,
    pub rated: bool,
    /// One per seat: a seeker's `(claim, name, seat token hash)`, or `None` for a bot.
    pub seats: Vec<Option<(SeekClaim, String, String)>>,
}

/// The bot strength that fills a seek's empty seats, and that plays for a seeker who
/// times out or leaves.
const MATCH_BOT: &str = "medium";

impl Hub {
    /// Checks a seek's clock against the clocks tables may have.
    pub fn check_clock(&self, clock: Clock) -> Result<Clock, ApiError> {
        check_clock(clock, &self.clock_choices)
    }

    /// Stores and opens the table of `matched`, matching its seeks in the same
    /// transaction: `Ok(None)` when one of them was matched or withdrawn meanwhile
    /// (nothing is stored), else the new game's id.
    pub async fn start_matched(
        self: &Arc<Self>,
        matched: MatchedTable,
    ) -> Result<Option<String>, ApiError> {
        let kind = self.catalog.named(&matched.game)?.clone();
        let config = json!({"players": matched.seats.len()});
        kind.check_config(&config)?;
        let seed = rand::random::<u64>() & MAX_SAFE_INTEGER;
        let (game, data) = self.begin_new(&kind, &config, seed)?;
        let text = data.as_ref().map(|d| d.text.clone());
        let mut seats = Vec::with_capacity(matched.seats.len());
        let mut claims = Vec::new();
        for seat in matched.seats {
            seats.push(match seat {
                Some((claim, name, seat_hash)) => {
                    claims.push(claim);
                    SeatRecord::human(Some(name), seat_hash, false)
                }
                None => {
                    let bot = BotSeat::parse(MATCH_BOT, self.bots.policy())?;
                    SeatRecord::bot(bot.display_name(), bot.spec_text)
                }
            });
        }
        let now = now_ms();
        let row = GameRow {
            id: tokens::new_game_id(),
            game: kind.name().to_string(),
            config,
            seed,
            seed_chosen: false,
            created: now,
            status: Status::Running,
            seats,
            version: 0,
            data_digest: data.map(|d| d.digest),
            // Nobody cancels a table that starts at once.
            owner: None,
            settings: TableSettings {
                stand_in: MATCH_BOT.into(),
                clock: matched.clock,
                hints: false,
                casual: !matched.rated,
            },
            started: Some(now),
        };
        match self.store.match_seeks(&row, &claims, now).await {
            Ok(()) => {}
            Err(StoreError::Conflict) => return Ok(None),
            Err(e) => return Err(e.into()),
        }
        let id = row.id.clone();
        self.open_stored(kind, row, text, game).await;
        Ok(Some(id))
    }
}
