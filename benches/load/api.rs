//! The benchmark endpoints: their types (shared by every server and client) and
//! pactum's contracts and handlers for them.
//!
//! - `GET /hello` → 200 `{"message":"hello"}`
//! - `GET /users/:id/posts?limit=10&offset=0` (limit 1..=100, offset u32) → 200 the id, limit
//!   and offset echoed with a 10-element `posts` array
//! - `POST /users` `{"name","email","age"}` (name 1..=50 chars, email, age 0..=150) → 201 the
//!   user with an id
//! - `POST /batch` (large bodies): `{"items":[..]}`, 500 validated items (sku 1..=32 chars,
//!   qty 1..=10000, up to 8 tags, a note up to 200 chars), about 104 KB → 200
//!   `{"count","total_qty"}`; the same with one item out of its rules → 400
//! - streaming (pactum's servers only): `GET /stream?size=N` → N bytes as a `Download`;
//!   `PUT /stream` (up to 1 GiB, a `ByteStream`) → `{"bytes":N}`
//! - `GET /events` (pactum's servers, axum, warp): server-sent events, `{"n":0}` then nothing
//!   (the stream stays open)
//! - `POST /upload` (the same): `multipart/form-data` with a text field `title` (1..=100
//!   chars) and a file field `file` → 200 `{"title","bytes"}` (the file's size)

use std::borrow::Cow;
use std::sync::OnceLock;

use pactum::contract::Download;
use pactum::sse::{Event, Events};
use pactum::upload::{ByteStream, FilePart, Multipart};
use pactum::{handler, handler::AnyHandler, route, Ctx, Endpoint, NoBody, NoParams, NoQuery};
use serde::{Deserialize, Serialize};
use validator::Validate;

/// The body of `GET /hello`.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct Hello {
    pub(crate) message: Cow<'static, str>,
}

/// The path params of `GET /users/:id/posts`.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct UserPath {
    pub(crate) id: u64,
}

/// The query of `GET /users/:id/posts`.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct Paging {
    #[validate(range(min = 1, max = 100))]
    pub(crate) limit: u32,
    pub(crate) offset: u32,
}

/// One element of the posts array.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct Post {
    pub(crate) id: u64,
    pub(crate) user_id: u64,
}

/// The body of `GET /users/:id/posts`.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct Posts {
    pub(crate) user_id: u64,
    pub(crate) limit: u32,
    pub(crate) offset: u32,
    pub(crate) posts: Vec<Post>,
}

/// The body of `POST /users`.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct NewUser {
    #[validate(length(min = 1, max = 50))]
    pub(crate) name: String,
    #[validate(email)]
    pub(crate) email: String,
    #[validate(range(min = 0, max = 150))]
    pub(crate) age: u32,
}

/// The answer of `POST /users`.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct User {
    pub(crate) id: u64,
    pub(crate) name: String,
    pub(crate) email: String,
    pub(crate) age: u32,
}

/// One item of `POST /batch`.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct BatchItem {
    #[validate(length(min = 1, max = 32))]
    pub(crate) sku: String,
    #[validate(range(min = 1, max = 10000))]
    pub(crate) qty: u32,
    #[validate(length(max = 8))]
    pub(crate) tags: Vec<String>,
    #[validate(length(max = 200))]
    pub(crate) note: Option<String>,
}

/// The body of `POST /batch`.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct Batch {
    #[validate(length(min = 1, max = 1000), nested)]
    pub(crate) items: Vec<BatchItem>,
}

/// The answer of `POST /batch`.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct BatchTotals {
    pub(crate) count: u64,
    pub(crate) total_qty: u64,
}

/// The body every run sends to `POST /batch`: 500 items, made the same every time (about
/// 104 KB).
pub(crate) fn batch_json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| serde_json::to_string(&batch()).expect("serialisable"))
}

/// The same body with one item out of its rules (the 251st's `qty` is 0): the error path.
pub(crate) fn invalid_batch_json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| {
        let mut batch = batch();
        batch.items[250].qty = 0;
        serde_json::to_string(&batch).expect("serialisable")
    })
}

fn batch() -> Batch {
    const TAGS: [&str; 6] = ["red", "large", "sale", "outdoor", "fragile", "gift"];
    const WORDS: &str = "deliver to the side door before noon; call ahead if the gate is \
                         closed, and leave the parcel with the neighbour at number twelve, who \
                         keeps the spare key and signs for everything that comes";
    let items = (0..500u32)
        .map(|i| {
            let mut sku = format!("SKU-{i:05}-");
            let letters = 1 + (i * 7) % 16;
            sku.extend((0..letters).map(|j| char::from(b'a' + ((i + j) % 26) as u8)));
            BatchItem {
                sku,
                qty: 1 + (i * 7919) % 10000,
                tags: (0..1 + i % 4)
                    .map(|j| TAGS[((i + j) % 6) as usize].to_owned())
                    .collect(),
                note: Some(WORDS[..100 + (i % 60) as usize].to_owned()),
            }
        })
        .collect();
    Batch { items }
}

