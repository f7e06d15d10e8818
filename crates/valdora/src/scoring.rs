//! Final scoring (V-E2) and ranking (V-E3).

use engine::{rank_by, Outcome, ScoreLine, Seat, SeatResult};

use crate::state::{Ending, Valdora};

/// One seat's points by category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Score {
    pub commissions: i32,
    pub craftsmen: i32,
    pub workshops: i32,
    pub bonus_tiles: i32,
    pub gems: i32,
}

impl Score {
    pub fn total(&self) -> i32 {
        self.commissions + self.craftsmen + self.workshops + self.bonus_tiles + self.gems
    }

    fn lines(&self) -> Vec<ScoreLine> {
        [
            ("commissions", self.commissions),
            ("craftsmen", self.craftsmen),
            ("workshops", self.workshops),
            ("bonus_tiles", self.bonus_tiles),
            ("gems", self.gems),
        ]
        .into_iter()
        .map(|(category, points)| ScoreLine {
            category: category.to_string(),
            points,
        })
        .collect()
    }
}

impl Valdora {
    // rule V-E2: printed commission points; 10 per craftsman colour held; printed workshop
    // points; 10 per bonus tile; 1 per gem on equipment. Incomplete commissions score 0.
    /// Points `seat` would score if the game ended now.
    pub fn score(&self, seat: Seat) -> Score {
        let rules = self.rules();
        let p = self.player(seat);
        let workshops = (0..7)
            .filter(|&c| self.workshop_owner[c] == Some(seat))
            .map(|c| i32::from(rules.workshop_points[c]))
            .sum();
        Score {
            commissions: self.completed_by(seat).map(|f| i32::from(f.points)).sum(),
            craftsmen: 10 * p.craftsmen.iter().filter(|&&n| n > 0).count() as i32,
            workshops,
            bonus_tiles: i32::from(p.bonus_tiles) * i32::from(rules.bonus_points),
            gems: i32::from(p.gems_carried()),
        }
    }

    /// rule V-E3: most points; tie → most coins; still tied → shared rank.
    pub(crate) fn final_outcome(&self) -> Option<Outcome> {
        let ending = self.ending()?;
        let scores: Vec<Score> = (0..self.seats).map(|s| self.score(s)).collect();
        let keys: Vec<(i32, i32)> = (0..self.seats)
            .map(|s| {
                (
                    scores[usize::from(s)].total(),
                    i32::from(self.player(s).coins),
                )
            })
            .collect();
        let ranks = rank_by(&keys);
        Some(Outcome {
            seats: (0..self.seats)
                .map(|s| {
                    let i = usize::from(s);
                    SeatResult {
                        seat: s,
                        score: keys[i].0,
                        rank: ranks[i],
                        breakdown: scores[i].lines(),
                        tiebreaks: vec![keys[i].1],
                        team: None,
                    }
                })
                .collect(),
            truncated: ending != Ending::Rules,
        })
    }
}
