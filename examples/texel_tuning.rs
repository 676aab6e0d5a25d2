//! Fits the Hnefatafl evaluation's weights to the outcomes of the recorded
//! games (`tests/data/copenhagen-games.csv`) and prints them with the scale
//! `K` and the losses of the hand-set and tuned weights on the training and
//! held-out games, then the tuned weights as Rust constants for
//! `HnefataflWeights::TUNED`.
//!
//! Run with `cargo run --release --example texel_tuning [RECORDS.csv]`.

use norn::games::hnefatafl::tuning::{TuningOptions, tune};
use norn::games::hnefatafl::{HnefataflWeights, TERM_NAMES};
use std::process::ExitCode;

fn main() -> ExitCode {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/data/copenhagen-games.csv".to_string());
    let csv = match std::fs::read_to_string(&path) {
        Ok(csv) => csv,
        Err(error) => {
            eprintln!("cannot read {path}: {error}");
            return ExitCode::FAILURE;
        }
    };
    let options = TuningOptions::default();
    let report = match tune(&csv, options) {
        Ok(report) => report,
        Err(error) => {
            eprintln!("{path}: {error}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "records: {path}; positions from ply {} on, every {}th game held out",
        options.first_ply, options.test_every
    );
    println!(
        "games: {} training, {} held out, {} left out (result unknown)",
        report.games[0], report.games[1], report.unknown_results
    );
    println!(
        "positions: {} training, {} held out",
        report.positions[0], report.positions[1]
    );
    println!("K (fitted for the hand-set weights): {:.4}", report.scale);
    println!(
        "Newton steps: {}, gradient norm at the tuned weights: {:.2e}",
        report.fit.steps, report.fit.gradient_norm
    );
    println!();
    println!("{:<16} {:>9} {:>9}", "term", "hand-set", "tuned");
    let hand = HnefataflWeights::HAND_SET.to_array();
    let tuned = report.fit.weights.to_array();
    for ((name, hand), tuned) in TERM_NAMES.iter().zip(hand).zip(tuned) {
        println!("{name:<16} {hand:>9.4} {tuned:>9.4}");
    }
    println!();
    println!(
        "{:<10} {:>15} {:>15} {:>15} {:>15}",
        "weights", "log-loss train", "log-loss test", "sq-error train", "sq-error test"
    );
    for (name, [train, test]) in [("hand-set", report.hand_set), ("tuned", report.tuned)] {
        println!(
            "{name:<10} {:>15.5} {:>15.5} {:>15.5} {:>15.5}",
            train.log_loss, test.log_loss, train.squared_error, test.squared_error
        );
    }
    println!();
    println!("pub const TUNED: HnefataflWeights = HnefataflWeights {{");
    for (name, value) in TERM_NAMES.iter().zip(tuned) {
        println!("    {name}: {value:.4},");
    }
    println!("}};");
    ExitCode::SUCCESS
}
