//! Frames of the client–server protocol (protocol document, chapter 3):
//! a 4-octet header (type, pad, remaining length big-endian) and the data.

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

pub const IM: u8 = 0;
pub const RM: u8 = 1;
pub const DM: u8 = 2;
pub const FM: u8 = 3;
pub const EM: u8 = 4;

pub const VERSION: u16 = 1;
pub const MAGIC: u16 = 0xDA10;

/// The largest DM a client may send (the header allows 65,535 octets;
/// no client message of level 0–30 comes near this).
pub const MAX_CLIENT_DM: usize = 16 * 1024;

/// The error codes of EM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u16)]
pub enum ErrorCode {
    ImTimer = 0x01,
    ImNotFirst = 0x02,
    WrongEndian = 0x03,
    BadMagic = 0x04,
    Version = 0x05,
    ImTwice = 0x06,
    ImFromServer = 0x07,
    UnknownMessage = 0x08,
    TooShort = 0x09,
    DmBeforeRm = 0x0A,
    RmNotFirst = 0x0B,
    UnexpectedRm = 0x0C,
    RmFromClient = 0x0D,
    InvalidToken = 0x0E,
}

/// One frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub kind: u8,
    pub data: Vec<u8>,
}

/// Why a frame could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error("the connection closed")]
    Closed,
    #[error("the connection closed inside a frame")]
    Truncated,
    /// A frame of this type claimed more than `max` octets (nothing of it
    /// was read beyond its header).
    #[error("the frame is longer than {max} octets")]
    TooLong { kind: u8, max: usize },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl Frame {
    pub fn new(kind: u8, data: Vec<u8>) -> Frame {
        Frame { kind, data }
    }
    pub fn em(code: ErrorCode) -> Frame {
        Frame::new(EM, (code as u16).to_be_bytes().to_vec())
    }
    pub fn im() -> Frame {
        let mut d = VERSION.to_be_bytes().to_vec();
        d.extend_from_slice(&MAGIC.to_be_bytes());
        Frame::new(IM, d)
    }
    /// The frame's octets; data beyond 65,535 octets is cut (the server
    /// never builds such a frame).
    pub fn encode(&self) -> Vec<u8> {
        let n = self.data.len().min(u16::MAX as usize);
        let mut out = Vec::with_capacity(4 + n);
        out.push(self.kind);
        out.push(0);
        out.extend_from_slice(&(n as u16).to_be_bytes());
        out.extend_from_slice(&self.data[..n]);
        out
    }
    /// Reads a frame from the start of a buffer: `Ok(None)` when more
    /// octets are needed, with the octets used otherwise.
    pub fn decode(buf: &[u8], max: usize) -> Result<Option<(Frame, usize)>, FrameError> {
        if buf.len() < 4 {
            return Ok(None);
        }
        let n = u16::from_be_bytes([buf[2], buf[3]]) as usize;
        if n > max {
            return Err(FrameError::TooLong { kind: buf[0], max });
        }
        if buf.len() < 4 + n {
            return Ok(None);
        }
        Ok(Some((Frame::new(buf[0], buf[4..4 + n].to_vec()), 4 + n)))
    }
}

/// Reads one frame; the data may be at most `max` octets.
pub async fn read<R: AsyncRead + Unpin>(r: &mut R, max: usize) -> Result<Frame, FrameError> {
    let mut head = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        let n = r.read(&mut head[got..]).await?;
        if n == 0 {
            return Err(if got == 0 {
                FrameError::Closed
            } else {
                FrameError::Truncated
            });
        }
        got += n;
    }
    let n = u16::from_be_bytes([head[2], head[3]]) as usize;
    if n > max {
        return Err(FrameError::TooLong { kind: head[0], max });
    }
    let mut data = vec![0u8; n];
    r.read_exact(&mut data).await.map_err(|e| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            FrameError::Truncated
        } else {
            FrameError::Io(e)
        }
    })?;
    Ok(Frame::new(head[0], data))
}

pub async fn write<W: AsyncWrite + Unpin>(w: &mut W, f: &Frame) -> std::io::Result<()> {
    w.write_all(&f.encode()).await
}

