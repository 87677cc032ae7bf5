//! # bucketlab
//!
//! An interactive lesson on rate limiting. A token bucket written in plain Rust (the
//! [`limiter`] core, with the diagram's behaviour as a [`limiter::Session`]) is compiled to
//! WebAssembly, where [`wasm`] exposes it to JavaScript and `view` (feature `diagram`) draws an
//! annotated SVG diagram of a session.
//!
//! The core takes time as an argument, so it is tested natively and behaves the same everywhere:
//!
//! ```
//! use bucketlab::limiter::{BucketConfig, Outcome, TokenBucket};
//!
//! // B = 10 tokens, r = 5 tokens per second, starting full.
//! let mut bucket = TokenBucket::new(BucketConfig::new(10.0, 5.0)?);
//! for _ in 0..10 {
//!     assert!(bucket.try_acquire(1.0, 0.0)?.is_admitted());
//! }
//! let denied = bucket.try_acquire(1.0, 0.0)?;
//! assert_eq!(denied.outcome, Outcome::Denied { retry_after: 0.2 });
//! assert!(bucket.try_acquire(1.0, 0.2)?.is_admitted());
//! # Ok::<(), bucketlab::limiter::InvalidValue>(())
//! ```

/// The pure core: token bucket, lesson clock, session, HTTP headers, the lab, the YAML policy.
/// No DOM, no wasm-bindgen.
pub mod limiter;
/// Replaying an access log through the limiters: parsers, burst–rate curve, recommendation.
#[cfg(feature = "replay")]
pub mod replay;
/// The interactive diagram: SVG, controls and the frame loop over web-sys, drawing a session.
#[cfg(feature = "diagram")]
pub mod view;
/// The wasm boundary: the `TokenBucket` class, the lab's `simulate`, the policy's `parsePolicy`,
/// the panic hook, and the one converter between JavaScript values and the core's.
pub mod wasm;

// dlmalloc (Rust's default on wasm) is several KB of the module; talc is smaller and faster.
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
