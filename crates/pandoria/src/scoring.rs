//! Scoring (P-R1–P-R11) and the end of the game (P-E4–P-E6).

use engine::{rank_by, EventSink, Outcome, ScoreLine, Seat, SeatResult};

use crate::cards::Building;
use crate::components::{Resource, Terrain};
use crate::events::{Event, Reason};
use crate::hex::Cell;
use crate::state::{Pandoria, Phase, RESOURCE_CAP};

/// What one seat gains from this turn's closed regions (P-R5).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Gains {
    /// Crystal, gold, wood, before the cap.
    pub resources: [u16; 3],
    pub city: u16,
    pub statue: u16,
}

/// The building that adds `per_hex` of a terrain's yield for each hex (P-R4).
const HEX_BONUS: [(Building, Terrain, u16); 7] = [
    (Building::SawMillLarge, Terrain::Forest, 2),
    (Building::SawMillSmall, Terrain::Forest, 1),
    (Building::TowerLarge, Terrain::Mountain, 2),
    (Building::TowerSmall, Terrain::Mountain, 1),
    (Building::TreasuryLarge, Terrain::Hill, 2),
    (Building::TreasurySmall, Terrain::Hill, 1),
    (Building::Statue, Terrain::City, 1),
];

/// The building that sets a resource's overflow rate (P-B3–P-B5).
pub fn rate_building(resource: Resource) -> Building {
    match resource {
        Resource::Crystal => Building::Repository,
        Resource::Gold => Building::Vault,
        Resource::Wood => Building::Lumberyard,
    }
}

impl Pandoria {
    /// P-R2 / P-R8: the weight of `seat` for the region with root `root`.
    pub fn weight(&self, seat: Seat, root: Cell) -> u16 {
        let board = &self.rules().board;
        let rage = self.rage().filter(|_| seat == self.current);
        self.figures
            .iter()
            .filter_map(|at| {
                let (owner, leader) = self.figure_at(at)?;
                if owner != seat || !self.map.adjacent_to_region(board, at, root) {
                    return None;
                }
                Some(match rage {
                    Some((cell, m)) if cell == at => u16::from(m),
                    _ if leader => 2,
                    _ => 1,
                })
            })
            .sum()
    }

    /// P-R1–P-R4: what each seat gains from the regions closed this turn.
    pub fn closed_gains(&self) -> [Gains; 4] {
        let rules = self.rules();
        let mut gains = [Gains::default(); 4];
        for &root in self.turn.closed.iter() {
            let Some(region) = self.map.region(root) else {
                continue;
            };
            for seat in 0..self.seats {
                let weight = self.weight(seat, root);
                if weight == 0 {
                    continue;
                }
                let g = &mut gains[usize::from(seat)];
                let base = region.symbols * weight;
                match region.terrain.resource() {
                    Some(r) => g.resources[r.index()] += base,
                    None => g.city += base,
                }
                let p = self.player(seat);
                for (building, terrain, per_hex) in HEX_BONUS {
                    if terrain == region.terrain && p.visible(rules, building).is_some() {
                        let bonus = per_hex * u16::from(region.hexes);
                        match (building, terrain.resource()) {
                            (Building::Statue, _) | (_, None) => g.statue += bonus,
                            (_, Some(r)) => g.resources[r.index()] += bonus,
                        }
                    }
                }
            }
        }
        gains
    }

    /// P-T8: score the closed list together, once per resource (P-R5, P-X9).
    pub(crate) fn score_closed(&mut self, events: &mut impl EventSink<Event>) {
        if self.turn.closed.is_empty() {
            return;
        }
        let gains = self.closed_gains();
        for seat in 0..self.seats {
            let g = gains[usize::from(seat)];
            if g == Gains::default() {
                continue;
            }
            events.emit(Event::RegionScored {
                seat,
                crystal: g.resources[0].min(255) as u8,
                gold: g.resources[1].min(255) as u8,
                wood: g.resources[2].min(255) as u8,
                points: g.city + g.statue,
            });
            for r in Resource::ALL {
                if g.resources[r.index()] > 0 {
                    self.gain(seat, r, g.resources[r.index()], events);
                }
            }
            for (points, reason) in [(g.city, Reason::CityRegions), (g.statue, Reason::Statue)] {
                if points > 0 {
                    self.players[usize::from(seat)].add_points(reason, points);
                    events.emit(Event::PointsGained {
                        seat,
                        points,
                        reason,
                    });
                }
            }
        }
    }

