//! Scoring (K-G3..K-G5): only tombs score; starters and uniques their printed VP, each set
//! the square of its distinct kinds.

use engine::{rank_by, Outcome, ScoreLine, SeatResult};

use crate::data::{CardId, Category, Rules};
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

/// K-G3.
pub fn score_tomb(rules: &Rules, tomb: &[CardId]) -> TombScore {
    let mut starters = 0;
    let mut uniques = 0;
    let mut seen = [0u64; 2];
    let mut distinct = vec![0u8; rules.sets.len()];
    for &card in tomb {
        let c = rules.card(card);
        match c.category {
            Category::Starter => starters += i32::from(c.vp),
            Category::Unique => uniques += i32::from(c.vp),
            Category::Set(s) => {
                let (w, b) = (usize::from(card / 64), card % 64);
                if seen[w] >> b & 1 == 0 {
                    seen[w] |= 1 << b;
                    distinct[usize::from(s)] += 1;
                }
            }
        }
    }
    let sets: Vec<(u8, i32)> = distinct
        .iter()
        .map(|&d| (d, i32::from(d) * i32::from(d)))
        .collect();
    let total = starters + uniques + sets.iter().map(|s| s.1).sum::<i32>();
    TombScore {
        starters,
        uniques,
        sets,
        total,
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
