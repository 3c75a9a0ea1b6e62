//! Contracts, handlers and servers shared by the integration tests; the server options are the
//! workspace's test kit's (`pactum_test_kit`).

use std::collections::BTreeMap;
use std::time::Duration;

use pactum::http::header::{HeaderValue, LOCATION};
use pactum::http::StatusCode;
use pactum::{
    contract::NoContent, handler, handler::AnyHandler, middleware, route, Ctx, Endpoint, HttpError,
    NoBody, NoParams, NoQuery, Pipeline,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub(crate) struct User {
    pub(crate) id: u64,
    #[validate(length(min = 1, max = 50))]
    pub(crate) name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct UserPath {
    pub(crate) id: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct NewUser {
    #[validate(length(min = 1, max = 50))]
    pub(crate) name: String,
    #[validate(email)]
    pub(crate) email: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct UserPatch {
    #[validate(length(min = 1, max = 50))]
    pub(crate) name: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Validate)]
pub(crate) struct ListQuery {
    #[serde(default)]
    pub(crate) tags: Vec<String>,
    #[validate(range(min = 1, max = 100))]
    pub(crate) limit: Option<u32>,
    pub(crate) active: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub(crate) struct Listing {
    pub(crate) query: ListQuery,
    pub(crate) users: Vec<User>,
}

/// Two text params, echoed back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub(crate) struct Pair {
    pub(crate) a: String,
    pub(crate) b: String,
}

/// A `:name` param and a catch-all, echoed back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub(crate) struct FilePath {
    pub(crate) owner: String,
    pub(crate) path: String,
}

/// What the server saw of a request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub(crate) struct Seen {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) query: Option<String>,
    pub(crate) headers: BTreeMap<String, String>,
}

/// Nested, listed and optional values for query round trips.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub(crate) struct Everything {
    pub(crate) text: String,
    pub(crate) number: i64,
    pub(crate) unsigned: u32,
    pub(crate) float: f64,
    pub(crate) flag: bool,
    pub(crate) maybe: Option<String>,
    #[serde(default)]
    pub(crate) list: Vec<String>,
    #[serde(default)]
    pub(crate) numbers: Vec<i32>,
    pub(crate) inner: Inner,
    #[serde(default)]
    pub(crate) items: Vec<Inner>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
pub(crate) struct Inner {
    pub(crate) name: String,
    pub(crate) count: u8,
}

/// A user as a sloppy server sends it: no rules.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct LooseUser {
    pub(crate) id: u64,
    pub(crate) name: String,
}

/// A body with an arbitrary JSON shape.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
#[serde(transparent)]
pub(crate) struct Anything {
    pub(crate) value: serde_json::Value,
}

pub(crate) mod contracts {
    use super::*;

