//! The Analyse control language end to end, on files in memory.

use dip_rating::analyse::{Interp, MemHost};
use dip_rating::results::Date;

fn host(files: &[(&str, &str)]) -> MemHost {
    let mut h = MemHost {
        today: Some(Date { y: 2024, m: 12, d: 31 }),
        ..Default::default()
    };
    for (n, t) in files {
        h.files.insert(n.to_string(), t.to_string());
    }
    h
}

/// Runs `ctl` with the data files; returns the host (outputs) and levels.
fn run(ctl: &str, files: &[(&str, &str)], args: &[&str]) -> (MemHost, Vec<(String, f64)>) {
    let mut h = host(files);
    let levels = {
        let mut it = Interp::new(&mut h, args.iter().map(|s| s.to_string()).collect(), false);
        it.run("test.ctl", ctl).unwrap_or_else(|e| panic!("{e}"));
        it.levels()
    };
    (h, levels)
}

fn run_err(ctl: &str, files: &[(&str, &str)], allow_system: bool) -> String {
    let mut h = host(files);
    let mut it = Interp::new(&mut h, Vec::new(), allow_system);
    match it.run("test.ctl", ctl) {
        Ok(()) => panic!("expected an error from:\n{ctl}"),
        Err(e) => e.to_string(),
    }
}

fn level(levels: &[(String, f64)], name: &str) -> f64 {
    levels
        .iter()
        .find(|l| l.0 == name)
        .unwrap_or_else(|| panic!("no {name}"))
        .1
}

const EXACT: &str = "DEFINE ITERATION exact\n MINIMUM 1\n MAXIMUM 100000\n EPSILON 1e-28\nEND\n";

/// The seed's defaults on one game, solved by hand.
///
/// One game, A 2 points, B 1, C 1. TRANSFORMATION DEFAULT (P/MEAN, mean
/// 4/3) gives p = 1.5, 0.75, 0.75. With GAMELEVEL
/// `WEIGHT*P*(SUMLEVEL-LEVEL)/(N-1)` (weight 1, N = 3) and PLAYERLEVEL
/// `SUM/WSUM` (one game: SUM/1), a fixed point L of the iteration satisfies
/// L_i = k · p_i · (S − L_i) / 2 with S = ΣL = 3 after normalisation, so
/// L_i = 3k·p_i / (2 + k·p_i). Put u = 0.75k: L_A = 3u/(1+u),
/// L_B = L_C = 3u/(2+u), and ΣL = 3 gives u/(1+u) + 2u/(2+u) = 1, i.e.
/// 2u² + u − 2 = 0, u = (√17 − 1)/4 ≈ 0.780776.
/// So L_A = 1.3153410615…, L_B = L_C = 0.8423294692….
#[test]
fn seed_defaults_reproduce_hand_computed_example() {
    let data = "= 2024-01-01 one game\nA 2\nB 1\nC 1\n";
    let ctl = format!("PARAMETER g.res\nSCANFILES\n{EXACT}SELECT DEFAULT\nTRANSFORMATION DEFAULT\nITERATION exact\nCALCULATE\nPRINT DEFAULT\n");
    let (h, lv) = run(&ctl, &[("g.res", data)], &[]);
    let u = (17f64.sqrt() - 1.0) / 4.0;
    let (la, lb) = (3.0 * u / (1.0 + u), 3.0 * u / (2.0 + u));
    assert!((level(&lv, "A") - la).abs() < 1e-9, "A {} vs {la}", level(&lv, "A"));
    assert!((level(&lv, "B") - lb).abs() < 1e-9);
    assert!((level(&lv, "C") - lb).abs() < 1e-9);
    assert!((lv.iter().map(|l| l.1).sum::<f64>() - 3.0).abs() < 1e-12);
    // the default PLAYER formula print('%4d. %-25s %8.3f',I,NAME,LEVEL)
    assert_eq!(
        h.stdout,
        format!(
            "   1. {:<25} {:>8.3}\n   2. {:<25} {:>8.3}\n   3. {:<25} {:>8.3}\n",
            "A", la, "B", lb, "C", lb
        )
    );
}

