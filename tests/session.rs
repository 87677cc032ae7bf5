//! The diagram's behaviour, natively: what a reader's clicks do to the bucket, the clock, the
//! traffic and the chart, with wall time passed in by the test.

use bucketlab::limiter::{
    rust_decimal, rust_number, Action, BucketConfig, Field, Given, InvalidValue, Kind, Motion,
    Outcome, Pattern, Rule, Scenario, ScenarioError, ScenarioFault, Session, FLIGHT_SECONDS,
    MAX_BURST, MAX_STEP_SECONDS, SPAN,
};

fn config(capacity: f64, refill_rate: f64) -> BucketConfig {
    BucketConfig::new(capacity, refill_rate).unwrap()
}

/// The scenario link `session` writes at lesson time `now`, and that link played.
fn link_played(session: &Session, now: f64) -> (String, Session) {
    let text = Scenario::from_log(session.log(), now)
        .encode(rust_number)
        .unwrap();
    let played = Scenario::decode(&text, rust_decimal)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .play()
        .unwrap();
    (text, played)
}

/// A session of B = 10, r = 5 whose lesson time starts stopped at 0 (wall time 100).
fn paused() -> Session {
    let mut session = Session::new(config(10.0, 5.0), 100.0);
    session.pause(100.0);
    session
}

#[test]
fn a_burst_empties_the_bucket_and_the_last_request_gets_the_exact_wait() {
    let mut session = paused();
    let last = session.send(1.0, 11, 100.0).unwrap();
    assert_eq!(last.at, 0.0);
    assert_eq!(last.decision.outcome, Outcome::Denied { retry_after: 0.2 });
    assert_eq!(session.tokens(100.0), 0.0);
    let tally = session.take_unseen();
    assert_eq!((tally.requests, tally.admitted), (11, 10));
    assert_eq!(tally.last, Some(last));
    assert_eq!(session.take_unseen().requests, 0, "taken once");
    let kinds: Vec<Kind> = session.history().events().map(|e| e.kind).collect();
    assert_eq!(kinds.iter().filter(|k| **k == Kind::Admitted).count(), 10);
    assert_eq!(kinds.last(), Some(&Kind::Denied));
}

#[test]
fn a_burst_size_or_cost_outside_its_rule_is_refused_and_changes_nothing() {
    let mut session = paused();
    let before = session.bucket().clone();
    let err = session.send(1.0, MAX_BURST + 1, 100.0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "burst_size must be a whole number from 1 to 100, got 101"
    );
    assert!(session.send(1.0, 0, 100.0).is_err());
    let err = session.send(-1.0, 1, 100.0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cost must be a finite number of at least 0, got -1"
    );
    assert_eq!(session.bucket(), &before);
    assert_eq!(session.take_unseen().requests, 0);
    assert_eq!(session.log().entries().len(), 1, "only the pause");
}

#[test]
fn steady_traffic_is_decided_at_each_exact_arrival_time_however_late_the_catch_up() {
    // B = 2, r = 1, 4 requests per second from lesson time 0: the bucket runs dry, then every
    // fourth arrival finds a token.
    let mut session = Session::new(config(2.0, 1.0), 0.0);
    session.start_traffic(Pattern::Steady, 4.0, 0, 0.0).unwrap();
    let mut one_frame = session.clone();
    for frame in 1..=30 {
        session.advance(f64::from(frame) * 0.1);
    }
    one_frame.advance(3.0);
    let times = |s: &Session| -> Vec<(f64, Kind)> {
        s.history().events().map(|e| (e.at, e.kind)).collect()
    };
    let decided = times(&session);
    assert_eq!(decided, times(&one_frame), "frames don't change decisions");
    let expected_times: Vec<f64> = (1..=12).map(|k| f64::from(k) / 4.0).collect();
    let at: Vec<f64> = decided.iter().map(|(t, _)| *t).collect();
    assert_eq!(at, expected_times);
    assert_eq!(session.bucket(), one_frame.bucket());
    let tally = session.take_unseen();
    assert_eq!(tally.requests, 12);
    assert_eq!(tally.last.map(|s| s.at), Some(3.0));
}

#[test]
fn a_send_first_decides_the_traffic_that_arrived_before_it() {
    let mut session = Session::new(config(1.0, 0.5), 0.0);
    session.start_traffic(Pattern::Steady, 1.0, 0, 0.0).unwrap();
    // No frame ran: the arrival at t = 1 is still pending when the reader clicks at t = 1.5.
    let click = session.send(1.0, 1, 1.5).unwrap();
    let events: Vec<(f64, Kind)> = session.history().events().map(|e| (e.at, e.kind)).collect();
    assert_eq!(events, [(1.0, Kind::Admitted), (1.5, Kind::Denied)]);
    assert_eq!(click.decision.outcome, Outcome::Denied { retry_after: 1.5 });
}

#[test]
fn poisson_traffic_repeats_for_a_seed() {
    let run = |seed| {
        let mut session = Session::new(config(5.0, 2.0), 0.0);
        session
            .start_traffic(Pattern::Poisson, 8.0, seed, 0.0)
            .unwrap();
        session.advance(10.0);
        session
            .history()
            .events()
            .map(|e| e.at)
            .collect::<Vec<f64>>()
    };
    assert_eq!(run(42), run(42));
    assert_ne!(run(42), run(43));
    assert!(run(42).len() > 40, "about 80 arrivals in 10 s");
}

#[test]
fn stopping_traffic_stops_the_arrivals() {
    let mut session = Session::new(config(5.0, 2.0), 0.0);
    session.start_traffic(Pattern::Steady, 2.0, 0, 0.0).unwrap();
    session.stop_traffic(1.0);
    session.advance(5.0);
    assert_eq!(session.history().events().count(), 2, "t = 0.5 and 1");
    assert!(session.traffic().is_none());
    let err = session
        .start_traffic(Pattern::Steady, 51.0, 0, 5.0)
        .unwrap_err();
    assert!(err.to_string().starts_with("traffic_rate must be"), "{err}");
    assert!(session.traffic().is_none(), "a refused rate starts nothing");
}

#[test]
fn a_past_moment_has_the_traffic_settings_of_that_moment() {
    let mut session = paused();
    session.step(1.0, 100.0).unwrap();
    session
        .start_traffic(Pattern::Poisson, 2.5, 7, 100.0)
        .unwrap();
    session.step(1.0, 100.0).unwrap();
    session
        .start_traffic(Pattern::Steady, 4.0, 7, 100.0)
        .unwrap();
    session.step(1.0, 100.0).unwrap();
    session.stop_traffic(100.0);
    session.step(1.0, 100.0).unwrap();
    let settings = |at: f64| {
        let past = session.at(at, 100.0).unwrap();
        past.traffic().map(|arrivals| arrivals.settings())
    };
    assert_eq!(settings(0.5), None, "before it started");
    assert_eq!(settings(1.5), Some((Pattern::Poisson, 2.5, 7)));
    assert_eq!(settings(2.5), Some((Pattern::Steady, 4.0, 7)));
    assert_eq!(settings(3.5), None, "after it stopped");
}

