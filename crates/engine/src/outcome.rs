use serde::{Deserialize, Serialize};

use crate::Seat;

/// One scoring category of one seat ("commissions": 23).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[ts(export_to = "engine/")]
pub struct ScoreLine {
    pub category: String,
    pub points: i32,
}

/// The result of one seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[ts(export_to = "engine/")]
pub struct SeatResult {
    pub seat: Seat,
    pub score: i32,
    /// 1 is best; seats tied after every tie-break share a rank.
    pub rank: u8,
    pub breakdown: Vec<ScoreLine>,
    /// The values compared after the score, in order (Valdora: coins).
    pub tiebreaks: Vec<i32>,
    /// The seat's team in a game of teams (Pandoria's 2 against 2: seats 1 and 3 are team
    /// 0): teammates share the result, and ratings rate them as a team.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub team: Option<u8>,
}

/// The end of a game: one result per seat, in seat order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[ts(export_to = "engine/")]
pub struct Outcome {
    pub seats: Vec<SeatResult>,
    /// True when the game did not end by its rules but by a simulation-only turn cap.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

impl Outcome {
    /// The seats ranked first (several when the victory is shared).
    pub fn winners(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats.iter().filter(|s| s.rank == 1).map(|s| s.seat)
    }
}

/// Competition ranks ("1224") from keys compared greatest-first: equal keys share a rank.
pub fn rank_by<K: Ord>(keys: &[K]) -> Vec<u8> {
    keys.iter()
        .map(|k| 1 + keys.iter().filter(|other| *other > k).count() as u8)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_ties_and_skip() {
        assert_eq!(
            rank_by(&[(10, 2), (12, 0), (10, 2), (3, 9)]),
            vec![2, 1, 2, 4]
        );
        assert_eq!(rank_by(&[(10, 3), (10, 2)]), vec![1, 2]);
    }
}
