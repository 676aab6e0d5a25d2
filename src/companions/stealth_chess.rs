//! Stealth Chess's registry entry: the generic agents and tools serve it,
//! with nothing of its own above the game layer.

use crate::games::stealth_chess::StealthChess;
use crate::registry::Registered;

impl Registered for StealthChess {
    const TITLE: &'static str = "Stealth Chess: chess on 10x8 with Slurks and Assassins";
    const SIDES: &'static [&'static str] = &["white", "black"];
}
