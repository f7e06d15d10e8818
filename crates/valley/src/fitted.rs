//! The weights of Valley's fitted evaluation, one per feature of `evaluation::FEATURES`
//! (docs/bots.md, "Fitted evaluations"). Tuned by play, 2026-11-28 (docs/experiments/bots-valley.md,
//! "Valley: the entombments left" and "Valley: the supply"), greedy with the weights
//! against three greedy bots, 1,200 games a candidate on seeds 7000..:
//!
//! - `reachable` (what one entombment a turn can take of the owned cards) took the credit
//!   for owned cards from `potential`: 37.7% against 32.3% with the weights before;
//!   `scripts/tune-evaluation valley 1/0/0/0.4/0.075/0/0/0/0.4
//!   0/0.1/0.02/0.2/0.03/0.1/0.01/0.3/0.2 --games 1200 --sweeps 2` found no step better by
//!   more than a point.
//! - `supply_reachable` (the same with the supply's kinds counted as owned) at 0.05: 42.4%;
//!   0.025 to 0.1 all won 41.7–42.4%, 0.2 and 0.4 won 39.1% and 33.1%. `hard` reads it
//!   for its own turns only ([`FAST_WEIGHTS`]).
//! - `entomber_draws` (the draws left of the owned cards that entomb beyond the allowance)
//!   at 0.5: 55.7%; 0.25 and 0.75 won 54.4% and 55.4%, 1 and 2 won 51.6% and 35.4%
//!   (docs/experiments/bots-valley.md, "Valley: the cards that entomb more").

pub const WEIGHTS: [f64; 11] = [1.0, 0.0, 0.0, 0.4, 0.075, 0.0, 0.0, 0.0, 0.4, 0.05, 0.5];

/// The fitted weights without `supply_reachable` (`Game::evaluate_fast`): it reads the
/// whole stock at every position, and `hard` models the other seats' turns in its samples
/// with these (docs/experiments/bots-valley.md, "Valley: the supply for the seat's own turns").
pub const FAST_WEIGHTS: [f64; 11] = {
    let mut weights = WEIGHTS;
    weights[crate::evaluation::SUPPLY_REACHABLE] = 0.0;
    weights
};
