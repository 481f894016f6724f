//! Invariant checkers for the fuzz targets, shared with `cargo test` (tests/fuzz_checks.rs).
pub mod checks;
