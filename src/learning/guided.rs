//! The guided search over states of a game chosen at run time
//! ([`DynGame::guided_search`](super::DynGame::guided_search),
//! [`DynVector::guided_search`](super::DynVector::guided_search)), guided
//! by an evaluator of tensors (a Python function, a network).

use crate::core::{Capabilities, derive_seed};
use crate::registry::Registered;
use crate::search::guided::{
    GuidedConfig, GuidedSearch, SearchOutcome, SearchRoot, TensorEvaluator, Tensors,
};

/// Searches every position (a state and the ids already chosen of its
/// move) in one batched search with the `az` options `options` (see
/// [`GuidedConfig`]), `evaluator` answering for the leaves; position `i`
/// draws from `derive_seed(seed, i)`. The outcomes name the move an id
/// completes in the game's notation.
///
/// # Errors
/// Options that do not read, a game with hidden information or
/// simultaneous moves, and whatever stops the search.
pub fn search_positions<G: Registered>(
    positions: &[(&G, &[u32])],
    options: &str,
    evaluator: &mut dyn TensorEvaluator,
    seed: u64,
) -> Result<Vec<SearchOutcome<String>>, String> {
    let capabilities = Capabilities::of::<G>();
    if capabilities.hidden_information || capabilities.simultaneous_moves {
        return Err(format!(
            "the guided search reads whole states one decision at a time, and {} {}",
            G::NAME,
            if capabilities.hidden_information {
                "hides information from its players"
            } else {
                "has simultaneous moves"
            }
        ));
    }
    let config: GuidedConfig = options.parse().map_err(|error| format!("{error}"))?;
    let search = GuidedSearch::new(config)?;
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
        .search(&roots, &mut Tensors(evaluator))
        .map_err(|error| error.to_string())?;
    Ok(outcomes
        .into_iter()
        .zip(positions)
        .map(|(outcome, &(state, _))| outcome.map_completed(|mv| state.move_text(mv)))
        .collect())
}
