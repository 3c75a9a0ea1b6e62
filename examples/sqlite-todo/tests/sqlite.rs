//! The todo API on a real SQLite file, over a real socket, called with the typed client.

use std::path::Path;
use std::time::Duration;

use pactum::http::{header::LOCATION, StatusCode};
use pactum::{
    contract::NoContent, error::PathSegment, route, Endpoint, NoBody, NoParams, NoQuery,
    ServerOptions,
};
use pactum_client::Client;
use pactum_sqlite_todo::{
    connect, contract, handlers, probes, Database, ListQuery, NewTodo, StartError, Todo, TodoId,
    TodoPage, TodoPatch, TodoServer, MIGRATOR, TOKEN,
};
use serde::{Deserialize, Serialize};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{Connection, SqliteConnection};
use validator::Validate;

/// A server on 127.0.0.1 (a free port) over `db`, with a client that sends the token. Its
/// shutdown closes idle keep-alive connections at once.
async fn start(db: &Database) -> (TodoServer, Client) {
    let options = ServerOptions::new()
        .port(0)
        .hostname("127.0.0.1")
        .shutdown_idle_wait(Duration::ZERO);
    let server = TodoServer::start(db, options)
        .await
        .expect("the server starts");
    let client = Client::builder()
        .base_url(format!("http://{}", server.local_addr()).as_str())
        .bearer_auth(TOKEN)
        .build()
        .expect("a client");
    (server, client)
}

/// A database file in a fresh temporary folder (the folder goes with the guard).
fn db_file() -> (tempfile::TempDir, Database) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("todos.db");
    (dir, Database::File(path))
}

/// A connection of the test's own to the file, behind the server's back.
async fn open(path: &Path) -> SqliteConnection {
    SqliteConnection::connect_with(&SqliteConnectOptions::new().filename(path))
        .await
        .expect("the file opens")
}

fn path_of(db: &Database) -> &Path {
    match db {
        Database::File(path) => path,
        Database::Memory => panic!("not a file"),
    }
}

async fn create(client: &Client, title: &str, done: bool) -> Todo {
    client
        .call(&contract::create())
        .body(NewTodo {
            title: title.into(),
            done,
        })
        .send()
        .await
        .expect("created")
}

fn listing(limit: u32, offset: u32, done: Option<bool>) -> ListQuery {
    ListQuery {
        limit,
        offset,
        done,
    }
}

#[tokio::test]
async fn create_list_get_update_delete_on_a_file() {
    let (_dir, db) = db_file();
    let (server, client) = start(&db).await;

    let created = client
        .call(&contract::create())
        .body(NewTodo {
            title: "write the docs".into(),
            done: false,
        })
        .send_full()
        .await
        .expect("created");
    let first = created.value().clone();
    assert_eq!(first.title, "write the docs");
    assert!(!first.done);
    assert_eq!(
        created.headers().get(LOCATION).map(|v| v.as_bytes()),
        Some(format!("/todos/{}", first.id).as_bytes())
    );
    let second = create(&client, "ship it", true).await;
    let third = create(&client, "tell people", false).await;
    assert!(first.id < second.id && second.id < third.id);

    // The rows are in the file itself.
    let mut side = open(path_of(&db)).await;
    let titles: Vec<String> = sqlx::query_scalar("SELECT title FROM todos ORDER BY id")
        .fetch_all(&mut side)
        .await
        .expect("the file has the table");
    assert_eq!(titles, ["write the docs", "ship it", "tell people"]);
    side.close().await.expect("closed");

    let all = client
        .call(&contract::list())
        .query(listing(100, 0, None))
        .send()
        .await
        .expect("listed");
    assert_eq!(all.total, 3);
    assert_eq!(
        all.items.iter().map(|t| t.id).collect::<Vec<_>>(),
        [first.id, second.id, third.id]
    );
    let paged = client
        .call(&contract::list())
        .query(listing(1, 1, None))
        .send()
        .await
        .expect("listed");
    assert_eq!((paged.total, paged.items.len()), (3, 1));
    assert_eq!(paged.items[0].id, second.id);
    let open_ones = client
        .call(&contract::list())
        .query(listing(10, 0, Some(false)))
        .send()
        .await
        .expect("listed");
    assert_eq!(open_ones.total, 2);
    assert!(open_ones.items.iter().all(|t| !t.done));
    let past_the_end = client
        .call(&contract::list())
        .query(listing(10, 50, None))
        .send()
        .await
        .expect("listed");
    assert_eq!((past_the_end.total, past_the_end.items.len()), (3, 0));

    let got = client
        .call(&contract::get())
        .params(TodoId { id: second.id })
        .send()
        .await
        .expect("found");
    assert_eq!(
        (got.id, got.title.as_str(), got.done),
        (second.id, "ship it", true)
    );

    // A patch changes what it names and keeps the rest.
    let done = client
        .call(&contract::update())
        .params(TodoId { id: first.id })
        .body(TodoPatch {
            title: None,
            done: Some(true),
        })
        .send()
        .await
        .expect("updated");
    assert_eq!((done.title.as_str(), done.done), ("write the docs", true));
    let renamed = client
        .call(&contract::update())
        .params(TodoId { id: first.id })
        .body(TodoPatch {
            title: Some("write better docs".into()),
            done: None,
        })
        .send()
        .await
        .expect("updated");
    assert_eq!(
        (renamed.title.as_str(), renamed.done),
        ("write better docs", true)
    );

    let NoContent = client
        .call(&contract::delete())
        .params(TodoId { id: third.id })
        .send()
        .await
        .expect("deleted");
    let after = client
        .call(&contract::list())
        .query(listing(100, 0, None))
        .send()
        .await
        .expect("listed");
    assert_eq!(
        after.items.iter().map(|t| t.id).collect::<Vec<_>>(),
        [first.id, second.id]
    );
    assert!(server.shutdown().await, "every connection finished");
}

