//! The `tabletop` library: the one list of games ([`games`]), shared by the `tabletop`
//! binary and the tests that check the server against the engines.

#![forbid(unsafe_code)]

pub mod games;
pub mod ratings;
pub mod simulation;
pub mod tournament;
