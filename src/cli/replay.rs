use super::{CliResult, GameName, parse_rules, print_json};
use crate::games::hnefatafl::{Hnefatafl, replay_records};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The game (records exist for hnefatafl)
    game: GameName,
    /// A CSV file of game records: moves,attacker_captures,defender_captures,result
    file: PathBuf,
    /// Rules options as key=value pairs
    #[arg(long)]
    rules: Option<String>,
    /// Print one JSON summary object instead of text
    #[arg(long)]
    json: bool,
}

pub fn run(args: ReplayArgs) -> CliResult {
    match args.game {
        GameName::Hnefatafl => {}
        GameName::FenrirPath => return Err("game records exist for hnefatafl only".into()),
    }
    let rules = parse_rules::<Hnefatafl>(args.rules.as_deref())?;
    let csv = std::fs::read_to_string(&args.file)
        .map_err(|error| format!("cannot read {}: {error}", args.file.display()))?;
    let summary = replay_records(&csv, rules).map_err(|error| error.to_string())?;
    if args.json {
        return print_json(&summary);
    }
    println!(
        "{:>5} {:>6} {:>8} {:>7} {:>10}  ended early",
        "line", "moves", "replayed", "illegal", "mismatches"
    );
    for game in &summary.per_game {
        let early = match &game.ended_early {
            Some(early) => format!(
                "after ply {} by {} ({} moves left)",
                early.ply, early.reason, early.moves_left
            ),
            None => "-".to_string(),
        };
        println!(
            "{:>5} {:>6} {:>8} {:>7} {:>10}  {early}",
            game.line,
            game.moves_recorded,
            game.moves_replayed,
            usize::from(game.illegal_move.is_some()),
            game.capture_mismatches.len(),
        );
        if let Some(illegal) = &game.illegal_move {
            println!(
                "      illegal move {} at ply {}: {}",
                illegal.text, illegal.ply, illegal.reason
            );
        }
        for mismatch in &game.capture_mismatches {
            println!(
                "      {} at ply {}: record captures [{}], engine captures [{}]",
                mismatch.text,
                mismatch.ply,
                mismatch.recorded.join(" "),
                mismatch.engine.join(" ")
            );
        }
    }
    println!(
        "\n{} games, {} moves replayed, {} illegal moves, {} capture mismatches, {} games ended early",
        summary.games,
        summary.moves,
        summary.illegal_moves,
        summary.capture_mismatches,
        summary.ended_early
    );
    for (reason, count) in &summary.ended_early_by_reason {
        println!("  ended early by {reason}: {count}");
    }
    Ok(())
}