#[tokio::test]
async fn a_missing_todo_is_404() {
    let (_dir, db) = db_file();
    let (server, client) = start(&db).await;
    let gone = create(&client, "short-lived", false).await;
    client
        .call(&contract::delete())
        .params(TodoId { id: gone.id })
        .send()
        .await
        .expect("deleted");

    // Deleted, never created, and beyond what SQLite's INTEGER holds.
    for id in [gone.id, 999, u64::MAX] {
        let get = client
            .call(&contract::get())
            .params(TodoId { id })
            .send()
            .await
            .expect_err("no such todo");
        let update = client
            .call(&contract::update())
            .params(TodoId { id })
            .body(TodoPatch {
                title: None,
                done: Some(true),
            })
            .send()
            .await
            .expect_err("no such todo");
        let delete = client
            .call(&contract::delete())
            .params(TodoId { id })
            .send()
            .await
            .expect_err("no such todo");
        for error in [get, update, delete] {
            assert_eq!(error.status(), Some(StatusCode::NOT_FOUND), "id {id}");
            assert_eq!(
                error.error_body().map(|b| b.error.as_str()),
                Some("Todo not found")
            );
        }
    }
    server.shutdown().await;
}

/// `NewTodo` without its rules: what a client that skips validation could send.
#[derive(Debug, Serialize, Deserialize, Validate)]
struct UncheckedNewTodo {
    title: String,
}

/// `ListQuery` without its rules.
#[derive(Debug, Serialize, Deserialize, Validate)]
struct UncheckedListQuery {
    limit: u32,
}

#[tokio::test]
async fn the_server_answers_an_invalid_request_400() {
    let (_dir, db) = db_file();
    let (server, client) = start(&db).await;

    // The typed client refuses before sending…
    let refused = client
        .call(&contract::create())
        .body(NewTodo {
            title: String::new(),
            done: false,
        })
        .send()
        .await
        .expect_err("an empty title breaks the contract");
    assert!(refused.is_validation());
    assert_eq!(refused.status(), None, "nothing was sent");

    // …and the server refuses what a looser client sends.
    let loose_create: Endpoint<NoParams, NoQuery, UncheckedNewTodo, Todo> =
        Endpoint::post(route!("/todos"))
            .body::<UncheckedNewTodo>()
            .response::<Todo>()
            .build()
            .expect("valid contract");
    let error = client
        .call(&loose_create)
        .body(UncheckedNewTodo {
            title: String::new(),
        })
        .send()
        .await
        .expect_err("the server validates");
    assert_eq!(error.status(), Some(StatusCode::BAD_REQUEST));
    let details = error.details();
    assert_eq!(details.len(), 1, "{details:?}");
    assert_eq!(details[0].path, [PathSegment::from("title")]);

    let loose_list: Endpoint<NoParams, UncheckedListQuery, NoBody, TodoPage> =
        Endpoint::get(route!("/todos"))
            .query::<UncheckedListQuery>()
            .response::<TodoPage>()
            .build()
            .expect("valid contract");
    let error = client
        .call(&loose_list)
        .query(UncheckedListQuery { limit: 0 })
        .send()
        .await
        .expect_err("limit is 1..=100");
    assert_eq!(error.status(), Some(StatusCode::BAD_REQUEST));
    assert_eq!(error.details()[0].path, [PathSegment::from("limit")]);

    // Nothing reached the table.
    let page = client
        .call(&contract::list())
        .query(listing(100, 0, None))
        .send()
        .await
        .expect("listed");
    assert_eq!(page.total, 0);
    server.shutdown().await;
}

