//! DAIDE's readers as fuzz targets: the frames a client sends and the
//! tokens and messages in them, the text form of messages (press is
//! stored as text and read back), the SUB reader, and whole sessions of
//! the server (crates/dip-server/src/daide).

use crate::rig;
use crate::Target;
use dip_server::daide::convert::{self, Reader};
use dip_server::daide::frame;
use dip_server::daide::message::{self, Msg, Node};
use dip_server::daide::token::Repr;
use std::sync::{Mutex, OnceLock};

fn repr() -> &'static Repr {
    static R: OnceLock<Repr> = OnceLock::new();
    R.get_or_init(|| Repr::of(&crate::standard().map))
}

/// An in-memory stream handing out pieces of the sizes given (as a
/// network may cut a client's stream anywhere).
struct Pieces<'a> {
    data: &'a [u8],
    sizes: &'a [u8],
    i: usize,
}

impl tokio::io::AsyncRead for Pieces<'_> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let n = match self.sizes {
            [] => usize::MAX,
            s => usize::from(s[self.i % s.len()]).max(1),
        };
        self.i += 1;
        let n = n.min(self.data.len()).min(buf.remaining());
        let (head, rest) = self.data.split_at(n);
        buf.put_slice(head);
        self.data = rest;
        std::task::Poll::Ready(Ok(()))
    }
}

/// Runs a future that never waits (in-memory reads) to its end.
fn now<F: std::future::Future>(f: F) -> Option<F::Output> {
    let mut f = std::pin::pin!(f);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match f.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(v) => Some(v),
        std::task::Poll::Pending => None,
    }
}

/// A client's stream (the first octet chooses how the network cuts it):
/// frames read one by one as the server reads them, and each DM's tokens
/// read into a message, answered HUH at every token and shown as text.
pub fn daide_frames(data: &[u8]) {
    let (sizes, data) = data.split_at(data.len().min(1));
    let mut r = Pieces { data, sizes, i: 0 };
    while let Some(Ok(f)) = now(frame::read(&mut r, frame::MAX_CLIENT_DM)) {
        if f.kind == frame::IM {
            let _ = frame::check_im(&f);
        }
        let Ok(tokens) = message::tokens_of(&f.data) else {
            continue;
        };
        let text = message::text_of(&tokens, repr());
        let _ = message::prn(&tokens);
        if let Ok(m) = Msg::from_tokens(&tokens) {
            assert_eq!(m.tokens(), tokens, "a message's tokens are the tokens it was read from");
            for at in 0..=tokens.len().min(16) {
                let _ = message::huh(&m, at);
            }
            let _ = Msg::parse(&text, repr());
        }
    }
}

/// The text form of messages (`SUB ((ENG AMY LVP) HLD)`): what reads
/// reads again the same when written back.
pub fn daide_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(m) = Msg::parse(&text, repr()) {
        let again = m.to_text(repr());
        assert_eq!(Msg::parse(&again, repr()), Ok(m), "{again}");
    }
}

/// The SUB reader on the message in the octets: every argument read as
/// an order; each order read gets its note in a phase of every kind and
/// becomes dip's order and text.
pub fn daide_orders(data: &[u8]) {
    let v = crate::standard();
    let map = &v.map;
    let even = &data[..data.len() & !1];
    let Ok(tokens) = message::tokens_of(even) else { return };
    let Ok(m) = Msg::from_tokens(&tokens) else { return };
    let reader = Reader { map, repr: repr() };
    let me = map.power_ids().next();
    let mut at = 1;
    for n in m.0.iter().skip(1) {
        let _ = convert::phase_of(n);
        if let (Ok(o), Some(me)) = (reader.order(n, at), me) {
            for kind in [
                dip_core::PhaseKind::Movement,
                dip_core::PhaseKind::Retreat,
                dip_core::PhaseKind::Adjustment,
            ] {
                let mut s = v.start.clone();
                s.phase = dip_core::Phase::new(1901, dip_core::Season::Fall, kind);
                let given: Vec<(Node, convert::DOrder)> = Vec::new();
                let (all, _) = convert::submit(map, &v.rules, &s, me, true, &given, vec![(n.clone(), o.clone())]);
                let orders: Vec<convert::DOrder> = all.into_iter().map(|(_, o)| o).collect();
                let _ = convert::mis(map, repr(), &v.rules, &s, me, &orders);
                let _ = convert::order_node(map, repr(), &s, &convert::to_dip(&o));
            }
            let _ = convert::to_text(map, &o);
        }
        at += n.width();
    }
}

/// One client's whole stream into a session of a bots' game (shared by
/// the inputs of one process: the game goes on as they join and order).
pub fn daide_session(data: &[u8]) {
    static RIG: OnceLock<Mutex<rig::Rig>> = OnceLock::new();
    let rig = RIG
        .get_or_init(|| Mutex::new(rig::Rig::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    rig.session(&data[..data.len().min(16 * 1024)]);
}

fn client_stream() -> Vec<u8> {
    rig::stream(&rig::script())
}

/// The DAIDE targets.
pub fn targets() -> Vec<Target> {
    vec![
        Target {
            name: "daide_frames",
            run: daide_frames,
            seeds: || {
                let mut cut = vec![3u8];
                cut.extend(client_stream());
                vec![cut]
            },
        },
        Target {
            name: "daide_text",
            run: daide_text,
            seeds: || {
                rig::script()
                    .iter()
                    .map(|m| m.to_text(repr()).into_bytes())
                    .chain([b"FRM (ENG) (FRA) (PRP (ALY (ENG FRA) VSS (GER)))".to_vec()])
                    .collect()
            },
        },
        Target {
            name: "daide_orders",
            run: daide_orders,
            seeds: || {
                [
                    "SUB ((ENG AMY LVP) HLD) ((ENG FLT LON) MTO NTH) ((ENG FLT EDI) SUP (ENG FLT LON) MTO NTH)",
                    "SUB ((ENG FLT BAR) MTO (STP NCS)) ((ENG FLT NWY) SUP (ENG FLT BAR) MTO STP)",
                    "SUB (SPR 1901) ((ITA AMY TUN) CTO SYR VIA (ION EAS)) ((ITA FLT ION) CVY (ITA AMY TUN) CTO SYR)",
                    "SUB ((RUS FLT GOB) REM) ((ITA FLT NAP) BLD) (RUS WVE) ((TUR FLT CON) RTO (BUL ECS))",
                ]
                .iter()
                .filter_map(|t| Msg::parse(t, repr()).ok())
                .map(|m| message::bytes_of(&m.tokens()))
                .collect()
            },
        },
        Target {
            name: "daide_session",
            run: daide_session,
            seeds: || vec![client_stream()],
        },
    ]
}
