//! `preset=best` in agent specs: the settings of each agent kind that did
//! best on a game's equal-time ladders (`bench-results/strength.md`). They
//! are not the kinds' defaults, which stay the same for every game: the
//! same spec means the same search on every game, and what differs per game
//! is a preset.

use crate::core::{Game, ParseError, parse_key_values};
use std::borrow::Cow;

/// The options of best-first minimax, the MCTS that did best on the board
/// games' ladders: every child opened and evaluated at once, no playouts,
/// no exploration, the implicit minimax value alone, the best value played.
/// With more than one thread the threads share the tree: such a search
/// draws nothing at random, so root-parallel trees would all be the same
/// (with one thread the two are the same search). A macro, so that the
/// presets can extend it with `concat!`.
macro_rules! best_first_minimax {
    () => {
        "expand=all,minimax=1,playout=0,c=0,pick=value,parallel=tree"
    };
}

/// The best settings, as `(game, kind, options)`: what `KIND:preset=best`
/// stands for on the game named `game` ([`Game::NAME`]).
const BEST_SETTINGS: &[(&str, &str, &str)] = &[
    // The evaluation fitted to the game records for both, and for MCTS
    // best-first minimax with half of that evaluation's swing between
    // depths as a bonus for the player to move: +38 Elo against the
    // alpha-beta preset at 100 ms a move over 100 games.
    ("hnefatafl", "alphabeta", "eval=tuned"),
    (
        "hnefatafl",
        "mcts",
        concat!(best_first_minimax!(), ",tempo=0.024,eval=tuned"),
    ),
    // Best-first minimax lost every pair of battles to alpha-beta, as the
    // earlier MCTS did, but by a third of the margin; the tempo bonus
    // changed nothing.
    ("thud", "mcts", best_first_minimax!()),
    // Best-first minimax with a bonus for the player to move: level with
    // alpha-beta at 100 ms a move over 160 games.
    (
        "koom-valley",
        "mcts",
        concat!(best_first_minimax!(), ",tempo=0.04"),
    ),
    // The tafl family: alpha-beta with the evaluation of each game's board
    // size and escape rule, checked against material alone in self-play
    // (bench-results/tafl.md); for MCTS, Hnefatafl's best-first minimax
    // with its tempo bonus, carried over from Copenhagen's ladder and not
    // laddered on the other variants.
    ("tafl", "alphabeta", "eval=hand"),
    (
        "tafl",
        "mcts",
        concat!(best_first_minimax!(), ",tempo=0.024,eval=hand"),
    ),
    // The MCTS that scored most against alpha-beta (2.5 of 20 games), if
    // within the noise of best-first minimax (1.5 and 2 of 20): no MCTS
    // tried comes near alpha-beta here.
    ("stealth-chess", "mcts", "playout=0,minimax=0.5,c=0.05"),
];

/// The presets of game `G`, as `(kind, options)`; empty where no ladder
/// was run.
pub fn best_settings<G: Game>() -> Vec<(&'static str, &'static str)> {
    BEST_SETTINGS
        .iter()
        .filter(|&&(game, _, _)| game == G::NAME)
        .map(|&(_, kind, options)| (kind, options))
        .collect()
}

/// `spec` with `preset=best` replaced by the options it stands for on game
/// `G` ([`best_settings`]); `spec` itself if it has no preset (or options
/// that do not parse, which the agent's builder then reports). Options
/// given beside the preset take precedence over its own, so
/// `mcts:preset=best,ms=1000,tempo=0` is the preset at 1 s a move without
/// the tempo bonus.
///
/// # Errors
/// A preset other than `best`, and a preset for a kind that has none on
/// this game.
pub fn expand_preset<G: Game>(spec: &str) -> Result<Cow<'_, str>, ParseError> {
    const WHAT: &str = "agent spec";
    let trimmed = spec.trim();
    let (kind, options) = trimmed.split_once(':').unwrap_or((trimmed, ""));
    let kind = kind.trim();
    let Ok(given) = parse_key_values(options, WHAT) else {
        return Ok(Cow::Borrowed(spec));
    };
    let Some(&(_, preset)) = given.iter().find(|&&(key, _)| key == "preset") else {
        return Ok(Cow::Borrowed(spec));
    };
    if preset != "best" {
        return Err(ParseError::new(
            WHAT,
            spec,
            format!("`preset` takes `best`, not `{preset}`"),
        ));
    }
    let presets = best_settings::<G>();
    let Some(&(_, settings)) = presets.iter().find(|&&(of, _)| of == kind) else {
        let kinds: Vec<&str> = presets.iter().map(|&(of, _)| of).collect();
        let problem = if kinds.is_empty() {
            format!("no ladder has measured best settings on {}", G::NAME)
        } else {
            format!(
                "no ladder has measured best settings of `{kind}` on {} (presets: {})",
                G::NAME,
                kinds.join(", ")
            )
        };
        return Err(ParseError::new(WHAT, spec, problem));
    };
    let preset_pairs = parse_key_values(settings, WHAT).expect("the presets parse");
    let options: Vec<String> = preset_pairs
        .iter()
        .filter(|&&(key, _)| !given.iter().any(|&(given, _)| given == key))
        .chain(given.iter().filter(|&&(key, _)| key != "preset"))
        .map(|(key, value)| format!("{key}={value}"))
        .collect();
    Ok(Cow::Owned(format!("{kind}:{}", options.join(","))))
}
