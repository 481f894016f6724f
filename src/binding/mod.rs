//! The `#[napi]` layer: argument checks, conversion into core types, errors, and the
//! sync/async pairs over one implementation. No logic of its own.
//!
//! Panics: the core is written not to panic on any input (and is fuzzed for it); as
//! a second line, sync entry points use `#[napi(catch_unwind)]` and every async
//! `compute` runs under `catch_unwind` (`task::guarded`), so a bug becomes a JS error,
//! never an abort of the host process.

// napi-derive registers the exports only outside `cfg(test)`, so in test builds the
// binding looks unused.
#![cfg_attr(test, allow(dead_code))]

mod anthropic;
mod args;
mod bedrock;
mod extract;
mod filter;
mod gemini;
mod isolate;
mod items;
mod messages;
mod rank;
mod sanitize;
mod shapes;
mod task;
mod tokens;
