//! Hnefatafl's additions: the Hnefatafl Text Protocol spoken by
//! `norn engine hnefatafl` ([`HtpSession`]), and outside engines that
//! speak it playing as norn agents ([`htp_engine`]).

pub mod htp_engine;
mod htp_session;

pub use htp_session::HtpSession;
