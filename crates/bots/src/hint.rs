//! Hints: what the hard bot would do for a seat, and why — the top few actions at the
//! root of its search, with their estimated values and visits, best first.
//!
//! A hint is a search like the bot's own decision: it determinizes the state for the
//! seat to move before anything else, so that it reads nothing the seat may not know.
//! Its first action is the one the bot ([`Ismcts`] or [`RolloutBot`]) with the same
//! configuration and seed chooses.

use engine::{Game, Seat};

use crate::ismcts::{mean_reward, ranks_before};
use crate::{BotSpec, Ismcts, Level, RolloutBot, SearchStats, Stop};

/// How many actions a hint names unless told otherwise.
pub const DEFAULT_TOP: usize = 3;
/// The most a hint names: more would not be a hint, and the list is shown on the board.
pub const MAX_TOP: usize = 10;

/// One action of a hint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HintAction<A> {
    /// The seat's next atomic action (with turn steps, the first action of a plan).
    pub action: A,
    /// The mean reward of the action at the root: the search's estimate of the seat's
    /// chance of winning (its share of the victory) after it, in [0, 1].
    pub value: f64,
    /// The root visits of the action (with turn steps, of its most visited plan) summed
    /// over threads: how much the estimate is worth. 0 only for a forced action the
    /// search never reached.
    pub visits: u64,
}

/// What the bot would do for a seat, best first.
#[derive(Debug, Clone, PartialEq)]
pub struct Hint<A> {
    pub seat: Seat,
    /// At least one action; the first is the bot's own decision. Unvisited actions are
    /// left out (they have no estimate), save the first.
    pub actions: Vec<HintAction<A>>,
    /// What the search did.
    pub search: SearchStats,
}

/// Why no hint is given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HintError {
    #[error("the game is over")]
    GameOver,
    #[error("seat {seat} is not at this table ({seats} seats)")]
    NoSuchSeat { seat: usize, seats: usize },
    #[error("it is seat {to_move}'s turn, not seat {seat}'s")]
    NotToMove { seat: usize, to_move: Seat },
    #[error("level {0:?} does not search, so it has no values to give")]
    NotASearch(&'static str),
}

/// The hard level's search in `game` (see [`Level`]): an ISMCTS or a rollout spec.
pub fn hard_search(game: &str) -> Result<BotSpec, HintError> {
    let hard = Level::named("hard").ok_or(HintError::NotASearch("hard"))?;
    match hard.bot_for(game) {
        spec @ (BotSpec::Ismcts(_) | BotSpec::Rollout(_)) => Ok(spec),
        _ => Err(HintError::NotASearch(hard.name)),
    }
}