#[tokio::test]
async fn writes_need_the_token() {
    let (_dir, db) = db_file();
    let (server, _) = start(&db).await;
    let anonymous =
        Client::new(format!("http://{}", server.local_addr()).as_str()).expect("a client");
    let error = anonymous
        .call(&contract::create())
        .body(NewTodo {
            title: "sneaky".into(),
            done: false,
        })
        .send()
        .await
        .expect_err("no token");
    // The contract declares bearer auth: the client sends nothing without a token.
    assert!(error.is_missing_credential(), "{error}");
    // A wrong token gets to the server, whose auth (bound to the handler) answers 401.
    let intruder = Client::builder()
        .base_url(format!("http://{}", server.local_addr()).as_str())
        .bearer_token("not-the-token")
        .build()
        .expect("a client");
    let error = intruder
        .call(&contract::create())
        .body(NewTodo {
            title: "sneaky".into(),
            done: false,
        })
        .send()
        .await
        .expect_err("a wrong token");
    assert_eq!(error.status(), Some(StatusCode::UNAUTHORIZED));
    let page = anonymous
        .call(&contract::list())
        .query(listing(100, 0, None))
        .send()
        .await
        .expect("reads need no token");
    assert_eq!(page.total, 0);
    server.shutdown().await;
}

#[tokio::test]
async fn a_title_taken_is_409() {
    let (_dir, db) = db_file();
    let (server, client) = start(&db).await;
    create(&client, "only once", false).await;
    let other = create(&client, "another", false).await;

    let twice = client
        .call(&contract::create())
        .body(NewTodo {
            title: "only once".into(),
            done: true,
        })
        .send()
        .await
        .expect_err("titles are unique");
    let renamed = client
        .call(&contract::update())
        .params(TodoId { id: other.id })
        .body(TodoPatch {
            title: Some("only once".into()),
            done: None,
        })
        .send()
        .await
        .expect_err("titles are unique");
    for error in [twice, renamed] {
        assert_eq!(error.status(), Some(StatusCode::CONFLICT));
        let body = error.error_body().expect("an error body");
        assert_eq!(body.code.as_deref(), Some("title_taken"));
    }
    let still = client
        .call(&contract::get())
        .params(TodoId { id: other.id })
        .send()
        .await
        .expect("found");
    assert_eq!(still.title, "another");
    server.shutdown().await;
}

#[tokio::test]
async fn a_database_failure_is_500_without_its_message() {
    let (_dir, db) = db_file();
    let (server, client) = start(&db).await;
    create(&client, "about to vanish", false).await;

    let mut side = open(path_of(&db)).await;
    sqlx::query("DROP TABLE todos")
        .execute(&mut side)
        .await
        .expect("dropped");
    side.close().await.expect("closed");

    let error = client
        .call(&contract::list())
        .query(listing(100, 0, None))
        .send()
        .await
        .expect_err("the table is gone");
    assert_eq!(error.status(), Some(StatusCode::INTERNAL_SERVER_ERROR));
    let body = error.error_body().expect("an error body");
    assert_eq!(body.error, "Internal server error");
    assert!(body.details.is_empty() && body.code.is_none(), "{body:?}");
    server.shutdown().await;
}

#[tokio::test]
async fn todos_survive_a_restart_and_migrations_run_once() {
    let (_dir, db) = db_file();
    let (server, client) = start(&db).await;
    let kept = create(&client, "outlive the server", true).await;
    let dropped = create(&client, "deleted before the restart", false).await;
    client
        .call(&contract::delete())
        .params(TodoId { id: dropped.id })
        .send()
        .await
        .expect("deleted");
    assert!(server.shutdown().await);

    // A new server on the same file: the migrations are already there, the todos too.
    let (server, client) = start(&db).await;
    let page = client
        .call(&contract::list())
        .query(listing(100, 0, None))
        .send()
        .await
        .expect("listed");
    assert_eq!(page.total, 1);
    let back = &page.items[0];
    assert_eq!(
        (back.id, back.title.as_str(), back.done),
        (kept.id, "outlive the server", true)
    );
    // A deleted todo's id is not handed out again.
    let next = create(&client, "after the restart", false).await;
    assert!(next.id > dropped.id, "{} after {}", next.id, dropped.id);
    assert!(server.shutdown().await);

    // And a third start is as good as the second.
    let (server, client) = start(&db).await;
    let page = client
        .call(&contract::list())
        .query(listing(100, 0, None))
        .send()
        .await
        .expect("listed");
    assert_eq!(page.total, 2);
    server.shutdown().await;

    let mut side = open(path_of(&db)).await;
    let applied: Vec<i64> =
        sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success ORDER BY version")
            .fetch_all(&mut side)
            .await
            .expect("sqlx's migration table");
    let known: Vec<i64> = MIGRATOR.iter().map(|m| m.version).collect();
    assert!(!known.is_empty());
    assert_eq!(applied, known, "each migration applied once");
    side.close().await.expect("closed");
}

