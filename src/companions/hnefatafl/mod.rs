//! Hnefatafl's additions: the Hnefatafl Text Protocol spoken by
//! `norn engine hnefatafl` ([`HtpSession`]), outside engines that speak it
//! playing as norn agents ([`htp_engine`]), and records in OpenTafl's
//! format (written and read) and in the CSV of the shared data (read).

pub mod htp_engine;
mod htp_session;
mod records;

pub use htp_session::HtpSession;

use crate::agents::{self, Agent};
use crate::core::ParseError;
use crate::games::hnefatafl::{Hnefatafl, replay_records};
use crate::registry::{
    EngineProtocol, ExportFormat, ImportFormat, RecordFormat, RecordsReplay, Registered,
};

impl Registered for Hnefatafl {
    const TITLE: &'static str = "Copenhagen Hnefatafl 11x11";
    const SIDES: &'static [&'static str] = &["attackers", "defenders"];

    /// The common agents, and outside engines that speak the Hnefatafl Text
    /// Protocol (`htp:[reply-ms=N,][ms=N,]cmd=PROGRAM ARGUMENTS`, see
    /// [`htp_engine`]).
    fn build_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Self>>, ParseError> {
        if spec.starts_with(htp_engine::HTP_PREFIX) {
            return Ok(Box::new(htp_engine::HtpEngineAgent::from_spec(spec)?));
        }
        agents::build_encoded_agent(spec, seed)
    }

    fn engine_protocols() -> Vec<EngineProtocol<Self>> {
        vec![EngineProtocol {
            name: "htp",
            title: "the Hnefatafl Text Protocol",
            session: |rules, agent| Box::new(HtpSession::new(rules, agent)),
        }]
    }

    fn record_formats() -> Vec<RecordFormat<Self>> {
        vec![RecordFormat {
            name: "csv",
            title: "the game records of the shared data (CSV)",
            replay: |text, rules| {
                replay_records(text, *rules).map(|summary| RecordsReplay {
                    json: serde_json::to_value(&summary).expect("replay summaries serialise"),
                    text: summary.text(),
                    all_agree: summary.all_agree(),
                })
            },
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
        vec![
            ImportFormat {
                name: "csv",
                title: "the game records of the shared data (CSV), each as far as it replays",
                read: records::read_csv,
            },
            ImportFormat {
                name: "opentafl",
                title: "OpenTafl game records (.otg)",
                read: records::read_opentafl,
            },
        ]
    }
}