#[test]
fn paused_time_moves_only_by_steps() {
    let mut session = paused();
    session.send(1.0, 10, 100.0).unwrap();
    assert_eq!(
        session.now(500.0),
        0.0,
        "wall time passes, lesson time doesn't"
    );
    assert_eq!(session.tokens(500.0), 0.0);
    session.step(0.1, 500.0).unwrap();
    session.step(0.1, 500.0).unwrap();
    assert_eq!(session.now(600.0), 0.2);
    assert_eq!(session.tokens(600.0), 1.0);
    assert!(session.step(-0.1, 600.0).is_err());
    session.resume(600.0);
    assert_eq!(session.now(601.0), 1.2, "runs again from where it stopped");
}

#[test]
fn speed_scales_lesson_time_from_the_change_on() {
    let mut session = Session::new(config(10.0, 1.0), 0.0);
    session.set_speed(4.0, 1.0).unwrap();
    assert_eq!(session.now(2.0), 5.0);
    assert!(session.set_speed(0.0, 2.0).is_err());
    assert_eq!(
        session.clock().speed(),
        4.0,
        "a refused speed keeps the old one"
    );
}

#[test]
fn reconfiguring_keeps_the_tokens_capped_at_the_new_capacity() {
    let mut session = paused();
    session.send(1.0, 3, 100.0).unwrap();
    session.reconfigure(config(20.0, 1.0), 100.0).unwrap();
    assert_eq!(session.tokens(100.0), 7.0, "kept, not refilled to 20");
    session.step(2.0, 100.0).unwrap();
    assert_eq!(session.tokens(100.0), 9.0, "refills at the new rate");
    session.reconfigure(config(4.0, 1.0), 100.0).unwrap();
    assert_eq!(session.tokens(100.0), 4.0, "a smaller bucket spills");
    let last = session.history().latest().unwrap();
    assert_eq!(last.kind, Kind::Reconfigured);
    assert_eq!((last.before, last.after, last.capacity), (9.0, 4.0, 4.0));
    assert_eq!(
        session.initial(),
        &config(10.0, 5.0),
        "reset target unchanged"
    );
}

#[test]
fn reset_returns_to_the_initial_config_and_forgets_traffic_chart_and_last_request() {
    let mut session = Session::new(config(10.0, 5.0).with_initial_tokens(2.0).unwrap(), 0.0);
    session
        .start_traffic(Pattern::Steady, 10.0, 0, 0.0)
        .unwrap();
    session.reconfigure(config(30.0, 1.0), 0.5).unwrap();
    session.send(1.0, 5, 1.0).unwrap();
    session.reset(1.0).unwrap();
    assert_eq!(
        session.config(),
        &config(10.0, 5.0).with_initial_tokens(2.0).unwrap()
    );
    assert_eq!(session.tokens(1.0), 2.0, "the initial tokens again");
    assert!(session.traffic().is_none());
    assert!(session.last_shot().is_none());
    assert_eq!(session.history().events().count(), 0);
    assert_eq!(session.take_unseen().requests, 0);
    assert_eq!(session.now(1.0), 1.0, "lesson time goes on");
    assert_eq!(session.tokens(1.5), 4.5, "and refills from the reset");
}

#[test]
fn a_step_is_at_most_an_hour_and_a_longer_one_is_refused_by_name_value_and_range() {
    let mut session = paused();
    session.step(MAX_STEP_SECONDS, 100.0).unwrap();
    assert_eq!(session.now(100.0), 3600.0);
    for seconds in [3600.5, 1e20, 1e308, f64::INFINITY] {
        let err = session.step(seconds, 100.0).unwrap_err();
        assert_eq!(
            err.message_with(err.field.name(), rust_number),
            format!(
                "seconds must be a finite number from 0 to 3600, got {}",
                rust_number(seconds)
            )
        );
    }
    assert_eq!(session.now(100.0), 3600.0, "a refused step moves nothing");
    assert_eq!(Session::check_step(0.1), Ok(0.1));
}

#[test]
fn reset_runs_lesson_time_at_speed_one_again_and_keeps_it_paused_or_running() {
    let mut session = Session::new(config(5.0, 1.0), 0.0);
    session.set_speed(4.0, 1.0).unwrap();
    assert_eq!(session.now(2.0), 5.0, "4× from wall time 1");
    session.reset(2.0).unwrap();
    assert_eq!(session.clock().speed(), 1.0);
    assert_eq!(session.now(3.0), 6.0, "1× from the reset");
    assert!(!session.is_paused(), "still running");
    session.set_speed(0.25, 3.0).unwrap();
    session.pause(3.0);
    session.reset(3.0).unwrap();
    assert_eq!(session.clock().speed(), 1.0);
    assert!(session.is_paused(), "still paused");
    let replayed = Session::replay(session.log()).unwrap();
    assert_eq!(
        replayed.clock().speed(),
        1.0,
        "a replay resets the speed too"
    );
}

#[test]
fn a_hosts_configure_becomes_the_reset_target() {
    let mut session = paused();
    session.send(1.0, 4, 100.0).unwrap();
    session.configure(config(3.0, 1.0), 100.0).unwrap();
    assert_eq!(session.tokens(100.0), 3.0);
    session.send(1.0, 3, 100.0).unwrap();
    session.reset(100.0).unwrap();
    assert_eq!(session.config(), &config(3.0, 1.0));
    assert_eq!(session.tokens(100.0), 3.0, "full under the new config");
}

#[test]
fn a_full_idle_bucket_holds_still() {
    let session = Session::new(config(10.0, 5.0), 0.0);
    assert!(!session.is_moving(0.0));
    assert!(!session.is_moving(1000.0));
}

#[test]
fn the_picture_moves_while_refilling_a_marker_flies_events_are_charted_or_traffic_runs() {
    // Refilling: one token spent, back after 0.2 s; the chart then keeps it in view for SPAN.
    let mut session = Session::new(config(10.0, 5.0), 0.0);
    session.send(1.0, 1, 0.0).unwrap();
    assert!(session.is_moving(0.1), "refilling and in flight");
    assert!(session.is_moving(1.0), "full again, still on the chart");
    assert!(session.is_moving(SPAN - 0.01));
    assert!(!session.is_moving(SPAN), "off the chart: still");
    // Of those, only the refill and the flight want every frame; once full, the chart alone
    // moves, in the steps of its track (the widget then asks for a frame only per step).
    assert_eq!(session.motion(0.1), Motion::Frames);
    assert_eq!(session.motion(1.0), Motion::Chart);
    assert_eq!(session.motion(SPAN), Motion::Still);
    session.pause(1.0);
    assert_eq!(
        session.motion(2.0),
        Motion::Still,
        "lesson time stands still"
    );

    // Cost 0 takes nothing, so the bucket stays full; its marker still flies.
    let mut session = Session::new(config(10.0, 0.0), 0.0);
    session.send(0.0, 1, 0.0).unwrap();
    assert!(session.is_moving(FLIGHT_SECONDS / 2.0));

    // A bucket with r = 0 does not refill: once the chart is empty nothing moves.
    session.send(5.0, 1, 0.0).unwrap();
    assert!(!session.is_moving(SPAN + 1.0), "r = 0: no refill to show");

    // Traffic keeps it moving, even with nothing on the chart yet.
    let mut session = Session::new(config(10.0, 5.0), 0.0);
    session
        .start_traffic(Pattern::Steady, 0.01, 0, 0.0)
        .unwrap();
    assert!(session.is_moving(50.0));
}