    pub(crate) fn health() -> Endpoint {
        Endpoint::get(route::static_path("/health"))
            .build()
            .unwrap()
    }
    pub(crate) fn get_user() -> Endpoint<UserPath, NoQuery, NoBody, User> {
        Endpoint::get(route::pattern("/users/:id"))
            .params::<UserPath>()
            .response::<User>()
            .build()
            .unwrap()
    }
    pub(crate) fn list_users() -> Endpoint<NoParams, ListQuery, NoBody, Listing> {
        Endpoint::get(route::static_path("/users"))
            .query::<ListQuery>()
            .response::<Listing>()
            .build()
            .unwrap()
    }
    pub(crate) fn create_user() -> Endpoint<NoParams, NoQuery, NewUser, User> {
        Endpoint::post(route::static_path("/users"))
            .body::<NewUser>()
            .response::<User>()
            .build()
            .unwrap()
    }
    pub(crate) fn replace_user() -> Endpoint<UserPath, NoQuery, NewUser, User> {
        Endpoint::put(route::pattern("/users/:id"))
            .params::<UserPath>()
            .body::<NewUser>()
            .response::<User>()
            .build()
            .unwrap()
    }
    pub(crate) fn patch_user() -> Endpoint<UserPath, NoQuery, UserPatch, User> {
        Endpoint::patch(route::pattern("/users/:id"))
            .params::<UserPath>()
            .body::<UserPatch>()
            .response::<User>()
            .build()
            .unwrap()
    }
    pub(crate) fn delete_user() -> Endpoint<UserPath> {
        Endpoint::delete(route::pattern("/users/:id"))
            .params::<UserPath>()
            .build()
            .unwrap()
    }
    pub(crate) fn pair() -> Endpoint<Pair, NoQuery, NoBody, Pair> {
        Endpoint::get(route::pattern("/pair/:a/x/:b"))
            .params::<Pair>()
            .response::<Pair>()
            .build()
            .unwrap()
    }
    pub(crate) fn files() -> Endpoint<FilePath, NoQuery, NoBody, FilePath> {
        Endpoint::get(route::dynamic("/files/:owner/*path"))
            .params::<FilePath>()
            .response::<FilePath>()
            .build()
            .unwrap()
    }
    pub(crate) fn everything() -> Endpoint<NoParams, Everything, NoBody, Everything> {
        Endpoint::get(route::static_path("/everything"))
            .query::<Everything>()
            .response::<Everything>()
            .build()
            .unwrap()
    }
    pub(crate) fn seen() -> Endpoint<NoParams, NoQuery, NoBody, Seen> {
        Endpoint::get(route::static_path("/seen"))
            .response::<Seen>()
            .build()
            .unwrap()
    }
    pub(crate) fn seen_post() -> Endpoint<NoParams, NoQuery, Anything, Seen> {
        Endpoint::post(route::static_path("/seen"))
            .body::<Anything>()
            .response::<Seen>()
            .build()
            .unwrap()
    }
    pub(crate) fn me() -> Endpoint<NoParams, NoQuery, NoBody, User> {
        Endpoint::get(route::static_path("/me"))
            .response::<User>()
            .build()
            .unwrap()
    }
    pub(crate) fn teapot() -> Endpoint {
        Endpoint::get(route::static_path("/teapot"))
            .build()
            .unwrap()
    }
    pub(crate) fn slow() -> Endpoint {
        Endpoint::get(route::static_path("/slow")).build().unwrap()
    }
    /// The server's side of `/sloppy`: sends whatever it likes.
    pub(crate) fn sloppy_server() -> Endpoint<NoParams, NoQuery, NoBody, LooseUser> {
        Endpoint::get(route::static_path("/sloppy"))
            .response::<LooseUser>()
            .build()
            .unwrap()
    }
    /// The client's side of `/sloppy`: expects a valid `User`.
    pub(crate) fn sloppy_client() -> Endpoint<NoParams, NoQuery, NoBody, User> {
        Endpoint::get(route::static_path("/sloppy"))
            .response::<User>()
            .build()
            .unwrap()
    }
    /// The client's side of `/health`, expecting a body the server never sends.
    pub(crate) fn health_expecting_user() -> Endpoint<NoParams, NoQuery, NoBody, User> {
        Endpoint::get(route::static_path("/health"))
            .response::<User>()
            .build()
            .unwrap()
    }
    /// A route no server serves.
    pub(crate) fn missing() -> Endpoint {
        Endpoint::get(route::static_path("/nowhere"))
            .build()
            .unwrap()
    }
}

fn seen_of<P, Q, B>(ctx: &Ctx<P, Q, B>) -> Seen {
    Seen {
        method: ctx.method.to_string(),
        path: ctx.url().path().to_owned(),
        query: ctx.url().query().map(str::to_owned),
        headers: ctx
            .headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("<binary>").to_owned()))
            .collect(),
    }
}

