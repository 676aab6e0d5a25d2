//! Fetters of Fenrir's additions: its own policies, honest ones that see
//! only their player's observation and the open-hand reference.

pub mod policies;

use crate::agents::Agent;
use crate::core::ParseError;
use crate::games::fenrir_cards::FenrirCards;
use crate::registry::Registered;

impl Registered for FenrirCards {
    const TITLE: &'static str = "Fetters of Fenrir, the cooperative card game of hidden hands";
    const SIDES: &'static [&'static str] = &[];

    fn build_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Self>>, ParseError> {
        policies::build_agent(spec, seed)
    }
}
