//! # bucketlab
//!
//! An interactive lesson on rate limiting. A token bucket written in plain Rust (the
//! [`limiter`] core) is compiled to WebAssembly, where [`api`] exposes it to JavaScript and
//! [`view`] drives an annotated SVG diagram of the bucket.
//!
//! The core takes time as an argument, so it is tested natively and behaves the same everywhere:
//!
//! ```
//! use bucketlab::limiter::{BucketConfig, Outcome, TokenBucket};
//!
//! // B = 10 tokens, r = 5 tokens per second, starting full.
//! let mut bucket = TokenBucket::new(BucketConfig::new(10.0, 5.0)?);
//! for _ in 0..10 {
//!     assert!(bucket.try_acquire(1.0, 0.0)?.is_allowed());
//! }
//! let denied = bucket.try_acquire(1.0, 0.0)?;
//! assert_eq!(denied.outcome, Outcome::Denied { retry_after: 0.2 });
//! assert!(bucket.try_acquire(1.0, 0.2)?.is_allowed());
//! # Ok::<(), bucketlab::limiter::InvalidValue>(())
//! ```

/// The JavaScript API: `TokenBucket` for console experiments and scripts.
pub mod api;
/// The algorithm lab's JavaScript API: `simulate`, built into its own wasm module.
#[cfg(feature = "lab")]
pub mod lab_api;
/// The pure core: token bucket, lesson clock, HTTP headers. No DOM, no wasm-bindgen.
pub mod limiter;
/// The panic hook of the lab and policy wasm builds: a console error instead of a silent trap.
pub mod panic;
/// The lesson's YAML rate-limit policy: tiers, storage, client key, refusal.
#[cfg(feature = "config")]
pub mod policy;
/// The wasm boundary of the policy parser: `parsePolicy` for the Config tab.
#[cfg(feature = "config")]
pub mod policy_api;
/// Replaying an access log through the limiters: parsers, burst–rate curve, recommendation.
#[cfg(feature = "replay")]
pub mod replay;
/// The interactive diagram: SVG, controls and the frame loop, over web-sys.
#[cfg(feature = "diagram")]
pub mod view;

// dlmalloc (Rust's default on wasm) is several KB of the module; talc is smaller and faster.
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
