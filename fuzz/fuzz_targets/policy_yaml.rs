//! The lesson's YAML policy: any text is read or refused with a message (and, for a number, the
//! field and the rule), never a panic; what is read holds a `default` tier and only valid
//! buckets and costs. The replay's YAML export of any valid bucket reads back as that bucket.
#![no_main]
use bucketlab::limiter::policy::{Policy, Problem};
use bucketlab::limiter::BucketConfig;
use bucketlab::replay::export::yaml;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() >= 16 {
        let capacity = f64::from_le_bytes(data[..8].try_into().unwrap());
        let rate = f64::from_le_bytes(data[8..16].try_into().unwrap());
        if let Ok(config) = BucketConfig::new(capacity, rate) {
            let text = yaml(config);
            let policy = Policy::from_yaml(&text)
                .unwrap_or_else(|e| panic!("the export {text:?} is refused: {e}"));
            assert_eq!(policy.tier("default"), Some(&config), "{text}");
        }
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Policy::from_yaml(text) {
        Ok(policy) => {
            assert!(policy.tier("default").is_some());
            for config in policy.tiers.values().chain(policy.plans.values()) {
                assert!(config.capacity() > 0.0 && config.capacity().is_finite());
                assert!(config.refill_rate() >= 0.0 && config.refill_rate().is_finite());
            }
            for cost in policy.costs.values() {
                assert!(*cost > 0.0 && cost.is_finite(), "cost {cost}");
            }
        }
        Err(err) => {
            assert!(!err.message.is_empty());
            if let Problem::InvalidValue { field, .. } | Problem::QuotedNumber { field, .. } =
                &err.problem
            {
                assert!(
                    ["capacity", "refill_rate", "cost"].contains(&field.as_str()),
                    "{field}"
                );
            }
            let _ = err.to_string();
        }
    }
});