#[test]
fn the_countdown_tells_the_present_after_b_or_r_changes() {
    // B = 5, r = 1, paused: the sixth of a burst waits 1 s; at r = 0 it can never pass, however
    // long one waits (not "the wait is over" at t = 1.5).
    let mut session = paused();
    session.reconfigure(config(5.0, 1.0), 100.0).unwrap();
    session.send(1.0, 6, 100.0).unwrap();
    assert_eq!(session.retry_in(100.0), Some(1.0));
    session.reconfigure(config(5.0, 0.0), 100.0).unwrap();
    session.step(1.5, 100.0).unwrap();
    assert_eq!(session.retry_in(100.0), None);
    assert!(matches!(
        session.retry_decision(100.0).map(|d| d.outcome),
        Some(Outcome::Never(_))
    ));
    // r = 0.1, empty: the wait is 10 s; after B = 5, r = 10 and 0.2 s the bucket holds 2, so the
    // request passes now: no "9.8 s left".
    let mut session = paused();
    session.reconfigure(config(1.0, 0.1), 100.0).unwrap();
    session.send(1.0, 2, 100.0).unwrap();
    assert_eq!(session.retry_in(100.0), Some(10.0));
    session.reconfigure(config(5.0, 10.0), 100.0).unwrap();
    session.step(0.2, 100.0).unwrap();
    assert_eq!(session.retry_in(100.0), None);
    assert!(session.retry_decision(100.0).unwrap().is_admitted());
    // A faster refill shortens the wait: 1 token short at r = 4 is 0.25 s.
    let mut session = paused();
    session.reconfigure(config(1.0, 1.0), 100.0).unwrap();
    session.send(1.0, 2, 100.0).unwrap();
    session.reconfigure(config(1.0, 4.0), 100.0).unwrap();
    assert_eq!(session.retry_in(100.0), Some(0.25));
}

#[test]
fn after_a_429_the_wait_counts_down_to_the_exact_retry_and_keeps_the_picture_moving() {
    // B = 1, r = 0.04: the second request at t = 0 must wait 1 / 0.04 = 25 s.
    let mut session = Session::new(config(1.0, 0.04), 0.0);
    session.send(1.0, 1, 0.0).unwrap();
    assert_eq!(session.retry_in(0.0), None, "admitted: nothing to wait for");
    session.send(1.0, 1, 0.0).unwrap();
    assert_eq!(session.retry_in(0.0), Some(25.0));
    assert_eq!(session.retry_in(10.0), Some(15.0));
    // At r = 0 from t = 1 the bucket no longer refills: the request can never pass now, so
    // there is nothing to count down (the old wait would end in a false "passes now").
    session.reconfigure(config(1.0, 0.0), 1.0).unwrap();
    assert_eq!(session.retry_in(24.0), None);
    assert!(matches!(
        session.retry_decision(25.0).map(|d| d.outcome),
        Some(Outcome::Never(_))
    ));
    assert!(!session.is_moving(25.0), "the chart is empty from t = 21");

    // Paused, the countdown holds still with lesson time.
    let mut session = paused();
    session.send(1.0, 11, 100.0).unwrap();
    assert_eq!(session.retry_in(100.0), Some(0.2));
    assert_eq!(session.retry_in(500.0), Some(0.2));
    assert!(!session.is_moving(500.0));
    session.step(0.1, 500.0).unwrap();
    let left = session.retry_in(500.0).unwrap();
    assert!((left - 0.1).abs() < 1e-12, "{left}");
    session.step(0.1, 500.0).unwrap();
    assert_eq!(session.retry_in(500.0), None, "a retry now passes");
    assert!(session.send(1.0, 1, 500.0).unwrap().decision.is_admitted());
}

#[test]
fn nothing_moves_while_paused() {
    let mut session = paused();
    session.send(1.0, 10, 100.0).unwrap();
    session
        .start_traffic(Pattern::Steady, 5.0, 0, 100.0)
        .unwrap();
    assert!(!session.is_moving(100.0));
    session.resume(100.0);
    assert!(session.is_moving(100.0));
}

#[test]
fn every_action_is_recorded_with_its_lesson_and_wall_time() {
    let mut session = Session::new(config(10.0, 5.0), 10.0);
    session.send(2.0, 3, 11.0).unwrap();
    session.pause(12.0);
    session.pause(12.5); // already paused: not an action
    session.step(0.5, 13.0).unwrap();
    session.resume(14.0);
    session.set_speed(4.0, 14.0).unwrap();
    session
        .start_traffic(Pattern::Poisson, 8.0, 42, 15.0)
        .unwrap();
    session.stop_traffic(15.5);
    session.reconfigure(config(20.0, 2.0), 16.0).unwrap();
    session.configure(config(5.0, 1.0), 16.0).unwrap();
    session.reset(17.0).unwrap();
    let _ = session.send(-1.0, 1, 18.0); // refused: not recorded
    let log = session.log();
    assert_eq!(log.config(), &config(10.0, 5.0));
    assert_eq!(log.start(), 10.0);
    let entries: Vec<(f64, f64, Action)> = log
        .entries()
        .iter()
        .map(|e| (e.at, e.wall, e.action))
        .collect();
    assert_eq!(
        entries,
        [
            (
                1.0,
                11.0,
                Action::Send {
                    cost: 2.0,
                    count: 3
                }
            ),
            (2.0, 12.0, Action::Pause),
            (2.0, 13.0, Action::Step { seconds: 0.5 }),
            (2.5, 14.0, Action::Resume),
            (2.5, 14.0, Action::Speed { speed: 4.0 }),
            (
                6.5,
                15.0,
                Action::Traffic {
                    pattern: Pattern::Poisson,
                    rate: 8.0,
                    seed: 42
                }
            ),
            (8.5, 15.5, Action::StopTraffic),
            (
                10.5,
                16.0,
                Action::Reconfigure {
                    config: config(20.0, 2.0),
                    initial: false
                }
            ),
            (
                10.5,
                16.0,
                Action::Reconfigure {
                    config: config(5.0, 1.0),
                    initial: true
                }
            ),
            (14.5, 17.0, Action::Reset),
        ]
    );
}

#[test]
fn replaying_the_log_into_a_fresh_session_gives_the_same_state() {
    let mut session = Session::new(config(8.0, 3.0), 5.0);
    session
        .start_traffic(Pattern::Poisson, 12.0, 7, 5.0)
        .unwrap();
    // Frames at irregular moments, which the log does not record.
    for frame in [5.3, 5.31, 6.9, 7.2] {
        session.advance(frame);
    }
    session.send(1.0, 4, 7.25).unwrap();
    session.reconfigure(config(12.0, 1.5), 8.0).unwrap();
    session.pause(8.5);
    session.step(0.7, 9.0).unwrap();
    session.resume(10.0);
    session.set_speed(0.25, 10.0).unwrap();
    session.advance(11.0);
    session.send(2.0, 2, 12.0).unwrap();
    session
        .start_traffic(Pattern::Steady, 20.0, 0, 12.0)
        .unwrap();
    session.configure(config(4.0, 6.0), 13.0).unwrap();
    session.advance(15.0);

    let mut replayed = Session::replay(session.log()).unwrap();
    replayed.advance(15.0);
    assert_eq!(replayed.bucket(), session.bucket());
    assert_eq!(replayed.clock(), session.clock());
    assert_eq!(replayed.traffic(), session.traffic());
    assert_eq!(replayed.last_shot(), session.last_shot());
    assert_eq!(replayed.initial(), session.initial());
    assert_eq!(replayed.log(), session.log());
    let times = |s: &Session| s.history().events().map(|e| e.at).collect::<Vec<_>>();
    assert_eq!(times(&replayed), times(&session));
    assert!(
        session.history().events().count() > 20,
        "traffic was decided"
    );
}