/// What an IM says. It is a fixed-length message of four octets: any
/// other length is a length error (0x09, as Parlance's server answers).
pub fn check_im(f: &Frame) -> Result<(), ErrorCode> {
    if f.data.len() != 4 {
        return Err(ErrorCode::TooShort);
    }
    let version = u16::from_be_bytes([f.data[0], f.data[1]]);
    let magic = u16::from_be_bytes([f.data[2], f.data[3]]);
    if magic == MAGIC.swap_bytes() {
        return Err(ErrorCode::WrongEndian);
    }
    if magic != MAGIC {
        return Err(ErrorCode::BadMagic);
    }
    if version != VERSION {
        return Err(ErrorCode::Version);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn im_is_checked_for_magic_endian_and_version() {
        assert_eq!(check_im(&Frame::im()), Ok(()));
        assert_eq!(
            check_im(&Frame::new(IM, vec![0, 1, 0x10, 0xDA])),
            Err(ErrorCode::WrongEndian)
        );
        assert_eq!(
            check_im(&Frame::new(IM, vec![0, 1, 0xDA, 0x11])),
            Err(ErrorCode::BadMagic)
        );
        assert_eq!(
            check_im(&Frame::new(IM, vec![0, 2, 0xDA, 0x10])),
            Err(ErrorCode::Version)
        );
        assert_eq!(check_im(&Frame::new(IM, vec![0, 1])), Err(ErrorCode::TooShort));
    }

    #[test]
    fn an_im_of_six_octets_was_accepted() {
        let mut long = Frame::im();
        long.data.extend_from_slice(&[0, 0]);
        assert_eq!(check_im(&long), Err(ErrorCode::TooShort));
    }

    #[test]
    fn frames_round_trip() {
        let f = Frame::new(DM, vec![0x48, 0x0E]);
        let bytes = f.encode();
        assert_eq!(bytes, vec![2, 0, 0, 2, 0x48, 0x0E]);
        assert_eq!(Frame::decode(&bytes, 100).unwrap(), Some((f, 6)));
        assert_eq!(Frame::decode(&bytes[..5], 100).unwrap(), None);
        assert!(matches!(
            Frame::decode(&bytes, 1),
            Err(FrameError::TooLong { kind: DM, max: 1 })
        ));
    }

    #[tokio::test]
    async fn a_truncated_frame_is_reported_as_such() {
        let mut r: &[u8] = &[2, 0, 0, 4, 1, 2];
        assert!(matches!(read(&mut r, 100).await, Err(FrameError::Truncated)));
        let mut r: &[u8] = &[2, 0];
        assert!(matches!(read(&mut r, 100).await, Err(FrameError::Truncated)));
        let mut r: &[u8] = &[];
        assert!(matches!(read(&mut r, 100).await, Err(FrameError::Closed)));
    }

    /// An in-memory stream that hands out a few octets a read, as a
    /// network may.
    struct Chunked {
        data: Vec<u8>,
        at: usize,
        sizes: Vec<usize>,
        i: usize,
    }

    impl AsyncRead for Chunked {
        fn poll_read(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            buf: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            let n = self
                .sizes
                .get(self.i % self.sizes.len().max(1))
                .copied()
                .unwrap_or(7)
                .max(1);
            self.i += 1;
            let end = (self.at + n).min(self.data.len()).min(self.at + buf.remaining());
            let at = self.at;
            buf.put_slice(&self.data[at..end]);
            self.at = end;
            std::task::Poll::Ready(Ok(()))
        }
    }

    /// Reads frames until an error (the stream never waits, so every
    /// read completes at once).
    fn read_all(data: Vec<u8>, sizes: Vec<usize>, max: usize) -> (Vec<Frame>, FrameError) {
        use futures_util::FutureExt;
        let mut r = Chunked {
            data,
            at: 0,
            sizes,
            i: 0,
        };
        let mut got = Vec::new();
        loop {
            match read(&mut r, max).now_or_never().expect("an in-memory read completes") {
                Ok(f) => got.push(f),
                Err(e) => return (got, e),
            }
        }
    }

    proptest! {
        /// Frames sent one after the other, cut anywhere by the network,
        /// are read back as sent; the end of the stream is then `Closed`.
        #[test]
        fn frames_read_from_a_stream_in_pieces_are_the_frames_sent(
            frames in proptest::collection::vec((any::<u8>(), proptest::collection::vec(any::<u8>(), 0..300)), 0..8),
            sizes in proptest::collection::vec(1usize..20, 1..8),
        ) {
            let sent: Vec<Frame> = frames.into_iter().map(|(k, d)| Frame::new(k, d)).collect();
            let bytes: Vec<u8> = sent.iter().flat_map(Frame::encode).collect();
            let (got, end) = read_all(bytes, sizes, 300);
            prop_assert_eq!(got, sent);
            prop_assert!(matches!(end, FrameError::Closed), "{end:?}");
        }

        /// Any bytes, in any pieces: the same frames as decoding the whole
        /// buffer, and the error says why reading stopped.
        #[test]
        fn reading_any_stream_never_panics_and_ends_for_the_right_reason(
            bytes in proptest::collection::vec(any::<u8>(), 0..400),
            sizes in proptest::collection::vec(1usize..50, 1..8),
            max in 0usize..300,
        ) {
            let mut want = Vec::new();
            let mut rest: &[u8] = &bytes;
            let reason = loop {
                match Frame::decode(rest, max) {
                    Ok(Some((f, used))) => {
                        want.push(f);
                        rest = &rest[used..];
                    }
                    Ok(None) if rest.is_empty() => break "closed",
                    Ok(None) => break "truncated",
                    Err(_) => break "too long",
                }
            };
            let (got, end) = read_all(bytes.clone(), sizes, max);
            prop_assert_eq!(got, want);
            let why = match end {
                FrameError::Closed => "closed",
                FrameError::Truncated => "truncated",
                FrameError::TooLong { .. } => "too long",
                FrameError::Io(_) => "io",
            };
            prop_assert_eq!(why, reason);
        }

        #[test]
        fn decoding_any_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..300), max in 0usize..400) {
            let mut rest: &[u8] = &bytes;
            while let Ok(Some((f, used))) = Frame::decode(rest, max) {
                prop_assert!(used == 4 + f.data.len());
                prop_assert!(f.data.len() <= max);
                rest = &rest[used..];
            }
        }

        #[test]
        fn any_frame_encodes_and_decodes_to_itself(kind in any::<u8>(), data in proptest::collection::vec(any::<u8>(), 0..500)) {
            let f = Frame::new(kind, data);
            let bytes = f.encode();
            prop_assert_eq!(Frame::decode(&bytes, 65535).unwrap(), Some((f, bytes.len())));
        }
    }
}
