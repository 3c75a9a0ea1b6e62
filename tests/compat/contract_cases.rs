//! Rule cases on pactum contracts: each a pair of `Endpoint`s built with the real builder,
//! documented with `OpenApi::endpoint`, so the schemas are the ones schemars writes. Each
//! version of a type keeps the name of the first (`#[schemars(rename)]`), as a type that
//! evolves does.

use pactum::contract::Slot;
use pactum::http::StatusCode;
use pactum::openapi::compat::ChangeKind::*;
use pactum::openapi::OpenApi;
use pactum::schemars::{self, JsonSchema};
use pactum::{route, Endpoint, Params, Security};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use validator::Validate;

use super::{case, Case};

fn doc(add: impl FnOnce(OpenApi) -> OpenApi) -> Value {
    add(OpenApi::new("Cases", "1.0.0")).build().into()
}

/// `POST /users` reading a `T`.
fn post<T: Slot + JsonSchema>() -> Value {
    let endpoint = Endpoint::post(route!("/users"))
        .body::<T>()
        .build()
        .unwrap();
    doc(|api| api.endpoint(&endpoint))
}

/// `GET /users` with the query `T`.
fn list<T: Slot + JsonSchema>() -> Value {
    let endpoint = Endpoint::get(route!("/users"))
        .query::<T>()
        .build()
        .unwrap();
    doc(|api| api.endpoint(&endpoint))
}

/// `GET /me` answering a `T`.
fn me<T: Slot + JsonSchema>() -> Value {
    let endpoint = Endpoint::get(route!("/me"))
        .response::<T>()
        .build()
        .unwrap();
    doc(|api| api.endpoint(&endpoint))
}

macro_rules! versions {
    ($name:literal: $($ty:ident { $($body:tt)* })+) => {$(
        #[derive(Serialize, Deserialize, Validate, JsonSchema)]
        #[schemars(rename = $name)]
        #[allow(dead_code)]
        struct $ty { $($body)* }
    )+};
}