/// What the diagram draws: tokens, B and r, the last request, the charted times.
type Picture = (f64, String, Option<bucketlab::limiter::Shot>, Vec<f64>);

/// What the diagram draws from a session at lesson time `at`.
fn picture(s: &Session, at: f64) -> Picture {
    let config = s.config();
    let tokens = s.bucket().tokens_at(at).unwrap();
    let config = format!("{} {}", config.capacity(), config.refill_rate());
    let times = s.history().events().map(|e| e.at).collect();
    (tokens, config, s.last_shot().copied(), times)
}

/// A session with traffic, sends, a reconfiguration, speed changes, pauses and steps; returns it
/// with (lesson time, picture) taken as it ran.
fn recorded() -> (Session, Vec<(f64, f64, Picture)>) {
    let mut session = Session::new(config(5.0, 1.0), 50.0);
    let mut seen = Vec::new();
    let mut look = |s: &mut Session, wall: f64| {
        let now = s.advance(wall);
        seen.push((now, wall, picture(s, now)));
    };
    session.send(1.0, 3, 50.4).unwrap();
    look(&mut session, 50.9);
    session
        .start_traffic(Pattern::Poisson, 6.0, 9, 51.0)
        .unwrap();
    look(&mut session, 52.3);
    session.set_speed(4.0, 52.5).unwrap();
    look(&mut session, 53.0);
    session.reconfigure(config(8.0, 2.5), 53.2).unwrap();
    session.stop_traffic(53.6);
    look(&mut session, 53.7);
    session.pause(54.0);
    session.step(0.3, 55.0).unwrap();
    session.send(2.0, 4, 56.0).unwrap();
    look(&mut session, 56.0);
    session.step(0.1, 57.0).unwrap();
    look(&mut session, 57.5);
    (session, seen)
}

#[test]
fn the_session_at_a_past_moment_is_what_it_showed_then() {
    let (session, seen) = recorded();
    let before = session.clone();
    for (now, _, shown) in &seen {
        let past = session.at(*now, 60.0).unwrap();
        assert_eq!(past.now(1e9), *now, "held at that moment");
        assert!(past.is_paused());
        assert_eq!(&picture(&past, *now), shown, "at lesson time {now}");
    }
    // Between two looks: the refill in between, from the core.
    let (t0, _, _) = &seen[0];
    let half = session.at(t0 + 0.25, 60.0).unwrap();
    let expected = session
        .at(*t0, 60.0)
        .unwrap()
        .bucket()
        .tokens_at(t0 + 0.25)
        .unwrap();
    assert_eq!(half.bucket().tokens_at(t0 + 0.25).unwrap(), expected);
    assert_eq!(
        session.bucket(),
        before.bucket(),
        "the session itself is unchanged"
    );
    assert_eq!(session.log(), before.log());
}

#[test]
fn a_moment_outside_the_recording_is_refused() {
    let (session, _) = recorded();
    let now = session.now(60.0);
    let err = session.at(now + 1.0, 60.0).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("now must be a finite number from 0 to "),
        "{err}"
    );
    assert!(session.at(-0.1, 60.0).is_err());
    assert!(session.at(f64::NAN, 60.0).is_err());
    assert_eq!(
        session
            .at(0.0, 60.0)
            .unwrap()
            .bucket()
            .tokens_at(0.0)
            .unwrap(),
        5.0
    );
}

#[test]
fn a_scenario_reads_back_as_written_and_plays_exactly_as_recorded() {
    let (session, seen) = recorded();
    let end = session.now(60.0);
    let scenario = Scenario::from_log(session.log(), end);
    let text = scenario.encode(rust_number).unwrap();
    assert!(text.starts_with("1_5_1_5_"), "{text}");
    assert!(text.contains("s1,3_"), "{text}");
    let read = Scenario::decode(&text, rust_decimal).unwrap();
    assert_eq!(read, scenario);
    let played = read.play().unwrap();
    assert_eq!(played.now(0.0), end);
    for (now, _, shown) in &seen {
        assert_eq!(
            &picture(&played.at(*now, 0.0).unwrap(), *now),
            shown,
            "at {now}"
        );
    }
    let mut live = session.clone();
    live.advance(60.0);
    assert_eq!(played.bucket(), live.bucket());
    assert_eq!(played.traffic(), live.traffic());
}

/// The teacher's moment `at` against the played scenario's `at − origin`: the same tokens (to
/// float noise), configuration, last request and chart.
fn assert_same_moments(
    session: &Session,
    wall: f64,
    played: &Session,
    origin: f64,
    from: f64,
    to: f64,
) {
    let mut at = from;
    while at <= to {
        let teacher = session.at(at, wall).unwrap();
        let student = played.at((at - origin).max(0.0), 0.0).unwrap();
        let (t, s) = (
            teacher.bucket().tokens_at(at).unwrap(),
            student.bucket().tokens_at(at - origin).unwrap(),
        );
        assert!((t - s).abs() < 1e-9, "at {at}: {t} against {s}");
        assert_eq!(teacher.config(), student.config(), "at {at}");
        let kinds = |x: &Session| x.history().events().map(|e| e.kind).collect::<Vec<_>>();
        assert_eq!(kinds(&teacher), kinds(&student), "at {at}");
        assert_eq!(
            teacher.last_shot().map(|s| s.decision.outcome),
            student.last_shot().map(|s| s.decision.outcome),
            "at {at}"
        );
        at += 0.05;
    }
}

#[test]
fn a_scenario_keeps_what_came_before_a_reset_as_the_timeline_shows_it() {
    let mut session = paused();
    session.send(1.0, 20, 100.0).unwrap();
    session.configure(config(3.0, 2.0), 100.0).unwrap();
    session.step(1.0, 100.0).unwrap();
    session.reset(100.0).unwrap();
    session.step(0.5, 100.0).unwrap();
    session.send(1.0, 4, 100.0).unwrap();
    session.step(0.5, 100.0).unwrap();
    let scenario = Scenario::from_log(session.log(), 2.0);
    let text = scenario.encode(rust_number).unwrap();
    assert_eq!(text, "1_10_5_10_2_0s1,20_0C3,2_1z_1.5s1,4");
    let played = Scenario::decode(&text, rust_decimal)
        .unwrap()
        .play()
        .unwrap();
    assert_eq!(played.bucket(), session.bucket());
    assert_eq!(played.last_shot(), session.last_shot());
    assert_same_moments(&session, 100.0, &played, 0.0, 0.0, 2.0);
}

