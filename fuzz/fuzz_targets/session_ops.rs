//! The diagram's session under any sequence of a reader's (and a host page's) actions, with wall
//! time moving on (and `sendAt`'s earlier wall times): no panic; a refusal names its field; the
//! tokens stay within `0..=B`; every moment looked at is what time travel (`Session::at`) shows
//! again; the log replays to the same session; and the scenario link it writes opens and plays
//! to the same bucket.
#![no_main]
use arbitrary::Arbitrary;
use bucketlab::limiter::{
    rust_decimal, rust_number, BucketConfig, InvalidValue, Pattern, Scenario, ScenarioFault,
    Session, Shot,
};
use libfuzzer_sys::fuzz_target;

/// A number as a page could pass it: mostly ordinary, sometimes any `f64`.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Num {
    /// Hundredths: 0 to 655.35.
    Small(u16),
    /// Whole: 0 to 255.
    Whole(u8),
    /// One of the awkward values.
    Special(u8),
    /// Anything.
    Raw(f64),
}

impl Num {
    fn value(self) -> f64 {
        const SPECIAL: [f64; 12] = [
            0.0,
            -0.0,
            f64::MIN_POSITIVE,
            5e-324,
            1e-9,
            0.001,
            0.1,
            1e9,
            1e300,
            f64::MAX,
            f64::NAN,
            f64::INFINITY,
        ];
        match self {
            Num::Small(n) => f64::from(n) / 100.0,
            Num::Whole(n) => f64::from(n),
            Num::Special(i) => SPECIAL[usize::from(i) % SPECIAL.len()],
            Num::Raw(v) => v,
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Op {
    Send {
        cost: Num,
        count: u8,
    },
    /// A click queued before the module arrived: `back` ms before now, not before the mount.
    SendAt {
        back: u16,
        cost: Num,
    },
    Reconfigure {
        capacity: Num,
        rate: Num,
    },
    Configure {
        capacity: Num,
        rate: Num,
    },
    Reset,
    Pause,
    Resume,
    Step {
        seconds: Num,
    },
    /// The speed menu's 0.25, 1 and 4, or any number.
    Speed {
        choice: u8,
        any: Num,
    },
    Traffic {
        poisson: bool,
        rate: Num,
        seed: u32,
    },
    StopTraffic,
    /// Wall time moves on by this many milliseconds.
    Wait {
        ms: u16,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    capacity: Num,
    rate: Num,
    start: u16,
    ops: Vec<Op>,
}

/// What the diagram draws at lesson time `at`.
type Picture = (u64, BucketConfig, Option<Shot>, Vec<u64>);

fn picture(s: &Session, at: f64) -> Picture {
    let tokens = s.bucket().tokens_at(at).expect("finite time");
    let times = s.history().events().map(|e| e.at.to_bits()).collect();
    (tokens.to_bits(), *s.config(), s.last_shot().copied(), times)
}

fn named(err: &InvalidValue) {
    let message = err.to_string();
    assert!(message.starts_with(err.field.name()), "{message}");
}

fuzz_target!(|input: Input| {
    let Ok(config) = BucketConfig::new(input.capacity.value(), input.rate.value()) else {
        return;
    };
    if input.ops.len() > 64 {
        return;
    }
    let mount = f64::from(input.start);
    let mut wall = mount;
    let mut session = Session::new(config, wall);
    // (lesson time, actions recorded by then, what was drawn).
    let mut seen: Vec<(f64, usize, Picture)> = Vec::new();
    for op in &input.ops {
        let result = match *op {
            Op::Send { cost, count } => session
                .send(cost.value(), u32::from(count), wall)
                .map(|_| ()),
            Op::SendAt { back, cost } => {
                let at = (wall - f64::from(back) / 1000.0).max(mount);
                session.send(cost.value(), 1, at).map(|_| ())
            }
            Op::Reconfigure { capacity, rate } => BucketConfig::new(capacity.value(), rate.value())
                .and_then(|c| session.reconfigure(c, wall)),
            Op::Configure { capacity, rate } => BucketConfig::new(capacity.value(), rate.value())
                .and_then(|c| session.configure(c, wall)),
            Op::Reset => session.reset(wall),
            Op::Pause => {
                session.pause(wall);
                Ok(())
            }
            Op::Resume => {
                session.resume(wall);
                Ok(())
            }
            Op::Step { seconds } => session.step(seconds.value(), wall),
            Op::Speed { choice, any } => {
                let speed = [0.25, 1.0, 4.0].get(usize::from(choice % 4)).copied();
                session.set_speed(speed.unwrap_or(any.value().min(16.0)), wall)
            }
            Op::Traffic {
                poisson,
                rate,
                seed,
            } => {
                let pattern = if poisson {
                    Pattern::Poisson
                } else {
                    Pattern::Steady
                };
                session.start_traffic(pattern, rate.value(), u64::from(seed), wall)
            }
            Op::StopTraffic => {
                session.stop_traffic(wall);
                Ok(())
            }
            Op::Wait { ms } => {
                wall += f64::from(ms) / 1000.0;
                Ok(())
            }
        };
        if let Err(err) = &result {
            named(err);
        }
        let now = session.advance(wall);
        let capacity = session.config().capacity();
        let tokens = session.bucket().tokens_at(now).expect("finite");
        assert!(
            (0.0..=capacity).contains(&tokens),
            "tokens {tokens} of {capacity}"
        );
        // A moment is looked at once every action recorded so far has happened by then (an
        // action is timed at the next whole millisecond, which a running clock reaches later).
        let done = session.log().entries().iter().all(|e| e.at <= now);
        if done {
            let recorded = session.log().entries().len();
            seen.push((now, recorded, picture(&session, now)));
        }
    }

    // Time travel: each moment looked at, shown again from the log.
    let now = session.now(wall);
    let entries = session.log().entries();
    for (at, recorded, shown) in &seen {
        // Time travel counts an action within a nanosecond after a moment as done by then (an
        // action's time is rounded to the millisecond with that much slack).
        if entries[*recorded..]
            .iter()
            .any(|e| !e.action.is_clock() && e.at <= at + 1e-9)
        {
            continue;
        }
        let past = session
            .at(*at, wall)
            .unwrap_or_else(|e| panic!("moment {at} of {now} refused: {e}"));
        assert_eq!(&picture(&past, *at), shown, "at lesson time {at}");
    }

    // The log replays to the same session by wall time (a click sent at an earlier wall time
    // included: the replay decides the traffic up to each action's recorded time first).
    let mut replayed = Session::replay(session.log()).expect("a recorded log replays");
    replayed.advance(wall);
    assert_eq!(replayed.log(), session.log());
    assert_eq!(replayed.bucket(), session.bucket());
    assert_eq!(replayed.clock(), session.clock());
    assert_eq!(replayed.traffic(), session.traffic());
    assert_eq!(replayed.last_shot(), session.last_shot());

    // The scenario link it writes opens again.
    let scenario = Scenario::from_log(session.log(), now);
    match scenario.encode(rust_number) {
        Ok(text) => {
            let read = Scenario::decode(&text, rust_decimal)
                .unwrap_or_else(|e| panic!("the session wrote {text:?}, which is refused: {e}"));
            assert_eq!(read, scenario, "{text}");
            let played = read
                .play()
                .unwrap_or_else(|e| panic!("{text:?} does not play: {e}"));
            assert_eq!(played.config(), session.config(), "{text}");
            let admitted = |s: &Session| s.last_shot().map(|shot| shot.decision.is_admitted());
            if session.traffic().is_none() {
                assert_eq!(admitted(&played), admitted(&session), "{text}");
                // The link ends at the next whole millisecond: up to 1 ms more refill.
                let (mine, theirs) = (session.tokens(wall), played.tokens(0.0));
                let config = session.config();
                let slack = 1e-9 * config.capacity() + 0.002 * config.refill_rate();
                assert!(
                    (mine - theirs).abs() <= slack,
                    "{text}: {mine} live, {theirs} played"
                );
            }
        }
        Err(err) => assert!(
            matches!(
                err.fault,
                ScenarioFault::Chars(_) | ScenarioFault::Actions(_) | ScenarioFault::Seconds(_)
            ),
            "{err}"
        ),
    }
});
