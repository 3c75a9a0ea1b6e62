//! The header read timeout's watch: the header read timeout of HTTP/1 connections (and the
//! idle timeout of HTTP/2 ones), kept by one thread for the whole process rather than by a
//! timer per connection.
//!
//! A connection waits for a request head from its start, and on HTTP/1.1 again each time its
//! last request in flight is answered. An HTTP/2 connection is watched the same way for its
//! idle timeout once its preface is read: idle while none of its streams is in flight. Its
//! [`InFlight`] count says which wait it is in: the count of requests started changes with
//! every request, so two equal snapshots with none in flight are the same wait. The watch
//! thread reads every connection's snapshot a few times per timeout; a wait it has seen
//! unchanged for the whole timeout is overdue, and the connection's task is woken to close it
//! ([`InFlight::overdue`]).
//!
//! So a request costs the connection nothing here — no clock read, no timer — and tokio's
//! timer wheel stays empty on an HTTP/1.1 connection: with a timer in it, every park of the
//! runtime reads the clock and works out a timeout (about 0.3k instructions per request on a
//! keep-alive connection, measured with callgrind). The price is precision: a head is closed
//! between the timeout and an eighth more after its wait began (two reads of the watch: one
//! sees a new wait begin, one sees it overdue), never before.
//!
//! The watch keeps every connection of every server from its start until it is gone, timed
//! or not: the server's shutdown wakes its connections through this list ([`wake_server`]),
//! rather than each connection holding a `Notify` future of its own in its task.
//!
//! The thread sleeps while no connection is watched; it is started with the first server
//! ([`start`]). While it only keeps connections that are not timed, it reads them once a
//! second ([`MAX_TICK`]), to forget those that are gone.

use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};
use std::thread::Thread;
use std::time::{Duration, Instant};

use super::in_flight::InFlight;
use crate::server::shutdown::Shutdown;

/// How late past the timeout a head may be closed, as a fraction: the watch reads each
/// connection every `timeout / SLACK_DIVISOR`.
const SLACK_DIVISOR: u32 = 16;

/// The longest the watch sleeps between two reads while connections are watched.
const MAX_TICK: Duration = Duration::from_secs(1);
/// The shortest (for timeouts of a few milliseconds, in tests).
const MIN_TICK: Duration = Duration::from_millis(1);

/// The process's watch thread and the connections it watches.
struct Watch {
    watched: Mutex<Watched>,
    thread: Thread,
}

/// The connections the watch keeps, and how long it sleeps after its last read of them.
struct Watched {
    entries: Vec<Entry>,
    /// `None`: until woken (nothing kept).
    tick: Option<Duration>,
}

/// How long the watch sleeps between two reads for connections timed for `timeout`.
fn tick_for(timeout: Duration) -> Duration {
    (timeout / SLACK_DIVISOR).clamp(MIN_TICK, MAX_TICK)
}