#[tokio::test]
async fn concurrent_requests_share_the_in_memory_database() {
    let (server, client) = start(&Database::Memory).await;
    // Concurrent writes all land in the same database, not in one per pooled connection.
    let writes = (0..8).map(|i| {
        let client = client.clone();
        tokio::spawn(async move { create(&client, &format!("todo {i}"), i % 2 == 0).await })
    });
    for write in writes {
        write.await.expect("the task ran");
    }
    let page = client
        .call(&contract::list())
        .query(listing(100, 0, None))
        .send()
        .await
        .expect("listed");
    assert_eq!(page.total, 8);
    let done = client
        .call(&contract::list())
        .query(listing(100, 0, Some(true)))
        .send()
        .await
        .expect("listed");
    assert_eq!(done.total, 4);
    server.shutdown().await;
}

#[tokio::test]
async fn the_in_memory_database_is_one_database_for_concurrent_transactions() {
    // Transactions that overlap would each need a connection of their own; a second
    // connection to an in-memory database would be a second, empty database (no table).
    let pool = pactum_sqlite_todo::connect(&Database::Memory)
        .await
        .expect("opened and migrated");
    let writes = (0..4).map(|i| {
        let pool = pool.clone();
        tokio::spawn(async move {
            let mut tx = pool.begin().await?;
            sqlx::query("INSERT INTO todos (title) VALUES (?1)")
                .bind(format!("todo {i}"))
                .execute(&mut *tx)
                .await?;
            tokio::time::sleep(Duration::from_millis(50)).await;
            tx.commit().await
        })
    });
    for write in writes {
        write
            .await
            .expect("the task ran")
            .expect("the write sees the migrated table");
    }
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM todos")
        .fetch_one(&pool)
        .await
        .expect("counted");
    assert_eq!(count, 4);
    pool.close().await;
}

#[tokio::test]
async fn a_file_that_cannot_be_opened_is_told() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = Database::File(dir.path().join("no such folder").join("todos.db"));
    let error = TodoServer::start(&db, ServerOptions::new().port(0).hostname("127.0.0.1"))
        .await
        .expect_err("the folder is missing");
    assert!(matches!(error, StartError::Open(..)), "{error:?}");
    assert!(
        error.to_string().contains("no such folder"),
        "the message names the file: {error}"
    );
}

#[tokio::test]
async fn the_probes_answer_for_the_process_and_the_database() {
    let (server, client) = start(&Database::Memory).await;
    let health = client.call(&probes::health()).send().await.expect("200");
    assert_eq!(health.status, "ok");
    let ready = client.call(&probes::ready()).send().await.expect("200");
    assert_eq!(ready.status, "ready");
    server.shutdown().await;

    // The database gone: not ready (503), still alive (200).
    let pool = connect(&Database::Memory).await.expect("opens");
    pool.close().await;
    let pipeline = pactum::Pipeline::new(handlers(pool)).expect("valid handlers");
    let get = |path: &str| {
        pactum::http::Request::get(path)
            .body(pactum::pipeline::Body::empty())
            .unwrap()
    };
    let ready = pipeline.handle(get("/ready")).await;
    assert_eq!(ready.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(ready.body(), r#"{"error":"Database unavailable"}"#);
    assert_eq!(
        pipeline.handle(get("/health")).await.status(),
        StatusCode::OK
    );
}

/// `sqlite-todo --health-check`, what a container's `HEALTHCHECK` runs: 0 while the server on
/// the port answers `/health`, 1 once it is gone.
#[tokio::test]
async fn the_health_check_command_tells_whether_the_server_answers() {
    let check = |port: u16| {
        tokio::task::spawn_blocking(move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_sqlite-todo"))
                .args(["--health-check", "--port", &port.to_string()])
                .status()
                .expect("runs")
                .success()
        })
    };
    let (server, _client) = start(&Database::Memory).await;
    let port = server.local_addr().port();
    assert!(check(port).await.unwrap(), "the server answers");
    server.shutdown().await;
    assert!(!check(port).await.unwrap(), "nothing answers");
}
