//! The pipeline's hold on a request's [`ResponseParts`], and the parts it keeps for the
//! thread's next requests.

use std::cell::RefCell;
use std::sync::{Arc, Mutex, PoisonError};

use crate::context::{Parts, ResponseParts};

type Shared = Arc<Mutex<Parts>>;

/// How many spare parts a thread keeps: as many requests as it answers at once, within
/// reason.
const SPARE_MAX: usize = 32;

thread_local! {
    /// Parts of finished requests, reset, for the thread's next ones: a request then
    /// allocates nothing for its parts (a malloc and a free saved, ~150 instructions).
    static SPARE: RefCell<Vec<Shared>> = const { RefCell::new(Vec::new()) };
}

/// What the pipeline holds of a request's response parts while its handler runs: the
/// handler's [`Ctx`](crate::Ctx) has a copy ([`PipelineParts::handle`]). Dropped once the
/// answer is made; when the handler's copy is gone too (it is, unless the handler kept a
/// clone), the parts are reset and kept for the thread's next request.
#[derive(Debug)]
pub(super) struct PipelineParts(Option<Shared>);

impl PipelineParts {
    /// Parts for a new request: a spare one when the thread has one.
    pub(super) fn new() -> Self {
        let spare = SPARE
            .try_with(|spare| spare.try_borrow_mut().ok()?.pop())
            .ok()
            .flatten();
        Self(Some(spare.unwrap_or_default()))
    }

    /// The handler's copy.
    pub(super) fn handle(&self) -> ResponseParts {
        ResponseParts(self.0.clone().unwrap_or_default())
    }

    /// What the handler set (status, headers), or `None` when it set nothing. Called once,
    /// when the handler is done: the parts are kept for the thread's next request at once.
    ///
    /// When the handler kept no copy of its handle (the usual case), the parts are read
    /// without locking: `Arc::get_mut` proves nobody else can touch them.
    pub(super) fn take(&mut self) -> Option<Parts> {
        let shared = self.0.as_mut()?;
        let Some(unique) = Arc::get_mut(shared) else {
            // The handler kept a clone (moved into a task, say): lock; not kept for reuse.
            return take_set(&mut shared.lock().unwrap_or_else(PoisonError::into_inner));
        };
        match unique.get_mut() {
            Ok(parts) => {
                let taken = take_set(parts);
                spare(self.0.take());
                taken
            }
            // A handler panicked holding the lock: read, not kept for reuse.
            Err(poisoned) => take_set(poisoned.into_inner()),
        }
    }
}

/// The parts, when the handler set any, leaving them reset.
fn take_set(parts: &mut Parts) -> Option<Parts> {
    (parts.status.is_some() || !parts.headers.is_empty()).then(|| std::mem::take(parts))
}

impl Drop for PipelineParts {
    fn drop(&mut self) {
        let Some(mut shared) = self.0.take() else {
            return;
        };
        // Shared still (the handler kept a clone) or poisoned: let it go.
        let Some(Ok(parts)) = Arc::get_mut(&mut shared).map(Mutex::get_mut) else {
            return;
        };
        take_set(parts);
        spare(Some(shared));
    }
}

/// Keeps `shared` — held by nobody else, its parts empty — for the thread's next request.
#[inline]
fn spare(shared: Option<Shared>) {
    let Some(shared) = shared else { return };
    // `try_`: not while the thread is ending, nor (never happens) while borrowed.
    let _ = SPARE.try_with(|spare| {
        if let Ok(mut spare) = spare.try_borrow_mut() {
            if spare.len() < SPARE_MAX {
                spare.push(shared);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use http::{HeaderValue, StatusCode};

    use super::{PipelineParts, SPARE};

    fn spare_count() -> usize {
        SPARE.with(|spare| spare.borrow().len())
    }

    #[test]
    fn parts_are_reused_reset_and_never_shared_with_a_live_handler() {
        let before = spare_count();
        let parts = PipelineParts::new();
        let handle = parts.handle();
        handle.set_status(StatusCode::ACCEPTED);
        handle.insert_header(http::header::ETAG, HeaderValue::from_static("\"1\""));
        // The handler's copy is gone, its parts were not taken (an error answer): reset
        // and kept.
        drop(handle);
        drop(parts);
        assert_eq!(spare_count(), before + 1);
        let mut reused = PipelineParts::new();
        assert_eq!(spare_count(), before);
        assert!(reused.take().is_none(), "the reused parts were reset");
        assert_eq!(spare_count(), before + 1, "taken alone: kept at once");
        assert!(reused.take().is_none());
        drop(reused);
        assert_eq!(spare_count(), before + 1, "kept once only");

        // A handler that keeps its copy: its parts are read (under the lock) and not reused.
        let mut kept_parts = PipelineParts::new();
        let kept = kept_parts.handle();
        kept.set_status(StatusCode::CREATED);
        let taken = kept_parts.take().expect("the status the handler set");
        assert_eq!(taken.status, Some(StatusCode::CREATED));
        drop(kept_parts);
        assert_eq!(spare_count(), before);
        kept.set_status(StatusCode::OK);
    }

    #[test]
    fn what_the_handler_set_is_taken_and_the_parts_kept_reset() {
        let mut parts = PipelineParts::new();
        let handle = parts.handle();
        handle.set_status(StatusCode::ACCEPTED);
        handle.insert_header(http::header::ETAG, HeaderValue::from_static("\"2\""));
        drop(handle);
        let taken = parts.take().expect("what the handler set");
        assert_eq!(taken.status, Some(StatusCode::ACCEPTED));
        assert_eq!(taken.headers["etag"], "\"2\"");
        let mut next = PipelineParts::new();
        assert!(next.take().is_none(), "the next request starts from empty parts");
    }
}
