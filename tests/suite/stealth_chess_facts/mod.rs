//! Stealth Chess against independent facts: the published chess perft
//! numbers and a plain model of the rules written separately.

mod published_perft;
mod slow_model;
