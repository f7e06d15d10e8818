//! The heuristic value of a position for the bots (`Game::evaluate`): the points a seat
//! would score now (V-E2) plus a discounted value for its progress towards more.

use crate::board::{Space, SpaceKind, SpaceSet};
use crate::components::{Gem, Item};
use crate::state::{HeldCommission, Phase, Valdora};
use engine::Seat;

/// Worth of a completed commission beyond its printed points when it brings the seat's
/// first craftsman of that colour (10 points per colour held, V-E2).
const NEW_COLOUR_BONUS: f64 = 10.0;
// Holding, readiness and nearness together stay well below the commission's worth minus
// the gems it pays with, so that completing one always raises the evaluation.

/// Share of a commission's worth credited for holding it at all.
const HELD_SHARE: f64 = 0.1;
/// Further share credited in proportion to the wanted gems (or coins) carried.
const READY_SHARE: f64 = 0.35;
/// Value of owning a piece of equipment other than the gold pan (it opens loads).
const EQUIPMENT_VALUE: f64 = 1.5;
/// Further value of a tool per gem it could load that a held commission still wants
/// (horse and cart: per wanted gem of any kind, at half that).
const NEEDED_TOOL_VALUE: f64 = 3.0;
/// Share of a ready commission's worth credited when its patron house is one move away;
/// each further move needed multiplies it by `PATRON_DISTANCE_DECAY`.
const NEAR_PATRON_SHARE: f64 = 0.1;
const PATRON_DISTANCE_DECAY: f64 = 0.6;
/// Value of standing one move from a road space with a gem a held commission still wants
/// and a free card to load it; further moves multiply it by `PATRON_DISTANCE_DECAY`.
const NEAR_GEM_VALUE: f64 = 0.5;
const COIN_VALUE: f64 = 0.4;
// Provisions are worth nothing of their own: valuing them kept greedy from ever
// spending them, and so from ever crossing a city.

