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
    watched: Mutex<Vec<Entry>>,
    thread: Thread,
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
        watched: Mutex::new(Vec::new()),
        thread,
    });
    Ok(())
}

/// What the watch knows of one connection.
struct Entry {
    connection: Weak<InFlight>,
    /// The snapshot last read, and when it was first read.
    seen: u64,
    since: Instant,
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
            let mut watched = process
                .watched
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            watched.push(Entry {
                connection: Arc::downgrade(requests),
                seen: requests.snapshot(),
                since: Instant::now(),
            });
            if watched.len() == 1 {
                // It sleeps while nothing is watched.
                process.thread.unpark();
            }
        }
        None => tracing::error!("the header read timeout's watch is not running"),
    }
}

/// Wakes every connection of the server that shuts down with `shutdown`: its state changed.
pub(crate) fn wake_server(shutdown: &Shutdown) {
    let Some(process) = WATCH.get() else {
        return;
    };
    let watched = process
        .watched
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    for entry in watched.iter() {
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
        if snapshot != self.seen || !InFlight::none_at(snapshot) {
            // Another wait, or a request in flight: timed from now, when it is a wait.
            self.seen = snapshot;
            self.since = now;
        } else if now.duration_since(self.since) >= timeout {
            connection.flag_overdue(snapshot);
        }
        Read::Timed(timeout)
    }
}

/// The watch thread: reads every watched connection each tick, sleeps while there is none.
fn run() {
    let process = loop {
        match WATCH.get() {
            Some(process) => break process,
            // Set by `start` right after the spawn.
            None => std::thread::park_timeout(MIN_TICK),
        }
    };
    loop {
        let mut shortest: Option<Duration> = None;
        let empty = {
            let mut watched = process
                .watched
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let now = Instant::now();
            watched.retain_mut(|entry| match entry.read(now) {
                Read::Timed(timeout) => {
                    shortest = Some(shortest.map_or(timeout, |s| s.min(timeout)));
                    true
                }
                Read::Untimed => true,
                Read::Gone => false,
            });
            watched.is_empty()
        };
        match shortest {
            Some(timeout) => {
                std::thread::park_timeout((timeout / SLACK_DIVISOR).clamp(MIN_TICK, MAX_TICK));
            }
            None if !empty => std::thread::park_timeout(MAX_TICK),
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

    /// A connection and the watch's entry for it, read at instants the test chooses.
    fn watched() -> (Arc<InFlight>, Entry, Instant) {
        let connection = Arc::new(InFlight::default());
        connection.set_timeout(TIMEOUT);
        let start = Instant::now();
        let entry = Entry {
            connection: Arc::downgrade(&connection),
            seen: connection.snapshot(),
            since: start,
        };
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