/// The request body every load and client run sends to `POST /users`.
pub(crate) const NEW_USER_JSON: &str =
    r#"{"name":"Ada Lovelace","email":"ada@example.com","age":36}"#;

/// The query every load and client run sends to `GET /users/:id/posts`.
pub(crate) const POSTS_PATH: &str = "/users/7/posts?limit=10&offset=0";

/// The business logic, the same in every server.
pub(crate) fn hello() -> Hello {
    Hello {
        message: Cow::Borrowed("hello"),
    }
}

/// The business logic, the same in every server.
pub(crate) fn posts(user_id: u64, paging: &Paging) -> Posts {
    let first = u64::from(paging.offset) + 1;
    Posts {
        user_id,
        limit: paging.limit,
        offset: paging.offset,
        posts: (first..first + 10).map(|id| Post { id, user_id }).collect(),
    }
}

/// The business logic, the same in every server.
pub(crate) fn create(new: NewUser) -> User {
    User {
        id: 1,
        name: new.name,
        email: new.email,
        age: new.age,
    }
}

/// The business logic, the same in every server.
pub(crate) fn totals(batch: &Batch) -> BatchTotals {
    BatchTotals {
        count: batch.items.len() as u64,
        total_qty: batch.items.iter().map(|item| u64::from(item.qty)).sum(),
    }
}

/// The contract of `GET /hello`.
pub(crate) fn hello_endpoint() -> Endpoint<NoParams, NoQuery, NoBody, Hello> {
    Endpoint::get(route::static_path("/hello"))
        .response::<Hello>()
        .build()
        .expect("valid contract")
}

/// The contract of `GET /users/:id/posts`.
pub(crate) fn posts_endpoint() -> Endpoint<UserPath, Paging, NoBody, Posts> {
    Endpoint::get(route::pattern("/users/:id/posts"))
        .params::<UserPath>()
        .query::<Paging>()
        .response::<Posts>()
        .build()
        .expect("valid contract")
}

/// The contract of `POST /users`.
pub(crate) fn create_endpoint() -> Endpoint<NoParams, NoQuery, NewUser, User> {
    Endpoint::post(route::static_path("/users"))
        .body::<NewUser>()
        .response::<User>()
        .build()
        .expect("valid contract")
}

/// The contract of `POST /batch`.
pub(crate) fn batch_endpoint() -> Endpoint<NoParams, NoQuery, Batch, BatchTotals> {
    Endpoint::post(route::static_path("/batch"))
        .body::<Batch>()
        .response::<BatchTotals>()
        .status(http::StatusCode::OK)
        .build()
        .expect("valid contract")
}

/// The query of `GET /stream`: how many bytes to send.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct StreamSize {
    pub(crate) size: u64,
}

/// The answer of `PUT /stream`: how many bytes came.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct Received {
    pub(crate) bytes: u64,
}

/// `GET /stream?size=N` (streaming, pactum only): N bytes, 64 KiB at a time, as a `Download`.
pub(crate) fn download_endpoint() -> Endpoint<NoParams, StreamSize, NoBody, Download> {
    Endpoint::get(route::static_path("/stream"))
        .query::<StreamSize>()
        .response::<Download>()
        .build()
        .expect("valid contract")
}

/// `PUT /stream` (streaming, pactum only): a body of up to 1 GiB read as it comes, counted.
pub(crate) fn upload_endpoint() -> Endpoint<NoParams, NoQuery, ByteStream, Received> {
    Endpoint::put(route::static_path("/stream"))
        .body::<ByteStream>()
        .body_limit(1 << 30)
        .response::<Received>()
        .status(http::StatusCode::OK)
        .build()
        .expect("valid contract")
}

/// One event of `GET /events`.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct Tick {
    pub(crate) n: u32,
}

/// The first (and only) event every server sends on `GET /events`.
pub(crate) const FIRST_TICK: Tick = Tick { n: 0 };

/// The events every server answers `GET /events` with: [`FIRST_TICK`], then nothing (a
/// stream that stays pending until the client leaves), keep-alive comments aside.
pub(crate) fn ticks<T>(event: impl FnOnce(Tick) -> T) -> impl futures_util::Stream<Item = T> {
    use futures_util::StreamExt as _;
    futures_util::stream::iter([event(FIRST_TICK)]).chain(futures_util::stream::pending())
}

/// The form of `POST /upload`.
#[derive(Debug, Serialize, Deserialize, Validate)]
pub(crate) struct Upload {
    #[validate(length(min = 1, max = 100))]
    pub(crate) title: String,
    pub(crate) file: FilePart,
}

/// The answer of `POST /upload`: the title, and the file's size.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub(crate) struct Uploaded {
    pub(crate) title: String,
    pub(crate) bytes: u64,
}

/// The boundary of every `POST /upload` body.
pub(crate) const UPLOAD_BOUNDARY: &str = "pactum-bench-boundary";
/// The size of every `POST /upload` body, framing included.
pub(crate) const UPLOAD_BODY_SIZE: usize = 64 * 1024;
/// The title every `POST /upload` sends.
pub(crate) const UPLOAD_TITLE: &str = "quarterly report";