impl Valdora {
    /// Points now plus progress: held commissions credited by how much of what they want
    /// is carried, coins, equipment, provisions and craftsmen towards a workshop.
    /// Over, it is the final score exactly.
    pub fn evaluation(&self, seat: Seat) -> f64 {
        let points = f64::from(self.score(seat).total());
        if self.phase() == Phase::Over {
            return points;
        }
        let rules = self.rules();
        let p = self.player(seat);
        let mut carried = [0u8; 5];
        for g in p.gems.iter().flatten() {
            carried[g.index()] += 1;
        }
        let mut coins_left = p.coins;
        let mut progress = 0.0;
        let mut missing = [0u8; 5];
        // Gems and coins go to the most valuable commissions first.
        let mut held: tinyvec::ArrayVec<[(f64, HeldCommission); 3]> = p
            .incomplete
            .iter()
            .map(|&h| (self.commission_worth(seat, &h.face(rules)), h))
            .collect();
        held.as_mut_slice().sort_by(|a, b| b.0.total_cmp(&a.0));
        // A new craftsman colour is credited to one commission only.
        let mut colours_claimed = 0u8;
        for &(_, h) in held.iter() {
            let face = h.face(rules);
            let (mut worth, new_colour) = self.commission_worth_parts(seat, &face);
            if let Some(c) = new_colour {
                if colours_claimed & 1 << c == 0 {
                    colours_claimed |= 1 << c;
                    worth += NEW_COLOUR_BONUS;
                }
            }
            // One gem or coin is never credited twice.
            let (have, want) = if face.wants.coins > 0 {
                let have = coins_left.min(face.wants.coins);
                coins_left -= have;
                (have, face.wants.coins)
            } else {
                let mut have = 0;
                for g in Gem::ALL {
                    let want = face.wants.gems[g.index()];
                    let take = carried[g.index()].min(want);
                    carried[g.index()] -= take;
                    missing[g.index()] += want - take;
                    have += take;
                }
                (have, face.wants.gems.iter().sum())
            };
            let ready = f64::from(have) / f64::from(want.max(1));
            progress += worth * (HELD_SHARE + READY_SHARE * ready);
            if have == want {
                let patron: SpaceSet = (0..rules.board.len() as Space)
                    .filter(|&s| {
                        rules.board.kind(s) == SpaceKind::PatronHouse { color: face.color }
                    })
                    .fold(0, |set, s| set | 1 << s);
                if let Some(moves) = self.moves_to(p.space, patron) {
                    progress += worth
                        * NEAR_PATRON_SHARE
                        * PATRON_DISTANCE_DECAY.powi(i32::from(moves.max(1)) - 1);
                }
            }
        }
        // `carried` now holds the gems no commission wants; `missing` what they still want.
        for i in Item::ALL
            .into_iter()
            .filter(|&i| i != Item::GoldPan && p.owns(i))
        {
            progress += EQUIPMENT_VALUE;
            let useful: u8 = if i.loads_any() {
                missing.iter().sum::<u8>().min(2)
            } else {
                missing[i.index()].min(1)
            };
            let share = if i.loads_any() { 0.5 } else { 1.0 };
            progress += NEEDED_TOOL_VALUE * share * f64::from(useful);
        }
        progress += COIN_VALUE * f64::from(p.coins);
        for g in Gem::ALL {
            let free_card = [Item::for_gem(g), Item::Horse, Item::Cart]
                .into_iter()
                .any(|i| p.owns(i) && p.gems[i.index()].is_none());
            if missing[g.index()] == 0 || !free_card {
                continue;
            }
            let roads: SpaceSet = (0..rules.board.len() as Space)
                .filter(|&s| self.gems_at(s).is_some_and(|gems| gems[g.index()] > 0))
                .fold(0, |set, s| set | 1 << s);
            if let Some(moves) = self.moves_to(p.space, roads) {
                progress +=
                    NEAR_GEM_VALUE * PATRON_DISTANCE_DECAY.powi(i32::from(moves.max(1)) - 1);
            }
        }
        for colour in 0..7 {
            let needed = rules.workshop_needed[colour];
            if self.workshop_owner[colour].is_none() && needed > 0 {
                let share = f64::from(p.craftsmen[colour].min(needed)) / f64::from(needed);
                progress += 0.5 * share * f64::from(rules.workshop_points[colour]);
            }
        }
        points + progress
    }

    /// What completing `face` would bring `seat` now (V-A3, V-E2): its points, 10 if the
    /// craftsman hired is of a new colour, and a bonus tile if `seat` owns the workshop.
    /// Crediting more (say, for a colour whose craftsmen are gone) made greedy stand on
    /// a patron house without completing.
    fn commission_worth(&self, seat: Seat, face: &crate::components::CommissionFace) -> f64 {
        let (worth, new_colour) = self.commission_worth_parts(seat, face);
        worth
            + if new_colour.is_some() {
                NEW_COLOUR_BONUS
            } else {
                0.0
            }
    }

    /// The worth of `face` without the new-colour bonus, and the new colour it would
    /// bring, if any.
    fn commission_worth_parts(
        &self,
        seat: Seat,
        face: &crate::components::CommissionFace,
    ) -> (f64, Option<usize>) {
        let rules = self.rules();
        let p = self.player(seat);
        let order = &rules.clockwise;
        let at = order.iter().position(|c| *c == face.color).unwrap_or(0);
        let hired = (0..7)
            .map(|k| order[(at + k) % 7])
            .find(|c| self.craftsmen[c.index()] > 0);
        let new_colour = hired
            .filter(|c| p.craftsmen[c.index()] == 0)
            .map(|c| c.index());
        let bonus = self.workshop_owner[face.color.index()] == Some(seat) && self.bonus_supply > 0;
        let worth = f64::from(face.points)
            + if bonus {
                f64::from(rules.bonus_points)
            } else {
                0.0
            };
        (worth, new_colour)
    }

