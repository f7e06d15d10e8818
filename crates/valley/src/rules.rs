//! The ids of the numbered rules of `../shared/rules/valley_of_the_kings.md`, in the spec's order: what
//! the rules panel lists and every refusal ("why not?") cites.

pub const RULES: &[&str] = &[
    "K-SC1", "K-SC2", "K-SC3", "K-SC4", "K-SC5", "K-Z1", "K-Z2", "K-Z3", "K-Z4", "K-Z5", "K-Z6",
    "K-Z7", "K-Z8", "K-Z9", "K-Z10", "K-Z11", "K-Z12", "K-Z13", "K-Z14", "K-S1", "K-S2", "K-S3",
    "K-S4", "K-S5", "K-S6", "K-S7", "K-S8", "K-S9", "K-S10", "K-S11", "K-T1", "K-T2", "K-T3",
    "K-T4", "K-T5", "K-T6", "K-T7", "K-T8", "K-E5", "K-T9", "K-T10", "K-T11", "K-T12", "K-T17",
    "K-T13", "K-A8", "K-T14", "K-T15", "K-T16", "K-T18", "K-T19", "K-T20", "K-T21", "K-R1", "K-R2",
    "K-R3", "K-R4", "K-R5", "K-R6", "K-R7", "K-R8", "K-E0", "K-E1", "K-E2", "K-E3", "K-E4", "K-E6",
    "K-E7", "K-E8", "K-E9", "K-E10", "K-E11", "K-E12", "K-E13", "K-E14", "K-E15", "K-E16", "K-E17",
    "K-G1", "K-G2", "K-G3", "K-G4", "K-G5", "K-G6", "K-A1", "K-A2", "K-A3", "K-A4", "K-A5", "K-A6",
    "K-A7", "K-A9", "K-A10", "K-A11", "K-A12", "K-A13", "K-A14", "K-A15", "K-A16", "K-A17",
    "K-A18", "K-A19", "K-A20", "K-A21", "K-A22", "K-A23", "K-C1", "K-C2", "K-C3", "K-C4", "K-C5",
    "K-C6", "K-C7", "K-C8", "K-C9", "K-C10", "K-C11", "K-C12", "K-C13", "K-C14", "K-C15",
];
