//! The syntax document's examples, message by message: NOW with retreat
//! options, the six SUB examples as whole messages, every THX note, the
//! ORD results and a waive's ORD. Positions are written in dip's position
//! format (docs/position-format.md).

use super::convert::*;
use super::message::{Msg, Node};
use super::token::*;
use dip_core::{PowerId, State};
use dip_play::Loaded;
use std::sync::Arc;

fn std() -> (Arc<Loaded>, Repr) {
    let l = crate::variants::standard_for_tests();
    {
        let r = Repr::of(&l.variant().map);
        (l, r)
    }
}

fn position(text: &str) -> State {
    let (l, _) = std();
    dip_text::parse_position(&l.variant().map, text, "test position").unwrap()
}

fn power(name: &str) -> PowerId {
    std().0.variant().map.find_power(name).unwrap()
}

/// The orders of a SUB message, as read.
fn sub(text: &str) -> Vec<(Node, DOrder)> {
    let (l, r) = std();
    let m = Msg::parse(text, &r).unwrap();
    assert_eq!(r.name(m.first().unwrap()).as_deref(), Some("SUB"), "{text}");
    let reader = Reader {
        map: &l.variant().map,
        repr: &r,
    };
    let mut at = 1;
    let mut out = Vec::new();
    for n in &m.0[1..] {
        let o = reader.order(n, at).unwrap_or_else(|e| panic!("{text}: error at {e}"));
        out.push((n.clone(), o));
        at += n.width();
    }
    out
}

/// The THX notes a SUB gets, one by one, in the position.
fn notes(state: &State, me: &str, text: &str) -> Vec<String> {
    let (l, r) = std();
    let (_, notes) = submit(
        &l.variant().map,
        &l.variant().rules,
        state,
        power(me),
        false,
        &[],
        sub(text),
    );
    notes.iter().map(|(_, t)| r.name(*t).unwrap()).collect()
}

/// A whole SUB of the syntax document: every order MBV, stored as dip's
/// order text that dip's order reader accepts, and shown back as given.
fn takes_whole(state: &State, me: &str, text: &str) {
    let (l, r) = std();
    let map = &l.variant().map;
    let orders = sub(text);
    assert!(
        notes(state, me, text).iter().all(|n| n == "MBV"),
        "{text}: {:?}",
        notes(state, me, text)
    );
    let lines: Vec<String> = orders.iter().map(|(_, o)| to_text(map, o)).collect();
    for g in crate::play::read_lines(map, &l, state, power(me), &lines) {
        // Accepted; a support's move may get its coast filled in (DAIDE's
        // support names the province only): DipWork's correction 3.
        let coast_filled = g["fate"] == "changed" && g["error"]["number"] == 3;
        assert!(g["fate"] == "accepted" || coast_filled, "{text}: {g}");
    }
    for (n, o) in &orders {
        let back = order_node(map, &r, state, &to_dip(o));
        // A move by convoy is shown without its route (ORD adds the route
        // the convoy took).
        let mut given = n.clone();
        if let Node::List(l) = &mut given {
            if l.get(3).and_then(Node::tok) == Some(VIA) {
                l.truncate(3);
            }
        }
        assert_eq!(Msg(vec![back]).to_text(&r), Msg(vec![given]).to_text(&r), "{text}");
    }
}

#[test]
fn the_six_sub_examples_are_taken_whole() {
    let std = std().0;
    let start = &std.variant().start;
    takes_whole(
        start,
        "ENG",
        "SUB ((ENG AMY LVP) HLD) ((ENG FLT LON) MTO NTH) ((ENG FLT EDI) SUP (ENG FLT LON) MTO NTH)",
    );
    takes_whole(
        &position("phase spring 1902 movement\nunits\n  England: F bar\n  England: F nwy\n  Russia: F stp/sc\n"),
        "ENG",
        "SUB ((ENG FLT BAR) MTO (STP NCS)) ((ENG FLT NWY) SUP (ENG FLT BAR) MTO STP)",
    );
    // The document writes EMS for the Eastern Mediterranean; its token
    // is EAS.
    takes_whole(
        &position("phase spring 1902 movement\nunits\n  Italy: A tun\n  Italy: F ion\n  Italy: F eas\n"),
        "ITA",
        "SUB ((ITA AMY TUN) CTO SYR VIA (ION EAS)) ((ITA FLT ION) CVY (ITA AMY TUN) CTO SYR) \
         ((ITA FLT EAS) CVY (ITA AMY TUN) CTO SYR)",
    );
    takes_whole(
        &position("phase spring 1902 movement\nunits\n  England: A yor\n  England: F nth\n  England: F nwg\n"),
        "ENG",
        "SUB ((ENG AMY YOR) CTO NWY VIA (NTH)) ((ENG FLT NTH) CVY (ENG AMY YOR) CTO NWY) \
         ((ENG FLT NWG) SUP (ENG AMY YOR) MTO NWY)",
    );
    takes_whole(
        &position("phase fall 1901 adjustment\nunits\n  Italy: A rom\n  Italy: A ven\n  Italy: A apu\nowners\n  Italy: nap rom ven tun\n"),
        "ITA",
        "SUB ((ITA FLT NAP) BLD)",
    );
    takes_whole(
        &position("phase fall 1901 adjustment\nunits\n  Russia: F gob\n  Russia: A mos\n  Russia: A war\n  Russia: F sev\nowners\n  Russia: mos war sev\n"),
        "RUS",
        "SUB ((RUS FLT GOB) REM)",
    );
}

