//! Contracts and handler lists shared by the tests; the servers, the client and the raw-socket
//! helpers are the workspace's test kit's (`pactum_test_kit`).

use pactum::{
    handler, handler::AnyHandler, middleware, route, Ctx, Endpoint, HttpError, NoBody, NoParams,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

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
