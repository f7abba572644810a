//! `dip orders check`: standard orders, problems with line and column,
//! exit 0 (all accepted), 1 (something changed or deleted), 2 (unreadable).

use std::path::{Path, PathBuf};
use std::process::Command;

fn dip() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dip"))
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dip-orders-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn the_example_turn_is_checked_with_lines_and_columns() {
    let out = dip()
        .args(["orders", "check", "--variant", "standard", "--state"])
        .arg(root().join("examples/spring-1901/position.txt"))
        .arg(root().join("examples/orders/orders.txt"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("England: F edi - nth"), "{text}");
    assert!(text.contains("orders.txt:10:9: [001]"), "{text}");
    assert!(text.contains("orders.txt:24:7: [109]"), "{text}");
    assert!(text.contains("[400]"), "{text}");
    assert!(
        text.contains("line 24: F Nap greets the pope"),
        "the errors report keeps the full text: {text}"
    );
    assert!(
        text.contains("24 orders read, 5 changed or deleted, 0 inserted"),
        "{text}"
    );
}

#[test]
fn clean_orders_exit_0_and_json_lists_them() {
    let orders = write("clean.txt", "Austria: A vie - gal\nAustria: A bud - ser\n");
    let out = dip()
        .args(["orders", "check", "--nsu-checking-off", "--json", "--state"])
        .arg(root().join("examples/spring-1901/position.txt"))
        .arg(&orders)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["changed"], false);
    assert_eq!(v["orders"][1]["order"], "Austria: A bud - ser");
}

#[test]
fn a_missing_order_is_inserted_and_counts_as_a_change() {
    let orders = write("partial.txt", "Austria: A vie - gal\n");
    let out = dip()
        .args(["orders", "check", "--style", "short", "--state"])
        .arg(root().join("examples/spring-1901/position.txt"))
        .arg(&orders)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("AUS A VIE-GAL"), "{text}");
    assert!(text.contains("[012]"), "{text}");
    assert!(text.contains("21 inserted"), "{text}");
    assert_eq!(out.status.code(), Some(1), "an inserted hold is a change");
}

#[test]
fn unreadable_input_exits_2() {
    let out = dip()
        .args([
            "orders",
            "check",
            "--state",
            "/nonexistent/position.txt",
            "/nonexistent/orders.txt",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let bad = write(
        "bad-position.txt",
        "phase spring 1901 movement\nunits\n  Nowhere: A xyz\n",
    );
    let orders = write("o.txt", "Austria: A vie H\n");
    let out = dip()
        .args(["orders", "check", "--state"])
        .arg(&bad)
        .arg(&orders)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad-position.txt:3"));
}
