//! The weights of Valley's fitted evaluation, one per feature of `evaluation::FEATURES`
//! (docs/bots.md, "Fitted evaluations"). Tuned by play from the heuristic's weights
//! (1/0.4/0/0.1/0/0/0/0), 2026-11-27:
//!
//! `scripts/tune-evaluation valley 1/0.4/0/0.1/0/0/0/0 0/0.2/0.03/0.3/0.05/0.3/0.05/0.5
//! --games 800 --sweeps 3` (greedy with the weights against three greedy bots, 800
//! games a candidate on seeds 7000..): 27.2% of the games won with the heuristic's
//! weights, 33.6% with these. Half the heuristic's credit for owned cards, four times
//! its value of gold early, and more of it the more rounds are left.

pub const WEIGHTS: [f64; 8] = [1.0, 0.2, 0.0, 0.4, 0.075, 0.0, 0.0, 0.0];
