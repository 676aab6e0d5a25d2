//! Fenrir's Path's additions: its own policies.

pub mod policies;
