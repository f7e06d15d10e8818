//! The ids of the numbered rules of `../shared/rules/pandoria.md`, in the spec's order: what
//! the rules panel lists and every refusal ("why not?") cites.

pub const RULES: &[&str] = &[
    "P-SC1", "P-SC2", "P-SC3", "P-SC4", "P-SC5", "P-SC6", "P-G1", "P-G2", "P-G3", "P-G4", "P-G5",
    "P-G6", "P-G7", "P-G8", "P-G9", "P-G10", "P-G11", "P-G12", "P-G13", "P-Z1", "P-Z2", "P-Z3",
    "P-Z4", "P-Z5", "P-Z6", "P-Z7", "P-Z8", "P-Z9", "P-S1", "P-S2", "P-S3", "P-S4", "P-S5", "P-S6",
    "P-S7", "P-S8", "P-S9", "P-S10", "P-S11", "P-S12", "P-T1", "P-T2", "P-T3", "P-T4", "P-T5",
    "P-T6", "P-T7", "P-T8", "P-T9", "P-T10", "P-T11", "P-T12", "P-K1", "P-K2", "P-K3", "P-K4",
    "P-K5", "P-R1", "P-R2", "P-R3", "P-R4", "P-R5", "P-R6", "P-R7", "P-R8", "P-R9", "P-R10",
    "P-R11", "P-P1", "P-SP1", "P-SP2", "P-SP3", "P-SP4", "P-SP5", "P-SP6", "P-SP7", "P-SP8",
    "P-SP9", "P-SP10", "P-SP11", "P-SP12", "P-SP13", "P-B1", "P-B2", "P-B3", "P-B6", "P-B7",
    "P-B8", "P-B9", "P-B10", "P-B11", "P-D1", "P-E1", "P-E2", "P-E3", "P-E4", "P-E5", "P-E6",
    "P-X1", "P-X2", "P-X3", "P-X4", "P-X5", "P-X6", "P-X7", "P-X8", "P-X9", "P-X10", "P-X11",
    "P-X12", "P-X13", "P-X14", "P-X15", "P-X16", "P-X17", "P-X18", "P-X19", "P-X20", "P-C1",
    "P-C2", "P-C3", "P-C4", "P-C5", "P-C6", "P-C7", "P-C8", "P-C9", "P-C10", "P-C11", "P-C12",
    "P-C13", "P-C14", "P-C15", "P-C16", "P-C17", "P-C18", "P-C19", "P-C20",
];
