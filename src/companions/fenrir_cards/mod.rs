//! Fetters of Fenrir's additions: its own policies, honest ones that see
//! only their player's observation and the open-hand reference.

pub mod policies;