#[test]
fn a_scenario_recorded_after_an_hour_opens_counted_from_just_before_its_first_action() {
    // Lesson time counts from the page's load: two clicks after an hour and 5 s.
    let mut session = Session::new(config(5.0, 1.0), 0.0);
    session.send(1.0, 1, 3605.0712345).unwrap();
    session.send(1.0, 1, 3605.5).unwrap();
    let end = session.now(3606.07);
    let scenario = Scenario::from_log(session.log(), end);
    let text = scenario.encode(rust_number).unwrap();
    // From a second before the first click (at 3605.072, the next whole millisecond).
    assert_eq!(text, "1_5_1_5_1.998_1s1,1_1.428s1,1");
    let played = Scenario::decode(&text, rust_decimal)
        .unwrap()
        .play()
        .unwrap();
    assert_same_moments(&session, 3606.07, &played, 3604.072, 3604.072, 3606.07);

    // A bucket not yet refilled a second before the first action starts with what it held then.
    let start = config(10.0, 0.5).with_initial_tokens(0.0).unwrap();
    let mut session = Session::new(start, 0.0);
    session.pause(5.0);
    session.send(1.0, 1, 5.0).unwrap();
    let text = Scenario::from_log(session.log(), 5.0)
        .encode(rust_number)
        .unwrap();
    assert_eq!(text, "1_10_0.5_2_1_1s1,1");

    // Actions more than an hour apart, no reset in between.
    let mut session = paused();
    session.reconfigure(config(10.0, 0.5), 100.0).unwrap();
    session.send(1.0, 10, 100.0).unwrap();
    session.step(3700.0_f64.min(3600.0), 100.0).unwrap();
    session.step(10.0, 100.0).unwrap();
    session.send(1.0, 3, 100.0).unwrap();
    session.step(2.0, 100.0).unwrap();
    let end = session.now(100.0);
    // The first two actions are more than an hour before the end, with no reset after them:
    // refused as a link would be on opening.
    let err = Scenario::from_log(session.log(), end)
        .encode(rust_number)
        .unwrap_err();
    assert_eq!(
        err.message(),
        "scenario: it lasts 3612 s; at most 3600 (reset the diagram and record a shorter scenario)"
    );
    assert_eq!(err.fault, ScenarioFault::Seconds(3612.0));
    assert_eq!(err.fault.code(), "seconds");
    // After a reset it starts there, with the reset target (the starting B = 10, r = 5).
    session.reset(100.0).unwrap();
    session.step(3.0, 100.0).unwrap();
    session.send(1.0, 3, 100.0).unwrap();
    session.step(1.0, 100.0).unwrap();
    let end = session.now(100.0);
    let scenario = Scenario::from_log(session.log(), end);
    let text = scenario.encode(rust_number).unwrap();
    assert_eq!(text, "1_10_5_10_2_1s1,3");
    let played = Scenario::decode(&text, rust_decimal)
        .unwrap()
        .play()
        .unwrap();
    assert_same_moments(&session, 100.0, &played, end - 2.0, end - 2.0, end);
}

#[test]
fn a_few_clicks_before_a_long_pause_stay_a_link_that_ends_an_hour_in() {
    // Three clicks, then the page left open for a day and a half: the idle time is no action.
    let mut session = paused();
    session.step(2.0, 100.0).unwrap();
    for _ in 0..3 {
        session.send(1.0, 1, 100.0).unwrap();
        session.step(0.25, 100.0).unwrap();
    }
    session.step(129_600.0_f64.min(3600.0), 100.0).unwrap();
    for _ in 0..35 {
        session.step(3600.0, 100.0).unwrap();
    }
    let end = session.now(100.0);
    assert!(end > 129_000.0, "{end}");
    let (text, played) = link_played(&session, end);
    // From a second before the first click; it stops an hour in.
    assert_eq!(text, "1_10_5_10_3600_1s1,1_1.25s1,1_1.5s1,1");
    // Every moment of that hour as the session had it; the bucket full at its end, as it is now.
    assert_same_moments(&session, 100.0, &played, 1.0, 1.0, 40.0);
    assert_eq!(played.tokens(0.0), 10.0);
    assert_eq!(session.tokens(100.0), 10.0);

    // A reset among the clicks is one of them: every action stays.
    let mut session = paused();
    session.step(2.0, 100.0).unwrap();
    session.send(1.0, 1, 100.0).unwrap();
    session.step(0.25, 100.0).unwrap();
    session.send(1.0, 1, 100.0).unwrap();
    session.step(1.0, 100.0).unwrap();
    session.reset(100.0).unwrap();
    session.step(2.0, 100.0).unwrap();
    session.send(1.0, 1, 100.0).unwrap();
    for _ in 0..36 {
        session.step(3600.0, 100.0).unwrap();
    }
    let (text, _) = link_played(&session, session.now(100.0));
    assert_eq!(text, "1_10_5_10_3600_1s1,1_1.25s1,1_2.25z_4.25s1,1");

    // Traffic that runs on is no pause: two hours of it are refused as a link, for what they last.
    let mut session = paused();
    session.step(2.0, 100.0).unwrap();
    session
        .start_traffic(Pattern::Steady, 4.0, 0, 100.0)
        .unwrap();
    for _ in 0..2 {
        session.step(3600.0, 100.0).unwrap();
    }
    let err = Scenario::from_log(session.log(), session.now(100.0))
        .encode(rust_number)
        .unwrap_err();
    assert_eq!(err.fault, ScenarioFault::Seconds(7201.0));
    // Stopped within the hour, it is a pause again.
    let mut session = paused();
    session.step(2.0, 100.0).unwrap();
    session
        .start_traffic(Pattern::Steady, 4.0, 0, 100.0)
        .unwrap();
    session.step(10.0, 100.0).unwrap();
    session.stop_traffic(100.0);
    for _ in 0..2 {
        session.step(3600.0, 100.0).unwrap();
    }
    let (text, played) = link_played(&session, session.now(100.0));
    assert_eq!(text, "1_10_5_10_3600_1t4,0_11x");
    assert_same_moments(&session, 100.0, &played, 1.0, 1.0, 20.0);
}

#[test]
fn action_times_are_whole_milliseconds_so_about_180_clicks_fit_a_link() {
    // Clicks 0.3 s apart at raw wall times (performance.now() / 1000 is no round number).
    let mut session = Session::new(config(5.0, 3.0), 0.0);
    let mut wall = 0.7147999999970198;
    for _ in 0..180 {
        session.send(1.0, 1, wall).unwrap();
        wall += 0.3070000000000123;
    }
    let first = session.log().entries()[0].at;
    assert_eq!(first, 0.715);
    let end = session.now(wall);
    let text = Scenario::from_log(session.log(), end)
        .encode(rust_number)
        .unwrap();
    assert!(text.len() <= 2000, "{} characters", text.len());
    assert!(text.contains("_0.715s1,1_1.022s1,1_"), "{text}");
    // The replay decides each click as the session did, to the bit.
    let played = Scenario::decode(&text, rust_decimal)
        .unwrap()
        .play()
        .unwrap();
    session.advance(wall);
    assert_eq!(played.bucket(), session.bucket());
    let times = |s: &Session| s.history().events().map(|e| e.at).collect::<Vec<_>>();
    assert_eq!(times(&played), times(&session));
    assert_eq!(played.last_shot(), session.last_shot());
    // A stopped clock moves to the next whole millisecond with the action.
    let mut session = Session::new(config(5.0, 1.0), 0.0);
    session.pause(1.2345678);
    session.send(1.0, 1, 9.0).unwrap();
    assert_eq!(session.now(9.0), 1.235);
    assert_eq!(session.log().entries().last().unwrap().at, 1.235);
}

