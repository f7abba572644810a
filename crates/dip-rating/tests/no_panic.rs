//! Random damage to a real control file and random text: the interpreter
//! returns Ok or an error with a place, and never panics. (The fuzz target
//! in /fuzz does the same with libFuzzer.)

use dip_rating::analyse::{Interp, MemHost};
use proptest::prelude::*;

const CTL: &str = include_str!("../../../examples/ratings/club.ctl");
const TABLE: &str = include_str!("../../../examples/ratings/spring.res");

fn run(ctl: &str) {
    let mut h = MemHost::default();
    for f in ["spring.res", "autumn.res", "league.txt"] {
        h.files.insert(f.into(), TABLE.into());
    }
    h.files
        .insert("online.csv".into(), "game,player,score\ng,A,1\ng,B,2\n".into());
    h.files.insert("self.ctl".into(), ctl.into());
    let mut it = Interp::new(&mut h, Vec::new(), false);
    if let Err(e) = it.run("x.ctl", ctl) {
        assert!(!e.file.is_empty(), "error without a place: {e:?}");
        let s = e.to_string();
        assert!(s.starts_with(&e.file));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]
    #[test]
    fn damaged_control_files(cuts in prop::collection::vec((0usize..4000, 0usize..20, "[ -~\n]{0,6}"), 1..6)) {
        let mut s: Vec<char> = CTL.chars().collect();
        for (at, len, ins) in cuts {
            let at = at % (s.len() + 1);
            let end = (at + len).min(s.len());
            s.splice(at..end, ins.chars());
        }
        run(&s.into_iter().collect::<String>());
    }

    #[test]
    fn random_lines(lines in prop::collection::vec(prop::sample::select(vec![
        "SCANFILES", "SELECT DEFAULT", "TRANSFORMATION DEFAULT", "CALCULATE", "PRINT DEFAULT",
        "PRINTGAMES DEFAULT", "DEFINE TRANSFORMATION t", "VARIABLE v [2:] := v + P", "TRANSFORM P/(V+1)",
        "END", "TRANSFORMATION t", "#IF 1", "#ELSE", "#ENDIF", "#MACRO m", "#ENDMACRO", "#CALL m(1)",
        "DEFINE JOB j", "ENDJOB", "JOB j($1)", "#INCLUDE self.ctl", "SET a = a + 1", "PSET b = LEVEL",
        "SAVEPLAYERS s", "SAVEGAMES g", "CLEARVARS", "LIST ALL", "ECHO print('%5.2f %s', 1/0, $1)",
        "PARAMETER spring.res", "DEFINE ITERATION i", "MAXIMUM 3", "ITERATION i", "PLAYERLEVEL DEFAULT DEFAULT",
        "SORT DEFAULT", "\\", "{", "}", "!", "'", "(", "[1:", "#SETCOMMENT a b c",
    ]), 0..40)) {
        run(&lines.join("\n"));
    }
}
