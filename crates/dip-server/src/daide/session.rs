//! One DAIDE connection: the IM/RM handshake, then language messages in
//! both directions until the client leaves, the game ends, or the client
//! breaks the protocol.

use super::convert::{self, DOrder, Reader};
use super::frame::{self, ErrorCode, Frame, FrameError};
use super::message::{self, answer, huh, Msg, Node, B};
use super::token::*;
use super::{Hub, Out};
use crate::auth::{self, Account};
use crate::error::ApiError;
use crate::game::{self, Lock, Status};
use crate::{lobby, play, press};
use dip_core::{PowerId, State};
use dip_play::Variants;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{broadcast, mpsc};

#[derive(Clone, Debug, PartialEq, Eq)]
enum Role {
    None,
    Observer,
    Player {
        power: Option<PowerId>,
        account: Account,
        passcode: i32,
    },
}

struct Session {
    hub: Arc<Hub>,
    wr: Box<dyn AsyncWrite + Unpin + Send + Sync>,
    role: Role,
    map_ok: bool,
    hlo_due: bool,
    orders: Vec<(Node, DOrder)>,
    orders_phase: i64,
    go: bool,
    drew: bool,
    alarms: Vec<i32>,
    fired: Vec<i32>,
    deadline: Option<i64>,
    seat_name: Option<(String, String)>,
    /// The index of the last processed phase whose results this
    /// connection has (or needs not have).
    seen_phase: i64,
    /// The id of the last press message this connection has seen.
    seen_press: i64,
    /// HSTs this connection may still ask, and when that was counted.
    hst_allowance: (f64, std::time::Instant),
}

/// Why a session ends.
enum End {
    /// Close without a word: the client sent FM or EM, or the connection
    /// is broken.
    Close,
    /// The server ends the connection (OFF was sent): FM, then close, as
    /// the protocol document asks of the party that closes.
    Final,
    /// Tell the client what went wrong, then close.
    Error(ErrorCode),
}

type Step = Result<(), End>;

pub async fn run(hub: Arc<Hub>, sock: TcpStream) {
    let (rd, wr) = sock.into_split();
    serve_stream(hub, rd, wr).await
}

/// One connection over any byte stream (TCP, or in memory for tests and
/// fuzzing).
pub async fn serve_stream<R, W>(hub: Arc<Hub>, rd: R, wr: W)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + Sync + 'static,
{
    let (in_tx, mut in_rx) = mpsc::channel::<Result<Frame, FrameError>>(8);
    let read_timeout = hub.config.read_timeout;
    let reader = tokio::spawn(async move {
        let mut rd = tokio::io::BufReader::new(rd);
        loop {
            // A client may wait as long as it likes before a message, but
            // one begun must arrive whole in time: a client that sends a
            // byte a minute holds no connection for ever.
            let f = match rd.fill_buf().await {
                Ok([]) => Err(FrameError::Closed),
                Ok(_) => match tokio::time::timeout(read_timeout, frame::read(&mut rd, frame::MAX_CLIENT_DM)).await {
                    Ok(f) => f,
                    Err(_) => Err(FrameError::Io(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "a message did not arrive whole in time",
                    ))),
                },
                Err(e) => Err(FrameError::Io(e)),
            };
            let stop = f.is_err();
            if in_tx.send(f).await.is_err() || stop {
                break;
            }
        }
    });
    // What this connection has seen so far is read from storage only once
    // its IM came (`Session::serve`): a connection that never sends one
    // costs no database work.
    let mut s = Session {
        hub: hub.clone(),
        wr: Box::new(wr),
        role: Role::None,
        map_ok: false,
        hlo_due: false,
        orders: Vec::new(),
        orders_phase: -1,
        go: true,
        drew: false,
        alarms: Vec::new(),
        fired: Vec::new(),
        deadline: None,
        seat_name: None,
        seen_phase: -1,
        seen_press: 0,
        hst_allowance: (f64::from(hub.config.hst_per_minute), std::time::Instant::now()),
    };
    let end = s.serve(&mut in_rx).await;
    match end {
        End::Error(code) => {
            let _ = s.write(&Frame::em(code)).await;
        }
        End::Final => {
            let _ = s.write(&Frame::new(frame::FM, Vec::new())).await;
        }
        End::Close => {}
    }
    let _ = s.wr.shutdown().await;
    reader.abort();
    s.left().await;
}

