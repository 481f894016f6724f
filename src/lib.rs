#![deny(clippy::all)]

pub mod core;

#[cfg(feature = "napi")]
mod binding;
