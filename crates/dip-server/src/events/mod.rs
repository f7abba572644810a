//! Live updates: `GET …/events` as Server-Sent Events. Every change a game
//! goes through is a row in `events`. Each game with streams open has one
//! feed ([`feed`]) that gets the game's events from the writes that made
//! them and hands each to every stream of the game with who may see it
//! ([`rights`]); a stream ([`stream`]) reads storage only for what came
//! before it opened (`Last-Event-ID` or `?after=`) or when it fell behind.
//! Messages go only to those who may read them. Streams end when the
//! server stops and when the viewer's session ends.

pub mod feed;
pub mod rights;
pub mod stream;

pub use feed::Feeds;
pub use stream::stream;
