//! The heuristic value of a position for the bots (`Game::evaluate`): the points a seat
//! would end with if the game ended now (its points, plus P-E4's hand cards and
//! resources), plus a discounted value for its stakes in regions still open.

use engine::Seat;

use crate::components::Terrain;
use crate::hex::NO_CELL;
use crate::state::{Pandoria, Phase};

/// Share of the resources short of the next point (P-E4) credited: more of them may
/// complete it, or be spent.
const LEFTOVER_SHARE: f64 = 0.5;
/// Share credited of what a figure's adjacent open region would pay if it closed now
/// (P-R2): it has yet to close, and other figures may join it.
const OPEN_SHARE: f64 = 0.3;

/// What a seat has and has at stake: the inputs of both evaluations.
#[derive(Default)]
struct Stakes {
    /// Points scored.
    points: f64,
    /// P-E4's end points now: one per hand card, resources at the seat's rates.
    end_points: f64,
    /// The value, at the seat's rates, of the resources short of the next point.
    leftover: f64,
    /// What each open region next to one of the seat's figures would pay it if it closed
    /// now (symbols × weight, leader 2, P-R2; resources at the seat's rate, cities 1
    /// point), each region once per figure (P-G11).
    open: f64,
}

impl std::ops::AddAssign for Stakes {
    fn add_assign(&mut self, o: Stakes) {
        self.points += o.points;
        self.end_points += o.end_points;
        self.leftover += o.leftover;
        self.open += o.open;
    }
}

/// The fitted evaluation's features (`Game::EVALUATION_FEATURES`): the stakes (pooled
/// with the partner in team games), and the ones still to be realised times the rounds
/// left, so that the fit can weigh them by how much of the game remains.
pub const FEATURES: [&str; 7] = [
    "points",
    "end_points",
    "leftover",
    "open",
    "leftover_x_rounds",
    "open_x_rounds",
    "rounds",
];

impl Pandoria {
    /// Points now plus progress, pooled with the partner in team games (P-E6). Over, it
    /// is the final score exactly.
    pub fn evaluation(&self, seat: Seat) -> f64 {
        let s = self.pooled_stakes(seat);
        if self.phase == Phase::Over {
            return s.points;
        }
        s.points + s.end_points + LEFTOVER_SHARE * s.leftover + OPEN_SHARE * s.open
    }

    /// The features of [`FEATURES`] for `seat`.
    pub fn features(&self, seat: Seat, out: &mut [f64]) {
        let s = self.pooled_stakes(seat);
        // Each turn draws a double tile (P-T11) and the end comes when none is left (P-E1).
        let rounds = self.double_stack.len() as f64 / f64::from(self.seats);
        let features = [
            s.points,
            s.end_points,
            s.leftover,
            s.open,
            s.leftover * rounds,
            s.open * rounds,
            rounds,
        ];
        out[..features.len()].copy_from_slice(&features);
    }

    fn pooled_stakes(&self, seat: Seat) -> Stakes {
        let mut stakes = self.stakes(seat);
        if self.config.teams {
            stakes += self.stakes((seat + 2) % self.seats);
        }
        stakes
    }

    fn stakes(&self, seat: Seat) -> Stakes {
        let p = self.player(seat);
        let mut stakes = Stakes {
            points: f64::from(p.score()),
            ..Stakes::default()
        };
        if self.phase == Phase::Over {
            return stakes;
        }
        let (cards, resource_points, _) = self.end_points(seat);
        stakes.end_points = f64::from(cards + resource_points);
        let unit = |terrain: Terrain| match terrain.resource() {
            Some(r) => {
                let (n, per) = self.rate(seat, r);
                f64::from(per) / f64::from(n.max(1))
            }
            None => 1.0,
        };
        for terrain in [Terrain::Mountain, Terrain::Hill, Terrain::Forest] {
            if let Some(r) = terrain.resource() {
                let (n, _) = self.rate(seat, r);
                let short = u16::from(p.resources[r.index()]) % n.max(1);
                stakes.leftover += f64::from(short) * unit(terrain);
            }
        }
        let board = &self.rules().board;
        for at in self.figures.iter() {
            let Some((owner, leader)) = self.figure_at(at) else {
                continue;
            };
            if owner != seat {
                continue;
            }
            let weight = if leader { 2.0 } else { 1.0 };
            let own_region = self.map.region_of(at);
            let mut counted = [NO_CELL; 6];
            for (i, &n) in board.neighbours(at).iter().enumerate() {
                if n == NO_CELL {
                    continue;
                }
                let Some(region) = self.map.region(n) else {
                    continue;
                };
                if region.closed
                    || Some(region.root) == own_region
                    || counted[..i].contains(&region.root)
                {
                    continue;
                }
                counted[i] = region.root;
                stakes.open += weight * f64::from(region.symbols) * unit(region.terrain);
            }
        }
        stakes
    }
}

#[cfg(test)]
mod tests {
    use engine::playout::random_action;
    use engine::{Game, NoEvents};

    use crate::state::RESOURCE_CAP;
    use crate::{Pandoria, PandoriaConfig};

    /// P-E4: more resources, enough for another point at the seat's rate, evaluate higher.
    #[test]
    fn resources_towards_points_raise_the_evaluation() {
        let mut checked = 0;
        for seed in 0..10u64 {
            let mut g = Pandoria::new(&PandoriaConfig::default(), seed).expect("valid");
            let mut rng = engine::rng_from_seed(seed);
            let mut buf = Vec::new();
            while g.outcome().is_none() {
                let seat = g.current();
                for r in crate::components::Resource::ALL {
                    let (n, _) = g.rate(seat, r);
                    let have = g.player(seat).resources[r.index()];
                    if u16::from(have) + n > u16::from(RESOURCE_CAP) {
                        continue;
                    }
                    let mut richer = g.clone();
                    richer.players[usize::from(seat)].resources[r.index()] += 1;
                    assert!(richer.evaluation(seat) > g.evaluation(seat), "seed {seed}");
                    checked += 1;
                }
                let Some(a) = random_action(&g, &mut rng, &mut buf) else {
                    break;
                };
                g.apply_unchecked(a, &mut NoEvents);
            }
        }
        assert!(checked > 100, "only {checked} checked");
    }

    /// The features are the heuristic's own quantities: weighted as the heuristic weighs
    /// them, they give the heuristic back (so a fit starts from what the heuristic knows).
    #[test]
    fn the_features_weighted_as_the_heuristic_give_the_heuristic() {
        engine::conformance::check_features_give_the_heuristic::<Pandoria>(
            &PandoriaConfig::default(),
            0..8,
            &[
                1.0,
                1.0,
                super::LEFTOVER_SHARE,
                super::OPEN_SHARE,
                0.0,
                0.0,
                0.0,
            ],
        );
    }
}
