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

impl Pandoria {
    /// Points now plus progress, pooled with the partner in team games (P-E6). Over, it
    /// is the final score exactly.
    pub fn evaluation(&self, seat: Seat) -> f64 {
        let own = self.own_evaluation(seat);
        if self.config.teams {
            own + self.own_evaluation((seat + 2) % self.seats)
        } else {
            own
        }
    }

    fn own_evaluation(&self, seat: Seat) -> f64 {
        let p = self.player(seat);
        let points = f64::from(p.score());
        if self.phase == Phase::Over {
            return points;
        }
        let (cards, resource_points, _) = self.end_points(seat);
        let mut progress = 0.0;
        // What one unit of a resource is worth at the seat's rate (P-B3–P-B5).
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
                progress += LEFTOVER_SHARE * f64::from(short) * unit(terrain);
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
            // Each open region next to the figure counts once (P-G11).
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
                progress += OPEN_SHARE * weight * f64::from(region.symbols) * unit(region.terrain);
            }
        }
        points + f64::from(cards + resource_points) + progress
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
}