/// Two games with weights, by hand: A beats B 3:1 in a two-player game of
/// weight 1 and B, C, D share a three-player game 1:1:1 of weight 2.
/// Then everything is determined by the iteration; we check the defining
/// equations at the fixed point instead of a closed form.
#[test]
fn fixed_point_equations_hold_with_weights() {
    let data = "= 2024-01-01 *100 g1\nA 3\nB 1\n= 2024-01-02 *200 g2\nB 1\nC 1\nD 1\n";
    let ctl = format!(
        "PARAMETER g.res\nSCANFILES\nDEFINE SELECTION w\n SELECT FACTOR/100\nEND\n{EXACT}SELECT w\nTRANSFORMATION DEFAULT\nITERATION exact\nCALCULATE\n"
    );
    let (_, lv) = run(&ctl, &[("g.res", data)], &[]);
    let (a, b, c, d) = (level(&lv, "A"), level(&lv, "B"), level(&lv, "C"), level(&lv, "D"));
    // level0 ∝ SUM/WSUM: A: 1·1.5·b/1; B: (1·0.5·a + 2·1·(c+d)/2)/3; C: 2·(b+d)/2/2
    let (a0, b0, c0, d0) = (1.5 * b, (0.5 * a + (c + d)) / 3.0, (b + d) / 2.0, (b + c) / 2.0);
    let k = 4.0 / (a0 + b0 + c0 + d0);
    for (x, y) in [(a, a0), (b, b0), (c, c0), (d, d0)] {
        assert!((x - k * y).abs() < 1e-9, "{x} vs {}", k * y);
    }
    assert!((a + b + c + d - 4.0).abs() < 1e-12);
}

mod convergence {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]
        /// Games of 3 to 7 players: the iteration converges and strengths
        /// sum to the number of players (and per group to its size).
        #[test]
        fn converges_and_sums_to_n(games in prop::collection::vec(
            (prop::sample::subsequence((0..12).collect::<Vec<u32>>(), 3..=7), prop::collection::vec(1u32..20, 7)),
            1..25,
        )) {
            let mut data = String::new();
            for (k, (players, pts)) in games.iter().enumerate() {
                data.push_str(&format!("= 2024-01-{:02} game {k}\n", k % 28 + 1));
                for (i, p) in players.iter().enumerate() {
                    data.push_str(&format!("P{p} {}\n", pts[i]));
                }
            }
            let ctl = "PARAMETER g.res\nSCANFILES\nDEFINE ITERATION it\n MAXIMUM 20000\n EPSILON 1e-22\nEND\nTRANSFORMATION DEFAULT\nITERATION it\nCALCULATE\n";
            let mut h = host(&[("g.res", &data)]);
            let mut it = Interp::new(&mut h, Vec::new(), false);
            it.run("t.ctl", ctl).unwrap();
            let c = it.calc().unwrap();
            prop_assert!(c.iterations < 20000, "no convergence: {} steps, change² {}", c.iterations, c.change2);
            let n = c.n.iter().filter(|&&n| n > 0).count() as f64;
            let total: f64 = c.level.iter().sum();
            prop_assert!((total - n).abs() < 1e-9);
            for (g, size) in c.group_sizes.iter().enumerate() {
                let s: f64 = (0..c.level.len()).filter(|&p| c.group[p] == g as u32 + 1).map(|p| c.level[p]).sum();
                prop_assert!((s - *size as f64).abs() < 1e-9);
            }
        }
    }
}

#[test]
fn groups_that_never_met_are_reported() {
    let data = "= 2024-01-01 a\nA 3\nB 2\nC 1\n= 2024-01-02 b\nX 1\nY 2\nZ 3\n";
    let (h, lv) = run(
        "PARAMETER g.res\nTRANSFORMATION DEFAULT\nCALCULATE\n",
        &[("g.res", data)],
        &[],
    );
    assert!(h.stdout.contains("2 groups of players who never met"), "{}", h.stdout);
    assert!(h.stdout.contains("group 2: 3 players (X, Y, Z)"));
    let s1: f64 = ["A", "B", "C"].iter().map(|n| level(&lv, n)).sum();
    assert!((s1 - 3.0).abs() < 1e-9);
}

#[test]
fn manual_gmean_transformation_with_variable_ranges() {
    // the manual's example (section 4.3): geometric mean as the reference
    let ctl = "SCANFILES
define transformation gmean
   variable gmean   := 0.0                ! 1. Formel
   variable gmean[] := gmean + log(p)     ! 2. Formel
   variable gmean   := exp(gmean/n)       ! 3. Formel
   transform p / gmean                    ! 4. Formel
end
define printgame g
  player print('%s %.6f', NAME, P)
end
transformation gmean
printgames g
";
    let (h, _) = run(ctl, &[("g.res", "= 2024-01-01 t\nA 8\nB 2\nC 4\n")], &["g.res"]);
    // geometric mean of 8, 2, 4 is 4
    assert_eq!(h.stdout, "A 2.000000\nC 1.000000\nB 0.500000\n");
}

