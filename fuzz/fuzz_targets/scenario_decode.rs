//! The `#s=` scenario link: any text is read or refused with a message naming the part, never a
//! panic; a text that is read writes back to the same scenario, plays into a session whose
//! tokens stay within `0..=B`, and every moment of it can be scrubbed back to.
#![no_main]
use bucketlab::limiter::{rust_decimal, rust_number, Scenario, ScenarioFault};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let scenario = match Scenario::decode(text, rust_decimal) {
        Ok(scenario) => scenario,
        Err(err) => {
            let message = err.message();
            assert!(message.starts_with("scenario"), "{message}");
            let _ = err.fault.data();
            return;
        }
    };
    // What was read writes back (unless the longer spelling of its numbers no longer fits a
    // link) and reads back as the same scenario.
    match scenario.encode(rust_number) {
        Ok(written) => {
            let again = Scenario::decode(&written, rust_decimal)
                .unwrap_or_else(|e| panic!("{written:?} was written but refused: {e}"));
            assert_eq!(again, scenario, "{written:?}");
        }
        Err(err) => assert!(
            matches!(err.fault, ScenarioFault::Chars(_)),
            "a read scenario refused when written: {err}"
        ),
    }
    let played = scenario
        .play()
        .unwrap_or_else(|e| panic!("{text:?} was read but does not play: {e}"));
    let capacity = played.config().capacity();
    let tokens = played.tokens(0.0);
    assert!(
        (0.0..=capacity).contains(&tokens),
        "tokens {tokens} of {capacity}"
    );
    assert_eq!(played.now(0.0), scenario.end, "held at its end");
    // Every action's moment can be shown again.
    for (at, _) in scenario.steps.iter().step_by(7) {
        let past = played
            .at(*at, 0.0)
            .unwrap_or_else(|e| panic!("{text:?}: moment {at} refused: {e}"));
        let tokens = past.tokens(0.0);
        assert!((0.0..=past.config().capacity()).contains(&tokens));
    }
});
