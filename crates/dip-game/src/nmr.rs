//! No moves received: an orders file that plays nothing, or a nation that
//! sent nothing, is said so loudly rather than played as a quiet turn of
//! holds. A file cut short (no `END`) is refused, as GAME.TXT is.

use crate::gamefile::{title_phase, GameError};
use dip_core::{adjustment, Map, PhaseKind, PowerId, State};
use dip_text::ReadLine;
use std::path::Path;

/// The orders file must end with a line `END`, as the game master's
/// template does: a file cut short would lose whole nations without a word.
pub fn check_end(text: &str, path: &Path) -> Result<(), GameError> {
    let ended = text.lines().any(|l| l.split('#').next().unwrap_or("").trim() == "END");
    if ended {
        return Ok(());
    }
    Err(GameError {
        file: path.display().to_string(),
        line: text.lines().count().max(1),
        message:
            "the file ends without `END` (cut short?); every ORDERS.TXT ends with a line `END`; nothing was played"
                .into(),
    })
}

/// True when the file holds nothing but the template: no line is an order
/// nor anything written in place of one (an empty file, or only the
/// `NATION` headers). A line that could not be read is something written:
/// it gets its error number, not this refusal.
pub fn no_order_at_all(lines: &[ReadLine]) -> bool {
    lines
        .iter()
        .all(|l| l.scanned.order.is_none() && l.text.trim().is_empty())
}

/// The nations that have something to order in this phase (units in a
/// movement phase, dislodged units in retreats, builds or disbands in
/// adjustments) but have no order line in the file.
pub fn silent_nations(map: &Map, state: &State, lines: &[ReadLine]) -> Vec<PowerId> {
    let sent = |p: PowerId| lines.iter().any(|l| l.power == Some(p) && l.scanned.order.is_some());
    map.power_ids()
        .filter(|&p| match state.phase.kind {
            PhaseKind::Movement => state.units().any(|(_, u)| u.power == p),
            PhaseKind::Retreat => state.all_dislodged().any(|(_, d)| d.unit.power == p),
            PhaseKind::Adjustment => adjustment::balance(map, state, p) != 0,
        })
        .filter(|&p| !sent(p))
        .collect()
}

/// The warning for nations that sent nothing, naming what happens to them.
pub fn silent_warning(map: &Map, state: &State, silent: &[PowerId]) -> Option<String> {
    if silent.is_empty() {
        return None;
    }
    let names: Vec<&str> = silent.iter().map(|&p| map.power(p).name.as_str()).collect();
    let fate = match state.phase.kind {
        PhaseKind::Movement => "their units hold",
        PhaseKind::Retreat => "their dislodged units retreat by the right-hand rule or are disbanded",
        PhaseKind::Adjustment => "their builds are waived and their disbands chosen by the civil disorder rule",
    };
    Some(format!(
        "warning: no orders from {} in {}: {fate}",
        names.join(", "),
        title_phase(&state.phase)
    ))
}
