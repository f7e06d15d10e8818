//! Pandoria (Jeffrey D. Allers & Bernd Eisenstein, Irongames 2018), rules-exact, on the
//! tabletop Game contract. Rules: `shared/rules/pandoria.md` (ids P-*); data:
//! `data/pandoria.toml`; notes and open work: `docs/pandoria.md`.
//!
//! Built so far: the hex geometry ([`hex`]), the static board ([`board`]) and the
//! dynamic map with incremental region bookkeeping ([`map`]).

#![forbid(unsafe_code)]

pub mod board;
pub mod cards;
pub mod components;
pub mod data;
pub mod hex;
pub mod map;

#[cfg(test)]
mod tests;
