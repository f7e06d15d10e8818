//! Rule tests; each cites the P-* id it checks.

mod geometry;