#[test]
fn now_lists_retreat_options_as_the_syntax_document_shows() {
    let (l, r) = std();
    let map = &l.variant().map;
    let rules = &l.variant().rules;
    let now = |s: &State| super::convert::now(map, &r, rules, s).to_text(&r);
    // (ENG FLT NTH MRT (LON YOR EDI NWG)): the rest of the North Sea's
    // neighbours are occupied, or where the attacker came from.
    let nth = position(
        "phase spring 1901 retreat\nunits\n  Germany: F nth\n  France: F bel\n  Germany: F den\n  France: F eng\n  \
         Germany: A hol\n  Russia: F nwy\n  Russia: F ska\ndislodged\n  England: F nth from hel\n",
    );
    let text = now(&nth);
    let opts = text
        .split("(ENG FLT NTH MRT (")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    let mut opts: Vec<&str> = opts.split(' ').collect();
    opts.sort();
    assert_eq!(opts, ["EDI", "LON", "NWG", "YOR"], "{text}");
    // (ENG FLT NTH MRT ()): nowhere to go; it is still listed.
    let boxed = position(
        "phase spring 1901 retreat\nunits\n  Germany: F nth\n  France: F bel\n  Germany: F den\n  France: F eng\n  \
         Germany: A hol\n  Russia: F nwy\n  Russia: F ska\n  England: A lon\n  England: A yor\n  England: A edi\n  \
         Russia: F nwg\ndislodged\n  England: F nth from hel\n",
    );
    assert!(now(&boxed).ends_with("(ENG FLT NTH MRT ())"), "{}", now(&boxed));
    // (TUR FLT CON MRT (BLA SMY (BUL ECS) (BUL SCS))): both coasts of
    // Bulgaria.
    let con = position(
        "phase fall 1901 retreat\nunits\n  Russia: F con\n  Russia: A ank\ndislodged\n  Turkey: F con from aeg\n",
    );
    let text = now(&con);
    let opts = text.split("(TUR FLT CON MRT (").nth(1).unwrap();
    let opts = &opts[..opts.len() - 2];
    let mut opts: Vec<&str> = opts.split_inclusive(')').flat_map(|x| x.split(' ')).collect();
    opts.retain(|x| !x.is_empty());
    let joined = opts.join(" ");
    for want in ["BLA", "SMY", "(BUL ECS)", "(BUL SCS)"] {
        assert!(joined.contains(want), "{text}");
    }
    assert!(!joined.contains("AEG") && !joined.contains("ANK"), "{text}");
    assert!(text.starts_with("NOW (AUT 1901) "), "{text}");
    // MIS gives the same options for a retreat not yet ordered.
    let mis = mis(map, &r, rules, &con, power("TUR"), &[]).unwrap().to_text(&r);
    assert!(mis.starts_with("MIS (TUR FLT CON MRT ("), "{mis}");
}

