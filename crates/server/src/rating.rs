//! People's ratings per game (docs/server.md, "Ratings"): Weng-Lin (the OpenSkill model,
//! `skillratings`), updated once when a rated table ends. Free-for-all games rate every
//! seat against every other by rank; a game of teams (Pandoria's 2 against 2) rates each
//! team as one. Bots take part with their level's fixed rating ([`engine::Game::LEVEL_RATINGS`]),
//! which never moves.
//!
//! The scale shown is the arena's: Bradley-Terry on the Elo scale, random play at 0. A
//! Weng-Lin mean of 25 (a newcomer) shows as [`NEWCOMER`]: the two scales are tied by that
//! assumption until rated games between people and bots align them.

use std::collections::BTreeMap;

use engine::Outcome;
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::store::{GameRow, MoveRow, SeatChange, SeatEvent, SeatKind, SeatRecord};

/// The most of its moves a seat's person may leave to a bot (handed over, timed out)
/// for the table to be rated: a person who was away for more did not play the game.
pub const MAX_STAND_IN_SHARE: f64 = 1.0 / 3.0;
/// The shown rating of a newcomer (Weng-Lin mean 25).
pub const NEWCOMER: f64 = 1_000.0;
/// Rated people a table needs.
pub const MIN_PEOPLE: usize = 2;
/// The shown uncertainty of a level's fixed rating (its interval in docs/bots.md is wider;
/// a small one keeps a game against a bot from moving the bot's side).
const LEVEL_UNCERTAINTY: f64 = 1.0;

/// Shown points per Weng-Lin point: the Elo scale's 400 points for 10:1 odds, against the
/// Bradley-Terry odds Weng-Lin gives two certain ratings (spread √2·β).
fn shown_per_point() -> f64 {
    let beta = WengLinConfig::new().beta;
    400.0 / (std::f64::consts::SQRT_2 * beta * std::f64::consts::LN_10)
}

/// A Weng-Lin rating as shown: `(rating, deviation)`.
pub fn shown(rating: WengLinRating) -> (f64, f64) {
    let k = shown_per_point();
    (
        NEWCOMER + (rating.rating - WengLinRating::new().rating) * k,
        rating.uncertainty * k,
    )
}

/// The shown rating, rounded, of a stored (mu, sigma); `None`: a newcomer's.
pub fn shown_rating(stored: Option<(f64, f64)>) -> i32 {
    stored
        .map_or(NEWCOMER, |(mu, sigma)| {
            shown(WengLinRating {
                rating: mu,
                uncertainty: sigma,
            })
            .0
        })
        .round() as i32
}

/// The Weng-Lin rating of a shown rating (a level's).
fn from_shown(rating: f64, deviation: f64) -> WengLinRating {
    let k = shown_per_point();
    WengLinRating {
        rating: WengLinRating::new().rating + (rating - NEWCOMER) / k,
        uncertainty: deviation / k,
    }
}

/// Who sits in a seat for rating.
#[derive(Debug, Clone, PartialEq)]
pub enum Rated {
    /// A person's account.
    Person(String),
    /// A bot level's fixed rating (shown scale).
    Level(f64),
}

/// One participant of a rated table.
#[derive(Debug, Clone, PartialEq)]
pub struct Participant {
    pub seat: u8,
    pub who: Rated,
    /// 1 is best; a seat whose person left is last.
    pub rank: usize,
    /// Teammates share a team; `None` in a free-for-all.
    pub team: Option<u8>,
}

/// Why a finished table is not rated (the end screen says it in the person's words).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
#[serde(tag = "why", rename_all = "snake_case", deny_unknown_fields)]
pub enum Unrated {
    /// Its seekers asked for a casual table.
    Casual,
    /// A table with hints is casual.
    Hints,
    /// Fewer than [`MIN_PEOPLE`] seats of distinct signed-in people.
    FewPeople,
    /// A seat whose person stayed was played by a bot for more than
    /// [`MAX_STAND_IN_SHARE`] of its moves.
    StandIn { seat: u8 },
    /// The game did not end by its rules.
    Truncated,
}

