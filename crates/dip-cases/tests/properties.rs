//! The case-file readers never panic: any text is cases or an error naming
//! a line, and running what was read never panics either.

use dip_cases::{parse_file, Runner, Settings};
use proptest::prelude::*;

/// Lines made of the peers' keywords, orders and junk.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("VARIANT_ALL Standard".to_string()),
        Just("VARIANT: DATC_Standard".to_string()),
        Just("CASE x".to_string()),
        Just("END".to_string()),
        Just("SETUP".to_string()),
        Just("SETUPDISLODGED".to_string()),
        Just("PRESTATE".to_string()),
        Just("PRESTATE_SETPHASE Fall 1901 (Retreat)".to_string()),
        Just("PRESTATE_DISLODGED".to_string()),
        Just("PRESTATE_RESULTS".to_string()),
        Just("PRESTATE_SUPPLYCENTER_OWNERS".to_string()),
        Just("ORDERS".to_string()),
        Just("POSTSTATE".to_string()),
        Just("POSTSTATE_SAME".to_string()),
        Just("POSTSTATE_DISLODGED".to_string()),
        Just("Germany: A mun".to_string()),
        Just("Austria: A vie-boh".to_string()),
        Just("SUCCESS: Italy: A tyr-vie via convoy".to_string()),
        Just("FAILURE: Germany: A mun-boh".to_string()),
        Just("ORD: m a lvp-iri-eng-lon".to_string()),
        Just("RES: move(england, lvp/mv, army, lon, true)".to_string()),
        Just("RES: FAIL".to_string()),
        "[ -~]{0,30}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    #[test]
    fn peer_case_reader_never_panics(lines in proptest::collection::vec(line(), 0..14)) {
        let text = lines.join("\n");
        if let Ok(cases) = parse_file(&text, "p.txt") {
            let mut runner = Runner::new(Settings::default());
            for c in cases.iter().take(4) {
                let _ = runner.run(c);
            }
        } else if let Err(e) = parse_file(&text, "p.txt") {
            prop_assert!(e.line <= lines.len().max(1), "line {} of {}", e.line, lines.len());
        }
    }
}
