//! [`ConnectionService`]: what hyper calls for each request of one connection — the
//! application's service, with the connection's bookkeeping around it: the request counted in
//! flight until its answer is sent (the head deadline, hyper's own answers and the HTTP/2 idle
//! timeout read it), `https` noted for the URL, the HTTP rules hyper
//! does not check kept ([`RequestRules`]: a request that breaks one is answered here, and the
//! service never sees it), and, once the server drains, an HTTP/1 answer marked
//! `connection: close`.
//!
//! Written out rather than as a closure returning an `async` block: the future holds only the
//! service's future and the guards (hyper moves it as it stores it), and a service that is
//! ready at once — the pipeline's always is — is called at once.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll, Waker};

use http::header::{HeaderValue, CONNECTION};
use http::uri::Scheme;
use hyper::body::Incoming;

use super::in_flight::{Counted, InFlight, InFlightGuard};
use super::request_rules::RequestRules;
use crate::error::{BoxError, Error, HttpError, Rejection};
use crate::response::EndsOnShutdown;
use crate::server::servable::{CallShared, Servable};

/// The service hyper runs on one connection.
///
/// Two pointers in every connection's task: the server's settings it reads (whether it
/// serves TLS, `max_headers`, how a refusal's body is formatted — the pipeline's formatter
/// under [`serve`](crate::serve)) are read from the server's shutdown, the one `in_flight`
/// holds, and the connection's peer from `in_flight` itself.
pub(super) struct ConnectionService<S> {
    pub(super) service: S,
    pub(super) in_flight: Arc<InFlight>,
}

impl<S: CallShared> hyper::service::Service<http::Request<Incoming>> for ConnectionService<S> {
    type Response = http::Response<Counted<S::Body>>;
    type Error = BoxError;
    type Future = Answer<S>;

    fn call(&self, mut request: http::Request<Incoming>) -> Answer<S> {
        let shutdown = self.in_flight.shutdown();
        if shutdown.secure() {
            request.extensions_mut().insert(Scheme::HTTPS);
        }
        let version = request.version();
        let guard = InFlightGuard::new(&self.in_flight);
        let close = shutdown.closes_answers(version);
        let rules = RequestRules {
            max_headers: shutdown.max_headers(),
        };
        let state = if let Some(rejection) = rules.refusal(version, request.headers()) {
            State::Refused {
                answer: Some(self.refusal(rejection, request)),
            }
        } else {
            match self.service.call_shared(request, self.in_flight.peer()) {
                Ok(future) => State::Called { future },
                Err(request) => {
                    let mut service = self.service.clone();
                    // tower's rule: ready before called. Asked here without a waker; a
                    // service not ready yet is asked again, with the task's, when the
                    // answer is polled.
                    match service.poll_ready(&mut Context::from_waker(Waker::noop())) {
                        Poll::Ready(Ok(())) => State::Called {
                            future: service.call(request),
                        },
                        Poll::Ready(Err(error)) => State::Failed {
                            error: Some(error.into()),
                        },
                        Poll::Pending => State::Waiting {
                            waiting: Box::new((service, Some(request))),
                        },
                    }
                }
            }
        };
        Answer {
            state,
            guard: Some(guard),
            http2: version == http::Version::HTTP_2,
            close,
        }
    }
}

impl<S: CallShared> ConnectionService<S> {
    /// The answer to a request that broke one of the [`RequestRules`], formatted as every
    /// error answer is; HTTP/1 closes the connection after it, as after a head hyper cannot
    /// read.
    #[cold]
    fn refusal(
        &self,
        rejection: Rejection,
        request: http::Request<Incoming>,
    ) -> Box<http::Response<S::Body>> {
        // The request is dropped unread (and its connection closed after the answer).
        let version = request.version();
        tracing::debug!(?rejection, ?version, "request refused by the connection");
        let (mut head, body) = self
            .in_flight
            .shutdown()
            .answers()
            .response(&Error::from(HttpError::from(rejection)))
            .into_parts();
        if version != http::Version::HTTP_2 {
            head.headers
                .insert(CONNECTION, HeaderValue::from_static("close"));
        }
        // An error formatter's streamed body (unlikely) is not sent: the refusal is one piece.
        let body = body.into_bytes().unwrap_or_default();
        Box::new(S::refusal(head, body))
    }
}

pin_project_lite::pin_project! {
    /// The answer to one request of the connection.
    pub(super) struct Answer<S: Servable> {
        #[pin]
        state: State<S>,
        guard: Option<InFlightGuard>,
        http2: bool,
        close: bool,
    }
}

pin_project_lite::pin_project! {
    #[project = StateProj]
    enum State<S: Servable> {
        /// The service was not ready when called (rare: boxed, so as not to make every
        /// answer larger).
        Waiting { waiting: Box<(S, Option<http::Request<Incoming>>)> },
        Called { #[pin] future: S::Future },
        Failed { error: Option<BoxError> },
        /// Refused by the connection ([`RequestRules`]): boxed, as rare.
        Refused { answer: Option<Box<http::Response<S::Body>>> },
    }
}

impl<S: Servable> Future for Answer<S> {
    type Output = Result<http::Response<Counted<S::Body>>, BoxError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let http2 = self.http2;
        let polled = self.as_mut().poll_state(cx);
        if polled.is_pending() && !http2 {
            // The answer waits (a handler not done, a service not ready): a client that
            // leaves meanwhile is noticed here when its connection is watched, and the
            // request dropped with the connection.
            if let Some(guard) = &self.guard {
                guard.watch_client(cx);
            }
        }
        polled
    }
}

impl<S: Servable> Answer<S> {
    #[inline(always)]
    fn poll_state(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Result<http::Response<Counted<S::Body>>, BoxError>> {
        let mut this = self.project();
        loop {
            match this.state.as_mut().project() {
                StateProj::Waiting { waiting } => {
                    let (service, request) = &mut **waiting;
                    ready!(service.poll_ready(cx)).map_err(Into::into)?;
                    let request = request.take().expect("`Answer` polled after completion");
                    let future = service.call(request);
                    this.state.set(State::Called { future });
                }
                StateProj::Called { future } => {
                    let mut response = ready!(future.poll(cx)).map_err(Into::into)?;
                    if *this.close {
                        response
                            .headers_mut()
                            .insert(CONNECTION, HeaderValue::from_static("close"));
                    }
                    let guard = this.guard.take().expect("`Answer` polled after completion");
                    if let Some(ends) = response.extensions().get::<EndsOnShutdown>() {
                        ends.set(guard.drain_signal());
                    }
                    let http2 = *this.http2;
                    return Poll::Ready(Ok(response.map(|body| Counted::new(body, guard, http2))));
                }
                StateProj::Refused { answer } => {
                    let answer = answer.take().expect("`Answer` polled after completion");
                    let guard = this.guard.take().expect("`Answer` polled after completion");
                    let http2 = *this.http2;
                    return Poll::Ready(Ok(answer.map(|body| Counted::new(body, guard, http2))));
                }
                StateProj::Failed { error } => {
                    return Poll::Ready(Err(error
                        .take()
                        .expect("`Answer` polled after completion")))
                }
            }
        }
    }
}