/// The participants of finished table `row`, or why it is not rated: [`participants`],
/// unless its seekers asked for a casual table.
pub fn verdict(
    row: &GameRow,
    outcome: &Outcome,
    owners: &[(u8, String)],
    played: (&[(&str, f64)], &[MoveRow], &[SeatEvent]),
) -> Result<Vec<Participant>, Unrated> {
    if row.settings.casual {
        return Err(Unrated::Casual);
    }
    participants(&row.seats, row.settings.hints, outcome, owners, played)
}

/// The participants of a finished table, or why it is not rated. `owners`: the account
/// of each seat that belongs to one; `levels`: the game's level ratings; `moves` and
/// `events`: the table's stored moves and seat events.
pub fn participants(
    seats: &[SeatRecord],
    hints: bool,
    outcome: &Outcome,
    owners: &[(u8, String)],
    (levels, moves, events): (&[(&str, f64)], &[MoveRow], &[SeatEvent]),
) -> Result<Vec<Participant>, Unrated> {
    if hints {
        return Err(Unrated::Hints);
    }
    if outcome.truncated {
        return Err(Unrated::Truncated);
    }
    let owner = |seat: u8| owners.iter().find(|(s, _)| *s == seat).map(|(_, a)| a);
    let mut people: Vec<&String> = owners.iter().map(|(_, a)| a).collect();
    people.sort();
    people.dedup();
    if people.len() < MIN_PEOPLE || people.len() < owners.len() {
        // One person in two seats plays against themselves: not rated.
        return Err(Unrated::FewPeople);
    }
    let last = outcome.seats.len();
    let mut participants = Vec::new();
    for result in &outcome.seats {
        let seat = result.seat;
        let record = seats.get(usize::from(seat));
        let who = match (owner(seat), record) {
            (Some(account), Some(record)) => {
                if !record.left && stand_in_share(seat, moves, events) > MAX_STAND_IN_SHARE {
                    return Err(Unrated::StandIn { seat });
                }
                Rated::Person(account.clone())
            }
            (None, Some(record)) if record.kind == SeatKind::Bot => {
                let level = record.bot.as_deref().unwrap_or_default();
                match levels.iter().find(|(name, _)| *name == level) {
                    Some(&(_, rating)) => Rated::Level(rating),
                    // A bot of no level (a spec) or a guest: not part of the rating.
                    None => continue,
                }
            }
            _ => continue,
        };
        let left = record.is_some_and(|r| r.left) && matches!(who, Rated::Person(_));
        participants.push(Participant {
            seat,
            who,
            rank: if left { last } else { usize::from(result.rank) },
            team: result.team,
        });
    }
    Ok(participants)
}

/// The share of `seat`'s moves a bot made for its person.
fn stand_in_share(seat: u8, moves: &[MoveRow], events: &[SeatEvent]) -> f64 {
    let (all, by_bot) = bot_decisions(seat, moves, events);
    if all == 0 {
        0.0
    } else {
        f64::from(by_bot) / f64::from(all)
    }
}

/// `seat`'s decisions (its moves, an undo not counted as one), and how many of them a bot
/// made for its person: from a hand-over, time-out or leave to the person taking the
/// seat back.
pub fn bot_decisions(seat: u8, moves: &[MoveRow], events: &[SeatEvent]) -> (u32, u32) {
    let mut bot_from: Option<u64> = None;
    let mut spans = Vec::new();
    for event in events.iter().filter(|e| e.seat == seat) {
        match event.what {
            SeatChange::HandedOver | SeatChange::TimedOut | SeatChange::Left => {
                bot_from.get_or_insert(event.seq);
            }
            SeatChange::TookBack => {
                if let Some(from) = bot_from.take() {
                    spans.push(from..event.seq);
                }
            }
            SeatChange::Hinted => {}
        }
    }
    if let Some(from) = bot_from {
        spans.push(from..u64::MAX);
    }
    let own = moves
        .iter()
        .filter(|m| m.seat == seat && m.undoes.is_none());
    own.fold((0u32, 0u32), |(all, bot), m| {
        let stood_in = spans.iter().any(|span| span.contains(&m.seq));
        (all + 1, bot + u32::from(stood_in))
    })
}

