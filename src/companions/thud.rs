//! The two Thud games' registry entries: the generic agents and tools
//! serve them, with nothing of their own above the game layer.

use crate::games::thud::{KoomValley, Thud};
use crate::registry::Registered;

impl Registered for Thud {
    const TITLE: &'static str = "Classic Thud: one battle, scored by its margin";
    const SIDES: &'static [&'static str] = &["dwarfs", "trolls"];
}

impl Registered for KoomValley {
    const TITLE: &'static str = "Koom Valley Thud";
    const SIDES: &'static [&'static str] = &["dwarfs", "trolls"];
}
