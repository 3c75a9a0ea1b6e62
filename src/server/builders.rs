//! [`Builders`]: hyper's connection settings for HTTP/1.1 and HTTP/2, from [`ServerOptions`].

use hyper::server::conn::http1;
#[cfg(feature = "http2")]
use hyper::server::conn::http2;
#[cfg(feature = "http2")]
use hyper_util::rt::{TokioExecutor, TokioTimer};

use super::options::ServerOptions;

/// How many headers hyper parses when no limit is set (`hyper::proto::h1::role`), on the
/// stack; past it, 431.
const HYPER_MAX_HEADERS: usize = 100;

/// hyper's connection settings, for each protocol. The protocol is told by the connection's
/// first bytes (`HeadDeadline::detect`, in [`conn`](super::conn)), as hyper-util's `auto`
/// builder does, without its wrapper on every read.
pub(super) struct Builders {
    pub(super) http1: http1::Builder,
    /// For a connection whose socket pactum watches for a client that leaves mid-request
    /// (`shared_socket::SharedTcp`): hyper's `half_close` on, so that hyper does not read it then.
    pub(super) http1_watched: http1::Builder,
    #[cfg(feature = "http2")]
    pub(super) http2: http2::Builder<TokioExecutor>,
}

impl Builders {
    pub(super) fn new(options: &ServerOptions) -> Self {
        let mut http1 = http1::Builder::new();
        http1
            // The header read timeout is the connection's (`HeadDeadline`): hyper's own would
            // arm a timer per request head (and defaults to 30 s once a timer is set).
            .header_read_timeout(None)
            // The read buffer's limit, which hyper checks only while a head is incomplete
            // (a longer head that one read brings whole would pass it), and the head's own:
            // together an exact limit on the head's bytes.
            .max_buf_size(options.max_head_bytes)
            .max_header_size(options.max_head_bytes)
            .half_close(options.http1_half_close)
            .keep_alive(options.keep_alive);
        // 100 is hyper's own limit, parsed into two arrays on the stack: left unset then, so
        // hyper takes its default path. Above 100 hyper allocates both arrays for every
        // request head (peer_load: +0.6k instructions on `GET /hello`, +1.7k on `POST /users`).
        if options.max_headers != HYPER_MAX_HEADERS {
            http1.max_headers(options.max_headers);
        }
        let mut http1_watched = http1.clone();
        http1_watched.half_close(true);
        #[cfg(feature = "http2")]
        let http2 = {
            let mut http2 = http2::Builder::new(TokioExecutor::new());
            http2
                .timer(TokioTimer::new())
                .max_header_list_size(u32::try_from(options.max_head_bytes).unwrap_or(u32::MAX))
                .max_concurrent_streams(options.http2_max_concurrent_streams)
                .keep_alive_interval(options.http2_keep_alive_interval)
                .keep_alive_timeout(options.http2_keep_alive_timeout);
            http2
        };
        Self {
            http1,
            http1_watched,
            #[cfg(feature = "http2")]
            http2,
        }
    }
}
