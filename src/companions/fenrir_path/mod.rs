//! Fenrir's Path's additions: its own policies.

pub mod policies;

use crate::agents::Agent;
use crate::core::{Objective, ParseError};
use crate::games::fenrir_path::{FenrirPath, SafetyMargin, ShortestWin};
use crate::registry::Registered;

impl Registered for FenrirPath {
    const TITLE: &'static str = "Fenrir's Path, the cooperative tile game";
    const SIDES: &'static [&'static str] = &["gods"];

    fn build_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Self>>, ParseError> {
        policies::build_agent(spec, seed)
    }

    fn objectives() -> Vec<Box<dyn Objective<Self>>> {
        vec![Box::new(SafetyMargin), Box::new(ShortestWin)]
    }
}