#[test]
fn variable_ranges_select_players() {
    let ctl = "SCANFILES
DEFINE TRANSFORMATION t
  VARIABLE top := 0
  VARIABLE top [1:2] := top + P
  VARIABLE one [2] := P
  VARIABLE tail := 0
  VARIABLE tail [3:] := tail + P
  VARIABLE head := 0
  VARIABLE head [:1] := head + P
  TRANSFORM top * 1000 + one * 100 + tail * 10 + head + 0 * V
END
DEFINE PRINTGAME g
  PLAYER print('%s %g %d %d %d %d %g', NAME, P, J, M, R, RN, B)
END
TRANSFORMATION t
PRINTGAMES g
";
    let (h, _) = run(ctl, &[("g.res", "= 2024-01-01 t\nA 5\nB 4\nC 2\nD 1\n")], &["g.res"]);
    // top = 9, one = 4, tail = 3, head = 5: 9000+400+30+5
    let lines: Vec<&str> = h.stdout.lines().collect();
    assert_eq!(lines[0], "A 9435 4 1 1 4 1");
    assert_eq!(lines[1], "B 9435 3 2 1 4 3");
}

#[test]
fn preprocessor() {
    let inc = "SET fromfile = 7\n";
    let ctl = "! comment line
#! ignored
## ignored too
#
#DEFINE a = 2
#GDEFINE g := 3
#IF a = 2
SET x = 10
#ELSE
SET x = 20
#ENDIF
#IF 0
this line would be an error
#ENDIF
#INCLUDE inc.ctl
#MACRO m
ECHO 'macro ' + $1 + ' of ' + $N
#ENDMACRO
#CALL m('one', 'two')
#: m(3)
SET long = 1 + \\
   2 + \\  { a comment before the tie? no: after }
   3
#SETCOMMENT (* *) //
SET y = 5 (* inline *) // to the end
ECHO str(x) + ' ' + str(g) + ' ' + str(fromfile) + ' ' + str(long) + ' ' + str(y)
";
    let (h, _) = run(ctl, &[("inc.ctl", inc)], &[]);
    assert_eq!(h.stdout, "macro one of 2\nmacro 3 of 1\n10 3 7 6 5\n");
}

#[test]
fn jobs_with_parameters() {
    let ctl = "DEFINE JOB show
ECHO 'n=' + str($N) + ' first=' + $1 + ' third=' + str($3)
#IF $2 = 5
ECHO 'five'
#ENDIF
ENDJOB
JOB show('x', 5)
JOB show
JOB ? nosuchjob
";
    let (h, _) = run(ctl, &[], &[]);
    assert_eq!(h.stdout, "n=2 first=x third=NONE\nfive\nn=0 first=NONE third=NONE\n");
}

#[test]
fn options_and_commandline() {
    let ctl = "DEFINE OPTIONS
  VOID v
  CHARACTER c
  TEXT t
  INTEGER i
  FLOATINGPOINT f
  VOID X
END
COMMANDLINE
ECHO str(OPT$V) + PARM$C + PARM$T + str(PARM$I + PARM$F) + str(OPT$XX) + str(NFILES)
";
    let (h, _) = run(
        ctl,
        &[("a.res", "= x\nA 1\nB 2\n")],
        &["-v", "+cq", "/thello", "-i", "4", "-f0.5", "-X", "a.res"],
    );
    assert_eq!(h.stdout, "1qhello4.511\n");
}

