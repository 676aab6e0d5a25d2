//! Nibelungen's additions: the whole game solved by retrograde analysis,
//! and the oracle agent that plays from the solved table.

pub mod retrograde;
