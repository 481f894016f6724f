//! The pure-Rust core: no JavaScript types. `cargo test` covers it.

pub mod cancel;
pub mod message;
pub mod tokens;