versions!("NewUser":
    NewUser { name: String }
    NewUserEmail { name: String, email: String }
    NewUserNickname { name: String, nickname: Option<String> }
    NewUserDefaultName { #[serde(default)] name: String }
    NewUserOptionalName { name: Option<String> }
    NewUserClosed { name: String }
);
// `deny_unknown_fields` makes the schema say `additionalProperties: false`.
#[derive(Serialize, Deserialize, Validate, JsonSchema)]
#[schemars(rename = "NewUser")]
#[serde(deny_unknown_fields)]
struct NewUserStrict {
    name: String,
}

versions!("Score":
    ScoreFloat { value: f64 }
    ScoreInt { value: i64 }
    ScoreName { #[validate(length(max = 50))] value: String }
    ScoreShortName { #[validate(length(max = 20))] value: String }
    ScoreSmall { #[validate(range(max = 100))] value: u32 }
    ScoreLarge { #[validate(range(max = 1000))] value: u32 }
);

#[derive(Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "Role")]
enum Role {
    Admin,
    User,
}
#[derive(Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "Role")]
enum RoleAdminOnly {
    Admin,
}
versions!("Invite":
    Invite { role: Role }
    InviteAdmin { role: RoleAdminOnly }
);

versions!("Filter":
    Filter { limit: Option<u32> }
    FilterActive { limit: Option<u32>, active: Option<bool> }
    FilterTenant { limit: Option<u32>, tenant: String }
    FilterLimitRequired { limit: u32 }
);

versions!("User":
    User { id: u64, name: String, email: String }
    UserNoEmail { id: u64, name: String }
    UserMaybeEmail {
        id: u64,
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        email: Option<String>,
    }
    UserNullEmail { id: u64, name: String, email: Option<String> }
    UserTextId { id: String, name: String, email: String }
    UserRole { id: u64, name: String, email: String, role: Role }
    UserAdminRole { id: u64, name: String, email: String, role: RoleAdminOnly }
    UserTags { id: u64, name: String, email: String, tags: Vec<String> }
);
versions!("UserPage":
    UserPage { items: Vec<User> }
    UserPageNoEmail { items: Vec<UserNoEmail> }
);

#[derive(Serialize, Deserialize, Validate, JsonSchema, Params)]
struct UserPath {
    id: u64,
}
#[derive(Serialize, Deserialize, Validate, JsonSchema, Params)]
#[schemars(rename = "UserPath")]
struct UserIdPath {
    user_id: u64,
}

pub fn cases() -> Vec<Case> {
    let health = Endpoint::get(route!("/health")).build().unwrap();
    let users = Endpoint::get(route!("/users")).build().unwrap();
    let created = Endpoint::post(route!("/users"))
        .body::<NewUser>()
        .response::<User>()
        .build()
        .unwrap();
    let answered_200 = Endpoint::post(route!("/users"))
        .body::<NewUser>()
        .response::<User>()
        .status(StatusCode::OK)
        .build()
        .unwrap();
    let conflict = Endpoint::post(route!("/users"))
        .body::<NewUser>()
        .response::<User>()
        .http_error(StatusCode::CONFLICT, "Email taken")
        .build()
        .unwrap();
    let by_id = Endpoint::get(route!("/users/:id"))
        .params::<UserPath>()
        .response::<User>()
        .build()
        .unwrap();
    let by_user_id = Endpoint::get(route!("/users/:user_id"))
        .params::<UserIdPath>()
        .response::<User>()
        .build()
        .unwrap();
    let open_me = Endpoint::get(route!("/me"))
        .response::<User>()
        .build()
        .unwrap();
    let bearer_me = Endpoint::get(route!("/me"))
        .response::<User>()
        .security(Security::bearer().named("auth"))
        .build()
        .unwrap();
    let key_me = Endpoint::get(route!("/me"))
        .response::<User>()
        .security(Security::api_key_header("x-api-key").named("auth"))
        .build()
        .unwrap();
    let delete = Endpoint::delete(route!("/users")).build().unwrap();
    let delete_body = Endpoint::delete(route!("/users"))
        .body::<NewUser>()
        .build()
        .unwrap();
    let page = |page| -> Value {
        let ep = Endpoint::get(route!("/users"))
            .response::<UserPage>()
            .build();
        let ep2 = Endpoint::get(route!("/users"))
            .response::<UserPageNoEmail>()
            .build();
        match page {
            1 => doc(|api| api.endpoint(&ep.unwrap())),
            _ => doc(|api| api.endpoint(&ep2.unwrap())),
        }
    };
    let (b, c) = (true, false);
    vec![
        // Operations.
        case(
            "operation removed",
            doc(|api| api.endpoint(&health).endpoint(&users)),
            doc(|api| api.endpoint(&health)),
            &[(OperationRemoved, b)],
        )
        .at("GET /users"),
        case(
            "operation added",
            doc(|api| api.endpoint(&health)),
            doc(|api| api.endpoint(&health).endpoint(&users)),
            &[(OperationAdded, c)],
        ),
        case(
            "path parameter renamed",
            doc(|api| api.endpoint(&by_id)),
            doc(|api| api.endpoint(&by_user_id)),
            &[(PathParameterRenamed, b)],
        )
        .at("GET /users/{user_id}"),
        // Request bodies.
        case(
            "required request field added",
            post::<NewUser>(),
            post::<NewUserEmail>(),
            &[(RequiredPropertyAdded, b)],
        )
        .at("POST /users → request → body.email"),
        case(
            "optional request field added",
            post::<NewUser>(),
            post::<NewUserNickname>(),
            &[(OptionalPropertyAdded, c)],
        ),
        case(
            "request field removed (the server ignores it)",
            post::<NewUserEmail>(),
            post::<NewUser>(),
            &[(PropertyRemoved, c)],
        ),
        case(
            "request field made optional",
            post::<NewUser>(),
            post::<NewUserDefaultName>(),
            &[(PropertyMadeOptional, c)],
        ),
        case(
            "request field made required",
            post::<NewUserDefaultName>(),
            post::<NewUser>(),
            &[(PropertyMadeRequired, b)],
        ),
        case(
            "request field made nullable and optional",
            post::<NewUser>(),
            post::<NewUserOptionalName>(),
            &[(PropertyMadeOptional, c), (NullAllowed, c)],
        ),
        case(
            "request field type narrowed",
            post::<ScoreFloat>(),
            post::<ScoreInt>(),
            &[(TypeNarrowed, b)],
        )
        .at("POST /users → request → body.value"),
        case(
            "request field type widened",
            post::<ScoreInt>(),
            post::<ScoreFloat>(),
            &[(TypeWidened, c)],
        ),
        case(
            "request field type changed",
            post::<ScoreInt>(),
            post::<ScoreName>(),
            &[(TypeChanged, b)],
        ),
        case(
            "request maxLength lowered",
            post::<ScoreName>(),
            post::<ScoreShortName>(),
            &[(ConstraintTightened, b)],
        ),
        case(
            "request maximum raised",
            post::<ScoreSmall>(),
            post::<ScoreLarge>(),
            &[(ConstraintLoosened, c)],
        ),
        case(
            "request enum value removed",
            post::<Invite>(),
            post::<InviteAdmin>(),
            &[(EnumValueRemoved, b)],
        )
        .at("POST /users → request → body.role"),
        case(
            "request enum value added",
            post::<InviteAdmin>(),
            post::<Invite>(),
            &[(EnumValueAdded, c)],
        ),
        case(
            "request refuses unknown fields",
            post::<NewUserClosed>(),
            post::<NewUserStrict>(),
            &[(AdditionalPropertiesRefused, b)],
        ),
        case(
            "request body added to an operation without one",
            doc(|api| api.endpoint(&delete)),
            doc(|api| api.endpoint(&delete_body)),
            // A body brings the pipeline's 400, 413 and 415 answers.
            &[
                (RequiredRequestBodyAdded, b),
                (ErrorStatusAdded, c),
                (ErrorStatusAdded, c),
                (ErrorStatusAdded, c),
            ],
        ),
        // Query parameters.
        case(
            "optional query parameter added",
            list::<Filter>(),
            list::<FilterActive>(),
            &[(OptionalParameterAdded, c)],
        )
        .at("GET /users → request → query.active"),
        case(
            "required query parameter added",
            list::<Filter>(),
            list::<FilterTenant>(),
            &[(RequiredParameterAdded, b)],
        ),
        case(
            "query parameter made required",
            list::<Filter>(),
            list::<FilterLimitRequired>(),
            &[(ParameterMadeRequired, b)],
        ),
        case(
            "query parameter removed",
            list::<FilterActive>(),
            list::<Filter>(),
            &[(ParameterRemoved, c)],
        ),
        // Responses.
        case(
            "response field removed",
            me::<User>(),
            me::<UserNoEmail>(),
            &[(PropertyRemoved, b)],
        )
        .at("GET /me → response 200 → body.email"),
        case(
            "response field added",
            me::<User>(),
            me::<UserTags>(),
            &[(RequiredPropertyAdded, c)],
        ),
        case(
            "response field made optional",
            me::<User>(),
            me::<UserMaybeEmail>(),
            &[(PropertyMadeOptional, b), (NullAllowed, b)],
        ),
        case(
            "response field made nullable",
            me::<User>(),
            me::<UserNullEmail>(),
            &[(NullAllowed, b)],
        ),
        case(
            "response field no longer null",
            me::<UserNullEmail>(),
            me::<User>(),
            &[(NullRefused, c)],
        ),
        case(
            "response type changed",
            me::<User>(),
            me::<UserTextId>(),
            &[(TypeChanged, b)],
        )
        .at("GET /me → response 200 → body.id"),
        case(
            "response enum value added",
            me::<UserAdminRole>(),
            me::<UserRole>(),
            &[(EnumValueAdded, b)],
        ),
        case(
            "response enum value removed",
            me::<UserRole>(),
            me::<UserAdminRole>(),
            &[(EnumValueRemoved, c)],
        ),
        case(
            "nested response field removed, through $refs",
            page(1),
            page(2),
            &[(PropertyRemoved, b)],
        )
        .at("GET /users → response 200 → body.items[].email"),
        case(
            "success status changed",
            doc(|api| api.endpoint(&created)),
            doc(|api| api.endpoint(&answered_200)),
            &[(SuccessStatusRemoved, b), (SuccessStatusAdded, b)],
        )
        .at("POST /users → response 201"),
        case(
            "error status added",
            doc(|api| api.endpoint(&created)),
            doc(|api| api.endpoint(&conflict)),
            &[(ErrorStatusAdded, c)],
        )
        .at("POST /users → response 409"),
        case(
            "error status removed",
            doc(|api| api.endpoint(&conflict)),
            doc(|api| api.endpoint(&created)),
            &[(ErrorStatusRemoved, c)],
        ),
        // Security.
        case(
            "security added",
            doc(|api| api.endpoint(&open_me)),
            doc(|api| api.endpoint(&bearer_me)),
            // Required credentials bring the pipeline's 401.
            &[(SecurityAdded, b), (ErrorStatusAdded, c)],
        )
        .at("GET /me → security"),
        case(
            "security removed",
            doc(|api| api.endpoint(&bearer_me)),
            doc(|api| api.endpoint(&open_me)),
            &[(SecurityRemoved, c), (ErrorStatusRemoved, c)],
        ),
        case(
            "security scheme changed under the same name",
            doc(|api| api.endpoint(&bearer_me)),
            doc(|api| api.endpoint(&key_me)),
            // An API key's 401 has no `WWW-Authenticate` challenge.
            &[(SecuritySchemeChanged, b), (ResponseHeaderRemoved, b)],
        )
        .at("security scheme auth"),
        case(
            "nothing changed but the prose",
            doc(|api| api.endpoint(&created)),
            doc(|api| {
                api.description("Now with a description.")
                    .endpoint(&created)
            }),
            &[],
        ),
    ]
}