    /// The fewest moves (without provisions) from `from` to any space of `targets`.
    fn moves_to(&self, from: Space, targets: SpaceSet) -> Option<u8> {
        let board = &self.rules().board;
        let mut seen: SpaceSet = 1 << from;
        let mut frontier = seen;
        for moves in 0..board.len() as u8 {
            if frontier & targets != 0 {
                return Some(moves);
            }
            let mut next = 0;
            let mut f = frontier;
            while f != 0 {
                next |= board.reach_plain(f.trailing_zeros() as Space);
                f &= f - 1;
            }
            frontier = next & !seen;
            if frontier == 0 {
                return None;
            }
            seen |= frontier;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn completing_a_commission_always_raises_the_evaluation() {
        use engine::playout::random_action;
        let mut checked = 0;
        for seed in 0..60u64 {
            let mut g = Valdora::new(&ValdoraConfig::default(), seed).expect("valid");
            let mut rng = engine::rng_from_seed(seed);
            let mut buf = Vec::new();
            let mut legal = Vec::new();
            while let Some(action) = random_action(&g, &mut rng, &mut buf) {
                legal.clear();
                g.legal_actions(&mut legal);
                for &a in &legal {
                    if let crate::Action::Complete { commission, .. } = a {
                        let seat = g.current();
                        // Paying with gems another held commission wants may rightly
                        // lower the evaluation: only the others are checked.
                        let p = g.player(seat);
                        let paid = p.incomplete[usize::from(commission)].face(g.rules());
                        let shared = p.incomplete.iter().enumerate().any(|(i, h)| {
                            let other = h.face(g.rules());
                            i != usize::from(commission)
                                && (0..5).any(|k| other.wants.gems[k] > 0 && paid.wants.gems[k] > 0)
                        });
                        if shared {
                            continue;
                        }
                        let mut after = g.clone();
                        after.apply_unchecked(a, &mut NoEvents);
                        assert!(
                            after.evaluation(seat) > g.evaluation(seat),
                            "seed {seed}, turn {}: {a:?} lowers the evaluation {} -> {}\n{}\n{}",
                            g.turns(),
                            g.evaluation(seat),
                            after.evaluation(seat),
                            g.render(Some(seat)),
                            after.render(Some(seat))
                        );
                        checked += 1;
                    }
                }
                g.apply_unchecked(action, &mut NoEvents);
            }
        }
        assert!(checked > 100, "only {checked} completions checked");
    }

    use engine::{Game, NoEvents};

    use super::*;
    use crate::ValdoraConfig;

    #[test]
    fn carrying_a_wanted_gem_is_worth_more_than_an_unwanted_one() {
        let mut g = Valdora::new(&ValdoraConfig::default(), 3).expect("valid");
        let card = (0..40u8)
            .find(|&c| {
                let f = HeldCommission {
                    card: c,
                    side: crate::Side::Right,
                }
                .face(g.rules());
                f.wants.coins == 0 && f.wants.gems.iter().sum::<u8>() == 1
            })
            .expect("a one-gem commission exists");
        let held = HeldCommission {
            card,
            side: crate::Side::Right,
        };
        let wanted = Gem::ALL
            .into_iter()
            .find(|gem| held.face(g.rules()).wants.gems[gem.index()] == 1)
            .expect("wants one gem");
        let other = Gem::ALL
            .into_iter()
            .find(|&gem| gem != wanted)
            .expect("five gems");
        g.players[0].incomplete.push(held);
        let before = g.evaluation(0);
        let mut with_wanted = g.clone();
        with_wanted.players[0].owned |= Item::Horse.bit();
        with_wanted.players[0].gems[Item::Horse.index()] = Some(wanted);
        let mut with_other = g.clone();
        with_other.players[0].owned |= Item::Horse.bit();
        with_other.players[0].gems[Item::Horse.index()] = Some(other);
        assert!(with_wanted.evaluation(0) > with_other.evaluation(0));
        assert!(with_other.evaluation(0) > before);
    }
}
