//! The weights of Valley's fitted evaluation, one per feature of `evaluation::FEATURES`
//! (docs/bots.md, "Fitted evaluations"). Tuned by play, 2026-11-28, from the weights
//! tuned before (1/0.2/0/0.4/0.075/0/0/0) with the credit for owned cards moved to
//! `reachable`, what the entombments left can make of them:
//!
//! `scripts/tune-evaluation valley 1/0/0/0.4/0.075/0/0/0/0.4
//! 0/0.1/0.02/0.2/0.03/0.1/0.01/0.3/0.2 --games 1200 --sweeps 2` (greedy with the weights
//! against three greedy bots, 1,200 games a candidate on seeds 7000..): the start won
//! 37.7%, no step beat it by more than a point; the weights before won 32.3% of the same
//! games. The owned cards count only as far as one entombment a turn can take them.

pub const WEIGHTS: [f64; 9] = [1.0, 0.0, 0.0, 0.4, 0.075, 0.0, 0.0, 0.0, 0.4];
