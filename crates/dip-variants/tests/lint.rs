//! The linter finds each kind of problem, and nothing on clean maps.

use dip_variants::lint::{lint, show};

const BASE: &str = "variant t\npower RED Red Red\npower BLU Blue Blue\n\
province rhq \"Red Home\" coast center home=RED\nprovince bhq \"Blue Home\" coast center home=BLU\n\
province sea Sea sea\nborder A rhq bhq\nborder F rhq sea\nborder F bhq sea\nunit-at RED A rhq\nunit-at BLU F bhq\n";

fn kinds(extra: &str) -> Vec<&'static str> {
    let v = dip_variants::parse(&format!("{BASE}{extra}"), "t.variant").unwrap_or_else(|e| panic!("{e}"));
    lint(&v).into_iter().map(|f| f.kind).collect()
}

#[test]
fn a_clean_map_has_no_findings() {
    assert_eq!(kinds(""), Vec::<&str>::new());
}

#[test]
fn each_problem_is_found() {
    assert!(kinds("province far Far land\nborder-oneway A rhq far\n").contains(&"asymmetric-border"));
    assert!(kinds("province isl Island land\n").contains(&"unreachable-province"));
    assert!(kinds("province cov Cove coast\nborder A cov rhq\n").contains(&"unreachable-coast"));
    assert!(
        kinds("province spl Split coast coasts=nc,sc\nborder A spl rhq\nborder F spl/nc sea\n")
            .contains(&"unreachable-coast")
    );
    assert!(kinds("power GRN Green Green\n").contains(&"no-home-centre"));
    assert!(kinds("province lone Lone land\nunit-at RED A lone\n").contains(&"stuck-unit"));
    assert!(kinds("province mnt Mountain impassable center\n").contains(&"impassable-centre"));
}

#[test]
fn the_field_test_shows_everything_about_a_province() {
    let v = dip_variants::standard();
    let s = show(&v, "St Petersburg").unwrap();
    for want in [
        "province   stp (St Petersburg)",
        "centre     yes; home of RUS",
        "unit       RUS F stp/sc",
        "stp/nc",
        "F -> ",
        "clockwise",
    ] {
        assert!(s.contains(want), "missing `{want}` in\n{s}");
    }
    assert!(show(&v, "stp/nc").is_some());
    assert!(show(&v, "Atlantis").is_none());
}

/// Before building, every dangling border, duplicate name and impossible
/// unit is listed (building stops at the first).
#[test]
fn model_lint_lists_every_problem_of_a_foreign_file() {
    use dip_variants::dipwork;
    let params = dipwork::read_params(
        "NATIONLIST\nAa Alpha\n\nUNITLIST\nA Army # Costs=1 St=1 convoyable AllowedIn=A\nF Fleet # Costs=1 St=1 canConvoy AllowedIn=F\n\nEND\n",
        "VARIANT.TXT",
    )
    .unwrap();
    let fields = "# One 1 1 - CA 1 Aa\n# Two 2 2 - LA 0 -\n# Sea 3 3 - O 0 -\n\
- One Two ja nein\n- Two One ja -\n- One Sea ja ja\n- Sea One - ja\n- Two Sea ja -\n\
= One Uno\n= Two Uno\nEND\n";
    let game = "NATION Aa\nUNITS\nF Two\nCENTERS\nOne\nEND\n";
    let m = dipwork::read(
        &params,
        "VARIANT.TXT",
        fields,
        "FIELDS.TXT",
        Some((game, "GAME.TXT")),
        "x",
    )
    .unwrap();
    let findings = dip_variants::lint::lint_model(&m);
    let kinds: Vec<&str> = findings.iter().map(|f| f.kind).collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "dangling-border").count(),
        2,
        "{findings:?}"
    );
    assert!(kinds.contains(&"duplicate-name"), "{findings:?}");
    assert!(kinds.contains(&"impossible-unit"), "{findings:?}");
    assert!(m.build("x").is_err());
    // A clean model has none.
    let v = dip_variants::standard();
    assert!(dip_variants::lint::lint_model(&dip_variants::Model::from_variant(&v)).is_empty());
}
