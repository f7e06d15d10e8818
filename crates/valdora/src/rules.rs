//! The ids of the numbered rules of `../shared/rules/valdora.md`, in the spec's order: what
//! the rules panel lists and every refusal ("why not?") cites.

pub const RULES: &[&str] = &[
    "V-C1", "V-C2", "V-C3", "V-C4", "V-C5", "V-C6", "V-C7", "V-C8", "V-C9", "V-S1", "V-S2", "V-S3",
    "V-S4", "V-T1", "V-T2", "V-T3", "V-T4", "V-A4", "V-A1", "V-A2", "V-A3", "V-A5", "V-A6", "V-E1",
    "V-E2", "V-E3", "V-I1", "V-I2", "V-I3", "V-X1", "V-X2", "V-X3", "V-X4", "V-X5", "V-X6", "V-X7",
];