/// The top `top` actions (1..=[`MAX_TOP`]; out-of-range values are clamped) of a search
/// with `search` (an ISMCTS or a rollout spec) and `seed` for `seat`, which must be the
/// seat to move, within `stop` (and the spec's own budget).
pub fn hint<G: Game>(
    state: &G,
    seat: usize,
    search: BotSpec,
    seed: u64,
    stop: &Stop,
    top: usize,
) -> Result<Hint<G::Action>, HintError> {
    let seats = state.seats();
    if seat >= seats {
        return Err(HintError::NoSuchSeat { seat, seats });
    }
    let Some(to_move) = state.to_move() else {
        return Err(HintError::GameOver);
    };
    if usize::from(to_move) != seat {
        return Err(HintError::NotToMove { seat, to_move });
    }
    // A seat to move always has a legal action; `None` here would be a broken game.
    let (root, search) = match search {
        BotSpec::Ismcts(config) => {
            let mut bot = Ismcts::<G>::new(config, seed);
            let root = bot.search_root(state, stop, true);
            (root, bot.last_search())
        }
        BotSpec::Rollout(config) => {
            let mut bot = RolloutBot::<G>::new(config, seed);
            let root = bot.search_root(state, stop, true);
            (root, bot.last_search())
        }
        other => return Err(HintError::NotASearch(other.kind())),
    };
    let root = root.ok_or(HintError::GameOver)?;
    let best = root.best;
    let mut order: Vec<usize> = (0..root.actions.len()).collect();
    let stats = |i: usize| (root.actions[i].1, root.actions[i].2);
    // Stable: ties keep their legal order, as in the bot's decision, so the bot's
    // choice comes first.
    order.sort_by(|&a, &b| {
        if ranks_before(stats(a), stats(b)) {
            std::cmp::Ordering::Less
        } else if ranks_before(stats(b), stats(a)) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    debug_assert_eq!(order.first(), Some(&best));
    let actions = std::iter::once(best)
        .chain(
            order
                .into_iter()
                .filter(|&i| i != best && root.actions[i].1 > 0),
        )
        .take(top.clamp(1, MAX_TOP))
        .map(|i| {
            let (action, visits, reward) = root.actions[i];
            HintAction {
                action,
                value: mean_reward((visits, reward)).clamp(0.0, 1.0),
                visits,
            }
        })
        .collect();
    Ok(Hint {
        seat: root.seat,
        actions,
        search,
    })
}

/// [`hint`] with the hard level's search, the way the hard bot would play the seat.
pub fn hard_hint<G: Game>(
    state: &G,
    seat: usize,
    seed: u64,
    stop: &Stop,
    top: usize,
) -> Result<Hint<G::Action>, HintError> {
    hint(state, seat, hard_search(G::NAME)?, seed, stop, top)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Budget, IsmctsConfig, RolloutConfig};
    use engine::playout::random_playout;
    use engine::{rng_from_seed, NoEvents};
    use valdora::{Valdora, ValdoraConfig};

    fn config(iters: u32) -> BotSpec {
        BotSpec::Ismcts(ismcts(iters))
    }

    fn ismcts(iters: u32) -> IsmctsConfig {
        IsmctsConfig {
            budget: Budget::Iterations(iters),
            turn_nodes: 300,
            step: crate::Step::Turn {
                plans: 8,
                replies: 2,
                root_nodes: 2000,
            },
            ..IsmctsConfig::default()
        }
    }

    fn position(seed: u64, depth: u64) -> Valdora {
        let mut g = Valdora::new(&ValdoraConfig::default(), seed).expect("valid config");
        random_playout(&mut g, &mut rng_from_seed(seed), &mut Vec::new(), depth);
        g
    }

    #[test]
    fn the_first_action_is_the_bots_own_choice_and_values_are_sorted_chances() {
        let mut checked = 0;
        for (seed, depth) in [(1, 0), (2, 30), (3, 120), (4, 400), (5, 9)] {
            let g = position(seed, depth);
            let Some(seat) = g.to_move() else { continue };
            let rollout = RolloutConfig {
                budget: Budget::Iterations(6),
                root_nodes: 2000,
                turn_nodes: 300,
                turns: Some(2),
                ..RolloutConfig::default()
            };
            for search in [
                BotSpec::Ismcts(IsmctsConfig {
                    step: crate::Step::Action,
                    ..ismcts(120)
                }),
                config(120),
                BotSpec::Rollout(rollout),
            ] {
                let hint = hint(&g, usize::from(seat), search, 7, &Stop::never(), 4)
                    .expect("the seat to move gets a hint");
                let chosen = search.build::<Valdora>(7).choose(&g);
                assert_eq!(Some(hint.actions[0].action), chosen, "seed {seed}");
                assert!(!hint.actions.is_empty() && hint.actions.len() <= 4);
                assert_eq!(hint.seat, seat);
                let mut legal = Vec::new();
                g.legal_actions(&mut legal);
                for pair in hint.actions.windows(2) {
                    let (a, b) = (&pair[0], &pair[1]);
                    assert!(
                        a.visits > b.visits || (a.visits == b.visits && a.value >= b.value),
                        "best first: {a:?} then {b:?}"
                    );
                }
                for a in &hint.actions {
                    assert!((0.0..=1.0).contains(&a.value), "{a:?}");
                    assert!(legal.contains(&a.action), "{a:?} is legal");
                }
                let distinct: std::collections::HashSet<String> = hint
                    .actions
                    .iter()
                    .map(|a| format!("{:?}", a.action))
                    .collect();
                assert_eq!(distinct.len(), hint.actions.len(), "each action once");
                checked += 1;
            }
        }
        assert!(checked >= 12);
    }

    #[test]
    fn only_the_seat_to_move_gets_a_hint_and_none_once_the_game_is_over() {
        let g = position(3, 50);
        let seat = usize::from(g.to_move().expect("not over"));
        let other = (seat + 1) % g.seats();
        assert_eq!(
            hint(&g, other, config(20), 1, &Stop::never(), 3).map(|h| h.seat),
            Err(HintError::NotToMove {
                seat: other,
                to_move: g.to_move().expect("not over")
            })
        );
        assert_eq!(
            hint(&g, 9, config(20), 1, &Stop::never(), 3).map(|h| h.seat),
            Err(HintError::NoSuchSeat { seat: 9, seats: 4 })
        );
        let mut over = g.clone();
        random_playout(&mut over, &mut rng_from_seed(1), &mut Vec::new(), u64::MAX);
        assert!(over.outcome().is_some());
        assert_eq!(
            hint(&over, 0, config(20), 1, &Stop::never(), 3).map(|h| h.seat),
            Err(HintError::GameOver)
        );
    }

    #[test]
    fn top_is_clamped_and_a_forced_action_still_gets_a_value() {
        let g = position(6, 77);
        let seat = usize::from(g.to_move().expect("not over"));
        let one = hint(&g, seat, config(60), 2, &Stop::never(), 0).expect("a hint");
        assert_eq!(one.actions.len(), 1);
        let many = hint(&g, seat, config(60), 2, &Stop::never(), 1000).expect("a hint");
        assert!(many.actions.len() <= MAX_TOP);
        // A position with a single legal action: the hint searches all the same.
        let mut g = position(8, 0);
        let forced = (0..2000).find_map(|_| {
            let mut legal = Vec::new();
            g.legal_actions(&mut legal);
            if legal.len() == 1 {
                return Some(g.clone());
            }
            let a = *legal.first()?;
            g.apply(a, &mut NoEvents).ok()?;
            None
        });
        if let Some(forced) = forced {
            let seat = usize::from(forced.to_move().expect("not over"));
            let h = hint(&forced, seat, config(30), 3, &Stop::never(), 3).expect("a hint");
            assert_eq!(h.actions.len(), 1);
            assert!(h.actions[0].visits > 0);
        }
    }

    #[test]
    fn the_hard_level_searches() {
        for game in ["valdora", "valley", "pandoria"] {
            assert!(hard_search(game).is_ok(), "{game}");
        }
        assert_eq!(
            hint(
                &position(2, 10),
                0,
                "medium".parse().expect("a level"),
                1,
                &Stop::never(),
                3
            )
            .map(|h| h.seat),
            Err(HintError::NotASearch("medium"))
        );
        let g = position(2, 10);
        let seat = usize::from(g.to_move().expect("not over"));
        // Stopped before it starts: the first iteration runs all the same.
        let stopped = Stop::at(std::time::Instant::now());
        let h = hard_hint(&g, seat, 1, &stopped, DEFAULT_TOP).expect("a hint");
        assert!(!h.actions.is_empty() && h.actions.len() <= DEFAULT_TOP);
    }
}