impl Watch {
    /// Wakes the thread if it sleeps longer than a connection timed for `timeout` allows
    /// (`None`: kept, not timed): the connection was added, or its timeout changed, after its
    /// last read. With `watched`, the list's lock: the thread sets its tick under it.
    fn nudge(&self, watched: &Watched, timeout: Option<Duration>) {
        let wanted = timeout.map_or(MAX_TICK, tick_for);
        if watched.tick.is_none_or(|tick| wanted < tick) {
            self.thread.unpark();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Watched> {
        self.watched.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

static WATCH: OnceLock<Watch> = OnceLock::new();

/// Starts the watch thread if it is not running yet.
///
/// # Errors
///
/// The error of spawning the thread (the system is out of threads or memory).
pub(crate) fn start() -> std::io::Result<()> {
    static SPAWNING: Mutex<()> = Mutex::new(());
    let _spawning = SPAWNING.lock().unwrap_or_else(PoisonError::into_inner);
    if WATCH.get().is_some() {
        return Ok(());
    }
    let thread = std::thread::Builder::new()
        .name("pactum-head-watch".to_owned())
        .spawn(run)?
        .thread()
        .clone();
    let _ = WATCH.set(Watch {
        watched: Mutex::new(Watched {
            entries: Vec::new(),
            tick: None,
        }),
        thread,
    });
    Ok(())
}

/// What the watch knows of one connection: 24 bytes, one in the watch's list per connection
/// (32 with the whole snapshot and an `Instant`).
struct Entry {
    connection: Weak<InFlight>,
    /// When the wait last read was first read, in milliseconds on the watch's clock
    /// ([`millis`]), rounded up.
    since: u64,
    /// The wait last read ([`wait_of`]).
    seen: u32,
}

impl Entry {
    fn new(connection: &Arc<InFlight>, now: Instant) -> Self {
        Self {
            connection: Arc::downgrade(connection),
            seen: wait_of(connection.snapshot()),
            since: millis(now).1,
        }
    }
}

/// The watch's clock's start: its first read.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// The wait a connection's snapshot is in, as an entry keeps it: its count of requests
/// started, or one less while a request is in flight (so that the wait that follows, with the
/// same count and none in flight, is another; the count only grows, wrapping after 2³²).
fn wait_of(snapshot: u64) -> u32 {
    let started = InFlight::started_at(snapshot);
    if InFlight::none_at(snapshot) {
        started
    } else {
        started.wrapping_sub(1)
    }
}

/// `at` on the watch's clock, milliseconds from its first read, rounded down and up: a
/// wait's age, rounded up when it starts and down when it is read, is never more than it is
/// (never closed early).
fn millis(at: Instant) -> (u64, u64) {
    let since = at.saturating_duration_since(epoch());
    // 584 million years of milliseconds fit.
    let down = since.as_millis() as u64;
    let up = since.as_nanos().div_ceil(1_000_000) as u64;
    (down, up)
}

/// Keeps the connection whose requests `requests` counts until it is gone, and times its
/// waits for `timeout` from now, if any (once per connection: on HTTP/2 its idle timeout takes
/// the header read timeout's place, in the same registration). What the watch keeps of the
/// connection is its [`InFlight`].
///
/// Without a running watch thread ([`start`] failed or was not called), the connection is
/// neither timed nor woken by its server's shutdown.
pub(crate) fn register(requests: &Arc<InFlight>, timeout: Option<Duration>) {
    if let Some(timeout) = timeout {
        requests.set_timeout(timeout);
    }
    match WATCH.get() {
        Some(process) => {
            let mut watched = process.lock();
            watched.entries.push(Entry::new(requests, Instant::now()));
            process.nudge(&watched, timeout);
        }
        None => tracing::error!("the header read timeout's watch is not running"),
    }
}

/// Times the registered connection whose requests `requests` counts for `timeout` from now
/// on, in place of its timeout so far (an HTTP/2 connection's idle timeout, at its preface).
pub(crate) fn retime(requests: &InFlight, timeout: Duration) {
    requests.set_timeout(timeout);
    if let Some(process) = WATCH.get() {
        process.nudge(&process.lock(), Some(timeout));
    }
}

/// Wakes every connection of the server that shuts down with `shutdown`: its state changed.
pub(crate) fn wake_server(shutdown: &Shutdown) {
    let Some(process) = WATCH.get() else {
        return;
    };
    let watched = process.lock();
    for entry in &watched.entries {
        if let Some(connection) = entry.connection.upgrade() {
            if std::ptr::eq(connection.shutdown(), shutdown) {
                connection.wake();
            }
        }
    }
}

/// What a read of a connection found.
#[derive(Debug, PartialEq, Eq)]
enum Read {
    /// Gone: forgotten.
    Gone,
    /// Kept, not timed (no timeout, or released).
    Untimed,
    /// Timed for this timeout.
    Timed(Duration),
}

impl Entry {
    /// Reads the connection at `now`.
    fn read(&mut self, now: Instant) -> Read {
        let Some(connection) = self.connection.upgrade() else {
            return Read::Gone;
        };
        let Some(timeout) = connection.timeout() else {
            return Read::Untimed;
        };
        let snapshot = connection.snapshot();
        let wait = wait_of(snapshot);
        let (now_down, now_up) = millis(now);
        if wait != self.seen || !InFlight::none_at(snapshot) {
            // Another wait, or a request in flight: timed from now, when it is a wait.
            self.seen = wait;
            self.since = now_up;
        } else if Duration::from_millis(now_down.saturating_sub(self.since)) >= timeout {
            connection.flag_overdue(snapshot);
        }
        Read::Timed(timeout)
    }
}

/// The watch thread: reads every watched connection each tick (the shortest timeout's, or
/// [`MAX_TICK`] while none is timed), sleeps while there is none.
fn run() {
    let process = loop {
        match WATCH.get() {
            Some(process) => break process,
            // Set by `start` right after the spawn.
            None => std::thread::park_timeout(MIN_TICK),
        }
    };
    loop {
        let tick = {
            let mut watched = process.lock();
            let mut shortest: Option<Duration> = None;
            let now = Instant::now();
            watched.entries.retain_mut(|entry| match entry.read(now) {
                Read::Timed(timeout) => {
                    shortest = Some(shortest.map_or(timeout, |s| s.min(timeout)));
                    true
                }
                Read::Untimed => true,
                Read::Gone => false,
            });
            let tick = match shortest {
                Some(timeout) => Some(tick_for(timeout)),
                None if !watched.entries.is_empty() => Some(MAX_TICK),
                None => None,
            };
            // Set under the lock: a connection added after this read wakes the thread if it
            // must be read sooner ([`Watch::nudge`]).
            watched.tick = tick;
            tick
        };
        match tick {
            Some(tick) => std::thread::park_timeout(tick),
            None => std::thread::park(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::{Wake, Waker};

    use super::*;
    use crate::server::conn::in_flight::InFlightGuard;

    #[derive(Default)]
    struct Woken(AtomicUsize);

    impl Wake for Woken {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    const TIMEOUT: Duration = Duration::from_secs(10);

    /// A connection and the watch's entry for it, read at instants the test chooses (on
    /// whole milliseconds of the watch's clock, whose epoch is before its first read).
    fn watched() -> (Arc<InFlight>, Entry, Instant) {
        let connection = Arc::new(InFlight::default());
        connection.set_timeout(TIMEOUT);
        let start = epoch() + Duration::from_secs(1_000);
        let entry = Entry::new(&connection, start);
        (connection, entry, start)
    }

    fn polled(connection: &InFlight, woken: &Arc<Woken>) -> bool {
        connection.keep_waker(&Waker::from(Arc::clone(woken)));
        connection.overdue()
    }

    #[test]
    fn a_wait_unchanged_for_the_timeout_is_overdue_and_wakes_the_connection() {
        let (connection, mut entry, start) = watched();
        let woken = Arc::new(Woken::default());
        assert!(!polled(&connection, &woken));
        assert_eq!(entry.read(start + TIMEOUT / 2), Read::Timed(TIMEOUT));
        assert!(!polled(&connection, &woken), "not before the timeout");
        assert_eq!(woken.0.load(Ordering::SeqCst), 0);
        entry.read(start + TIMEOUT);
        assert_eq!(woken.0.load(Ordering::SeqCst), 1, "woken once overdue");
        assert!(polled(&connection, &woken));
        entry.read(start + TIMEOUT * 2);
        assert_eq!(woken.0.load(Ordering::SeqCst), 1, "woken once per wait");
    }

    #[test]
    fn a_request_in_flight_is_never_overdue_and_its_end_starts_a_new_wait() {
        let (connection, mut entry, start) = watched();
        let woken = Arc::new(Woken::default());
        let guard = InFlightGuard::new(&connection);
        entry.read(start + TIMEOUT);
        entry.read(start + TIMEOUT * 5);
        assert!(!polled(&connection, &woken), "in flight for five timeouts");
        drop(guard);
        // The watch first sees the new wait here: it is timed from this read.
        entry.read(start + TIMEOUT * 6);
        entry.read(start + TIMEOUT * 6 + TIMEOUT / 2);
        assert!(
            !polled(&connection, &woken),
            "the next head is timed afresh"
        );
        entry.read(start + TIMEOUT * 7);
        assert!(polled(&connection, &woken));
    }

    #[test]
    fn a_request_between_two_reads_starts_a_new_wait() {
        let (connection, mut entry, start) = watched();
        let woken = Arc::new(Woken::default());
        entry.read(start + TIMEOUT / 2);
        drop(InFlightGuard::new(&connection));
        entry.read(start + TIMEOUT);
        assert!(
            !polled(&connection, &woken),
            "another wait, seen at this read"
        );
        entry.read(start + TIMEOUT * 2);
        assert!(polled(&connection, &woken));
    }

    #[test]
    fn an_overdue_wait_does_not_close_the_next_one() {
        let (connection, mut entry, start) = watched();
        let woken = Arc::new(Woken::default());
        entry.read(start + TIMEOUT);
        // The head arrived just as the watch found it late: that request is served.
        let guard = InFlightGuard::new(&connection);
        assert!(!polled(&connection, &woken));
        drop(guard);
        assert!(
            !polled(&connection, &woken),
            "the new wait is not the overdue one"
        );
    }

    /// The task's waker is kept once: a later wait found overdue still wakes it.
    #[test]
    fn a_kept_waker_wakes_every_later_wait() {
        let (connection, mut entry, start) = watched();
        let woken = Arc::new(Woken::default());
        connection.keep_waker(&Waker::from(Arc::clone(&woken)));
        assert!(!connection.overdue());
        entry.read(start + TIMEOUT);
        assert_eq!(woken.0.load(Ordering::SeqCst), 1);
        // A request came in time after all; the next wait is overdue too.
        drop(InFlightGuard::new(&connection));
        assert!(!connection.overdue());
        entry.read(start + TIMEOUT * 2);
        entry.read(start + TIMEOUT * 3);
        assert_eq!(
            woken.0.load(Ordering::SeqCst),
            2,
            "woken for the second wait"
        );
        assert!(connection.overdue());
    }

    /// A released connection is no longer timed, but kept (its server's shutdown wakes it
    /// through the watch) until it is gone.
    #[test]
    fn a_released_connection_is_untimed_and_a_gone_one_leaves_the_watch() {
        let (connection, mut entry, start) = watched();
        connection.release();
        assert_eq!(entry.read(start), Read::Untimed);
        let woken = Arc::new(Woken::default());
        assert!(!polled(&connection, &woken));
        entry.read(start + TIMEOUT * 2);
        assert_eq!(woken.0.load(Ordering::SeqCst), 0, "not timed");
        drop(connection);
        assert_eq!(entry.read(start), Read::Gone);
    }

    /// The shutdown wakes the connections of its own server, not another's.
    #[test]
    fn a_server_s_shutdown_wakes_its_own_connections() {
        start().expect("the watch thread starts");
        let ours = Arc::new(Shutdown::default());
        let theirs = Arc::new(Shutdown::default());
        let connection = Arc::new(InFlight::new(Arc::clone(&ours), None));
        let other = Arc::new(InFlight::new(Arc::clone(&theirs), None));
        register(&connection, None);
        register(&other, None);
        let woken = Arc::new(Woken::default());
        let woken_other = Arc::new(Woken::default());
        connection.keep_waker(&Waker::from(Arc::clone(&woken)));
        other.keep_waker(&Waker::from(Arc::clone(&woken_other)));
        wake_server(&ours);
        assert_eq!(woken.0.load(Ordering::SeqCst), 1);
        assert_eq!(woken_other.0.load(Ordering::SeqCst), 0);
    }

    /// The thread itself: a registered connection that sends nothing is found overdue, in
    /// real time, between the timeout and an eighth more (plus scheduling).
    #[test]
    fn the_watch_thread_finds_a_silent_connection_overdue() {
        start().expect("the watch thread starts");
        let timeout = Duration::from_millis(200);
        let connection = Arc::new(InFlight::default());
        register(&connection, Some(timeout));
        let woken = Arc::new(Woken::default());
        let started = Instant::now();
        assert!(!polled(&connection, &woken));
        while woken.0.load(Ordering::SeqCst) == 0 {
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "never found overdue"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let waited = started.elapsed();
        assert!(waited >= timeout, "found overdue early: {waited:?}");
        assert!(polled(&connection, &woken));
    }
}