/// Every handler of the contracts above.
pub(crate) fn handlers() -> Vec<AnyHandler> {
    use contracts::*;
    let auth = middleware::from_fn(|mut req, next| async move {
        let token = req
            .headers()
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .ok_or_else(|| {
                HttpError::unauthorized("Unauthorized").with_www_authenticate("Bearer")
            })?;
        if token != "secret-token" {
            return Err(HttpError::unauthorized("Invalid token").into());
        }
        req.extensions_mut().insert(User {
            id: 1,
            name: "alice".into(),
        });
        next.run(req).await
    });
    let me = Endpoint::get(route::static_path("/me"))
        .response::<User>()
        .middleware(auth)
        .build()
        .unwrap();
    vec![
        handler(health(), |_| async { Ok(NoContent) }).into(),
        handler(get_user(), |ctx: Ctx<UserPath>| async move {
            if ctx.params.id == 404 {
                return Err(HttpError::not_found("User not found")
                    .with_code("user_not_found")
                    .into());
            }
            Ok(User {
                id: ctx.params.id,
                name: format!("user{}", ctx.params.id),
            })
        })
        .into(),
        handler(list_users(), |ctx: Ctx<NoParams, ListQuery>| async move {
            let users = ctx
                .query
                .tags
                .iter()
                .enumerate()
                .map(|(i, t)| User {
                    id: i as u64,
                    name: t.clone(),
                })
                .collect();
            Ok(Listing {
                query: ctx.query,
                users,
            })
        })
        .into(),
        handler(
            create_user(),
            |ctx: Ctx<NoParams, NoQuery, NewUser>| async move {
                if ctx.body.name == "taken" {
                    return Err(HttpError::conflict("Name taken")
                        .with_detail(vec!["name".into()], "is already used")
                        .with_code("name_taken")
                        .into());
                }
                ctx.response
                    .insert_header(LOCATION, HeaderValue::from_static("/users/8"));
                Ok(User {
                    id: 8,
                    name: ctx.body.name,
                })
            },
        )
        .into(),
        handler(
            replace_user(),
            |ctx: Ctx<UserPath, NoQuery, NewUser>| async move {
                Ok(User {
                    id: ctx.params.id,
                    name: ctx.body.name,
                })
            },
        )
        .into(),
        handler(
            patch_user(),
            |ctx: Ctx<UserPath, NoQuery, UserPatch>| async move {
                Ok(User {
                    id: ctx.params.id,
                    name: ctx.body.name.unwrap_or_else(|| "unchanged".into()),
                })
            },
        )
        .into(),
        handler(delete_user(), |ctx: Ctx<UserPath>| async move {
            if ctx.params.id == 404 {
                return Err(HttpError::not_found("User not found").into());
            }
            Ok(NoContent)
        })
        .into(),
        handler(pair(), |ctx: Ctx<Pair>| async move { Ok(ctx.params) }).into(),
        handler(files(), |ctx: Ctx<FilePath>| async move { Ok(ctx.params) }).into(),
        handler(everything(), |ctx: Ctx<NoParams, Everything>| async move {
            Ok(ctx.query)
        })
        .into(),
        handler(seen(), |ctx: Ctx| async move { Ok(seen_of(&ctx)) }).into(),
        handler(
            seen_post(),
            |ctx: Ctx<NoParams, NoQuery, Anything>| async move { Ok(seen_of(&ctx)) },
        )
        .into(),
        handler(me, |ctx: Ctx| async move {
            Ok(ctx
                .extensions
                .get::<User>()
                .cloned()
                .expect("auth attached the user"))
        })
        .into(),
        handler(teapot(), |_| async {
            Err(HttpError::new(StatusCode::IM_A_TEAPOT, "I'm a teapot")
                .with_detail(vec!["cup".into(), 0.into()], "is empty")
                .with_code("teapot")
                .into())
        })
        .into(),
        handler(slow(), |_| async {
            // A handler that takes its time: the behaviour under test (client timeouts).
            tokio::time::sleep(Duration::from_secs(5)).await;
            Ok(NoContent)
        })
        .into(),
        handler(sloppy_server(), |_| async {
            Ok(LooseUser {
                id: 3,
                name: String::new(),
            })
        })
        .into(),
    ]
}

pub(crate) fn pipeline() -> Pipeline {
    Pipeline::new(handlers()).unwrap()
}

/// A native server on `127.0.0.1:0` serving [`handlers`] (the test kit's
/// [`options`](pactum_test_kit::options)).
pub(crate) async fn server() -> pactum::server::Server {
    pactum::serve(handlers(), pactum_test_kit::options())
        .await
        .unwrap()
}

pub(crate) fn base_url(server: &pactum::server::Server, prefix: &str) -> String {
    format!("http://{}{prefix}", server.local_addr())
}
