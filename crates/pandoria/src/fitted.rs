//! The weights of Pandoria's fitted evaluation, one per feature of `evaluation::FEATURES`
//! (docs/bots.md, "Fitted evaluations"): the heuristic's own (1/1/0.5/0.3/0/0/0).
//!
//! Tuned by play, 2026-11-27 (`scripts/tune-evaluation pandoria 1/1/0.5/0.3/0/0/0
//! 0/0.3/0.25/0.15/0.05/0.03/0 --games 400 --sweeps 2 --margin 0.015`), the weights
//! 1/0.7/0.5/0.3/0.05/0/0 made greedy stronger (31.6% of 400 games against three greedy
//! bots, 24.9% with these) but the `hard` search weaker (35.0% of 100 games against three
//! greedy bots, 39.0% at temperature 8, against 46.0% with these at temperature 8), so
//! they are not used.

pub const WEIGHTS: [f64; 7] = [1.0, 1.0, 0.5, 0.3, 0.0, 0.0, 0.0];