#[test]
fn every_thx_note_of_the_syntax_document_is_given_where_it_applies() {
    let std = std().0;
    let start = &std.variant().start;
    let cases: &[(&State, &str, &str, &[&str])] = &[
        (start, "ENG", "SUB ((ENG FLT LON) MTO (NTH NCS))", &["NSP"]),
        (start, "ENG", "SUB ((ENG FLT LON) MTO LVP)", &["FAR"]),
        (start, "ENG", "SUB ((ENG AMY LON) HLD)", &["NSU"]),
        (start, "ENG", "SUB ((FRA AMY PAR) HLD)", &["NYU"]),
        (start, "ENG", "SUB ((ENG FLT LON) CVY (ENG AMY LVP) CTO BEL)", &["NAS"]),
        (start, "ENG", "SUB ((ENG AMY LVP) CTO NWY VIA (NTH))", &["NSF"]),
        (start, "ENG", "SUB ((ENG FLT LON) BLD)", &["NRS"]),
    ];
    for (state, me, text, want) in cases {
        assert_eq!(&notes(state, me, text), want, "{text}");
    }
    // NSA: a fleet to be convoyed, or one that would go by convoy.
    let sea = position("phase spring 1901 movement\nunits\n  England: F nth\n  England: F edi\n  England: F lon\n");
    assert_eq!(
        notes(&sea, "ENG", "SUB ((ENG FLT NTH) CVY (ENG FLT EDI) CTO NWY)"),
        ["NSA"]
    );
    assert_eq!(notes(&sea, "ENG", "SUB ((ENG FLT LON) CTO NWY VIA (NTH))"), ["NSA"]);
    // Retreats: NRN for a unit not dislodged, NVR for a place it may not
    // go to (where the attacker came from).
    let retreat = position(
        "phase spring 1901 retreat\nunits\n  Germany: F nth\n  England: F lon\ndislodged\n  England: F nth from hel\n",
    );
    assert_eq!(notes(&retreat, "ENG", "SUB ((ENG FLT LON) RTO WAL)"), ["NRN"]);
    assert_eq!(notes(&retreat, "ENG", "SUB ((ENG FLT NTH) RTO HEL)"), ["NVR"]);
    assert_eq!(notes(&retreat, "ENG", "SUB ((ENG FLT NTH) RTO YOR)"), ["MBV"]);
    // Builds: England has Belgium and Norway besides its homes, and one
    // fleet, in Edinburgh: four builds.
    let winter = position(
        "phase fall 1901 adjustment\nunits\n  England: F edi\n  Germany: A hol\nowners\n  England: lon edi lvp bel nwy\n  \
         Germany: hol\n",
    );
    let w = |text: &str| notes(&winter, "ENG", text);
    assert_eq!(w("SUB ((ENG AMY YOR) BLD)"), ["NSC"]);
    assert_eq!(w("SUB ((ENG AMY HOL) BLD)"), ["YSC"]);
    assert_eq!(w("SUB ((ENG AMY DEN) BLD)"), ["YSC"]);
    assert_eq!(w("SUB ((ENG FLT EDI) BLD)"), ["ESC"]);
    assert_eq!(w("SUB ((ENG AMY BEL) BLD)"), ["HSC"]);
    assert_eq!(w("SUB ((ENG FLT LON) BLD) ((ENG AMY LON) BLD)"), ["MBV", "ESC"]);
    assert_eq!(
        w("SUB ((ENG FLT LON) BLD) ((ENG FLT LVP) BLD) (ENG WVE) (ENG WVE) (ENG WVE)"),
        ["MBV", "MBV", "MBV", "MBV", "NMB"]
    );
    // CST: a fleet inland, an army at sea, no coast named on a coast of
    // two.
    let russia = position("phase fall 1901 adjustment\nunits\n  Russia: A war\nowners\n  Russia: mos war sev stp\n");
    let ru = |text: &str| notes(&russia, "RUS", text);
    assert_eq!(ru("SUB ((RUS FLT MOS) BLD)"), ["CST"]);
    assert_eq!(ru("SUB ((RUS FLT STP) BLD)"), ["CST"]);
    assert_eq!(ru("SUB ((RUS FLT (STP NCS)) BLD)"), ["MBV"]);
    assert_eq!(ru("SUB ((RUS FLT (STP ECS)) BLD)"), ["CST"]);
    // NMR: more removals than units too many.
    let short = position(
        "phase fall 1901 adjustment\nunits\n  Russia: A mos\n  Russia: A war\n  Russia: F sev\n  Russia: F gob\nowners\n  \
         Russia: mos war sev\n",
    );
    assert_eq!(
        notes(&short, "RUS", "SUB ((RUS FLT GOB) REM) ((RUS AMY MOS) REM)"),
        ["MBV", "NMR"]
    );
    assert_eq!(notes(&short, "RUS", "SUB ((RUS FLT BAL) REM)"), ["NSU"]);
}

/// The ORD texts of one phase played from dip order text.
fn ords(state: &State, orders: &[(&str, &str)]) -> Vec<String> {
    let (l, r) = std();
    let map = &l.variant().map;
    let orders: Vec<(PowerId, Vec<String>)> = orders.iter().map(|(p, t)| (power(p), vec![t.to_string()])).collect();
    let played = crate::play::play_stored(&l, state, &orders);
    ord(map, &r, state, &played.outcome, &voided(&played.check.lines))
        .iter()
        .map(|m| m.to_text(&r))
        .collect()
}

fn has(got: &[String], want: &str) {
    assert!(got.iter().any(|g| g == want), "no `{want}` in {got:#?}");
}

