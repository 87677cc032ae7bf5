//! The wasm boundary, all of it: what JavaScript calls besides the diagram's view, and the one
//! module that converts values between JavaScript and the core. Nothing here decides anything;
//! the core does.

/// The retrying clients' `simulateClients`, in the lab's wasm module.
#[cfg(feature = "lab")]
pub mod clients;
/// Values in and out: JS objects checked against their allowed keys, numbers, errors.
pub(crate) mod convert;
/// The flood's `simulateFlood`, in the lab's wasm module.
#[cfg(feature = "lab")]
pub mod flood;
/// The algorithm lab's `simulate`, built into its own wasm module (`bucketlab_lab`).
#[cfg(feature = "lab")]
pub mod lab;
/// The panic hook of the lab and policy wasm builds: a console error instead of a silent trap.
pub mod panic;
/// `parsePolicy` for the lesson's Config tab (feature `config`, module `bucketlab_config`).
#[cfg(feature = "config")]
pub mod policy;
/// The replay's `ReplayJob` and `sampleLog` (feature `replay`, module `bucketlab_replay`).
#[cfg(feature = "replay")]
pub mod replay;
/// The `TokenBucket` class for console experiments and scripts.
pub mod token_bucket;
