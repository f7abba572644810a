//! The in-memory DAIDE rig (src/rig.rs): a whole script answered, and
//! any bytes where a script was survived.

use dip_fuzz::rig::{script, stream, Rig};
use dip_server::daide::frame;
use dip_server::daide::message::Msg;
use proptest::prelude::*;

#[test]
fn a_session_answers_a_whole_script() {
    let rig = Rig::new();
    let got = rig.session(&stream(&script()));
    assert_eq!(got[0].kind, frame::RM);
    assert!(got.iter().filter(|f| f.kind == frame::DM).count() >= 10, "{got:?}");
}

/// Any bytes where a script was, or a script with octets changed, cut
/// or put in: the session answers or closes, never panics, and sends
/// only well-formed frames.
#[test]
fn a_session_survives_any_incoming_frames() {
    use proptest::test_runner::{Config, TestRunner};
    let rig = Rig::new();
    let all = script();
    let mut runner = TestRunner::new(Config {
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    });
    let input = (
        proptest::collection::vec(0usize..all.len(), 0..12),
        proptest::collection::vec(any::<u8>(), 0..64),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
    );
    runner
        .run(&input, |(pick, noise, at, cut)| {
            let chosen: Vec<Msg> = pick.iter().map(|&i| all[i].clone()).collect();
            let mut bytes = stream(&chosen);
            let i = at.index(bytes.len() + 1);
            bytes.splice(i..i, noise);
            let n = cut.index(bytes.len() + 1);
            bytes.truncate(n.max(bytes.len() / 2));
            rig.session(&bytes);
            Ok(())
        })
        .unwrap();
}
