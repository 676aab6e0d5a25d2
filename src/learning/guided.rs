//! The guided search over states of a game chosen at run time
//! ([`DynGame::guided_search`](super::DynGame::guided_search),
//! [`DynVector::guided_search`](super::DynVector::guided_search)), guided
//! by an evaluator of tensors (a Python function, a network).

use crate::agents::{AzOptions, read_options_onto_both};
use crate::core::{Capabilities, Game, derive_seed};
use crate::registry::Registered;
use crate::search::StopFlag;
use crate::search::guided::{
    EvaluationBlend, GuidedConfig, GuidedSearch, SearchOutcome, SearchRoot, TensorEvaluator,
    Tensors,
};

/// Searches every position (a state and the ids already chosen of its
/// move) in one batched search with the `az` options `options` (see
/// [`GuidedConfig`]), `evaluator` answering for the leaves; position `i`
/// draws from `derive_seed(seed, i)`. The outcomes name the move an id
/// completes in the game's notation. Once `stop` is raised the search
/// ends after its round under way, with fewer simulations.
///
/// # Errors
/// Options that do not read, a game with hidden information or
/// simultaneous moves, and whatever stops the search.
pub fn search_positions<G: Registered>(
    positions: &[(&G, &[u32])],
    options: &str,
    evaluator: &mut dyn TensorEvaluator,
    seed: u64,
    stop: &StopFlag,
) -> Result<Vec<SearchOutcome<String>>, String> {
    refuse_unsearchable::<G>("the guided search")?;
    let config: GuidedConfig = options.parse().map_err(|error| format!("{error}"))?;
    let eval_mix = config.eval_mix;
    let mut search = GuidedSearch::new(config)?;
    search.set_stop_flag(stop.clone());
    let roots: Vec<SearchRoot<'_, G>> = positions
        .iter()
        .enumerate()
        .map(|(index, &(state, pending))| SearchRoot {
            state,
            pending,
            seed: derive_seed(seed, index as u64),
        })
        .collect();
    let outcomes = search
        .search(
            &roots,
            &mut EvaluationBlend::new(Tensors(evaluator), eval_mix),
        )
        .map_err(|error| error.to_string())?;
    Ok(outcomes
        .into_iter()
        .zip(positions)
        .map(|(outcome, &(state, _))| outcome.map_completed(|mv| state.move_text(mv)))
        .collect())
}

/// Refuses game `G` for `what` (a guided search, self-play) if the guided
/// search cannot search it: hidden information or simultaneous moves.
///
/// # Errors
/// Which of the two the game has.
pub fn refuse_unsearchable<G: Game>(what: &str) -> Result<(), String> {
    let capabilities = Capabilities::of::<G>();
    let lack = if capabilities.hidden_information {
        "hides information from its players"
    } else if capabilities.simultaneous_moves {
        "has simultaneous moves"
    } else {
        return Ok(());
    };
    Err(format!(
        "{what} searches whole states one decision at a time, and {} {lack}",
        G::NAME
    ))
}

/// The search and evaluator options of an `az` agent's spec, as the
/// options text `options` (`sims=64,net=uniform,...`) gives them.
///
/// # Errors
/// An unknown option or a bad value, saying which.
pub fn read_az_options(options: &str) -> Result<(GuidedConfig, AzOptions), String> {
    read_options_onto_both(
        "az options",
        options,
        "az",
        options,
        (GuidedConfig::default(), AzOptions::default()),
    )
    .map_err(|error| error.to_string())
}
