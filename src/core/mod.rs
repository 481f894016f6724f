//! The pure-Rust core: no JavaScript types. `cargo test` covers it.

pub mod cancel;
pub mod extract;
pub mod message;
pub mod parallel;
pub mod rank;
pub mod relevance;
pub mod segment;
pub mod sentences;
pub mod terms;
pub mod tokens;
