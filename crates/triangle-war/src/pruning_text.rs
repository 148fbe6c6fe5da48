//! The pruning [`Pruning`] by name, for command lines: `all`, `none`, or a comma-separated list
//! of rule names, each optionally prefixed with `no-` (e.g. `all,no-twins`).

use strings_and_coins::Pruning;

/// Every rule's name, in the order of [`Pruning`]'s fields.
pub const RULE_NAMES: [&str; 11] = [
    "capture",
    "capture-first",
    "all-but-two",
    "fold-forced",
    "graph-keys",
    "twins",
    "loony-values",
    "simple-openings",
    "chain-ends",
    "loony-offers",
    "twin-moves",
];

/// A rules text that [`parse_pruning`] does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule {0:?}: expected all, none or a comma-separated list of capture, capture-first, all-but-two, fold-forced, graph-keys, twins, loony-values, simple-openings, chain-ends, loony-offers, twin-moves (each may be prefixed with no-, e.g. all,no-twins)")]
pub struct PruningError(pub String);

/// The field of `rules` named `name` (one of [`RULE_NAMES`]).
fn field<'a>(rules: &'a mut Pruning, name: &str) -> Option<&'a mut bool> {
    Some(match name {
        "capture" => &mut rules.capture,
        "capture-first" => &mut rules.capture_first,
        "all-but-two" => &mut rules.all_but_two,
        "fold-forced" => &mut rules.fold_forced,
        "graph-keys" => &mut rules.graph_keys,
        "twins" => &mut rules.twins,
        "loony-values" => &mut rules.loony_values,
        "simple-openings" => &mut rules.simple_openings,
        "chain-ends" => &mut rules.chain_ends,
        "loony-offers" => &mut rules.loony_offers,
        "twin-moves" => &mut rules.twin_moves,
        _ => return None,
    })
}

/// Reads pruning rules: `all` ([`Pruning::ALL`], every rule), `none` ([`Pruning::NONE`], the plain
/// game tree) or a comma-separated list applied in order from `none`: a rule name
/// ([`RULE_NAMES`]) turns it on, `no-NAME` turns it off, `all` and `none` set every rule. Values
/// are exact under any setting (only the work differs).
///
/// ```
/// use triangle_war::{parse_pruning, Pruning};
/// assert_eq!(parse_pruning("all").unwrap(), Pruning::ALL);
/// assert_eq!(parse_pruning("all,no-twins").unwrap(), Pruning { twins: false, ..Pruning::ALL });
/// assert_eq!(parse_pruning("capture, twins").unwrap(), Pruning { capture: true, twins: true, ..Pruning::NONE });
/// assert!(parse_pruning("captures").is_err());
/// ```
///
/// # Errors
/// [`PruningError`] naming the first word that is not a rule (an empty text or item included).
pub fn parse_pruning(text: &str) -> Result<Pruning, PruningError> {
    let mut rules = Pruning::NONE;
    for item in text.split(',').map(str::trim) {
        match item {
            "all" => rules = Pruning::ALL,
            "none" => rules = Pruning::NONE,
            _ => {
                let (name, on) = match item.strip_prefix("no-") {
                    Some(name) => (name, false),
                    None => (item, true),
                };
                *field(&mut rules, name).ok_or_else(|| PruningError(item.to_string()))? = on;
            }
        }
    }
    Ok(rules)
}

/// `rules` as [`parse_pruning`] reads it back: `all`, `none`, or the names of the rules on.
#[must_use]
pub fn pruning_text(rules: Pruning) -> String {
    if rules == Pruning::ALL {
        return "all".to_string();
    }
    if rules == Pruning::NONE {
        return "none".to_string();
    }
    let mut probe = rules;
    let on: Vec<&str> =
        RULE_NAMES.iter().copied().filter(|name| *field(&mut probe, name).expect("a rule name")).collect();
    on.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_reads_back_from_its_text() {
        for bits in 0u32..1 << RULE_NAMES.len() {
            let mut rules = Pruning::NONE;
            for (i, name) in RULE_NAMES.iter().enumerate() {
                *field(&mut rules, name).unwrap() = bits >> i & 1 == 1;
            }
            assert_eq!(parse_pruning(&pruning_text(rules)), Ok(rules), "{bits:07b}");
        }
        assert_eq!(parse_pruning("none,twins,no-twins"), Ok(Pruning::NONE));
        for bad in ["", "all,", "on", "no-all", "Capture"] {
            assert!(parse_pruning(bad).is_err(), "{bad:?}");
        }
    }
}
