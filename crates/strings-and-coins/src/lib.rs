#![doc = include_str!("../README.md")]

mod board;
mod graph;
mod loony;
mod retrograde;
mod rules;
mod symmetry;

pub use board::{Board, BoardError, Border, CoinClasses, MAX_COINS, MAX_STRINGS};
pub use graph::{component_code, components_key, GRAPH_KEY_COMPONENTS, GRAPH_KEY_FLAG};
pub use loony::LOONY_COMPONENTS;
pub use retrograde::RetrogradeTable;
pub use rules::{Hang, Rules};
pub use symmetry::Symmetries;
