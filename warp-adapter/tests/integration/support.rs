//! Contracts, handler lists and servers shared by the tests.

use std::net::SocketAddr;
use std::time::Duration;

use pactum::{
    handler, handler::AnyHandler, middleware, route, Ctx, Endpoint, HttpError, NoBody, NoParams,
};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use validator::Validate;
use warp::reply::Reply;
use warp::Filter;

#[derive(Debug, Serialize, Deserialize, Validate)]
pub(crate) struct UserPath {
    pub(crate) id: u64,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
pub(crate) struct User {
    pub(crate) id: u64,
    pub(crate) name: String,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
pub(crate) struct NewUser {
    #[validate(length(min = 1, max = 50))]
    pub(crate) name: String,
    #[validate(email)]
    pub(crate) email: String,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
pub(crate) struct Search {
    #[serde(default)]
    pub(crate) tag: Vec<String>,
    pub(crate) limit: Option<u32>,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
pub(crate) struct Echo {
    pub(crate) url: String,
    pub(crate) tags: Vec<String>,
    pub(crate) limit: Option<u32>,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
pub(crate) struct Orders {
    pub(crate) count: u32,
}

#[derive(Debug, Serialize, Deserialize, Validate)]
pub(crate) struct NewOrder {
    #[validate(range(min = 1, max = 100))]
    pub(crate) qty: u32,
}

/// The bearer token the `/secure` contract's middleware accepts.
pub(crate) const TOKEN: &str = "secret-token";

/// Body limit of `POST /users`.
pub(crate) const USERS_BODY_LIMIT: usize = 1024;

/// `/users/:id`, `/users`, `/whoami`, `/panic`, `/secure`.
pub(crate) fn users() -> Vec<AnyHandler> {
    let get_user = Endpoint::get(route::pattern("/users/:id"))
        .params::<UserPath>()
        .response::<User>()
        .build()
        .unwrap();
    let create_user = Endpoint::post(route::static_path("/users"))
        .body::<NewUser>()
        .response::<User>()
        .body_limit(USERS_BODY_LIMIT)
        .build()
        .unwrap();
    let whoami = Endpoint::get(route::static_path("/whoami"))
        .query::<Search>()
        .response::<Echo>()
        .build()
        .unwrap();
    let panics = Endpoint::get(route::static_path("/panic"))
        .response::<User>()
        .build()
        .unwrap();
    let auth = middleware::from_fn(|req, next| async move {
        let expected = format!("Bearer {TOKEN}");
        match req.headers().get("authorization") {
            Some(value) if value == expected.as_str() => next.run(req).await,
            _ => Err(HttpError::unauthorized("Unauthorized")
                .with_www_authenticate("Bearer")
                .into()),
        }
    });
    let secure = Endpoint::post(route::static_path("/secure"))
        .body::<NewUser>()
        .response::<User>()
        .middleware(auth)
        .build()
        .unwrap();
    vec![
        handler(get_user, |ctx: Ctx<UserPath>| async move {
            if ctx.params.id == 0 {
                return Err(HttpError::not_found("User not found")
                    .with_code("user_not_found")
                    .into());
            }
            Ok(User {
                id: ctx.params.id,
                name: "Ada".into(),
            })
        })
        .into(),
        handler(create_user, |ctx: Ctx<NoParams, _, NewUser>| async move {
            Ok(User {
                id: 1,
                name: ctx.body.name,
            })
        })
        .into(),
        handler(whoami, |ctx: Ctx<NoParams, Search, NoBody>| async move {
            Ok(Echo {
                url: ctx.url().to_string(),
                tags: ctx.query.tag,
                limit: ctx.query.limit,
            })
        })
        .into(),
        handler(panics, |_| async move {
            if true {
                panic!("handler exploded");
            }
            Ok(User {
                id: 0,
                name: String::new(),
            })
        })
        .into(),
        handler(secure, |ctx: Ctx<NoParams, _, NewUser>| async move {
            Ok(User {
                id: 2,
                name: ctx.body.name,
            })
        })
        .into(),
    ]
}

/// `/orders` (GET and POST): a second list, for `.or()`.
pub(crate) fn orders() -> Vec<AnyHandler> {
    let list = Endpoint::get(route::static_path("/orders"))
        .response::<Orders>()
        .build()
        .unwrap();
    let create = Endpoint::post(route::static_path("/orders"))
        .body::<NewOrder>()
        .response::<Orders>()
        .build()
        .unwrap();
    vec![
        handler(list, |_| async { Ok(Orders { count: 3 }) }).into(),
        handler(create, |ctx: Ctx<NoParams, _, NewOrder>| async move {
            Ok(Orders {
                count: ctx.body.qty,
            })
        })
        .into(),
    ]
}

/// A filter on warp's own server, on `127.0.0.1:0`, stopped on drop.
pub(crate) struct TestServer {
    pub(crate) addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
}

impl TestServer {
    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

pub(crate) async fn spawn<F>(filter: F) -> TestServer
where
    F: Filter + Clone + Send + Sync + 'static,
    F::Extract: Reply,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(
        warp::serve(filter)
            .incoming(listener)
            .graceful(async move {
                let _ = stopped.await;
            })
            .run(),
    );
    TestServer {
        addr,
        stop: Some(stop),
    }
}

pub(crate) fn client() -> reqwest::Client {
    // In a workspace build, reqwest's features are unified with pactum-client's
    // `rustls-no-provider`: a client then needs a process-wide crypto provider.
    static PROVIDER: std::sync::Once = std::sync::Once::new();
    PROVIDER.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

/// A response read off a raw socket.
#[derive(Debug)]
pub(crate) struct RawResponse {
    pub(crate) status: u16,
    pub(crate) head: String,
    pub(crate) body: Vec<u8>,
}

impl RawResponse {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

/// Writes `request` as is and reads one response (head, then a `Content-Length` body).
pub(crate) async fn raw(addr: SocketAddr, request: &[u8]) -> RawResponse {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    tokio::time::timeout(Duration::from_secs(10), read_response(&mut stream))
        .await
        .expect("a response within 10 s")
}

pub(crate) async fn read_response(stream: &mut TcpStream) -> RawResponse {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos;
        }
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(
            n > 0,
            "connection closed before a response head: {:?}",
            String::from_utf8_lossy(&buf)
        );
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8(buf[..head_end].to_vec()).unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let mut response = RawResponse {
        status,
        head,
        body: buf[head_end + 4..].to_vec(),
    };
    let len: usize = response
        .header("content-length")
        .map_or(0, |v| v.parse().unwrap());
    while response.body.len() < len {
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(n > 0, "connection closed inside the body");
        response.body.extend_from_slice(&chunk[..n]);
    }
    response
}
