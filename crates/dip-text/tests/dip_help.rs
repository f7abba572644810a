//! DIP's own names, as its help writes them: the orders of its help read
//! and printed back the same, its default names (`IOS`, `StP`), and the
//! names of its renaming file `fixnames.dat` printed as written ("Both
//! names should have three characters, be case specific").

use dip_text::{format_order_with, parse_order_with, Style, Vocabulary};

fn standard() -> &'static dip_variants::Variant {
    use std::sync::OnceLock;
    static V: OnceLock<dip_variants::Variant> = OnceLock::new();
    V.get_or_init(dip_variants::standard)
}

/// `line` read and printed back in DIP's style.
fn dip(vocab: &Vocabulary, line: &str) -> String {
    let o = parse_order_with(vocab, line, None).unwrap_or_else(|e| panic!("{line}: {e}"));
    format_order_with(vocab, &o, Style::Dip)
}

#[test]
fn dips_default_names_ios_and_stp_printed_as_ion_and_stp() {
    let vocab = Vocabulary::new(&standard().map);
    // The help's own examples, printed back as the help writes them.
    for line in [
        "RUS A(Mos) hold",
        "ENG A(Lon) - NTH",
        "ENG F(Edi) S A(Lon) - NTH",
        "ITA F(IOS) C A(Nap) - Tun",
        "RUS A(StP) retreat Mos",
        "GER build A(Kie)",
    ] {
        assert_eq!(dip(&vocab, line), line);
    }
    assert_eq!(dip(&vocab, "RUS F(StP/sc) - BOT"), "RUS F(StP/sc) - BOT");
}

#[test]
fn fixnames_lost_the_case_they_were_written_in() {
    let mut vocab = Vocabulary::new(&standard().map);
    vocab.apply_fixnames(&["StP,SPB", "Nap,NAP", "IOS,ION"]).unwrap();
    assert_eq!(dip(&vocab, "RUS F(StP/sc) - BOT"), "RUS F(SPB/sc) - BOT");
    assert_eq!(dip(&vocab, "ITA F(IOS) C A(Nap) - Tun"), "ITA F(ION) C A(NAP) - Tun");
    // The new names are read too.
    assert_eq!(dip(&vocab, "ITA A(NAP) - Apu"), "ITA A(NAP) - Apu");
}
