//! The Hnefatafl Text Protocol session as the library offers it, driven
//! line by line without the binary.

use norn::agents::build_agent;
use norn::companions::hnefatafl::HtpSession;
use norn::engine::EngineSession;
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::registry::Registered;

fn session() -> HtpSession {
    let agent = build_agent::<Hnefatafl>("alphabeta:depth=1", 3).unwrap();
    HtpSession::new(HnefataflRules::default(), agent)
}

#[test]
fn a_session_answers_line_by_line_and_ends_on_quit() {
    let mut session = session();
    assert_eq!(session.answer("# a comment"), None);
    assert_eq!(session.answer("   "), None);
    assert_eq!(session.answer("name").as_deref(), Some("= norn\n\n"));
    // A legal opening move answers with the squares it captured (none).
    assert_eq!(
        session.answer("play attacker d1 d3").as_deref(),
        Some("= \n\n")
    );
    let refused = session.answer("play attacker a4 a1").unwrap();
    assert!(refused.starts_with("? "), "{refused}");
    let generated = session.answer("generate_move").unwrap();
    assert!(generated.starts_with("= play defender "), "{generated}");
    assert_eq!(
        session.answer("final_status").as_deref(),
        Some("= ongoing\n\n")
    );
    assert!(!session.finished());
    assert_eq!(session.answer("quit").as_deref(), Some("= \n\n"));
    assert!(session.finished());
}

#[test]
fn the_registry_offers_the_protocol_for_hnefatafl_only() {
    let names: Vec<&str> = Hnefatafl::engine_protocols()
        .iter()
        .map(|protocol| protocol.name)
        .collect();
    assert_eq!(names, ["htp"]);
    assert!(
        norn::games::thud::Thud::engine_protocols().is_empty(),
        "no protocol is defined for thud"
    );
}