#[test]
fn a_click_queued_from_before_what_was_decided_comes_after_it_in_time_travel_and_links() {
    // `sendAt` decides a click queued at an earlier wall time (from the mount on). Once later
    // clicks or traffic have been decided, it is decided after them, as the bucket does (its
    // clock never goes back): the log's times never go back, so the moment can be shown again
    // and the scenario link opens. Found by fuzzing (fuzz/fuzz_targets/session_ops.rs).
    let mut session = Session::new(config(5.0, 1.0), 100.0);
    session
        .start_traffic(Pattern::Steady, 2.0, 0, 100.0)
        .unwrap();
    session.send(1.0, 1, 110.0).unwrap();
    session.advance(110.7);
    let queued = session.send(2.0, 1, 105.0).unwrap();
    session.send(1.0, 1, 111.0).unwrap();
    let now = session.advance(112.0);
    let shown = session.at(now, 112.0).expect("now");
    assert_eq!(
        shown.bucket().tokens_at(now),
        session.bucket().tokens_at(now)
    );
    assert_eq!(shown.last_shot(), session.last_shot());
    assert_eq!(queued.at, 10.5, "after the arrival decided at 10.5");
    let times: Vec<f64> = session.log().entries().iter().map(|e| e.at).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    let past = session.at(10.6, 112.0).unwrap();
    assert_eq!(past.last_shot(), Some(&queued));

    let (_, played) = link_played(&session, now);
    assert_eq!(
        played.last_shot().map(|s| s.decision.outcome),
        session.last_shot().map(|s| s.decision.outcome)
    );
}

#[test]
fn a_click_queued_from_before_traffic_was_started_comes_after_the_start() {
    // Starting traffic decides nothing, but it is an action of the log all the same.
    let mut session = Session::new(config(41.89, 136.2), 0.0);
    session
        .start_traffic(Pattern::Poisson, 1e-6, 7, 23.551)
        .unwrap();
    let queued = session.send(1.0, 1, 0.0).unwrap();
    assert_eq!(queued.at, 23.551);
    let now = session.advance(24.0);
    let (_, played) = link_played(&session, now);
    assert_eq!(
        played.last_shot().map(|s| s.decision.outcome),
        Some(queued.decision.outcome)
    );
    assert!(session.at(now, 24.0).is_ok());
}

#[test]
fn a_log_with_a_click_queued_from_before_decided_traffic_replays_to_the_same_session() {
    // The frames that decided the traffic before the queued click are not in the log, so a
    // replay by wall time alone decided the click before those arrivals (at 5.5, not 10.5).
    // Found by fuzzing (fuzz/fuzz_targets/session_ops.rs).
    let mut session = Session::new(config(5.0, 1.0), 100.0);
    session
        .start_traffic(Pattern::Steady, 2.0, 0, 100.0)
        .unwrap();
    session.advance(110.7);
    let queued = session.send(2.0, 1, 105.5).unwrap();
    assert_eq!(queued.at, 10.5, "after the arrival decided at 10.5");
    session.advance(112.0);

    let mut replayed = Session::replay(session.log()).unwrap();
    replayed.advance(112.0);
    assert_eq!(replayed.log(), session.log());
    assert_eq!(replayed.bucket(), session.bucket());
    assert_eq!(replayed.clock(), session.clock());
    assert_eq!(replayed.traffic(), session.traffic());
    assert_eq!(replayed.last_shot(), session.last_shot());
    let times = |s: &Session| s.history().events().map(|e| e.at).collect::<Vec<_>>();
    assert_eq!(times(&replayed), times(&session));
}

#[test]
fn an_action_after_a_pause_is_timed_at_a_whole_millisecond_as_its_link_plays_it() {
    // A pause holds lesson time where it is, here a hair past 65.535 (65.53500000000349, the
    // wall clock's subtraction); the configure after it was timed there too, not at 65.535, which
    // the link writes. At this rate the hair refilled the bucket's debt: 119 live, 0 played.
    // Found by fuzzing (fuzz/fuzz_targets/session_ops.rs).
    let wall = 65512.0 + 65.535;
    let mut session = Session::new(config(95.09, 374.13), 65512.0);
    session
        .reconfigure(config(289.65, 6.544669182419746e281), wall)
        .unwrap();
    session.send(146.0, 1, wall).unwrap();
    session.pause(wall);
    session.configure(config(119.0, 119.0), wall).unwrap();
    let now = session.advance(wall);
    for entry in session.log().entries() {
        if !entry.action.is_clock() {
            assert_eq!(entry.at, 65.535, "{entry:?}");
        }
    }
    let (text, played) = link_played(&session, now);
    assert_eq!(played.tokens(0.0), session.tokens(wall), "{text}");
}

#[test]
fn a_refused_scenario_says_as_data_which_action_which_piece_what_kind_and_its_values() {
    let refuse = |text: &str| Scenario::decode(text, rust_decimal).unwrap_err();
    let header = |text: &str, fault| ScenarioError {
        action: 0,
        piece: text.to_owned(),
        fault,
    };
    let action = |n, piece: &str, fault| ScenarioError {
        action: n,
        piece: piece.to_owned(),
        fault,
    };
    let value = |field, given, rule| ScenarioFault::Value(InvalidValue { field, given, rule });
    let cases = [
        (
            "2_5_1_5_1",
            header("2_5_1_5_1", ScenarioFault::Version),
            "version",
        ),
        ("1_5_1", header("1_5_1", ScenarioFault::Header), "header"),
        (
            "<script>",
            header("<script>", ScenarioFault::Character('<')),
            "character",
        ),
        (
            "1_5_1_5_1_0é",
            header("1_5_1_5_1_0é", ScenarioFault::Character('é')),
            "character",
        ),
        (
            "1_-5_1_5_1",
            header(
                "1_-5_1_5_1",
                value(Field::Capacity, Given::Number(-5.0), Rule::Positive),
            ),
            "value",
        ),
        (
            "1_5_1_9_1",
            header(
                "1_5_1_9_1",
                value(Field::Tokens, Given::Number(9.0), Rule::UpTo(5.0)),
            ),
            "value",
        ),
        (
            "1_5_1_5_4000_0s1,1",
            header(
                "1_5_1_5_4000_0s1,1",
                value(
                    Field::Now,
                    Given::Number(4000.0),
                    Rule::Between(0.0, 3600.0),
                ),
            ),
            "value",
        ),
        (
            "1_5_1_5_2_0.5s1,101",
            action(
                1,
                "0.5s1,101",
                value(
                    Field::BurstSize,
                    Given::Number(101.0),
                    Rule::Whole(1, MAX_BURST),
                ),
            ),
            "value",
        ),
        (
            "1_5_1_5_2_0.5sx,1",
            action(
                1,
                "0.5sx,1",
                value(Field::Cost, Given::Text("x".into()), Rule::NonNegative),
            ),
            "value",
        ),
        (
            "1_5_1_5_2_0.5c1e400,1",
            action(
                1,
                "0.5c1e400,1",
                value(
                    Field::Capacity,
                    Given::TooLarge("1e400".into()),
                    Rule::Positive,
                ),
            ),
            "value",
        ),
        (
            "1_5_1_5_2_0.5q1",
            action(1, "0.5q1", ScenarioFault::Letter(Some('q'))),
            "letter",
        ),
        (
            "1_5_1_5_2_0.5",
            action(1, "0.5", ScenarioFault::Letter(None)),
            "letter",
        ),
        (
            "1_5_1_5_2_0.5z1",
            action(
                1,
                "0.5z1",
                ScenarioFault::Arguments {
                    letter: 'z',
                    takes: 0,
                },
            ),
            "arguments",
        ),
        (
            "1_5_1_5_2_0.5s1",
            action(
                1,
                "0.5s1",
                ScenarioFault::Arguments {
                    letter: 's',
                    takes: 2,
                },
            ),
            "arguments",
        ),
        (
            "1_5_1_5_2_0.5s1,1_0.2s1,1",
            action(2, "0.2s1,1", ScenarioFault::Order { from: 0.5, to: 2.0 }),
            "order",
        ),
        (
            "1_5_1_5_2_3s1,1",
            action(1, "3s1,1", ScenarioFault::Order { from: 0.0, to: 2.0 }),
            "order",
        ),
    ];
    for (text, expected, code) in cases {
        let err = refuse(text);
        assert_eq!(err, expected, "{text}: {}", err.message());
        assert_eq!(err.fault.code(), code, "{text}");
    }
    // The whole text too long: its length, and the text quoted cut short.
    let long = format!("1_5_1_5_1{}", "_0z".repeat(700));
    let err = refuse(&long);
    assert_eq!((err.action, err.fault.code()), (0, "chars"));
    assert_eq!(err.fault, ScenarioFault::Chars(2109));
    assert_eq!(err.piece, "1_5_1_5_1_0z_0z_0z_0z_0z…");
    // The bound itself: 2,000 characters are read (and refused for their 663 actions), 2,001 not.
    let at_most = format!("1_5_1_5_100{}", "_0z".repeat(663));
    assert_eq!(at_most.len(), 2000);
    assert_eq!(refuse(&at_most).fault, ScenarioFault::Actions(663));
    let over = format!("1_5_1_5_1000{}", "_0z".repeat(663));
    assert_eq!(refuse(&over).fault, ScenarioFault::Chars(2001));
    // Characters are counted as characters, not as their UTF-8 bytes: 3,000 four-byte emoji are
    // 3,000 characters; 600 of them (2,400 bytes) are short enough to be refused for what they are.
    let emoji = format!("1_5_1_5_1_{}", "😀".repeat(3000));
    assert_eq!(refuse(&emoji).fault, ScenarioFault::Chars(3010));
    let few = format!("1_5_1_5_1_{}", "😀".repeat(600));
    assert_eq!(refuse(&few).fault, ScenarioFault::Character('😀'));
    // Too many actions: all of them counted, nothing quoted.
    let many = format!("1_5_1_5_1{}", "_0z".repeat(201));
    assert_eq!(refuse(&many), header("", ScenarioFault::Actions(201)));
    assert_eq!(ScenarioFault::Actions(201).code(), "actions");
    // Writing: a recording with too many actions or too long a text for a link.
    let sends = |n: usize, cost: f64| Scenario {
        config: config(5.0, 1.0),
        steps: (0..n)
            .map(|i| (i as f64 * 0.001, Action::Send { cost, count: 1 }))
            .collect(),
        end: 10.0,
    };
    let err = sends(201, 1.0).encode(rust_number).unwrap_err();
    assert_eq!(err, header("", ScenarioFault::Actions(201)));
    let err = sends(200, 0.123456789).encode(rust_number).unwrap_err();
    let ScenarioFault::Chars(chars) = err.fault else {
        panic!("{}", err.message());
    };
    assert!(chars > 2000, "{chars}");
    assert_eq!(
        err.message(),
        format!("scenario: the link would be {chars} characters long; at most 2000 (reset the diagram and record a shorter scenario)")
    );
}

