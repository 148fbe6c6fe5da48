//! Board parameters of a game ([`ParamSpec`], [`Params`]): `side=5`, `size=7x6`, `k=4`, each
//! declared by its game with a default and a check, so that every front end (command-line
//! options, a web request, a Python `load_game` string) reads the same names the same way.
//! A parameter never names a file or a path.

/// One board parameter of a game, e.g. Triangle War's `side`.
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    /// The name: `side` (on the command line `--side`).
    pub name: &'static str,
    /// How a value is written in help, e.g. `N`, `WxH`.
    pub value_name: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// The value when none is given; `None` for a parameter that may be absent.
    pub default: Option<&'static str>,
    /// Checks a value: `Err` says what was expected (the value itself is quoted by the caller).
    pub check: fn(&str) -> Result<(), String>,
}

/// Errors of [`Params::new`] and of a front's constructor.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// A name the game does not have.
    #[error("unknown parameter {name}: expected one of {expected}")]
    Unknown {
        /// The name given.
        name: String,
        /// The game's parameter names, comma-separated.
        expected: String,
    },
    /// A value its check refused.
    #[error("option --{name}: {reason} (found {found})")]
    Invalid {
        /// The parameter.
        name: String,
        /// The value given, quoted.
        found: String,
        /// What was expected.
        reason: String,
    },
    /// Values that are each fine but do not make a board together (e.g. `k` longer than the
    /// board), in the game's words.
    #[error("{0}")]
    Board(String),
}

/// The checked parameter values of one game: every name one of its [`ParamSpec`]s, every
/// value passing its check, defaults filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    values: Vec<(&'static str, String)>,
}

impl Params {
    /// `given` (name, value) pairs checked against `specs`, with defaults for the others; a
    /// name given twice keeps its last value.
    ///
    /// # Errors
    /// [`ParamError::Unknown`] for a name not in `specs`, [`ParamError::Invalid`] for a value
    /// its check refuses.
    pub fn new<'a>(
        specs: &[ParamSpec],
        given: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Params, ParamError> {
        let mut values: Vec<(&'static str, String)> =
            specs.iter().filter_map(|s| s.default.map(|d| (s.name, d.to_string()))).collect();
        for (name, value) in given {
            let Some(spec) = specs.iter().find(|s| s.name == name) else {
                let expected: Vec<&str> = specs.iter().map(|s| s.name).collect();
                return Err(ParamError::Unknown {
                    name: judge_text::quote(name),
                    expected: if expected.is_empty() { "none".to_string() } else { expected.join(", ") },
                });
            };
            (spec.check)(value).map_err(|reason| ParamError::Invalid {
                name: spec.name.to_string(),
                found: judge_text::quote(value),
                reason,
            })?;
            values.retain(|(n, _)| *n != spec.name);
            values.push((spec.name, value.to_string()));
        }
        Ok(Params { values })
    }

    /// The value of `name`, if given or defaulted.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str())
    }

    /// The value of `name` parsed as `T`.
    ///
    /// # Errors
    /// [`ParamError::Invalid`] if it does not parse (a check that lets through what the front
    /// cannot parse), [`ParamError::Board`] if it is absent.
    pub fn parse<T: std::str::FromStr>(&self, name: &str) -> Result<T, ParamError> {
        let value =
            self.get(name).ok_or_else(|| ParamError::Board(format!("parameter {name} is missing")))?;
        value.parse().map_err(|_| ParamError::Invalid {
            name: name.to_string(),
            found: judge_text::quote(value),
            reason: "not a value of this parameter".to_string(),
        })
    }

    /// The (name, value) pairs, defaults included, in the order of the game's specs then given.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> + '_ {
        self.values.iter().map(|(n, v)| (*n, v.as_str()))
    }
}

/// A check for a whole number from `lo` to `hi`.
///
/// # Errors
/// The expected range, when `text` is not such a number.
pub fn check_int(text: &str, lo: u64, hi: u64) -> Result<(), String> {
    match text.parse::<u64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(()),
        _ => Err(format!("expected a whole number from {lo} to {hi}")),
    }
}

/// A board size `AxB` (e.g. `7x6`), each side at least 1 ([`judge_text::parse_size`]).
///
/// # Errors
/// What was expected, with `shape` (e.g. `ROWSxCOLS`) and `example`.
pub fn parse_size(text: &str, shape: &str, example: &str) -> Result<(usize, usize), String> {
    judge_text::parse_size(text, shape, example)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[ParamSpec] = &[
        ParamSpec {
            name: "side",
            value_name: "N",
            help: "",
            default: Some("3"),
            check: |t| check_int(t, 1, 6),
        },
        ParamSpec { name: "k", value_name: "K", help: "", default: None, check: |t| check_int(t, 1, 8) },
    ];

    #[test]
    fn defaults_checks_and_unknown_names() {
        let p = Params::new(SPECS, []).unwrap();
        assert_eq!(p.get("side"), Some("3"));
        assert_eq!(p.get("k"), None);
        let p = Params::new(SPECS, [("side", "5"), ("k", "4"), ("side", "6")]).unwrap();
        assert_eq!(p.parse::<u8>("side"), Ok(6));
        assert_eq!(p.parse::<usize>("k"), Ok(4));
        let err = Params::new(SPECS, [("side", "7")]).unwrap_err().to_string();
        assert_eq!(err, "option --side: expected a whole number from 1 to 6 (found `7`)");
        let err = Params::new(SPECS, [("file", "/etc/passwd")]).unwrap_err().to_string();
        assert_eq!(err, "unknown parameter `file`: expected one of side, k");
    }
}