#[test]
fn channels_rounding_tabs_list_logging() {
    let ctl = "OUTPUT out.txt
ERRORLOG +err.txt
PRINTFILE / print.txt
ROUNDING DOWN
ECHO print('%d %d', 2.7, -2.2)
ROUNDING UP
ECHO print('%d', 2.1)
TABSIZE 8
ECHO 'a              b'
TABSIZE 0
MESSAGE 'hello'
LOGGING LEVEL1
MESSAGE 'quiet'
SCANFILES
LIST SELECTIONS JOBS
TIMESTAMP
";
    let mut h = host(&[("err.txt", "old\n")]);
    Interp::new(&mut h, Vec::new(), false).run("t.ctl", ctl).unwrap();
    assert_eq!(h.files["print.txt"], "2 -3\n3\na\t       b\n");
    // the error log gets every message (LOGGING ALL), the screen only the chosen ones
    assert_eq!(
        h.files["err.txt"],
        "old\nhello\nquiet\n0 games, 0 players\nSELECT DEFAULT: 0 of 0 games\n2000-01-01 00:00:00\n"
    );
    assert_eq!(h.stderr, "hello\n");
    assert!(
        h.files["out.txt"].starts_with("SELECTIONS: DEFAULT\nJOBS: \n2000-01-01"),
        "{}",
        h.files["out.txt"]
    );
}

#[test]
fn system_only_when_allowed() {
    let e = run_err("SYSTEM 'echo hi'\n", &[], false);
    assert_eq!(
        e,
        "test.ctl:1:1: SYSTEM is not allowed; allow it on the command line (--allow-system)"
    );
    let mut h = host(&[]);
    Interp::new(&mut h, Vec::new(), true)
        .run("t.ctl", "SYSTEM 'echo ' + 'hi'\n")
        .unwrap();
    assert_eq!(h.commands, vec!["echo hi"]);
}

#[test]
fn scanmodes_18xx_readpoints_sign_and_comments() {
    let ctl = "DEFINE SCANMODE multi
  MODE 18XX
  SIGN $
  READPOINTS P.1 * 10 + PN
  TRANSFORMATION P + 1
  PRECOMMENT (* *) %
END
DEFINE SCANMODE raw raw*.txt
  PREOFF
END
SCANFILES
DEFINE PRINTGAME g
  HEADER TEXT + ' ' + str(SM$MULTI) + str(SM$RAW) + ' ' + str(A$X) + ' ' + str(FACTOR)
  PLAYER print('%s %g %g %d', ID, P, P0, POS)
END
PRINTGAMES g
";
    let a = "% a comment\n$ 2024-05-01 *120 +x Multi game (* c *)\nAnna [a1] 1 2 3\nBert 2 0\n";
    let b = "= 2024-05-02 raw game ! not a comment here\nC 1\nD 2\n";
    let (h, _) = run(ctl, &[("a.txt", a), ("raw1.txt", b)], &["a.txt", "raw1.txt"]);
    assert_eq!(
        h.stdout,
        "Multi game 10 1 120\nBert 21 21 2\na1 14 14 1\nraw game ! not a comment here 01 0 100\nD 2 2 2\nC 1 1 1\n"
    );
}

#[test]
fn selection_by_date_attributes_and_two_playerlevel_modes() {
    let data = "= 2024-12-01 +final a\nA 3\nB 2\nC 1\n= 2020-01-01 b\nA 1\nB 2\nC 3\n";
    let ctl = "SCANFILES
REFDATE 31.12.2024
DEFINE SELECTION recent
  SELECT AGE < 365 AND A$FINAL
END
DEFINE PLAYERLEVEL best
  CALCULATE BEST
END
DEFINE SORTMODE names
  SORT NAME
  REVERS
END
DEFINE PRINTPLAYER p
  PLAYER print('%s %.4f %.4f %d %d', NAME, LEVEL, LEVEL0, N, GROUP)
END
SELECT recent
TRANSFORMATION DEFAULT
PLAYERLEVEL DEFAULT best
CALCULATE
SAVEPLAYERS first
SORT names
PRINT p
SELECT DEFAULT
CALCULATE
DEFINE PRINTPLAYER q
  PLAYER print('%s %d %.3f', NAME, FIRST.N, LEVEL)
END
PRINTPLAYERS q
CLEARVARS
";
    let (h, _) = run(ctl, &[("g.res", data)], &["g.res"]);
    let l: Vec<&str> = h.stdout.lines().collect();
    assert_eq!(l.len(), 6);
    assert!(l[0].starts_with("A ") && l[0].ends_with(" 1 1"), "{}", l[0]);
    assert!(l[3].starts_with("A 1 1.000") || l[3].contains(" 1 "), "{}", l[3]);
}

