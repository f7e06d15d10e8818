//! Scoring (K-G3..K-G5): only tombs score; starters and uniques their printed VP, each set
//! the square of its distinct kinds.

use engine::{rank_by, Outcome, ScoreLine, SeatResult};

use crate::data::{CardId, Category, Rules, MAX_SETS};
use crate::state::{Phase, Valley};

/// One seat's score (K-G4).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[ts(export_to = "valley/")]
pub struct TombScore {
    pub starters: i32,
    pub uniques: i32,
    /// Per set of the data file: (distinct kinds d, points d²).
    pub sets: Vec<(u8, i32)>,
    pub total: i32,
    pub tomb_size: usize,
}

/// What a tomb holds for K-G3, counted without allocating (the bots' evaluation reads it
/// at every position of a search).
#[derive(Clone)]
pub(crate) struct TombCounts {
    pub starters: i32,
    pub uniques: i32,
    /// Per set (the first `rules.sets.len()` entries): the distinct kinds d.
    pub distinct: [u8; MAX_SETS],
    /// The set kinds in the tomb, one bit per card id (ids are below 128, MAX_KINDS).
    kinds: u128,
}

impl TombCounts {
    pub fn of(rules: &Rules, tomb: &[CardId]) -> TombCounts {
        let mut counts = TombCounts {
            starters: 0,
            uniques: 0,
            distinct: [0; MAX_SETS],
            kinds: 0,
        };
        for &card in tomb {
            let c = rules.card(card);
            match c.category {
                Category::Starter => counts.starters += i32::from(c.vp),
                Category::Unique => counts.uniques += i32::from(c.vp),
                Category::Set(s) => counts.add_kind(s, card),
            }
        }
        counts
    }

    /// Counts `card`, a kind of set `set`, unless its kind is counted already.
    pub fn add_kind(&mut self, set: u8, card: CardId) {
        if self.kinds >> card & 1 == 0 {
            self.kinds |= 1 << card;
            self.distinct[usize::from(set)] += 1;
        }
    }

    /// K-G3: the printed VP, and d² for each set.
    pub fn total(&self) -> i32 {
        let sets: i32 = self.distinct.iter().map(|&d| set_points(d)).sum();
        self.starters + self.uniques + sets
    }
}

/// K-G3: a set of `d` distinct kinds scores d².
pub(crate) fn set_points(d: u8) -> i32 {
    i32::from(d) * i32::from(d)
}

/// K-G3.
pub fn score_tomb(rules: &Rules, tomb: &[CardId]) -> TombScore {
    let counts = TombCounts::of(rules, tomb);
    TombScore {
        starters: counts.starters,
        uniques: counts.uniques,
        sets: counts.distinct[..rules.sets.len()]
            .iter()
            .map(|&d| (d, set_points(d)))
            .collect(),
        total: counts.total(),
        tomb_size: tomb.len(),
    }
}

impl Valley {
    pub fn score(&self, seat: engine::Seat) -> TombScore {
        score_tomb(&self.config.rules, &self.zones(seat).tomb)
    }

    /// K-G4, K-G5.
    pub(crate) fn final_outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        Some(outcome_of(
            &self.config.rules,
            &(0..self.n).map(|s| self.score(s)).collect::<Vec<_>>(),
        ))
    }
}

/// Ranks by (total, fewer tomb cards); equal keys share a rank (K-G5).
pub fn outcome_of(rules: &Rules, scores: &[TombScore]) -> Outcome {
    let keys: Vec<(i32, i64)> = scores
        .iter()
        .map(|s| (s.total, -(s.tomb_size as i64)))
        .collect();
    let ranks = rank_by(&keys);
    let seats = scores
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut breakdown = vec![
                ScoreLine {
                    category: "starters".into(),
                    points: s.starters,
                },
                ScoreLine {
                    category: "uniques".into(),
                    points: s.uniques,
                },
            ];
            for (set, &(d, points)) in rules.sets.iter().zip(&s.sets) {
                if d > 0 {
                    breakdown.push(ScoreLine {
                        category: format!("set {}", set.name),
                        points,
                    });
                }
            }
            SeatResult {
                seat: i as u8,
                score: s.total,
                rank: ranks[i],
                breakdown,
                tiebreaks: vec![-(s.tomb_size as i32)],
                team: None,
            }
        })
        .collect();
    Outcome {
        seats,
        truncated: false,
    }
}
