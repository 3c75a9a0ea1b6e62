//! The servers under test, each serving the endpoints of `api.rs` on one
//! single-threaded tokio runtime.
//!
//! Raw hyper, axum, warp and pactum-warp share one accept loop ([`serve_loop`]). axum, warp
//! and pactum-warp run on hyper-util's connection builder as axum's and warp's `serve` use it
//! ([`as_shipped`]: HTTP/1.1 + HTTP/2 auto-detection, no timer); raw hyper runs twice, on
//! hyper's own `http1::Builder` defaults (the floor) and with the connection settings of
//! pactum's native server ([`pactum_settings`]: a timer with a 10 s header read timeout,
//! 64 KiB head limit, 100 headers). pactum-native runs `pactum::serve` itself, with all its
//! hardened defaults.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{Path, Query};
use axum::http::StatusCode as AxumStatus;
use bytes::Bytes;
use http::header::{HeaderValue, CONTENT_TYPE};
use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use serde::Serialize;
use tokio::net::TcpListener;
use validator::Validate;
use warp::Filter;

use crate::api::{self, Batch, NewUser, Paging, UserPath};

/// The body limit every server applies to `POST /users` (pactum's default).
const BODY_LIMIT: usize = 1024 * 1024;

/// One server implementation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum ServerKind {
    /// Raw hyper as hyper ships: `http1::Builder` defaults, no timer, no limits set — the
    /// floor every server here is compared with.
    RawHyperDefaults,
    RawHyper,
    Axum,
    Warp,
    PactumNative,
    PactumWarp,
    /// `pactum::server::service` on the shared accept loop: pactum's pipeline without its
    /// server, to tell the two costs apart (not in the default set).
    PactumService,
    /// pactum's native server with `ServerOptions::http1_half_close(true)` (off by default):
    /// measured beside `pactum-native` on the large bodies, else only when asked for.
    PactumHalfClose,
}

impl ServerKind {
    pub(crate) const DEFAULT: [Self; 6] = [
        Self::RawHyperDefaults,
        Self::RawHyper,
        Self::Axum,
        Self::Warp,
        Self::PactumNative,
        Self::PactumWarp,
    ];
    const ALL: [Self; 8] = [
        Self::RawHyperDefaults,
        Self::RawHyper,
        Self::Axum,
        Self::Warp,
        Self::PactumNative,
        Self::PactumWarp,
        Self::PactumService,
        Self::PactumHalfClose,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::RawHyperDefaults => "raw-hyper-defaults",
            Self::RawHyper => "raw-hyper",
            Self::Axum => "axum",
            Self::Warp => "warp",
            Self::PactumNative => "pactum-native",
            Self::PactumWarp => "pactum-warp",
            Self::PactumService => "pactum-service",
            Self::PactumHalfClose => "pactum-half-close",
        }
    }

    pub(crate) fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// Runs one server on 127.0.0.1 (any free port) until stdin closes: prints
/// `listening PORT` once bound, then exits the process when stdin reaches EOF (so that a
/// profiler wrapping it writes its results).
pub(crate) fn run(kind: ServerKind) -> ! {
    // `PEER_LOAD_SUBSCRIBER=fmt`: a `tracing` subscriber that formats every enabled span and
    // event at INFO and writes them nowhere — the cost of logging without the cost of a disk.
    // `fmt-close`: the same, with a line when each span closes (`FmtSpan::CLOSE`: how a
    // request was logged before pactum's access log).
    let subscriber = std::env::var("PEER_LOAD_SUBSCRIBER");
    if let Ok(kind @ ("fmt" | "fmt-close")) = subscriber.as_deref() {
        let span_events = match kind {
            "fmt-close" => tracing_subscriber::fmt::format::FmtSpan::CLOSE,
            _ => tracing_subscriber::fmt::format::FmtSpan::NONE,
        };
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::INFO)
            .with_span_events(span_events)
            .with_writer(std::io::sink)
            .init();
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    runtime.block_on(async move {
        let port = start(kind).await;
        println!("listening {port}");
        std::thread::spawn(|| {
            let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
            std::process::exit(0);
        });
        std::future::pending::<()>().await;
    });
    unreachable!("the server runs until stdin closes")
}