#[test]
fn a_hostile_scenario_is_refused_with_the_piece_and_the_rule() {
    let refuse = |text: &str| Scenario::decode(text, rust_decimal).unwrap_err().message();
    assert_eq!(
        refuse("2_5_1_5_1"),
        "scenario \"2_5_1_5_1\": it must start with the version 1_"
    );
    assert_eq!(
        refuse("1_5_1"),
        "scenario \"1_5_1\": it must start with 1_B_r_tokens_end"
    );
    assert_eq!(
        refuse("<script>"),
        "scenario \"<script>\": the character \"<\" is not allowed (letters, digits and . _ , - + only)"
    );
    assert_eq!(
        refuse("1_-5_1_5_1"),
        "scenario \"1_-5_1_5_1\": capacity must be a finite number greater than 0, got -5"
    );
    assert_eq!(
        refuse("1_5_1_9_1"),
        "scenario \"1_5_1_9_1\": tokens must be a finite number from 0 to 5, got 9"
    );
    assert_eq!(
        refuse("1_5_1_5_2_0.5q1"),
        "scenario action 1 \"0.5q1\": unknown action \"q\" (allowed: s, c, C, z, t, p, x)"
    );
    assert_eq!(
        refuse("1_5_1_5_2_0.5s1,1_0.2s1,1"),
        "scenario action 2 \"0.2s1,1\": its time must be from the previous action's (0.5) to the end (2)"
    );
    // The first action has no previous one.
    assert_eq!(
        refuse("1_5_1_5_1_2s1,1"),
        "scenario action 1 \"2s1,1\": its time must be from the start (0) to the end (1)"
    );
    assert_eq!(
        refuse("1_5_1_5_2_0.5s1,101"),
        "scenario action 1 \"0.5s1,101\": burst_size must be a whole number from 1 to 100, got 101"
    );
    assert_eq!(
        refuse("1_5_1_5_2_0.5sx,1"),
        "scenario action 1 \"0.5sx,1\": cost must be a finite number of at least 0, got \"x\""
    );
    assert_eq!(
        refuse("1_5_1_5_2_0.5p99,1"),
        "scenario action 1 \"0.5p99,1\": traffic_rate must be a finite number greater than 0 and at most 50, got 99"
    );
    assert_eq!(
        refuse("1_5_1_5_2_0.5z1"),
        "scenario action 1 \"0.5z1\": action \"z\" takes 0 numbers separated by commas"
    );
    assert!(refuse("1_5_1_5_1e9").contains("now must be"));
    let long = format!("1_5_1_5_1{}", "_0z".repeat(700));
    assert!(refuse(&long).starts_with("scenario \"1_5_1_5_1_0z_0z_0z_0z_0z…\": the text is 2109 characters long; at most 2000"), "{}", refuse(&long));
    let many = format!("1_5_1_5_1{}", "_0z".repeat(201));
    assert_eq!(
        refuse(&many),
        "scenario: it has 201 actions; at most 200 (reset the diagram and record a shorter scenario)"
    );
    assert_eq!(
        Scenario::decode("1_5_1_5_1", rust_decimal).unwrap().steps,
        vec![]
    );
}

#[test]
fn a_click_queued_from_before_poisson_arrivals_is_timed_at_a_whole_millisecond() {
    // Poisson arrivals fall between milliseconds. A click queued from before them comes after the
    // last one decided: at the next whole millisecond, as every action is timed, so that its link
    // (which writes milliseconds) plays it after that arrival too.
    let mut session = Session::new(config(3.0, 0.5), 0.0);
    session
        .start_traffic(Pattern::Poisson, 40.0, 11, 0.0)
        .unwrap();
    session.advance(20.0);
    let decided = session
        .history()
        .events()
        .map(|e| e.at)
        .last()
        .expect("arrivals were decided");
    assert_ne!(decided * 1000.0, (decided * 1000.0).round(), "{decided}");
    let queued = session.send(1.0, 1, 5.0).unwrap();
    assert_eq!(queued.at, (decided * 1000.0).ceil() / 1000.0);
    assert!(
        queued.at >= decided && queued.at - decided < 1e-3,
        "{} after {decided}",
        queued.at
    );

    let now = session.advance(21.0);
    let mut replayed = Session::replay(session.log()).unwrap();
    replayed.advance(21.0);
    assert_eq!(replayed.bucket(), session.bucket());
    assert_eq!(replayed.last_shot(), session.last_shot());
    let (text, played) = link_played(&session, now);
    assert_eq!(played.last_shot(), session.last_shot(), "{text}");
    assert_eq!(
        played.bucket().tokens_at(now),
        session.bucket().tokens_at(now)
    );
}