#[test]
fn printgame_files_overwrite_then_append() {
    let ctl = "SCANFILES
DEFINE PRINTGAME g
  FILENAME games.txt
  UNSORT
  PLAYER print('%s %d', NAME, POS)
  TRAILOR '--'
END
SAVEGAMES s
DEFINE PRINTGAME h
  HEADER str(S.MEAN) + ' ' + str(S.WEIGHT) + ' ' + str(GAMEID)
  PLAYER ''
END
PRINTGAMES g
PRINTGAMES g
PRINTGAMES h
";
    let mut h = host(&[("g.res", "= x\nA 1\nB 3\n"), ("games.txt", "old")]);
    Interp::new(&mut h, vec!["g.res".into()], false)
        .run("t.ctl", ctl)
        .unwrap();
    assert_eq!(h.files["games.txt"], "A 1\nB 2\n--\nA 1\nB 2\n--\n");
    assert_eq!(h.stdout, "2 1 1\n\n\n");
}

#[test]
fn pset_gives_every_player_a_variable() {
    let ctl = "SCANFILES
PSET bonus = if(NAME = 'A', 10, 1) + I
DEFINE PRINTPLAYER p
  PLAYER NAME + str(BONUS)
END
DEFINE SORTMODE byname
  SORT NAME
  REVERS 1
END
SORT byname
PRINT p
";
    let (h, _) = run(ctl, &[("g.res", "= x\nB 1\nA 3\n")], &["g.res"]);
    assert_eq!(h.stdout, "A11\nB3\n");
}

#[test]
fn example_files_give_the_documented_output() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/ratings/");
    let read = |n: &str| std::fs::read_to_string(format!("{dir}{n}")).unwrap();
    let names = ["spring.res", "autumn.res", "league.txt", "online.csv"];
    let files: Vec<(&str, String)> = names.iter().map(|n| (*n, read(n))).collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let (h, _) = run(&read("club.ctl"), &refs, &[]);
    let expected_path = format!("{dir}club.out");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&expected_path, &h.stdout).unwrap();
    }
    assert_eq!(h.stdout, read("club.out"), "run with UPDATE_EXPECT=1 to accept");
}

/// Malformed control files: every error names file, line and column.
#[test]
fn malformed_control_files_give_located_errors() {
    let text = include_str!("../testdata/control-errors.txt");
    let mut n = 0;
    for case in text.split("=== ").skip(1) {
        let (head, rest) = case.split_once('\n').unwrap();
        let (ctl, want) = rest.rsplit_once("--- expect\n").unwrap();
        let files = [
            ("g.res", "= 2024-01-01 x\nA 1\nB 2\n"),
            ("bad.res", "{ c }\n  %x\n"),
            ("one.res", "= lonely\nA 1\n"),
        ];
        let got = run_err(ctl, &files, false);
        assert_eq!(got, want.trim_end(), "case {head}");
        n += 1;
    }
    assert!(n >= 25, "{n} cases");
}

#[test]
fn errors_also_go_to_the_error_log() {
    let mut h = host(&[]);
    let r = Interp::new(&mut h, Vec::new(), false).run("t.ctl", "ERRORLOG log.txt\nSET x = (\n");
    assert!(r.is_err());
    assert_eq!(
        h.files["log.txt"],
        "error: t.ctl:2:10: expected a value, found the end of the formula\n"
    );
}

/// Regression: the note about groups that never met went to the output and,
/// at the default logging level, a second time to the screen.
#[test]
fn group_note_is_not_repeated_on_screen() {
    let data = "= 2024-01-01 a\nA 3\nB 2\nC 1\n= 2024-01-02 b\nX 1\nY 2\nZ 3\n";
    let (h, _) = run("PARAMETER g.res\nCALCULATE\n", &[("g.res", data)], &[]);
    assert_eq!(h.stdout.matches("groups of players who never met").count(), 1);
    assert!(!h.stderr.contains("groups of players"), "{}", h.stderr);
}

/// Regression: a SCANMODE defined with the sign `@` lost against the
/// predefined 18XX mode, which has the same sign.
#[test]
fn user_scanmode_sign_wins_over_predefined() {
    let ctl = "DEFINE SCANMODE mine\n  MODE 18XX\n  SIGN @\n  READPOINTS P.2\nEND\nSCANFILES\nDEFINE PRINTGAME g\n  HEADER str(SM$MINE)\n  PLAYER NAME + ' ' + str(P)\nEND\nPRINTGAMES g\n";
    let (h, _) = run(ctl, &[("t.txt", "@ x\nA 1 5\nB 2 3\n")], &["t.txt"]);
    assert_eq!(h.stdout, "1\nA 5\nB 3\n");
}