impl Session {
    async fn serve(&mut self, in_rx: &mut mpsc::Receiver<Result<Frame, FrameError>>) -> End {
        // The IM first, within the time allowed.
        let first = match tokio::time::timeout(self.hub.config.im_timeout, in_rx.recv()).await {
            Err(_) => return End::Error(ErrorCode::ImTimer),
            // Too long to be read: what it was meant to be still decides.
            Ok(Some(Err(FrameError::TooLong { kind, .. }))) => {
                return End::Error(match kind {
                    frame::DM => ErrorCode::ImNotFirst,
                    frame::RM => ErrorCode::RmFromClient,
                    _ => ErrorCode::UnknownMessage,
                })
            }
            Ok(None) | Ok(Some(Err(_))) => return End::Close,
            Ok(Some(Ok(f))) => f,
        };
        match first.kind {
            frame::IM => {
                if let Err(code) = frame::check_im(&first) {
                    return End::Error(code);
                }
            }
            frame::RM => return End::Error(ErrorCode::RmFromClient),
            frame::DM => return End::Error(ErrorCode::ImNotFirst),
            frame::FM | frame::EM => return End::Close,
            _ => return End::Error(ErrorCode::UnknownMessage),
        }
        // Later results come from the game's channel, or from storage
        // after the connection fell behind.
        let id = self.hub.id;
        self.seen_phase = self
            .hub
            .state
            .read(move |tx| Ok::<_, ApiError>(game::load(tx, id, Lock::None)?.phase_index - 1))
            .await
            .unwrap_or(-1);
        self.seen_press = super::last_press(&self.hub).await;
        if self
            .write(&Frame::new(frame::RM, self.hub.repr.rm_payload()))
            .await
            .is_err()
        {
            return End::Close;
        }
        let mut events = self.hub.tx.subscribe();
        // A connection that neither plays nor observes is closed after the
        // read timeout: it holds a place and would get every broadcast.
        let join_by = tokio::time::Instant::now() + self.hub.config.read_timeout;
        loop {
            let alarm = self.next_alarm();
            let step = tokio::select! {
                _ = tokio::time::sleep_until(join_by), if self.role == Role::None => Err(End::Close),
                f = in_rx.recv() => match f {
                    None | Some(Err(FrameError::Closed)) => Err(End::Close),
                    Some(Err(FrameError::TooLong { .. })) => Err(End::Error(ErrorCode::UnknownMessage)),
                    Some(Err(_)) => Err(End::Close),
                    Some(Ok(f)) => self.on_frame(f).await,
                },
                e = events.recv() => match e {
                    Ok(o) => self.on_out(&o).await,
                    Err(broadcast::error::RecvError::Lagged(_)) => self.resync().await,
                    Err(broadcast::error::RecvError::Closed) => Err(End::Final),
                },
                _ = sleep_until_ms(alarm) => self.on_alarm().await,
            };
            if let Err(end) = step {
                return end;
            }
        }
    }