/// The people's new ratings after a table with these participants, from their ratings
/// before (`None`: never rated in the game), in participant order (`None` for a level).
pub fn update(
    participants: &[Participant],
    before: &BTreeMap<String, WengLinRating>,
) -> Vec<Option<WengLinRating>> {
    // Teams: teammates together; in a free-for-all each participant alone.
    let mut teams: Vec<(Option<u8>, usize, Vec<usize>)> = Vec::new();
    for (i, p) in participants.iter().enumerate() {
        match teams
            .iter_mut()
            .find(|(team, _, _)| p.team.is_some() && *team == p.team)
        {
            Some((_, rank, members)) => {
                // A team is ranked by its worst member (a teammate who left sinks it).
                *rank = (*rank).max(p.rank);
                members.push(i);
            }
            None => teams.push((p.team, p.rank, vec![i])),
        }
    }
    let rating_of = |p: &Participant| match &p.who {
        Rated::Person(account) => before.get(account).copied().unwrap_or_default(),
        Rated::Level(rating) => from_shown(*rating, LEVEL_UNCERTAINTY),
    };
    let team_ratings: Vec<Vec<WengLinRating>> = teams
        .iter()
        .map(|(_, _, members)| {
            members
                .iter()
                .map(|&i| rating_of(&participants[i]))
                .collect()
        })
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(&team_ratings)
        .map(|((_, rank, _), ratings)| (ratings.as_slice(), MultiTeamOutcome::new(*rank)))
        .collect();
    let after = weng_lin_multi_team(&input, &WengLinConfig::new());
    let mut new = vec![None; participants.len()];
    for ((_, _, members), ratings) in teams.iter().zip(after) {
        for (&i, rating) in members.iter().zip(ratings) {
            if matches!(participants[i].who, Rated::Person(_)) {
                new[i] = Some(rating);
            }
        }
    }
    new
}

#[cfg(test)]
mod tests {
    use engine::SeatResult;

    use super::*;

    fn person(name: &str) -> SeatRecord {
        SeatRecord::human(Some(name.into()), "hash".into(), false)
    }

    fn outcome(ranks: &[u8], teams: bool) -> Outcome {
        Outcome {
            seats: ranks
                .iter()
                .enumerate()
                .map(|(s, &rank)| SeatResult {
                    seat: s as u8,
                    score: 10 - i32::from(rank),
                    rank,
                    breakdown: Vec::new(),
                    tiebreaks: Vec::new(),
                    team: teams.then_some((s % 2) as u8),
                })
                .collect(),
            truncated: false,
        }
    }

    fn owners(accounts: &[&str]) -> Vec<(u8, String)> {
        accounts
            .iter()
            .enumerate()
            .map(|(s, a)| (s as u8, a.to_string()))
            .collect()
    }

    fn moves(seats: &[u8]) -> Vec<MoveRow> {
        seats
            .iter()
            .enumerate()
            .map(|(seq, &seat)| MoveRow {
                game_id: "g".into(),
                seq: seq as u64,
                seat,
                action: serde_json::Value::Null,
                at: 0,
                undoes: None,
            })
            .collect()
    }

    fn event(what: SeatChange, seat: u8, seq: u64) -> SeatEvent {
        SeatEvent {
            what,
            seat,
            by: None,
            seq,
            at: 0,
            hint: None,
        }
    }

    #[test]
    fn a_table_needs_two_people_no_hints_and_an_ending_by_the_rules() {
        let seats = vec![person("Ada"), person("Bo")];
        let done = outcome(&[1, 2], false);
        let none: (&[(&str, f64)], &[MoveRow], &[SeatEvent]) = (&[], &[], &[]);
        assert_eq!(
            participants(&seats, true, &done, &owners(&["a", "b"]), none),
            Err(Unrated::Hints)
        );
        assert_eq!(
            participants(&seats, false, &done, &owners(&["a"]), none),
            Err(Unrated::FewPeople)
        );
        assert_eq!(
            participants(&seats, false, &done, &owners(&["a", "a"]), none),
            Err(Unrated::FewPeople),
            "one person in both seats"
        );
        let mut capped = done.clone();
        capped.truncated = true;
        assert_eq!(
            participants(&seats, false, &capped, &owners(&["a", "b"]), none),
            Err(Unrated::Truncated)
        );
        let rated = participants(&seats, false, &done, &owners(&["a", "b"]), none).expect("rated");
        assert_eq!(rated.len(), 2);
        assert_eq!((rated[0].rank, rated[1].rank), (1, 2));
    }