async fn start(kind: ServerKind) -> u16 {
    let addr = SocketAddr::from(([127, 0, 0, 1], 0));
    match kind {
        ServerKind::PactumNative | ServerKind::PactumHalfClose => {
            let options = pactum::ServerOptions::new()
                .port(0)
                .hostname("127.0.0.1")
                .http1_half_close(kind == ServerKind::PactumHalfClose);
            let server = pactum::serve(pactum_app(), options)
                .await
                .expect("pactum serves");
            let port = server.local_addr().port();
            // Keep the handle alive: the server runs until the process exits.
            std::mem::forget(server);
            port
        }
        other => {
            let listener = TcpListener::bind(addr).await.expect("bind");
            let port = listener.local_addr().expect("local addr").port();
            match other {
                ServerKind::RawHyperDefaults => {
                    tokio::spawn(serve_http1_defaults(listener));
                }
                ServerKind::RawHyper => {
                    let service = hyper::service::service_fn(raw_hyper);
                    tokio::spawn(serve_loop(listener, service, pactum_settings()));
                }
                ServerKind::Axum => {
                    let service = TowerToHyperService::new(axum_router());
                    tokio::spawn(serve_loop(listener, service, as_shipped()));
                }
                ServerKind::Warp => {
                    let service = TowerToHyperService::new(warp::service(warp_filter()));
                    tokio::spawn(serve_loop(listener, service, as_shipped()));
                }
                ServerKind::PactumWarp => {
                    let pipeline = pactum_app().build().expect("valid handlers");
                    let filter = pactum_warp::filter_with(pipeline);
                    // On warp's own connection settings, as the warp row.
                    let service = TowerToHyperService::new(warp::service(filter));
                    tokio::spawn(serve_loop(listener, service, as_shipped()));
                }
                ServerKind::PactumService => {
                    let service = pactum::server::service(api::handlers()).expect("valid handlers");
                    let service = TowerToHyperService::new(service);
                    tokio::spawn(serve_loop(listener, service, as_shipped()));
                }
                ServerKind::PactumNative | ServerKind::PactumHalfClose => unreachable!(),
            }
            port
        }
    }
}

/// pactum's application; `PEER_LOAD_ACCESS_LOG=off` turns its access log off,
/// `PEER_LOAD_ECHO_ID=on` echoes the request id on every answer.
fn pactum_app() -> pactum::pipeline::PipelineBuilder {
    let builder = pactum::Pipeline::builder(api::handlers());
    let builder = match std::env::var("PEER_LOAD_ACCESS_LOG").as_deref() {
        Ok("off") => builder.access_log(false),
        _ => builder,
    };
    match std::env::var("PEER_LOAD_ECHO_ID").as_deref() {
        Ok("on") => builder.echo_request_id(true),
        _ => builder,
    }
}

/// hyper-util's connection builder as axum's and warp's `serve` use it: HTTP/1.1 and HTTP/2
/// auto-detection, no timer, no header timeout, hyper's own limits.
fn as_shipped() -> auto::Builder<TokioExecutor> {
    auto::Builder::new(TokioExecutor::new())
}

/// hyper's connection settings as pactum's native server sets them.
fn pactum_settings() -> auto::Builder<TokioExecutor> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(10))
        .max_buf_size(64 * 1024)
        .max_headers(100)
        .keep_alive(true);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_header_list_size(64 * 1024);
    builder
}

