//! `norn view`: one self-contained HTML page of a run, to read in a
//! browser without a network: the report of a tournament, a match or a
//! win-rate run with its charts, and a browser of every game that steps
//! through its positions.
//!
//! The page never judges a move. Every game is replayed and checked here,
//! as `norn replay` checks it, and each position's
//! [`Picture`](crate::core::Picture) computed; the page keeps per ply only
//! the slots that changed ([`PlyFrame`]), deflated and in base64 per game
//! ([`pack`]), and inflates a game when it is opened.
//!
//! - `build`: the run read, its games replayed, the page put together;
//!   `winrate`: the page of a win-rate run;
//! - `frames`: a game's pictures as keyframes and changes; `encode`:
//!   packing them;
//! - `charts`: the charts as SVG; `markdown`: the report as HTML; `page`:
//!   the HTML document and its script (`viewer.js`);
//! - `serve`: the page served and refreshed while a run goes on.

mod build;
mod charts;
mod encode;
mod frames;
mod markdown;
mod page;
mod serve;
mod winrate;

pub use build::{DEFAULT_VIEWED_GAMES, Filmstrip, ViewOptions, game_frames, view_page};
pub use encode::{pack, unpack};
pub use frames::{GameFrames, Layouts, PlyFrame, content_code, content_of_code};
pub(crate) use markdown::markdown_html;
pub(crate) use page::Page;
pub use serve::{check_loopback, serve_page};
pub use winrate::{ReplayedDeals, win_rate_page};
