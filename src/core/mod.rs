//! The pure-Rust core: no JavaScript types. `cargo test` covers it.

pub mod cancel;
pub mod citations;
pub mod extract;
pub mod filter;
pub mod isolate;
pub mod message;
pub mod ownership;
pub mod parallel;
pub mod paths;
pub mod prompt;
pub mod rank;
pub mod relevance;
pub mod sanitize;
pub mod segment;
pub mod sentences;
pub mod terms;
pub mod tokens;