/// The accept loop of raw hyper with hyper's defaults: HTTP/1.1 only, no timer, no limits.
async fn serve_http1_defaults(listener: TcpListener) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(async move {
            let service = hyper::service::service_fn(raw_hyper);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// The accept loop of raw hyper, axum, warp and pactum-warp.
async fn serve_loop<S, B>(listener: TcpListener, service: S, builder: auto::Builder<TokioExecutor>)
where
    S: hyper::service::Service<Request<Incoming>, Response = Response<B>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    B: http_body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let builder = std::sync::Arc::new(builder);
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        let builder = std::sync::Arc::clone(&builder);
        let service = service.clone();
        tokio::spawn(async move {
            let _ = builder
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

// ---------------------------------------------------------------------------------------
// (a) raw hyper: hand-written routing, serde_urlencoded for the query, serde_json,
// validator.
// ---------------------------------------------------------------------------------------

type RawResponse = Response<Full<Bytes>>;

async fn raw_hyper(request: Request<Incoming>) -> Result<RawResponse, Infallible> {
    let path = request.uri().path();
    let response = if path == "/hello" {
        match *request.method() {
            Method::GET => json(StatusCode::OK, &api::hello()),
            _ => status(StatusCode::METHOD_NOT_ALLOWED),
        }
    } else if path == "/users" {
        match *request.method() {
            Method::POST => raw_create(request).await,
            _ => status(StatusCode::METHOD_NOT_ALLOWED),
        }
    } else if path == "/batch" {
        match *request.method() {
            Method::POST => raw_batch(request).await,
            _ => status(StatusCode::METHOD_NOT_ALLOWED),
        }
    } else if let Some(id) = path
        .strip_prefix("/users/")
        .and_then(|rest| rest.strip_suffix("/posts"))
        .filter(|id| !id.contains('/'))
    {
        match *request.method() {
            Method::GET => raw_posts(id, request.uri().query()),
            _ => status(StatusCode::METHOD_NOT_ALLOWED),
        }
    } else {
        status(StatusCode::NOT_FOUND)
    };
    Ok(response)
}

fn raw_posts(id: &str, query: Option<&str>) -> RawResponse {
    let Ok(user_id) = id.parse::<u64>() else {
        return status(StatusCode::BAD_REQUEST);
    };
    let Ok(paging) = serde_urlencoded::from_str::<Paging>(query.unwrap_or("")) else {
        return status(StatusCode::BAD_REQUEST);
    };
    if paging.validate().is_err() {
        return status(StatusCode::BAD_REQUEST);
    }
    json(StatusCode::OK, &api::posts(user_id, &paging))
}

async fn raw_create(request: Request<Incoming>) -> RawResponse {
    match raw_json_body::<NewUser>(request).await {
        Ok(new) => json(StatusCode::CREATED, &api::create(new)),
        Err(response) => response,
    }
}

async fn raw_batch(request: Request<Incoming>) -> RawResponse {
    match raw_json_body::<Batch>(request).await {
        Ok(batch) => json(StatusCode::OK, &api::totals(&batch)),
        Err(response) => response,
    }
}

/// A JSON body, within the limit, validated; or the answer that refuses it.
async fn raw_json_body<T: serde::de::DeserializeOwned + Validate>(
    request: Request<Incoming>,
) -> Result<T, RawResponse> {
    let is_json = request
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !is_json {
        return Err(status(StatusCode::UNSUPPORTED_MEDIA_TYPE));
    }
    let Ok(body) = Limited::new(request.into_body(), BODY_LIMIT)
        .collect()
        .await
    else {
        return Err(status(StatusCode::PAYLOAD_TOO_LARGE));
    };
    let Ok(value) = serde_json::from_slice::<T>(&body.to_bytes()) else {
        return Err(status(StatusCode::BAD_REQUEST));
    };
    if value.validate().is_err() {
        return Err(status(StatusCode::BAD_REQUEST));
    }
    Ok(value)
}

fn json<T: Serialize>(code: StatusCode, value: &T) -> RawResponse {
    let body = serde_json::to_vec(value).expect("serialisable");
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = code;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

fn status(code: StatusCode) -> RawResponse {
    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = code;
    response
}

// ---------------------------------------------------------------------------------------
// (b) axum 0.8: extractors, validator in the handlers.
// ---------------------------------------------------------------------------------------

fn axum_router() -> axum::Router {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/hello", get(|| async { axum::Json(api::hello()) }))
        .route("/users/{id}/posts", get(axum_posts))
        .route("/users", post(axum_create))
        .route("/batch", post(axum_batch))
        .route("/events", get(axum_events))
        .route("/upload", post(axum_upload))
}

async fn axum_batch(
    axum::Json(batch): axum::Json<Batch>,
) -> Result<axum::Json<api::BatchTotals>, AxumStatus> {
    batch.validate().map_err(|_| AxumStatus::BAD_REQUEST)?;
    Ok(axum::Json(api::totals(&batch)))
}

async fn axum_posts(
    Path(path): Path<UserPath>,
    Query(paging): Query<Paging>,
) -> Result<axum::Json<api::Posts>, AxumStatus> {
    paging.validate().map_err(|_| AxumStatus::BAD_REQUEST)?;
    Ok(axum::Json(api::posts(path.id, &paging)))
}

async fn axum_create(
    axum::Json(new): axum::Json<NewUser>,
) -> Result<(AxumStatus, axum::Json<api::User>), AxumStatus> {
    new.validate().map_err(|_| AxumStatus::BAD_REQUEST)?;
    Ok((AxumStatus::CREATED, axum::Json(api::create(new))))
}

async fn axum_events() -> axum::response::sse::Sse<
    impl futures_util::Stream<Item = Result<axum::response::sse::Event, axum::Error>>,
> {
    use axum::response::sse::{Event, KeepAlive, Sse};
    Sse::new(api::ticks(|tick| Event::default().json_data(tick))).keep_alive(KeepAlive::default())
}

async fn axum_upload(
    mut form: axum::extract::Multipart,
) -> Result<axum::Json<api::Uploaded>, AxumStatus> {
    let bad = |_: axum::extract::multipart::MultipartError| AxumStatus::BAD_REQUEST;
    let (mut title, mut file) = (None, None);
    while let Some(field) = form.next_field().await.map_err(bad)? {
        match field.name() {
            Some("title") => title = Some(field.text().await.map_err(bad)?),
            Some("file") => file = Some(field.bytes().await.map_err(bad)?),
            _ => {}
        }
    }
    let (Some(title), Some(file)) = (title, file) else {
        return Err(AxumStatus::BAD_REQUEST);
    };
    api::uploaded(title, &file)
        .map(axum::Json)
        .ok_or(AxumStatus::BAD_REQUEST)
}

// ---------------------------------------------------------------------------------------
// (c) warp 0.4: filters, validator in the handlers.
// ---------------------------------------------------------------------------------------

#[derive(Debug)]
struct Invalid;
impl warp::reject::Reject for Invalid {}

fn warp_filter(
) -> impl Filter<Extract = (warp::reply::Response,), Error = warp::Rejection> + Clone + Send + Sync
{
    use warp::reply::Reply;
    let hello = warp::path!("hello")
        .and(warp::get())
        .map(|| warp::reply::json(&api::hello()).into_response());
    let posts = warp::path!("users" / u64 / "posts")
        .and(warp::get())
        .and(warp::query::<Paging>())
        .and_then(|id: u64, paging: Paging| async move {
            paging
                .validate()
                .map_err(|_| warp::reject::custom(Invalid))?;
            Ok::<_, warp::Rejection>(warp::reply::json(&api::posts(id, &paging)).into_response())
        });
    let create = warp::path!("users")
        .and(warp::post())
        .and(warp::body::content_length_limit(BODY_LIMIT as u64))
        .and(warp::body::json::<NewUser>())
        .and_then(|new: NewUser| async move {
            new.validate().map_err(|_| warp::reject::custom(Invalid))?;
            let reply = warp::reply::json(&api::create(new));
            Ok::<_, warp::Rejection>(
                warp::reply::with_status(reply, StatusCode::CREATED).into_response(),
            )
        });
    let batch = warp::path!("batch")
        .and(warp::post())
        .and(warp::body::content_length_limit(BODY_LIMIT as u64))
        .and(warp::body::json::<Batch>())
        .map(|batch: Batch| match batch.validate() {
            Ok(()) => warp::reply::json(&api::totals(&batch)).into_response(),
            // An answer, not a rejection (which warp would answer 500 without a `recover`).
            Err(_) => StatusCode::BAD_REQUEST.into_response(),
        });
    // SSE: warp writes `data:` with no space after the colon; the space is the data's first
    // byte here, so that the bytes are every server's (a client drops that one space).
    let events = warp::path!("events").and(warp::get()).map(|| {
        let stream = api::ticks(|tick| {
            let json = serde_json::to_string(&tick).expect("serialisable");
            Ok::<_, Infallible>(warp::sse::Event::default().data(format!(" {json}")))
        });
        warp::sse::reply(warp::sse::keep_alive().stream(stream)).into_response()
    });
    // The two routes of the stream-memory rows are boxed (`BoxedFilter`: their futures on the
    // heap): inline, the multipart reader's state would grow the future every connection
    // holds, and with it warp's memory per idle connection (by 0.7 KiB).
    let events = events.boxed();
    let upload = warp::path!("upload")
        .and(warp::post())
        .and(warp::multipart::form().max_length(BODY_LIMIT as u64))
        .and_then(|form: warp::multipart::FormData| async move {
            warp_upload(form)
                .await
                .ok_or_else(|| warp::reject::custom(Invalid))
        })
        .boxed();
    hello
        .or(posts)
        .unify()
        .or(create)
        .unify()
        .or(batch)
        .unify()
        .or(events)
        .unify()
        .or(upload)
        .unify()
}

/// Reads the form's `title` and `file` (collected into one buffer); `None` when a part is
/// missing or broken, or the title breaks its rule.
async fn warp_upload(mut form: warp::multipart::FormData) -> Option<warp::reply::Response> {
    use bytes::BufMut as _;
    use futures_util::TryStreamExt as _;
    use warp::reply::Reply;
    let (mut title, mut file) = (None, None);
    while let Some(mut part) = form.try_next().await.ok()? {
        let name = part.name().to_owned();
        let mut data = bytes::BytesMut::new();
        while let Some(chunk) = part.data().await {
            data.put(chunk.ok()?);
        }
        match name.as_str() {
            "title" => title = Some(String::from_utf8(data.to_vec()).ok()?),
            "file" => file = Some(data.freeze()),
            _ => {}
        }
    }
    let uploaded = api::uploaded(title?, &file?)?;
    Some(warp::reply::json(&uploaded).into_response())
}