#[test]
fn a_frame_stamped_just_before_the_refusal_counts_down_from_the_exact_wait() {
    // A browser stamps a frame when it begins, which can be a few milliseconds before the click
    // handled in it. The wait from that stamp is no longer than the refusal's own: "0.995 s" is
    // never "1.1 s left".
    let mut session = Session::new(config(5.0, 1.0), 0.0);
    session.send(1.0, 5, 0.0).unwrap();
    let refused = session.send(1.0, 5, 4.005).unwrap();
    let exact = refused.decision.retry_after().expect("refused");
    assert!((exact - 0.995).abs() < 1e-9, "{exact}");
    assert_eq!(session.retry_in(4.005), Some(exact));
    assert_eq!(
        session.retry_in(3.99),
        Some(exact),
        "a frame stamped 15 ms earlier"
    );
    let later = session.retry_in(4.5).expect("still waiting");
    assert!((later - 0.5).abs() < 1e-9, "{later}");
}

#[test]
fn a_past_moment_played_on_is_the_moment_replayed_from_the_start() {
    let (session, seen) = recorded();
    let end = session.now(60.0);
    // Moments in small and large steps, through the traffic, the sends and the reconfiguration,
    // landing on the looks and on actions' own times too.
    let mut moments: Vec<f64> = (0..=80).map(|i| end * f64::from(i) / 80.0).collect();
    moments.extend(seen.iter().map(|(now, _, _)| *now));
    moments.extend(session.log().entries().iter().map(|e| e.at));
    moments.sort_by(f64::total_cmp);
    let mut past = session.at(0.0, 60.0).unwrap();
    let mut from = 0.0;
    let mut arrivals = 0;
    for at in moments {
        session.play_on(&mut past, from, at).unwrap();
        from = at;
        let fresh = session.at(at, 60.0).unwrap();
        assert_eq!(past.now(1e9), fresh.now(1e9), "held at {at}");
        assert!(past.is_paused());
        assert_eq!(
            picture(&past, at),
            picture(&fresh, at),
            "at lesson time {at}"
        );
        let levels = |s: &Session| s.history().level_line(at);
        assert_eq!(levels(&past), levels(&fresh), "the level line at {at}");
        assert_eq!(past.config(), fresh.config());
        assert_eq!(past.traffic().is_some(), fresh.traffic().is_some());
        arrivals = arrivals.max(fresh.history().events().count());
    }
    assert!(
        arrivals > 10,
        "traffic was decided on the way: {arrivals} events at most"
    );
    // Played on from the end, it stays there.
    session.play_on(&mut past, end, end).unwrap();
    assert_eq!(
        picture(&past, end),
        picture(&session.at(end, 60.0).unwrap(), end)
    );
    // Not back in time: a moment before the one held is refused, by name.
    let err = session.play_on(&mut past, end, end - 1.0).unwrap_err();
    assert!(err.to_string().starts_with("now must be"), "{err}");
}

#[test]
fn scrubbing_back_an_hour_of_traffic_from_a_checkpoint_shows_the_same_moments() {
    // Ten minutes of the fastest Poisson traffic, decided in long steps, with sends between.
    let mut session = Session::new(config(5.0, 1.0), 0.0);
    session.pause(0.0);
    session
        .start_traffic(Pattern::Poisson, 50.0, 7, 0.0)
        .unwrap();
    for _ in 0..12 {
        session.step(50.0, 0.0).unwrap();
        session.send(1.0, 2, 0.0).unwrap();
        // Decided 2,500 at a time, the history still holds about a span's worth.
        assert!(session.history().events().count() <= 4097);
    }
    let now = session.now(0.0);
    assert!((now - 600.0).abs() < 1e-9, "{now}");
    // Back and forth as a reader scrubs, before and after the checkpoints the scrubbing makes;
    // each moment as a copy of the session (which has none) replays it from the start.
    for at in [
        now - 1.0,
        now - 5.0,
        now - 0.5,
        now - 20.0,
        100.0,
        now - 2.0,
        31.0,
        0.0,
        450.25,
        now,
    ] {
        let scrubbed = session.at(at, 0.0).unwrap();
        let replayed = session.clone().at(at, 0.0).unwrap();
        assert_eq!(scrubbed.now(0.0), replayed.now(0.0), "held at {at}");
        assert_eq!(picture(&scrubbed, at), picture(&replayed, at), "at {at}");
        let levels = |s: &Session| s.history().level_line(at);
        assert_eq!(
            levels(&scrubbed),
            levels(&replayed),
            "the level line at {at}"
        );
        assert!(scrubbed.history().events().count() <= 4097);
    }
}

#[test]
fn an_action_recorded_before_a_checkpoint_is_in_every_later_moment() {
    // Lesson time 300 seen at wall 600 leaves a checkpoint there; a request then given an
    // earlier wall time (10) is recorded at lesson time 10, before it.
    let mut session = Session::new(config(5.0, 0.0), 0.0);
    session.at(300.0, 600.0).unwrap();
    session.send(1.0, 1, 10.0).unwrap();
    let scrubbed = session.at(400.0, 600.0).unwrap();
    let replayed = session.clone().at(400.0, 600.0).unwrap();
    assert_eq!(scrubbed.tokens(0.0), 4.0);
    assert_eq!(picture(&scrubbed, 400.0), picture(&replayed, 400.0));
}

/// A recording too long in characters starts at the last reset, as the refusal asks, as one with
/// too many actions or seconds does.
#[test]
fn a_link_too_long_in_characters_starts_after_the_last_reset() {
    let mut session = Session::new(BucketConfig::new(5.0, 1.0).unwrap(), 0.0);
    session.pause(0.0);
    // 190 clicks at distinct times of three decimals: over 2,000 characters, in 190 actions.
    for _ in 0..190 {
        session.step(0.123, 0.0).unwrap();
        session.send(1.0, 1, 0.0).unwrap();
    }
    let end = session.now(0.0);
    let err = Scenario::link(session.log(), end, rust_number).unwrap_err();
    assert!(matches!(err.fault, ScenarioFault::Chars(_)), "{err}");
    // The reader does as told: resets and records three clicks.
    session.reset(0.0).unwrap();
    for _ in 0..3 {
        session.step(0.5, 0.0).unwrap();
        session.send(1.0, 1, 0.0).unwrap();
    }
    let end = session.now(0.0);
    // The whole log still does not fit; the link starts at the reset, and replays the same bucket.
    assert!(Scenario::from_log(session.log(), end)
        .encode(rust_number)
        .is_err());
    let text = Scenario::link(session.log(), end, rust_number).unwrap();
    assert_eq!(text.split('_').count(), 5 + 3, "{text}");
    let played = Scenario::decode(&text, rust_decimal)
        .unwrap()
        .play()
        .unwrap();
    // The same level, but for the float noise of times counted from another origin.
    assert!((played.tokens(0.0) - session.tokens(0.0)).abs() < 1e-9);
    let decision = |s: &Session| s.last_shot().map(|shot| shot.decision);
    assert_eq!(decision(&played), decision(&session));
}