/// The body every run sends to `POST /upload`.
pub(crate) struct UploadBody {
    /// The whole body: a text field `title`, then a file field `file` whose content fills it
    /// to [`UPLOAD_BODY_SIZE`] bytes.
    pub(crate) bytes: Vec<u8>,
    /// Where the file's content starts in it.
    pub(crate) file_start: usize,
}

/// The body every run sends to `POST /upload`, made the same every time.
pub(crate) fn upload_body() -> &'static UploadBody {
    static BODY: OnceLock<UploadBody> = OnceLock::new();
    BODY.get_or_init(|| {
        let head = format!(
            "--{UPLOAD_BOUNDARY}\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n\
             {UPLOAD_TITLE}\r\n--{UPLOAD_BOUNDARY}\r\nContent-Disposition: form-data; \
             name=\"file\"; filename=\"data.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        );
        let tail = format!("\r\n--{UPLOAD_BOUNDARY}--\r\n");
        let file = UPLOAD_BODY_SIZE - head.len() - tail.len();
        let mut bytes = head.clone().into_bytes();
        bytes.extend((0..file).map(|i| b'a' + (i % 26) as u8));
        bytes.extend_from_slice(tail.as_bytes());
        UploadBody {
            bytes,
            file_start: head.len(),
        }
    })
}

/// The head of a `POST /upload` request (its body follows).
pub(crate) fn upload_head(port: u16) -> String {
    format!(
        "POST /upload HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
         Content-Type: multipart/form-data; boundary={UPLOAD_BOUNDARY}\r\n\
         Content-Length: {}\r\n\r\n",
        upload_body().bytes.len()
    )
}

/// The contract of `GET /events`: server-sent events.
pub(crate) fn events_endpoint() -> Endpoint<NoParams, NoQuery, NoBody, Events<Tick>> {
    Endpoint::get(route::static_path("/events"))
        .response::<Events<Tick>>()
        .build()
        .expect("valid contract")
}

/// The contract of `POST /upload`: a multipart form.
pub(crate) fn multipart_endpoint() -> Endpoint<NoParams, NoQuery, Multipart<Upload>, Uploaded> {
    Endpoint::post(route::static_path("/upload"))
        .body::<Multipart<Upload>>()
        .response::<Uploaded>()
        .status(http::StatusCode::OK)
        .build()
        .expect("valid contract")
}

/// The business logic, the same in every server: the title and the file's size; `None` when
/// the title breaks its rule (1 to 100 characters: pactum checks it from `Upload`'s rules).
pub(crate) fn uploaded(title: String, file: &[u8]) -> Option<Uploaded> {
    use validator::ValidateLength as _;
    title
        .validate_length(Some(1u64), Some(100), None)
        .then_some(Uploaded {
            title,
            bytes: file.len() as u64,
        })
}

/// `size` bytes in 64 KiB chunks of one static block: what the server costs per byte, not
/// what making the bytes does.
fn chunks_of(size: u64) -> Download {
    static BLOCK: [u8; 64 * 1024] = [b'x'; 64 * 1024];
    let chunks = (0..size.div_ceil(BLOCK.len() as u64)).map(move |i| {
        let len = (size - i * BLOCK.len() as u64).min(BLOCK.len() as u64) as usize;
        Ok::<_, std::convert::Infallible>(bytes::Bytes::from_static(&BLOCK[..len]))
    });
    Download::new(futures_util::stream::iter(chunks)).with_length(size)
}

/// pactum's handlers for the contracts.
pub(crate) fn handlers() -> Vec<AnyHandler> {
    vec![
        handler(hello_endpoint(), |_| async { Ok(hello()) }).into(),
        handler(
            posts_endpoint(),
            |ctx: Ctx<UserPath, Paging, NoBody>| async move {
                Ok(posts(ctx.params.id, &ctx.query))
            },
        )
        .into(),
        handler(
            create_endpoint(),
            |ctx: Ctx<NoParams, NoQuery, NewUser>| async move { Ok(create(ctx.body)) },
        )
        .into(),
        handler(
            batch_endpoint(),
            |ctx: Ctx<NoParams, NoQuery, Batch>| async move { Ok(totals(&ctx.body)) },
        )
        .into(),
        handler(
            download_endpoint(),
            |ctx: Ctx<NoParams, StreamSize, NoBody>| async move { Ok(chunks_of(ctx.query.size)) },
        )
        .into(),
        handler(
            upload_endpoint(),
            |mut ctx: Ctx<NoParams, NoQuery, ByteStream>| async move {
                let mut bytes = 0;
                while let Some(chunk) = ctx.body.next_chunk().await {
                    bytes += chunk?.len() as u64;
                }
                Ok(Received { bytes })
            },
        )
        .into(),
        handler(events_endpoint(), |_| async {
            Ok(Events::new(ticks(Event::new)))
        })
        .into(),
        handler(
            multipart_endpoint(),
            |ctx: Ctx<NoParams, NoQuery, Multipart<Upload>>| async move {
                let upload = ctx.body.into_inner();
                Ok(Uploaded {
                    title: upload.title,
                    bytes: upload.file.len() as u64,
                })
            },
        )
        .into(),
    ]
}
