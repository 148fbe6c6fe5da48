#![doc = include_str!("../README.md")]

mod board;
mod graph;
mod loony;
mod pruning;
mod retrograde;
mod symmetry;

pub use board::{Board, BoardError, Border, CoinClasses, MAX_COINS, MAX_STRINGS};
pub use graph::{component_code, components_key, GRAPH_KEY_COMPONENTS, GRAPH_KEY_FLAG};
pub use loony::LOONY_COMPONENTS;
pub use pruning::{Hang, Pruning};
pub use retrograde::RetrogradeTable;
pub use symmetry::Symmetries;