#[test]
fn an_option_not_given_still_has_its_symbols() {
    // Analyse's manual: every option, given or not, defines OPT$* and
    // PARM$*; both are empty when it is absent (OPT$ used to be 0).
    let ctl = "DEFINE OPTIONS
  VOID v
  TEXT t
END
COMMANDLINE
ECHO str(OPT$V) + '[' + PARM$T + ']' + str(OPT$T) + str(OPT$L)
";
    let (h, _) = run(ctl, &[], &[]);
    assert_eq!(h.stdout, "[]\n");
    let (h, _) = run(ctl, &[], &["-v", "-tx"]);
    assert_eq!(h.stdout, "1[x]1\n");
}

/// The manual's LOGGING LEVEL7 (ITERATIONS): every step of the iteration
/// is logged, with its largest change, and no step at a lower level.
#[test]
fn logging_iterations_logs_each_step() {
    let data = "= 2024-01-01 one game\nA 2\nB 1\nC 1\n";
    let ctl = "PARAMETER g.txt\nSCANFILES\nDEFINE ITERATION few\n MINIMUM 3\n MAXIMUM 3\nEND\nLOGGING LEVEL7\nTRANSFORMATION DEFAULT\nITERATION few\nCALCULATE\n";
    let (h, _) = run(ctl, &[("g.txt", data)], &[]);
    for step in 1..=3 {
        assert!(
            h.stderr.contains(&format!("ITERATION step {step}: largest change")),
            "{}",
            h.stderr
        );
    }
    assert!(!h.stderr.contains("ITERATION step 4"), "{}", h.stderr);
    let quiet = ctl.replace("LEVEL7", "LEVEL6");
    let (h, _) = run(&quiet, &[("g.txt", data)], &[]);
    assert!(!h.stderr.contains("ITERATION step"), "{}", h.stderr);
    assert!(
        h.stderr.contains("CALCULATE"),
        "level 6 still logs the calculation: {}",
        h.stderr
    );
}

#[test]
fn an_absent_option_was_0_not_empty() {
    let ctl = "DEFINE OPTIONS\n  VOID q\nEND\nCOMMANDLINE\n#IF OPT$Q\nECHO 'given'\n#ELSE\nECHO 'absent[' + OPT$Q + ']'\n#ENDIF\n";
    let (h, _) = run(ctl, &[], &[]);
    assert_eq!(h.stdout, "absent[]\n");
    let (h, _) = run(ctl, &[], &["-q"]);
    assert_eq!(h.stdout, "given\n");
}

/// Analyse's manual: lines that are no command are text lines, copied to
/// the output; in a print definition they were refused (`DIES` is not
/// possible here).
#[test]
fn text_lines_in_print_blocks_were_refused() {
    let data = "= 2024-01-01 one game\nA 2\nB 1\n";
    let ctl = "PARAMETER g.txt\nSCANFILES\nEine Textzeile oben\nDEFINE PRINTPLAYER p\n HEADER 'Rangliste'\n Dies ist eine Textzeile: Größe\n PLAYER NAME\nEND\nPRINT p\n";
    let (h, _) = run(ctl, &[("g.txt", data)], &[]);
    assert!(h.stdout.starts_with("Eine Textzeile oben\n"), "{}", h.stdout);
    assert!(
        h.stdout.contains("Rangliste\nDies ist eine Textzeile: Größe\nA\nB\n"),
        "{}",
        h.stdout
    );
    // A word in capitals is a misspelt command, not text.
    let e = run_err(
        "PARAMETER g.txt\nSCANFILES\nDEFINE PRINTPLAYER p\n DIES ist falsch\nEND\n",
        &[("g.txt", data)],
        false,
    );
    assert!(e.contains("`DIES` is not possible here"), "{e}");
}

/// Regression: `SIGN` with nothing after it said only "test.ctl: SIGN needs
/// one character", with no line or column (the empty rest of a line had
/// lost its place).
#[test]
fn sign_without_its_character_names_line_and_column() {
    let got = run_err("SET a = 1\nDEFINE SCANMODE m\n  SIGN   \nEND\n", &[], false);
    assert_eq!(got, "test.ctl:3:7: SIGN needs one character");
}