    async fn write(&mut self, f: &Frame) -> std::io::Result<()> {
        match tokio::time::timeout(self.hub.config.write_timeout, frame::write(&mut self.wr, f)).await {
            Ok(r) => r,
            Err(_) => Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client does not read",
            )),
        }
    }

    async fn send(&mut self, m: &Msg) -> Step {
        self.send_tokens(&m.tokens()).await
    }

    async fn send_tokens(&mut self, t: &[Token]) -> Step {
        let f = Frame::new(frame::DM, message::bytes_of(t));
        self.write(&f).await.map_err(|_| End::Close)
    }

    async fn on_frame(&mut self, f: Frame) -> Step {
        match f.kind {
            frame::IM => Err(End::Error(ErrorCode::ImTwice)),
            frame::RM => Err(End::Error(ErrorCode::RmFromClient)),
            frame::FM | frame::EM => Err(End::Close),
            frame::DM => {
                if f.data.len() < 2 || !f.data.len().is_multiple_of(2) {
                    return Err(End::Error(ErrorCode::TooShort));
                }
                let tokens = message::tokens_of(&f.data).map_err(|_| End::Error(ErrorCode::TooShort))?;
                if tokens.iter().any(|t| t.is_reserved()) {
                    return Err(End::Error(ErrorCode::InvalidToken));
                }
                let m = match Msg::from_tokens(&tokens) {
                    Ok(m) => m,
                    Err(_) => return self.send_tokens(&message::prn(&tokens)).await,
                };
                if let Some(i) = tokens.iter().position(|&t| !self.hub.repr.known(t)) {
                    return self.send(&huh(&m, i)).await;
                }
                self.on_msg(m).await
            }
            _ => Err(End::Error(ErrorCode::UnknownMessage)),
        }
    }

    fn power(&self) -> Option<PowerId> {
        match &self.role {
            Role::Player { power, .. } => *power,
            _ => None,
        }
    }

    fn account(&self) -> Option<Account> {
        match &self.role {
            Role::Player { account, .. } => Some(account.clone()),
            _ => None,
        }
    }

    async fn load(&self) -> Result<(game::GameRow, State), ApiError> {
        let variants = self.hub.state.variants.clone();
        let id = self.hub.id;
        self.hub
            .state
            .read(move |tx| {
                let g = game::load(tx, id, Lock::None)?;
                let s = g.state(&variants)?;
                Ok((g, s))
            })
            .await
    }

    async fn on_msg(&mut self, m: Msg) -> Step {
        let Some(head) = m.first() else {
            return self.send(&huh(&m, 0)).await;
        };
        let args = &m.0[1..];
        match head {
            x if x == NME => self.nme(&m).await,
            x if x == OBS => {
                if self.role != Role::None {
                    return self.send(&answer(REJ, &m)).await;
                }
                self.role = Role::Observer;
                self.send(&answer(YES, &m)).await?;
                self.send(&self.map_msg()).await
            }
            x if x == IAM => self.iam(&m).await,
            x if x == MAP && args.is_empty() => self.send(&self.map_msg()).await,
            x if x == MDF && args.is_empty() => {
                let mdf = convert::mdf(&self.hub.loaded.variant().map, &self.hub.repr);
                self.send(&mdf).await
            }
            x if x == YES || x == REJ => {
                let about = args
                    .first()
                    .and_then(Node::list)
                    .and_then(|l| l.first())
                    .and_then(Node::tok);
                if about == Some(MAP) {
                    self.map_ok = x == YES;
                    if x == REJ {
                        // The client cannot play this map: it is told to go.
                        self.send(&B::new(OFF).msg()).await?;
                        return Err(End::Final);
                    }
                    if self.map_ok && self.hlo_due {
                        self.hlo_due = false;
                        return self.greet().await;
                    }
                }
                Ok(())
            }
            x if x == HUH || x == PRN => Ok(()),
            x if x == HLO && args.is_empty() => match self.hlo().await {
                Some(h) => self.send(&h).await,
                None => self.send(&answer(REJ, &m)).await,
            },
            x if x == NOW && args.is_empty() => self.position(false).await,
            x if x == SCO && args.is_empty() => self.position(true).await,
            x if x == SUB => self.sub(&m).await,
            x if x == NOT => self.not(&m).await,
            x if x == MIS && args.is_empty() => self.mis(&m, true).await,
            x if x == GOF && args.is_empty() => self.gof(&m, true).await,
            x if x == DRW => self.drw(&m, true).await,
            x if x == TME => self.tme(&m).await,
            x if x == HST => self.hst(&m).await,
            x if x == ORD && args.is_empty() => self.ord(&m).await,
            x if x == SMR && args.is_empty() => match super::end_messages(&self.hub).await {
                Ok(msgs) => {
                    for x in msgs {
                        self.send(&x).await?;
                    }
                    Ok(())
                }
                Err(_) => self.send(&answer(REJ, &m)).await,
            },
            x if x == SND => self.snd(&m).await,
            x if x == ADM => {
                if args.len() == 2 && args.iter().all(|a| a.string().is_some()) {
                    self.hub.send(Out::All(vec![m.clone()]));
                    Ok(())
                } else {
                    self.send(&huh(&m, 1)).await
                }
            }
            _ => self.send(&huh(&m, 0)).await,
        }
    }

    fn map_msg(&self) -> Msg {
        let name: String = self
            .hub
            .loaded
            .variant()
            .name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        B::new(MAP).s(&name).msg()
    }

    async fn nme(&mut self, m: &Msg) -> Step {
        let variants = self.hub.state.variants.clone();
        let args = &m.0[1..];
        let Some(name) = args.first().and_then(Node::string) else {
            return self.send(&huh(m, 1)).await;
        };
        let Some(version) = args.get(1).and_then(Node::string) else {
            return self.send(&huh(m, 1 + args[0].width())).await;
        };
        if args.len() != 2 {
            return self.send(&huh(m, 1 + args[0].width() + args[1].width())).await;
        }
        if self.role != Role::None {
            return self.send(&answer(REJ, m)).await;
        }
        let id = self.hub.id;
        let passcode = fastrand::i32(1..8000);
        // A power chosen for this arrival (tests, tournament directors).
        let wanted = {
            let n = self.hub.arrivals.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.hub.config.powers_by_arrival.get(n).cloned()
        };
        let joined = self
            .hub
            .state
            .write(move |tx| {
                let g = game::load(tx, id, Lock::Update)?;
                // A running game takes a bot into a seat that civil
                // disorder opened, as it takes an API player (the seat
                // was lost for good before).
                if !matches!(g.status, Status::Forming | Status::Active | Status::Paused) {
                    return Err(ApiError::conflict("the game is over"));
                }
                let acc = auth::create_account(
                    tx,
                    &format!("daide-{id}-{:08x}", fastrand::u32(..)),
                    &format!("daide:{passcode}"),
                )?;
                lobby::join(tx, &variants, id, &acc, wanted.as_deref())?;
                Ok((acc, g.status != Status::Forming))
            })
            .await;
        match joined {
            Ok((account, running)) => {
                self.role = Role::Player {
                    power: None,
                    account,
                    passcode,
                };
                // In a running game HLO, SCO and NOW follow the map's YES.
                self.hlo_due = running;
                self.hub.state.changed();
                self.pending_seat(name, version);
                self.send(&answer(YES, m)).await?;
                self.send(&self.map_msg()).await
            }
            Err(_) => self.send(&answer(REJ, m)).await,
        }
    }

    fn pending_seat(&mut self, name: String, version: String) {
        // The power is known once the game starts; the name waits here.
        self.seat_name = Some((name, version));
    }

    async fn iam(&mut self, m: &Msg) -> Step {
        let args = &m.0[1..];
        let power = args
            .first()
            .and_then(Node::list)
            .filter(|l| l.len() == 1)
            .and_then(|l| l[0].tok());
        let code = args
            .get(1)
            .and_then(Node::list)
            .filter(|l| l.len() == 1)
            .and_then(|l| l[0].tok()?.as_int());
        let (Some(pt), Some(code)) = (power, code) else {
            return self.send(&huh(m, 1)).await;
        };
        let Some(p) = self.hub.repr.power_of(pt) else {
            return self.send(&huh(m, 2)).await;
        };
        if self.role != Role::None || self.hub.seats().get(&p.0).is_some_and(|s| s.connected) {
            return self.send(&answer(REJ, m)).await;
        }
        let id = self.hub.id;
        let name = self.hub.loaded.variant().map.power(p).name.clone();
        let power_name = name.clone();
        let found = self
            .hub
            .state
            .read(move |tx| {
                let g = game::load(tx, id, Lock::None)?;
                if !matches!(g.status, Status::Active | Status::Paused) {
                    return Ok(None);
                }
                let held = crate::db::members::player_of(tx, id, &name, &format!("daide:{code}"))?;
                if held.is_some() {
                    return Ok(held);
                }
                // The power's seat was opened by civil disorder while its
                // bot was away: the bot comes back with its passcode and
                // takes it again, as a replacement player would.
                Ok::<_, ApiError>(None)
            })
            .await;
        let found = match found {
            Ok(None) => self.retake(id, power_name, code).await,
            other => other,
        };
        match found {
            Ok(Some(account)) => {
                self.role = Role::Player {
                    power: Some(p),
                    account,
                    passcode: code,
                };
                self.map_ok = true;
                self.hub.seats().entry(p.0).or_default().connected = true;
                self.send(&answer(YES, m)).await?;
                let not_ccd = B::new(NOT).l(B::new(CCD).l(B::default().t(pt))).msg();
                let mut msgs = vec![not_ccd];
                // DSD: the deadline runs again, TME after the NOT (CCD).
                if let Some(secs) = super::restart_deadline(&self.hub, p).await {
                    msgs.push(B::new(TME).l(B::default().i(secs.min(8191) as i32)).msg());
                }
                self.hub.send(Out::All(msgs));
                Ok(())
            }
            _ => self.send(&answer(REJ, m)).await,
        }
    }

    /// IAM for a power without a player: the bot of this game whose
    /// passcode it is, and that holds no other power, takes the seat.
    async fn retake(&self, id: i64, power: String, code: i32) -> Result<Option<Account>, ApiError> {
        let variants = self.hub.state.variants.clone();
        let r = self
            .hub
            .state
            .write(move |tx| {
                let g = game::load(tx, id, Lock::Update)?;
                if !matches!(g.status, Status::Active | Status::Paused) {
                    return Ok(None);
                }
                let members = game::members(tx, id)?;
                if members.iter().any(|m| m.power.as_deref() == Some(power.as_str())) {
                    return Ok(None);
                }
                let bots = crate::db::accounts::matching(tx, &format!("daide-{id}-%"), &format!("daide:{code}"))?;
                let Some(acc) = bots.into_iter().find(|a| !members.iter().any(|m| m.account_id == a.id)) else {
                    return Ok(None);
                };
                lobby::join(tx, &variants, id, &acc, Some(&power))?;
                Ok(Some(acc))
            })
            .await;
        if matches!(r, Ok(Some(_))) {
            self.hub.state.changed();
        }
        r
    }

    /// HLO of a running game: a player's power and passcode, or UNO and
    /// 0 for any other client (syntax document, HLO).
    async fn hlo(&mut self) -> Option<Msg> {
        let (g, _) = self.load().await.ok()?;
        if !matches!(g.status, Status::Active | Status::Paused) {
            return None;
        }
        let level = self.hub.level(g.options.press) as i32;
        let opts = super::hlo_options(&g.options, level);
        let (who, passcode) = match &self.role {
            Role::Player {
                power,
                passcode,
                account,
            } => {
                let passcode = *passcode;
                let p = match power {
                    Some(p) => *p,
                    None => {
                        let id = self.hub.id;
                        let aid = account.id;
                        let members = self.hub.state.read(move |tx| game::members(tx, id)).await.ok()?;
                        let map = &self.hub.loaded.variant().map;
                        game::power_of(map, &members, aid)?
                    }
                };
                if let Role::Player { power, .. } = &mut self.role {
                    *power = Some(p);
                }
                if let Some((n, v)) = self.seat_name.take() {
                    let mut seats = self.hub.seats();
                    let seat = seats.entry(p.0).or_default();
                    seat.connected = true;
                    seat.name = n;
                    seat.version = v;
                }
                (self.hub.repr.power(p), passcode)
            }
            Role::Observer | Role::None => (UNO, 0),
        };
        Some(
            B::new(HLO)
                .l(B::default().t(who))
                .l(B::default().i(passcode))
                .l(opts)
                .msg(),
        )
    }

    /// The start of the game for this client: HLO, SCO, NOW.
    async fn greet(&mut self) -> Step {
        if let Some(h) = self.hlo().await {
            self.send(&h).await?;
        }
        self.position(true).await?;
        self.position(false).await?;
        self.tme_after_phase().await
    }

    async fn position(&mut self, sco: bool) -> Step {
        let Ok((_, state)) = self.load().await else {
            return Ok(());
        };
        let map = &self.hub.loaded.variant().map;
        let m = if sco {
            convert::sco(map, &self.hub.repr, &state)
        } else {
            convert::now(map, &self.hub.repr, &self.hub.loaded.variant().rules, &state)
        };
        self.send(&m).await
    }

    async fn on_out(&mut self, o: &Out) -> Step {
        match o {
            Out::Started => match self.role {
                Role::None => Ok(()),
                Role::Observer => self.greet().await,
                Role::Player { .. } => {
                    if self.map_ok {
                        self.greet().await
                    } else {
                        self.hlo_due = true;
                        Ok(())
                    }
                }
            },
            Out::Phase { index, msgs } => {
                if *index <= self.seen_phase {
                    // Sent already, by a resync.
                    return Ok(());
                }
                self.seen_phase = *index;
                if self.role == Role::None || self.hlo_due {
                    return Ok(());
                }
                for m in msgs {
                    self.send(m).await?;
                }
                self.next_phase().await
            }
            Out::All(msgs) => {
                if self.role == Role::None {
                    return Ok(());
                }
                for m in msgs {
                    self.send(m).await?;
                }
                Ok(())
            }
            Out::Press { id, to, msg } => {
                if *id <= self.seen_press {
                    return Ok(());
                }
                self.seen_press = *id;
                if self.power().is_some_and(|p| to.contains(&p)) {
                    self.send(msg).await?;
                }
                Ok(())
            }
            Out::Over => {
                if self.role != Role::None {
                    self.send(&B::new(OFF).msg()).await?;
                }
                Err(End::Final)
            }
        }
    }

    /// A new phase begins for this connection: its orders and flags are
    /// the new phase's, and TME tells the deadline.
    async fn next_phase(&mut self) -> Step {
        self.orders.clear();
        self.go = true;
        if self.drew {
            self.drew = false;
            let _ = self.flag(false, Flag::Draw).await;
        }
        self.tme_after_phase().await
    }

    /// The connection fell behind the game's channel and missed some of
    /// its messages: what it missed comes from storage (the results of
    /// every phase processed since the last it had, press for its power,
    /// the end of the game). CCD, NOT (CCD) and ADM are not stored and stay
    /// missed.
    async fn resync(&mut self) -> Step {
        let Ok((phases, over)) = super::results_after(&self.hub, self.seen_phase).await else {
            return Ok(());
        };
        let greeted = self.role != Role::None && !self.hlo_due;
        let mut any = false;
        for (index, msgs) in phases {
            self.seen_phase = self.seen_phase.max(index);
            if greeted {
                for m in &msgs {
                    self.send(m).await?;
                }
                any = true;
            }
        }
        for (id, to, msg) in super::press_after(&self.hub, self.seen_press, None).await {
            self.seen_press = self.seen_press.max(id);
            if self.power().is_some_and(|p| to.contains(&p)) {
                self.send(&msg).await?;
            }
        }
        if over {
            if let Ok(msgs) = super::end_messages(&self.hub).await {
                if self.role != Role::None {
                    for m in &msgs {
                        self.send(m).await?;
                    }
                    self.send(&B::new(OFF).msg()).await?;
                }
            }
            return Err(End::Final);
        }
        if any {
            self.next_phase().await?;
        }
        Ok(())
    }

    async fn tme_after_phase(&mut self) -> Step {
        let Ok((g, _)) = self.load().await else { return Ok(()) };
        self.deadline = g.deadline;
        self.fired.clear();
        if let Some(d) = g.deadline {
            let secs = ((d - crate::time::now_ms()).max(0) + 999) / 1000;
            self.send(&B::new(TME).l(B::default().i(secs.min(8191) as i32)).msg())
                .await?;
        }
        Ok(())
    }

    fn next_alarm(&self) -> Option<i64> {
        let d = self.deadline?;
        self.alarms
            .iter()
            .filter(|a| !self.fired.contains(a))
            .map(|&a| d - i64::from(a) * 1000)
            .min()
    }

    async fn on_alarm(&mut self) -> Step {
        let now = crate::time::now_ms();
        let Some(d) = self.deadline else { return Ok(()) };
        let due: Vec<i32> = self
            .alarms
            .iter()
            .copied()
            .filter(|a| !self.fired.contains(a) && d - i64::from(*a) * 1000 <= now)
            .collect();
        for a in due {
            self.fired.push(a);
            self.send(&B::new(TME).l(B::default().i(a)).msg()).await?;
        }
        Ok(())
    }

    /// Orders of the phase the game is in (cleared when it moved on).
    fn orders_for(&mut self, phase_index: i64) -> Vec<DOrder> {
        if phase_index != self.orders_phase {
            self.orders.clear();
            self.orders_phase = phase_index;
        }
        self.orders.iter().map(|(_, o)| o.clone()).collect()
    }

    async fn sub(&mut self, m: &Msg) -> Step {
        let (Some(me), Some(account)) = (self.power(), self.account()) else {
            return self.send(&answer(REJ, m)).await;
        };
        let Ok((g, state)) = self.load().await else {
            return self.send(&answer(REJ, m)).await;
        };
        if g.status != Status::Active && g.status != Status::Paused {
            return self.send(&answer(REJ, m)).await;
        }
        // Held apart from `self`, which the loop below sends on.
        let loaded = self.hub.loaded.clone();
        let map = &loaded.variant().map;
        let rules = &loaded.variant().rules;
        let reader = Reader {
            map,
            repr: &self.hub.repr,
        };
        let mut parsed = Vec::new();
        let mut at = 1;
        // `SUB (turn) (order) …`: MILA's bots name the turn; it must be
        // the current one.
        let mut body = &m.0[1..];
        if let Some(t) = body.first().and_then(convert::phase_of) {
            if t != state.phase {
                return self.send(&answer(REJ, m)).await;
            }
            at += body[0].width();
            body = &body[1..];
        }
        for n in body {
            match reader.order(n, at) {
                Ok(o) => parsed.push((n.clone(), o)),
                Err(bad) => return self.send(&huh(m, bad)).await,
            }
            at += n.width();
        }
        self.orders_for(g.phase_index);
        // AOA: any order that reads as one is accepted; one that is not
        // legal is stored and played as a hold by dip's checks.
        let aoa = g.options.daide_rules.any_orders_accepted;
        let (next, notes) = convert::submit(map, rules, &state, me, aoa, &self.orders, parsed);
        let thx: Vec<Msg> = notes
            .into_iter()
            .map(|(n, note)| B::new(THX).n(n).l(B::default().t(note)).msg())
            .collect();
        let all: Vec<DOrder> = next.iter().map(|(_, o)| o.clone()).collect();
        let missing = convert::mis(map, &self.hub.repr, rules, &state, me, &all);
        // The connection's orders are what storage holds: a SUB that could
        // not be stored leaves them as they were.
        if self.store(&account, &state, &next, missing.is_none()).await.is_err() {
            return self.send(&answer(REJ, m)).await;
        }
        self.orders = next;
        for t in thx {
            self.send(&t).await?;
        }
        if let Some(mis) = missing {
            self.send(&mis).await?;
        }
        Ok(())
    }

    /// Stores the orders as dip's order text, and the ready flag.
    async fn store(
        &mut self,
        account: &Account,
        state: &State,
        orders: &[(Node, DOrder)],
        complete: bool,
    ) -> Result<(), ApiError> {
        let variants = self.hub.state.variants.clone();
        let map = &self.hub.loaded.variant().map;
        let lines: Vec<String> = orders.iter().map(|(_, o)| convert::to_text(map, o)).collect();
        let id = self.hub.id;
        let who = account.clone();
        let phase = state.phase.short();
        let ready = complete && self.go;
        let by = self.hub.state.by.clone();
        self.hub
            .state
            .write(move |tx| {
                play::put_orders(tx, &variants, id, &who, &lines, Some(&phase))?;
                play::ready(tx, &variants, id, &who, ready, &by)?;
                Ok(())
            })
            .await?;
        self.hub.state.changed();
        Ok(())
    }

    async fn flag(&mut self, on: bool, which: Flag) -> Result<(), ApiError> {
        let variants = self.hub.state.variants.clone();
        let Some(who) = self.account() else {
            return Err(ApiError::forbidden("not a player"));
        };
        let id = self.hub.id;
        let by = self.hub.state.by.clone();
        self.hub
            .state
            .write(move |tx| {
                match which {
                    Flag::Ready(phase_index) => {
                        ready_in_phase(tx, &variants, id, &who, on, phase_index, &by)?;
                    }
                    Flag::Draw => {
                        play::draw(tx, &variants, id, &who, on)?;
                    }
                }
                Ok(())
            })
            .await?;
        self.hub.state.changed();
        Ok(())
    }

    async fn not(&mut self, m: &Msg) -> Step {
        let inner = m.0.get(1).and_then(Node::list).unwrap_or(&[]);
        let what = inner.first().and_then(Node::tok);
        if m.0.len() != 2 || what.is_none() {
            return self.send(&huh(m, 1)).await;
        }
        let inner_msg = Msg(inner.to_vec());
        match what {
            Some(x) if x == SUB => {
                let (Some(me), Some(account)) = (self.power(), self.account()) else {
                    return self.send(&answer(REJ, m)).await;
                };
                let Ok((g, state)) = self.load().await else {
                    return self.send(&answer(REJ, m)).await;
                };
                if g.status != Status::Active {
                    return self.send(&answer(REJ, m)).await;
                }
                self.orders_for(g.phase_index);
                let mut next = self.orders.clone();
                match inner.get(1) {
                    None => next.clear(),
                    Some(n) => {
                        next.retain(|(x, _)| x != n);
                        if next.len() == self.orders.len() {
                            return self.send(&answer(REJ, m)).await;
                        }
                    }
                }
                let all: Vec<DOrder> = next.iter().map(|(_, o)| o.clone()).collect();
                let map = &self.hub.loaded.variant().map;
                let complete =
                    convert::mis(map, &self.hub.repr, &self.hub.loaded.variant().rules, &state, me, &all).is_none();
                if self.store(&account, &state, &next, complete).await.is_err() {
                    return self.send(&answer(REJ, m)).await;
                }
                self.orders = next;
                self.send(&answer(YES, m)).await
            }
            Some(x) if x == GOF && inner.len() == 1 => self.gof(m, false).await,
            Some(x) if x == DRW => self.drw_not(m, &inner_msg).await,
            Some(x) if x == TME => {
                match inner
                    .get(1)
                    .and_then(Node::list)
                    .and_then(|l| l.first())
                    .and_then(|t| t.tok()?.as_int())
                {
                    Some(n) => {
                        let before = self.alarms.len();
                        self.alarms.retain(|&a| a != n);
                        let t = if self.alarms.len() < before { YES } else { REJ };
                        self.send(&answer(t, m)).await
                    }
                    None => {
                        self.alarms.clear();
                        self.send(&answer(YES, m)).await
                    }
                }
            }
            _ => self.send(&huh(m, 2)).await,
        }
    }

    async fn mis(&mut self, m: &Msg, _ask: bool) -> Step {
        let Some(me) = self.power() else {
            return self.send(&answer(REJ, m)).await;
        };
        let Ok((g, state)) = self.load().await else {
            return self.send(&answer(REJ, m)).await;
        };
        if g.status != Status::Active && g.status != Status::Paused {
            return self.send(&answer(REJ, m)).await;
        }
        let all = self.orders_for(g.phase_index);
        let map = &self.hub.loaded.variant().map;
        let mis = convert::mis(map, &self.hub.repr, &self.hub.loaded.variant().rules, &state, me, &all)
            .unwrap_or_else(|| B::new(MIS).msg());
        self.send(&mis).await
    }

    async fn gof(&mut self, m: &Msg, on: bool) -> Step {
        let Some(me) = self.power() else {
            return self.send(&answer(REJ, m)).await;
        };
        let Ok((g, state)) = self.load().await else {
            return self.send(&answer(REJ, m)).await;
        };
        if g.status != Status::Active || !game::survives(&self.hub.loaded.variant().map, &state, me) {
            return self.send(&answer(REJ, m)).await;
        }
        self.go = on;
        let all = self.orders_for(g.phase_index);
        let map = &self.hub.loaded.variant().map;
        let missing = convert::mis(map, &self.hub.repr, &self.hub.loaded.variant().rules, &state, me, &all);
        if self
            .flag(on && missing.is_none(), Flag::Ready(g.phase_index))
            .await
            .is_err()
        {
            return self.send(&answer(REJ, m)).await;
        }
        self.send(&answer(YES, m)).await?;
        if on {
            if let Some(mis) = missing {
                self.send(&mis).await?;
            }
        }
        Ok(())
    }

    async fn drw(&mut self, m: &Msg, on: bool) -> Step {
        if m.0.len() > 1 {
            // Partial draws (PDA) are not offered.
            return self.send(&answer(REJ, m)).await;
        }
        let ok = self.power().is_some() && self.flag(on, Flag::Draw).await.is_ok();
        if ok {
            self.drew = on;
        }
        self.send(&answer(if ok { YES } else { REJ }, m)).await
    }

    async fn drw_not(&mut self, m: &Msg, inner: &Msg) -> Step {
        if inner.0.len() > 1 {
            return self.send(&answer(REJ, m)).await;
        }
        let ok = self.power().is_some() && self.flag(false, Flag::Draw).await.is_ok();
        if ok {
            self.drew = false;
        }
        self.send(&answer(if ok { YES } else { REJ }, m)).await
    }

    async fn tme(&mut self, m: &Msg) -> Step {
        let Ok((g, _)) = self.load().await else {
            return self.send(&answer(REJ, m)).await;
        };
        match m.0.get(1) {
            None => match g.deadline {
                Some(d) => {
                    let secs = ((d - crate::time::now_ms()).max(0) + 999) / 1000;
                    self.send(&B::new(TME).l(B::default().i(secs.min(8191) as i32)).msg())
                        .await
                }
                None => self.send(&answer(REJ, m)).await,
            },
            Some(n) => {
                let Some(secs) = n.list().filter(|l| l.len() == 1).and_then(|l| l[0].tok()?.as_int()) else {
                    return self.send(&huh(m, 1)).await;
                };
                let d = &g.options.deadlines;
                let longest = [
                    dip_core::PhaseKind::Movement,
                    dip_core::PhaseKind::Retreat,
                    dip_core::PhaseKind::Adjustment,
                ]
                .iter()
                .filter_map(|&k| d.for_kind(k))
                .max();
                match longest {
                    Some(l) if secs >= 0 && i64::from(secs) * 1000 <= l => {
                        if !self.alarms.contains(&secs) {
                            self.alarms.push(secs);
                        }
                        self.deadline = g.deadline;
                        self.send(&answer(YES, m)).await
                    }
                    _ => self.send(&answer(REJ, m)).await,
                }
            }
        }
    }

    async fn hst(&mut self, m: &Msg) -> Step {
        // Each HST sends the whole game's results: a minute's allowance,
        // refilled as time passes, then REJ.
        let per_minute = f64::from(self.hub.config.hst_per_minute);
        let (left, at) = self.hst_allowance;
        let left = (left + at.elapsed().as_secs_f64() * per_minute / 60.0).min(per_minute);
        if left < 1.0 {
            self.hst_allowance = (left, std::time::Instant::now());
            return self.send(&answer(REJ, m)).await;
        }
        self.hst_allowance = (left - 1.0, std::time::Instant::now());
        let only = match m.0.get(1) {
            None => None,
            Some(n) => match convert::phase_of(n) {
                Some(p) => Some(p),
                None => return self.send(&huh(m, 1)).await,
            },
        };
        match super::history(&self.hub, only).await {
            Ok(msgs) if !msgs.is_empty() => {
                for x in msgs {
                    self.send(&x).await?;
                }
                Ok(())
            }
            _ => self.send(&answer(REJ, m)).await,
        }
    }

    async fn ord(&mut self, m: &Msg) -> Step {
        let Ok(msgs) = super::history(&self.hub, None).await else {
            return self.send(&answer(REJ, m)).await;
        };
        let ords: Vec<&Msg> = msgs.iter().filter(|x| x.first() == Some(ORD)).collect();
        let movement = |x: &Msg| {
            x.0.get(1)
                .and_then(convert::phase_of)
                .is_some_and(|p| p.kind == dip_core::PhaseKind::Movement)
        };
        let Some(start) = ords.iter().rposition(|x| movement(x)) else {
            return self.send(&answer(REJ, m)).await;
        };
        let first_turn = ords[start].0.get(1).cloned();
        let begin = ords
            .iter()
            .position(|x| x.0.get(1) == first_turn.as_ref())
            .unwrap_or(start);
        for x in &ords[begin..] {
            self.send(x).await?;
        }
        Ok(())
    }

    async fn snd(&mut self, m: &Msg) -> Step {
        let variants = self.hub.state.variants.clone();
        let Ok((g, state)) = self.load().await else {
            return self.send(&answer(REJ, m)).await;
        };
        let level = self.hub.level(g.options.press);
        if level == 0 {
            return self.send(&huh(m, 0)).await;
        }
        let (powers, press) = match self.read_snd(m, level) {
            Ok(read) => read,
            Err(at) => return self.send(&huh(m, at)).await,
        };
        let (Some(me), Some(account)) = (self.power(), self.account()) else {
            return self.send(&answer(REJ, m)).await;
        };
        if let Some(refusal) = self.snd_refusal(m, &g, &state, me, &powers) {
            return self.send(&refusal).await;
        }
        let map = &self.hub.loaded.variant().map;
        // What the recipients get: TRY without tokens above the level.
        let text = Msg(press).to_text(&self.hub.repr);
        // Public press is stored as a message to all (the only kind such a
        // game takes); other press to the powers named.
        let to = if g.options.press == game::Press::Public {
            press::To::All("all".into())
        } else {
            press::To::Powers(powers.iter().map(|&p| map.power(p).name.clone()).collect())
        };
        let id = self.hub.id;
        let sent = self
            .hub
            .state
            .write(move |tx| press::send(tx, &variants, id, &account, &press::NewMessage { to, text }))
            .await;
        match sent {
            Ok(_) => {
                self.hub.state.changed();
                self.send(&answer(YES, m)).await
            }
            Err(_) => self.send(&answer(REJ, m)).await,
        }
    }

    /// An SND's recipients and its press checked at the game's level, or
    /// the position of the first token that is wrong (for HUH):
    /// `SND [(message_id) | (turn)] (powers) (press)`, nothing after.
    fn read_snd(&self, m: &Msg, level: u32) -> Result<(Vec<PowerId>, Vec<Node>), usize> {
        let args = &m.0[1..];
        let skip = usize::from(args.first().is_some_and(|a| {
            convert::phase_of(a).is_some()
                || a.list()
                    .is_some_and(|l| l.len() == 1 && l[0].tok().is_some_and(|t| t.is_int()))
        }));
        let (Some(to), Some(body)) = (args.get(skip).and_then(Node::list), args.get(skip + 1)) else {
            return Err(1);
        };
        let Some(body_list) = body.list() else {
            return Err(1 + args[..skip + 1].iter().map(Node::width).sum::<usize>());
        };
        let body_at = 1 + args[..skip + 1].iter().map(Node::width).sum::<usize>() + 1;
        let mut powers = Vec::new();
        for (i, n) in to.iter().enumerate() {
            match n.tok().and_then(|t| self.hub.repr.power_of(t)) {
                Some(p) => powers.push(p),
                None => return Err(1 + args[..skip].iter().map(Node::width).sum::<usize>() + 1 + i),
            }
        }
        // Nothing may follow the press.
        if args.len() > skip + 2 {
            return Err(1 + args[..skip + 2].iter().map(Node::width).sum::<usize>());
        }
        let reader = Reader {
            map: &self.hub.loaded.variant().map,
            repr: &self.hub.repr,
        };
        let press = super::press::check(&reader, body_list, level, body_at)?;
        Ok((powers, press))
    }

    /// Why press from `me` to `powers` is not sent, as the answer to give:
    /// REJ when the game is not running, the sender or no one is out, the
    /// press window is closed or public press leaves someone out; OUT or
    /// CCD naming a recipient that is out or in civil disorder.
    fn snd_refusal(&self, m: &Msg, g: &game::GameRow, state: &State, me: PowerId, powers: &[PowerId]) -> Option<Msg> {
        let map = &self.hub.loaded.variant().map;
        if g.status != Status::Active || powers.is_empty() || !game::survives(map, state, me) {
            return Some(answer(REJ, m));
        }
        for &p in powers {
            if !game::survives(map, state, p) {
                return Some(
                    B::new(OUT)
                        .l(B::default().t(self.hub.repr.power(p)))
                        .ls(m.0.clone())
                        .msg(),
                );
            }
            if self.hub.seats().get(&p.0).is_some_and(|s| !s.connected) {
                return Some(
                    B::new(CCD)
                        .l(B::default().t(self.hub.repr.power(p)))
                        .ls(m.0.clone())
                        .msg(),
                );
            }
        }
        if super::press_closed(
            &g.options.daide_rules,
            state.phase.kind,
            g.deadline,
            crate::time::now_ms(),
        )
        .is_some()
        {
            return Some(answer(REJ, m));
        }
        if g.options.press == game::Press::Public {
            let others: Vec<PowerId> = map
                .power_ids()
                .filter(|&p| p != me && game::survives(map, state, p))
                .collect();
            if others.iter().any(|p| !powers.contains(p)) {
                return Some(answer(REJ, m));
            }
        }
        None
    }

    /// The client went away: its power is in civil disorder until it
    /// comes back with IAM.
    async fn left(&mut self) {
        let Some(p) = self.power() else { return };
        if let Some(s) = self.hub.seats().get_mut(&p.0) {
            s.connected = false;
        }
        if let Ok((g, _)) = self.load().await {
            if matches!(g.status, Status::Active | Status::Paused) {
                let ccd = B::new(CCD).l(B::default().t(self.hub.repr.power(p))).msg();
                let mut msgs = vec![ccd];
                // DSD: NOT (TME (seconds)) right after the CCD.
                if let Some(secs) = super::stop_deadline(&self.hub, p).await {
                    msgs.push(
                        B::new(NOT)
                            .l(B::new(TME).l(B::default().i(secs.min(8191) as i32)))
                            .msg(),
                    );
                }
                self.hub.send(Out::All(msgs));
                // Zero-second deadlines: nothing more may come.
                super::settle(&self.hub).await;
            }
        }
    }
}

#[derive(Clone, Copy)]
enum Flag {
    /// Ready in the phase of this index (the one the orders were checked
    /// in).
    Ready(i64),
    Draw,
}

/// Sets the ready flag of a bot whose orders were found complete (or not)
/// in the phase of `phase_index`; nothing when the game has moved on
/// since, so that a GOF crossing the processing of its phase does not
/// make the bot ready in the next one. Returns whether the flag was set.
pub fn ready_in_phase(
    tx: &mut dyn crate::db::Tx,
    variants: &Variants,
    id: i64,
    who: &Account,
    on: bool,
    phase_index: i64,
    by: &str,
) -> Result<bool, ApiError> {
    if game::load(tx, id, Lock::Update)?.phase_index != phase_index {
        return Ok(false);
    }
    play::ready(tx, variants, id, who, on, by)?;
    Ok(true)
}

async fn sleep_until_ms(at: Option<i64>) {
    match at {
        Some(t) => {
            let wait = (t - crate::time::now_ms()).max(0) as u64;
            tokio::time::sleep(Duration::from_millis(wait)).await
        }
        None => std::future::pending().await,
    }
}
