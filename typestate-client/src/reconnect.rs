//! [`Reconnect`]: the policy by which the typed client resumes an event stream whose
//! connection broke, with the `Last-Event-ID` of the last event it handed out (the resuming
//! itself is in `resume.rs`).

use std::time::Duration;

/// How the typed client resumes an [`Events`](pactum::sse::Events) stream whose connection
/// broke: set with [`ClientBuilder::reconnect`](crate::ClientBuilder::reconnect).
///
/// When reading a stream fails (the connection drops, is reset, or the call's timeout ends it
/// — not a clean end of the stream), the client waits, then sends the same request again
/// with a `Last-Event-ID` header holding the id of the last event it handed out, and goes on
/// reading the new answer as the same stream. So a server that resumes after that id (see
/// pactum's `Ctx::last_event_id`) delivers each event once.
///
/// - **Wait:** the last `retry:` the server sent, else [`delay`](Reconnect::with_delay)
///   (default [`Reconnect::DEFAULT_DELAY`], 1 s).
/// - **Bounded:** at most [`retries`](Reconnect::with_retries) attempts in a row (default
///   [`Reconnect::DEFAULT_RETRIES`], 3) with no event received in between: an attempt that
///   fails to connect, or whose answer breaks before its first event, counts; an event
///   received starts the count again. Then the stream yields the last error and ends.
/// - **Stops** on a clean end of the stream (the server ended it), on a `204 No Content`
///   (the server has nothing more: pactum's `Events::finished`), and, yielding an error, on
///   any other answer that is not a `text/event-stream` (a 4xx, a 5xx).
/// - **Only where no event repeats:** once events without an `id` have been received and
///   none with one, a broken stream is not resumed (a resumed stream would start over): its
///   error is yielded. Nor is a stream whose bytes are not an event stream (bad UTF-8).
///
/// The first request is not retried: [`Call::send`](crate::Call::send) returns its error.
///
/// ```
/// use std::time::Duration;
/// use pactum_client::{Client, Reconnect};
///
/// let client = Client::builder()
///     .base_url("http://localhost:3000")
///     .reconnect(Reconnect::new().with_retries(5).with_delay(Duration::from_millis(250)))
///     .build()?;
/// let never = Client::builder()
///     .base_url("http://localhost:3000")
///     .reconnect(Reconnect::never())
///     .build()?;
/// # Ok::<(), pactum_client::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reconnect {
    retries: u32,
    delay: Duration,
}

impl Default for Reconnect {
    fn default() -> Self {
        Self::new()
    }
}

impl Reconnect {
    /// Attempts in a row with no event in between, by default.
    pub const DEFAULT_RETRIES: u32 = 3;

    /// The wait before an attempt when the server sent no `retry:`, by default.
    pub const DEFAULT_DELAY: Duration = Duration::from_secs(1);

    /// The default policy: [`DEFAULT_RETRIES`](Reconnect::DEFAULT_RETRIES) attempts,
    /// [`DEFAULT_DELAY`](Reconnect::DEFAULT_DELAY) apart unless the server says otherwise.
    ///
    /// ```
    /// use pactum_client::Reconnect;
    ///
    /// assert_eq!(Reconnect::new().retries(), 3);
    /// assert_eq!(Reconnect::new().delay(), std::time::Duration::from_secs(1));
    /// ```
    pub const fn new() -> Self {
        Self {
            retries: Self::DEFAULT_RETRIES,
            delay: Self::DEFAULT_DELAY,
        }
    }

    /// No reconnection: a broken stream yields its error and ends.
    ///
    /// ```
    /// use pactum_client::Reconnect;
    ///
    /// assert_eq!(Reconnect::never().retries(), 0);
    /// ```
    pub const fn never() -> Self {
        Self::new().with_retries(0)
    }

    /// At most `retries` attempts in a row with no event received in between (0: never).
    ///
    /// ```
    /// use pactum_client::Reconnect;
    ///
    /// assert_eq!(Reconnect::new().with_retries(10).retries(), 10);
    /// ```
    #[must_use]
    pub const fn with_retries(mut self, retries: u32) -> Self {
        self.retries = retries;
        self
    }

    /// The wait before each attempt, until the server sends a `retry:` of its own.
    ///
    /// ```
    /// use std::time::Duration;
    /// use pactum_client::Reconnect;
    ///
    /// let fast = Reconnect::new().with_delay(Duration::from_millis(100));
    /// assert_eq!(fast.delay(), Duration::from_millis(100));
    /// ```
    #[must_use]
    pub const fn with_delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// Attempts in a row with no event received in between.
    pub const fn retries(&self) -> u32 {
        self.retries
    }

    /// The wait before each attempt when the server sent no `retry:`.
    pub const fn delay(&self) -> Duration {
        self.delay
    }
}