    /// The overflow rate (n, p) of a resource for a seat: 3:1 or a visible rate building.
    pub fn rate(&self, seat: Seat, resource: Resource) -> (u16, u16) {
        self.player(seat)
            .visible(self.rules(), rate_building(resource))
            .map_or((3, 1), |c| {
                (u16::from(c.building_rate.0), u16::from(c.building_rate.1))
            })
    }

    /// P-R6: apply a gain with the cap of 10; the excess turns into points.
    pub(crate) fn gain(
        &mut self,
        seat: Seat,
        resource: Resource,
        amount: u16,
        events: &mut impl EventSink<Event>,
    ) {
        let (n, per) = self.rate(seat, resource);
        let store = self
            .player(seat)
            .visible(self.rules(), Building::Store)
            .is_some();
        let p = &mut self.players[usize::from(seat)];
        let total = u16::from(p.resources[resource.index()]) + amount;
        let cap = u16::from(RESOURCE_CAP);
        p.resources[resource.index()] = total.min(cap) as u8;
        events.emit(Event::ResourceChanged {
            seat,
            resource,
            value: p.resources[resource.index()],
        });
        if total > cap {
            let excess = total - cap;
            let points = excess / n * per;
            if points > 0 {
                p.add_points(Reason::Overflow, points);
                events.emit(Event::PointsGained {
                    seat,
                    points,
                    reason: Reason::Overflow,
                });
            }
            // P-B11.
            if store {
                p.add_points(Reason::Store, 1);
                events.emit(Event::PointsGained {
                    seat,
                    points: 1,
                    reason: Reason::Store,
                });
            }
        }
    }

    /// P-E4: cards in hand and resources into points; returns the leftovers.
    pub fn end_points(&self, seat: Seat) -> (u16, u16, u16) {
        let p = self.player(seat);
        let cards = p.hand_len() as u16;
        let mut points = 0;
        let mut leftovers = 0;
        for r in Resource::ALL {
            let (n, per) = self.rate(seat, r);
            let have = u16::from(p.resources[r.index()]);
            points += have / n * per;
            leftovers += have % n;
        }
        (cards, points, leftovers)
    }

    pub(crate) fn final_scoring(&mut self, events: &mut impl EventSink<Event>) {
        for seat in 0..self.seats {
            let (cards, points, leftovers) = self.end_points(seat);
            let p = &mut self.players[usize::from(seat)];
            p.add_points(Reason::EndCards, cards);
            p.add_points(Reason::EndResources, points);
            self.leftovers[usize::from(seat)] = leftovers.min(255) as u8;
            events.emit(Event::FinalScored {
                seat,
                points: cards + points,
                leftovers: leftovers.min(255) as u8,
            });
        }
        self.phase = Phase::Over;
        events.emit(Event::GameOver);
    }

    /// P-E5, P-E6: ranks by points, then leftovers; teams pool both.
    pub(crate) fn final_outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let n = usize::from(self.seats);
        let own: Vec<(i32, i32)> = (0..n)
            .map(|s| (self.players[s].score() as i32, i32::from(self.leftovers[s])))
            .collect();
        let keys: Vec<(i32, i32)> = if self.config.teams {
            (0..n)
                .map(|s| {
                    let partner = (s + 2) % n;
                    (own[s].0 + own[partner].0, own[s].1 + own[partner].1)
                })
                .collect()
        } else {
            own.clone()
        };
        let ranks = rank_by(&keys);
        let seats = (0..n)
            .map(|s| {
                let mut breakdown: Vec<ScoreLine> = Reason::ALL
                    .iter()
                    .map(|r| ScoreLine {
                        category: r.name().to_string(),
                        points: i32::from(self.players[s].points[r.index()]),
                    })
                    .collect();
                if self.config.teams {
                    breakdown.push(ScoreLine {
                        category: "partner".into(),
                        points: own[(s + 2) % n].0,
                    });
                }
                SeatResult {
                    seat: s as Seat,
                    score: keys[s].0,
                    rank: ranks[s],
                    breakdown,
                    tiebreaks: vec![keys[s].1],
                    team: self.config.teams.then_some((s % 2) as u8),
                }
            })
            .collect();
        Some(Outcome {
            seats,
            truncated: false,
        })
    }
}
