//! The tafl family's additions: its registry entry, with every built-in
//! variant as a name of its own (`brandub`, `tablut`, ...).

use crate::games::tafl::{Tafl, VARIANTS};
use crate::registry::{Registered, Variant};
use std::sync::LazyLock;

/// The rules text each variant's name stands for, in the order of
/// [`VARIANTS`].
static VARIANT_RULES: LazyLock<Vec<String>> = LazyLock::new(|| {
    VARIANTS
        .iter()
        .map(|variant| format!("variant={}", variant.name))
        .collect()
});

impl Registered for Tafl {
    const TITLE: &'static str =
        "A tafl game from an OpenTafl rules string (--otn; Fetlar 11x11 without one)";
    const SIDES: &'static [&'static str] = &["attackers", "defenders"];

    /// Every built-in variant, under its name.
    fn variants() -> Vec<Variant> {
        VARIANTS
            .iter()
            .zip(VARIANT_RULES.iter())
            .map(|(variant, rules)| Variant {
                name: variant.name,
                title: variant.title,
                rules,
            })
            .collect()
    }
}