#[test]
fn ord_results_bnc_cut_dsr_nso_and_ret() {
    // BNC: two moves to one place.
    let got = ords(&std().0.variant().start, &[("FRA", "A Par-Bur"), ("GER", "A Mun-Bur")]);
    has(&got, "ORD (SPR 1901) ((FRA AMY PAR) MTO BUR) (BNC)");
    has(&got, "ORD (SPR 1901) ((GER AMY MUN) MTO BUR) (BNC)");
    has(&got, "ORD (SPR 1901) ((ENG FLT LON) HLD) (SUC)");
    // CUT: the supporting fleet is attacked from Finland.
    let north = position(
        "phase spring 1902 movement\nunits\n  England: F bar\n  England: F nwy\n  Russia: F stp/sc\n  Russia: A fin\n",
    );
    let got = ords(
        &north,
        &[("ENG", "F Bar-Stp/nc\nF Nwy S F Bar-Stp"), ("RUS", "A Fin-Nwy")],
    );
    has(&got, "ORD (SPR 1902) ((ENG FLT NWY) SUP (ENG FLT BAR) MTO STP) (CUT)");
    has(&got, "ORD (SPR 1902) ((ENG FLT BAR) MTO (STP NCS)) (BNC)");
    has(&got, "ORD (SPR 1902) ((RUS AMY FIN) MTO NWY) (BNC)");
    // DSR and RET: the convoying fleet is dislodged, the army stays home.
    let convoy = position(
        "phase spring 1902 movement\nunits\n  England: A yor\n  England: F nth\n  Germany: F hel\n  Germany: F den\n",
    );
    let got = ords(
        &convoy,
        &[
            ("ENG", "A Yor-Nwy via convoy\nF Nth C A Yor-Nwy"),
            ("GER", "F Hel-Nth\nF Den S F Hel-Nth"),
        ],
    );
    has(&got, "ORD (SPR 1902) ((ENG AMY YOR) CTO NWY VIA (NTH)) (DSR)");
    // A convoy the fleet could not give: NSO, and RET (the document does
    // not say; Parlance's server says the same).
    has(
        &got,
        "ORD (SPR 1902) ((ENG FLT NTH) CVY (ENG AMY YOR) CTO NWY) (NSO RET)",
    );
    has(&got, "ORD (SPR 1902) ((GER FLT HEL) MTO NTH) (SUC)");
    // A dislodged unit whose move bounced: BNC RET.
    let bounce = position(
        "phase spring 1902 movement\nunits\n  France: A bur\n  France: A par\n  Germany: A mun\n  Germany: A ruh\n  \
         Italy: A pie\n  Italy: F gol\n",
    );
    let got = ords(
        &bounce,
        &[
            ("FRA", "A Bur-Mar"),
            ("ITA", "A Pie-Mar\nF Gol S A Pie-Mar"),
            ("GER", "A Mun-Bur\nA Ruh S A Mun-Bur"),
        ],
    );
    has(&got, "ORD (SPR 1902) ((FRA AMY BUR) MTO MAR) (BNC RET)");
    // NSO: a support of a move not ordered so (dip holds the unit).
    let got = ords(&north, &[("ENG", "F Bar H\nF Nwy S F Bar-Stp")]);
    has(&got, "ORD (SPR 1902) ((ENG FLT NWY) SUP (ENG FLT BAR) MTO STP) (NSO)");
}

#[test]
fn ord_of_a_waived_build_is_suc() {
    // ORD (WIN 1901) (RUS WVE) (SUC), as in the syntax document.
    let (l, _) = std();
    let winter = position(
        "phase fall 1901 adjustment\nunits\n  Russia: A mos\n  Russia: F sev\n  Russia: F stp/sc\nowners\n  \
         Russia: mos war sev stp rum\n",
    );
    let waive = to_text(&l.variant().map, &DOrder::Waive(power("RUS")));
    let got = ords(&winter, &[("RUS", &format!("A War B\n{waive}"))]);
    has(&got, "ORD (WIN 1901) ((RUS AMY WAR) BLD) (SUC)");
    has(&got, "ORD (WIN 1901) (RUS WVE) (SUC)");
}

#[test]
fn sco_lists_uno_also_when_every_centre_is_owned() {
    let (l, r) = std();
    let all = position(
        "phase fall 1901 adjustment\nunits\n  Russia: A mos\nowners\n  Russia: ank bel ber bre bud bul con den edi gre hol \
         kie lon lvp mar mos mun nap nwy par por rom rum ser sev smy spa stp swe tri tun ven vie war\n",
    );
    let text = sco(&l.variant().map, &r, &all).to_text(&r);
    assert!(text.ends_with("(TUR) (UNO)"), "{text}");
}
