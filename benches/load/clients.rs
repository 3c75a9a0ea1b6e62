//! The client benchmark: pactum-client and raw reqwest calling the same server, on the same
//! `reqwest::Client` settings (no timeout, one single-threaded runtime).

use std::time::Instant;

use crate::api::{self, Hello, NewUser, Paging, Posts, User, UserPath};
use crate::http::Endpoint;

/// One client implementation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum ClientKind {
    Reqwest,
    Pactum,
}

impl ClientKind {
    pub(crate) const ALL: [Self; 2] = [Self::Reqwest, Self::Pactum];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Reqwest => "reqwest",
            Self::Pactum => "pactum-client",
        }
    }

    pub(crate) fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

fn new_user() -> NewUser {
    NewUser {
        name: "Ada Lovelace".into(),
        email: "ada@example.com".into(),
        age: 36,
    }
}

struct Callers {
    base: String,
    raw: reqwest::Client,
    typed: pactum_client::Client,
    hello: pactum::Endpoint<pactum::NoParams, pactum::NoQuery, pactum::NoBody, Hello>,
    posts: pactum::Endpoint<UserPath, Paging, pactum::NoBody, Posts>,
    create: pactum::Endpoint<pactum::NoParams, pactum::NoQuery, NewUser, User>,
}

type CallResult = Result<(), Box<dyn std::error::Error>>;

impl Callers {
    async fn call(&self, kind: ClientKind, endpoint: Endpoint) -> CallResult {
        match (kind, endpoint) {
            (ClientKind::Reqwest, Endpoint::Hello) => {
                let url = format!("{}/hello", self.base);
                let hello: Hello = self
                    .raw
                    .get(url)
                    .send()
                    .await?
                    .error_for_status()?
                    .json()
                    .await?;
                check(hello.message == "hello")
            }
            (ClientKind::Reqwest, Endpoint::Posts) => {
                let (id, paging) = (
                    7u64,
                    Paging {
                        limit: 10,
                        offset: 0,
                    },
                );
                let url = format!(
                    "{}/users/{id}/posts?limit={}&offset={}",
                    self.base, paging.limit, paging.offset
                );
                let posts: Posts = self
                    .raw
                    .get(url)
                    .send()
                    .await?
                    .error_for_status()?
                    .json()
                    .await?;
                check(posts.posts.len() == 10)
            }
            (ClientKind::Reqwest, Endpoint::Create) => {
                let url = format!("{}/users", self.base);
                let user: User = self
                    .raw
                    .post(url)
                    .json(&new_user())
                    .send()
                    .await?
                    .error_for_status()?
                    .json()
                    .await?;
                check(user.id == 1)
            }
            (ClientKind::Pactum, Endpoint::Hello) => {
                let hello = self.typed.call(&self.hello).send().await?;
                check(hello.message == "hello")
            }
            (ClientKind::Pactum, Endpoint::Posts) => {
                let posts = self
                    .typed
                    .call(&self.posts)
                    .params(UserPath { id: 7 })
                    .query(Paging {
                        limit: 10,
                        offset: 0,
                    })
                    .send()
                    .await?;
                check(posts.posts.len() == 10)
            }
            (ClientKind::Pactum, Endpoint::Create) => {
                let user = self
                    .typed
                    .call(&self.create)
                    .body(new_user())
                    .send()
                    .await?;
                check(user.id == 1)
            }
            (_, Endpoint::Batch | Endpoint::BatchInvalid) => {
                Err("the client benchmark sends no batch".into())
            }
        }
    }
}

fn check(ok: bool) -> CallResult {
    if ok {
        Ok(())
    } else {
        Err("unexpected answer".into())
    }
}

/// Makes `warmup` then `calls` calls of `endpoint` to the server on `port`, and prints the
/// process's user and system CPU ticks spent on the measured calls.
pub(crate) fn run(kind: ClientKind, endpoint: Endpoint, port: u16, warmup: u64, calls: u64) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let base = format!("http://127.0.0.1:{port}");
    let raw = reqwest::Client::builder().build().expect("reqwest client");
    let typed = pactum_client::Client::builder()
        .base_url(base.as_str())
        .reqwest_client(raw.clone())
        .no_timeout()
        .build()
        .expect("pactum client");
    let callers = Callers {
        base,
        raw,
        typed,
        hello: api::hello_endpoint(),
        posts: api::posts_endpoint(),
        create: api::create_endpoint(),
    };
    runtime.block_on(async {
        for _ in 0..warmup {
            callers.call(kind, endpoint).await.expect("warm-up call");
        }
        let before = crate::cpu_ticks("self");
        let started = Instant::now();
        for _ in 0..calls {
            callers.call(kind, endpoint).await.expect("call");
        }
        let elapsed = started.elapsed();
        let after = crate::cpu_ticks("self");
        println!(
            "calls={calls} user_ticks={} sys_ticks={} elapsed_us={}",
            after.0 - before.0,
            after.1 - before.1,
            elapsed.as_micros()
        );
    });
}
