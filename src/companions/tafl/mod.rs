//! The tafl family's additions: its registry entry, with every built-in
//! variant as a name of its own (`brandub`, `tablut`, ...), its records in
//! OpenTafl's format, the OpenTafl Engine Protocol spoken by `norn engine
//! --protocol otep` ([`OtepSession`]), and outside engines that speak it
//! playing as norn agents ([`otep_engine`]).

pub mod otep_engine;
mod otep_session;
mod records;

pub use otep_session::OtepSession;

use crate::agents::{self, Agent};
use crate::core::ParseError;
use crate::games::tafl::{Tafl, VARIANTS};
use crate::registry::{
    EngineProtocol, ExportFormat, ImportFormat, RecordFormat, Registered, Variant,
};
use std::sync::LazyLock;

/// The rules text each variant's name stands for, in the order of
/// [`VARIANTS`].
static VARIANT_RULES: LazyLock<Vec<String>> = LazyLock::new(|| {
    VARIANTS
        .iter()
        .map(|variant| format!("variant={}", variant.name))
        .collect()
});

impl Registered for Tafl {
    const TITLE: &'static str =
        "A tafl game from an OpenTafl rules string (--otn; Fetlar 11x11 without one)";
    const SIDES: &'static [&'static str] = &["attackers", "defenders"];

    /// Every built-in variant, under its name.
    fn variants() -> Vec<Variant> {
        VARIANTS
            .iter()
            .zip(VARIANT_RULES.iter())
            .map(|(variant, rules)| Variant {
                name: variant.name,
                title: variant.title,
                rules,
            })
            .collect()
    }

    /// The common agents, and outside engines that speak the OpenTafl
    /// Engine Protocol (`otep:[reply-ms=N,][ms=N,]cmd=PROGRAM ARGUMENTS`,
    /// see [`otep_engine`]).
    fn build_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Self>>, ParseError> {
        if spec.starts_with(otep_engine::OTEP_PREFIX) {
            return Ok(Box::new(otep_engine::OtepEngineAgent::from_spec(spec)?));
        }
        agents::build_encoded_agent(spec, seed)
    }

    fn engine_protocols() -> Vec<EngineProtocol<Self>> {
        vec![EngineProtocol {
            name: "otep",
            title: "the OpenTafl Engine Protocol",
            session: |rules, agent| Box::new(OtepSession::new(rules, agent)),
        }]
    }

    fn record_formats() -> Vec<RecordFormat<Self>> {
        vec![RecordFormat {
            name: "opentafl",
            title: "OpenTafl game records (.otg), each under the rules string it carries",
            replay: records::replay_opentafl,
        }]
    }

    fn export_formats() -> Vec<ExportFormat<Self>> {
        vec![ExportFormat {
            name: "opentafl",
            title: "OpenTafl game records (.otg)",
            write: records::write_opentafl,
        }]
    }

    fn import_formats() -> Vec<ImportFormat<Self>> {
        vec![ImportFormat {
            name: "opentafl",
            title: "OpenTafl game records (.otg), each under the rules string it carries",
            read: records::read_opentafl,
        }]
    }
}