    #[test]
    fn a_seat_a_bot_played_too_long_unrates_the_table_unless_its_person_left() {
        let mut seats = vec![person("Ada"), person("Bo")];
        let done = outcome(&[2, 1], false);
        // Seat 0 moves at seqs 0, 2, 4, 6, 8, 10; handed over at 5 and taken back at 9:
        // moves 6 and 8 by the bot, 2 of 6.
        let played = moves(&[0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
        let short = [
            event(SeatChange::HandedOver, 0, 5),
            event(SeatChange::TookBack, 0, 9),
        ];
        let table = |events: &[SeatEvent], seats: &[SeatRecord]| {
            participants(
                seats,
                false,
                &done,
                &owners(&["a", "b"]),
                (&[], &played, events),
            )
        };
        assert!(table(&short, &seats).is_ok(), "a third is allowed");
        let long = [event(SeatChange::TimedOut, 0, 3)];
        assert_eq!(table(&long, &seats), Err(Unrated::StandIn { seat: 0 }));
        // Leaving: rated, and last whatever the bot made of the seat.
        let left = [event(SeatChange::Left, 1, 1)];
        seats[1].left = true;
        let rated = table(&left, &seats).expect("rated");
        assert_eq!(
            (rated[0].rank, rated[1].rank),
            (2, 2),
            "the winner who left is last"
        );
    }

    #[test]
    fn the_winner_rises_the_loser_falls_and_a_level_does_not_move() {
        let seats = vec![
            person("Ada"),
            person("Bo"),
            SeatRecord {
                kind: SeatKind::Bot,
                bot: Some("hard".into()),
                ..person("bot")
            },
        ];
        let done = outcome(&[1, 3, 2], false);
        let levels = [("easy", 800.0), ("hard", 1_100.0)];
        let rated = participants(
            &seats,
            false,
            &done,
            &owners(&["a", "b"]),
            (&levels, &[], &[]),
        )
        .expect("rated");
        assert_eq!(rated[2].who, Rated::Level(1_100.0));
        let after = update(&rated, &BTreeMap::new());
        let (ada, _) = shown(after[0].expect("Ada"));
        let (bo, bo_deviation) = shown(after[1].expect("Bo"));
        assert!(ada > NEWCOMER && bo < NEWCOMER, "{ada} {bo}");
        assert!(after[2].is_none(), "the level keeps its rating");
        assert!(
            bo_deviation < shown(WengLinRating::new()).1,
            "less uncertain"
        );
        // The shown scale puts a newcomer at 1,000 exactly, and reads back what it shows.
        assert_eq!(shown(WengLinRating::new()).0, NEWCOMER);
        assert!((shown(from_shown(1_100.0, 50.0)).0 - 1_100.0).abs() < 1e-9);
    }

    #[test]
    fn teammates_move_together() {
        let seats: Vec<SeatRecord> = ["A", "B", "C", "D"].into_iter().map(person).collect();
        // Seats 0 and 2 (team 0) won.
        let done = outcome(&[1, 3, 1, 3], true);
        let rated = participants(
            &seats,
            false,
            &done,
            &owners(&["a", "b", "c", "d"]),
            (&[], &[], &[]),
        )
        .expect("rated");
        let after = update(&rated, &BTreeMap::new());
        let shown: Vec<f64> = after.iter().map(|r| shown(r.expect("rated")).0).collect();
        assert!((shown[0] - shown[2]).abs() < 1e-9 && (shown[1] - shown[3]).abs() < 1e-9);
        assert!(shown[0] > NEWCOMER && shown[1] < NEWCOMER, "{shown:?}");
    }
}
