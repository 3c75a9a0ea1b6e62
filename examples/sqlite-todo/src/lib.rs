//! The todo API of `examples/todo.rs`, its todos stored in SQLite through [`sqlx`].
//!
//! The contracts are the very ones the in-memory demo serves (`examples/todo/api.rs`, included
//! by path), so the typed client of `examples/typed_client.rs` calls either server alike. What
//! changes is the store:
//!
//! - [`Database::File`] keeps the todos in a file (created if missing), [`Database::Memory`]
//!   in an in-memory database that lives as long as the server;
//! - [`MIGRATOR`] (the SQL files of `migrations/`, embedded at build time) brings the schema up
//!   to date at start; a migration already applied is not applied again;
//! - the handlers share one [`SqlitePool`], bound to each as typed state
//!   ([`pactum::bind`]`(..).state(pool)`), and the writes the demo's auth provider
//!   (`.provide(auth)`, from `examples/todo/server.rs`): the contracts carry no server code;
//! - database errors become pactum's JSON errors: a missing todo 404, a title taken 409
//!   (the schema keeps titles unique), anything else 500 with its message kept in the log,
//!   not in the answer;
//! - two probes for an orchestrator ([`probes`]): `GET /health` answers while the process
//!   serves (liveness, a container's health check), `GET /ready` while the database answers too
//!   (readiness: 503 takes the instance out of a load balancer's rotation).
//!
//! ```no_run
//! use pactum::ServerOptions;
//! use pactum_sqlite_todo::{Database, TodoServer};
//!
//! # async fn run() -> Result<(), pactum_sqlite_todo::StartError> {
//! let server = TodoServer::start(
//!     &Database::File("todos.db".into()),
//!     ServerOptions::new().port(3000),
//! )
//! .await?;
//! server.shutdown_on_signal().await;
//! # Ok(())
//! # }
//! ```

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use pactum::{
    bind, contract::NoContent, handler::AnyHandler, Ctx, HttpError, NoParams, NoQuery,
    ServerOptions,
};
use sqlx::migrate::{MigrateError, Migrator};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};

// The in-memory demo's types and contracts, unchanged: this crate serves them from SQLite.
// The file's in-memory store and handlers are not used here; its fields are documented by
// their names and validation rules where the file lives.
#[allow(
    dead_code,
    missing_docs,
    unreachable_pub,
    reason = "shared with examples/todo.rs, which uses the rest"
)]
#[path = "../../todo/api.rs"]
mod api;

// The in-memory demo's server side, for its auth provider (writes need `TOKEN`); its store and
// handlers are not used here.
#[allow(
    dead_code,
    missing_docs,
    unreachable_pub,
    reason = "shared with examples/todo.rs, which uses the rest"
)]
#[path = "../../todo/server.rs"]
mod demo_server;

pub use api::{contract, ListQuery, NewTodo, Todo, TodoId, TodoPage, TodoPatch, TOKEN};
pub use demo_server::{auth, Writer};

/// The schema's migrations (`migrations/*.sql`), embedded in the binary.
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

/// Where the todos are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Database {
    /// An in-memory database: nothing to install or clean up, gone when the server stops.
    Memory,
    /// A SQLite file, created if missing; the todos outlive the server.
    File(PathBuf),
}

impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Memory => f.write_str("an in-memory database"),
            Self::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// Why the server did not start.
#[derive(Debug)]
pub enum StartError {
    /// The database could not be opened (or created).
    Open(Database, sqlx::Error),
    /// A migration failed, or the database has migrations this build does not know.
    Migrate(MigrateError),
    /// The server could not start (the address is taken, …).
    Serve(pactum::server::ServeError),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Open(db, e) => write!(f, "cannot open {db}: {e}"),
            Self::Migrate(e) => write!(f, "cannot migrate the database: {e}"),
            Self::Serve(e) => write!(f, "cannot start the server: {e}"),
        }
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Open(_, e) => Some(e),
            Self::Migrate(e) => Some(e),
            Self::Serve(e) => Some(e),
        }
    }
}

/// Opens `db` and applies the migrations it lacks.
///
/// An in-memory database is one connection that the pool never closes: each connection to
/// `:memory:` opens a database of its own, and a shared-cache one ends with the last
/// connection to it, which an idle pool would close. A file gets a few
/// connections in WAL mode (readers do not wait for the writer), and waits up to five seconds
/// for a lock another process holds.
///
/// # Errors
///
/// [`StartError::Open`] when the database cannot be opened, [`StartError::Migrate`] when a
/// migration fails.
pub async fn connect(db: &Database) -> Result<SqlitePool, StartError> {
    let (options, pool) = match db {
        Database::Memory => (
            SqliteConnectOptions::new().in_memory(true),
            SqlitePoolOptions::new()
                .min_connections(1)
                .max_connections(1)
                .idle_timeout(None)
                .max_lifetime(None),
        ),
        Database::File(path) => (
            SqliteConnectOptions::new()
                .filename(path)
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .busy_timeout(Duration::from_secs(5)),
            SqlitePoolOptions::new().max_connections(4),
        ),
    };
    let pool = pool
        .connect_with(options)
        .await
        .map_err(|e| StartError::Open(db.clone(), e))?;
    MIGRATOR.run(&pool).await.map_err(StartError::Migrate)?;
    Ok(pool)
}

/// A running todo server and its database.
#[derive(Debug)]
pub struct TodoServer {
    server: pactum::server::Server,
    pool: SqlitePool,
}

impl TodoServer {
    /// Opens `db`, migrates it ([`connect`]) and serves the todo API on it with `options`.
    ///
    /// # Errors
    ///
    /// What [`connect`] returns, or [`StartError::Serve`] when the server cannot start.
    pub async fn start(db: &Database, options: ServerOptions) -> Result<Self, StartError> {
        let pool = connect(db).await?;
        let server = match pactum::serve(handlers(pool.clone()), options).await {
            Ok(server) => server,
            Err(e) => {
                pool.close().await;
                return Err(StartError::Serve(e));
            }
        };
        Ok(Self { server, pool })
    }

    /// The address the server is bound to, with the real port.
    pub fn local_addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    /// Stops the server gracefully (in-flight requests finish), then closes the database.
    ///
    /// Resolves to `true` when every connection finished before the server's deadline.
    pub async fn shutdown(self) -> bool {
        let clean = self.server.shutdown().await;
        self.pool.close().await;
        clean
    }

    /// Waits for SIGTERM or SIGINT (Ctrl-C), then [`shutdown`](Self::shutdown)s.
    pub async fn shutdown_on_signal(self) -> bool {
        pactum::server::shutdown_signal().await;
        tracing::info!("signal received, shutting down");
        self.shutdown().await
    }
}

/// A `todos` row.
#[derive(sqlx::FromRow)]
struct TodoRow {
    id: i64,
    title: String,
    done: bool,
}

impl TryFrom<TodoRow> for Todo {
    type Error = pactum::Error;

    fn try_from(row: TodoRow) -> Result<Self, Self::Error> {
        let id = u64::try_from(row.id)
            .map_err(|e| internal(format!("todo id {} out of range: {e}", row.id)))?;
        Ok(Todo {
            id,
            title: row.title,
            done: row.done,
        })
    }
}

/// 404, the same answer as the in-memory demo's.
fn not_found() -> pactum::Error {
    HttpError::not_found("Todo not found").into()
}

/// 500 with `source` for the log only: the client reads `Internal server error`.
fn internal(source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> pactum::Error {
    HttpError::internal("Internal server error")
        .with_source(source)
        .into()
}

/// A database error as pactum answers it: a unique title taken is 409, anything else 500.
fn db_error(error: sqlx::Error) -> pactum::Error {
    if let sqlx::Error::Database(e) = &error {
        if e.is_unique_violation() {
            return HttpError::conflict("A todo with this title already exists")
                .with_code("title_taken")
                .into();
        }
    }
    internal(error)
}

/// The row id of `/todos/:id`; `None` for an id SQLite cannot hold, which no todo has.
fn row_id(id: u64) -> Option<i64> {
    i64::try_from(id).ok()
}

/// The probes' contracts and their answer.
pub mod probes {
    use pactum::{route, Endpoint, NoBody, NoParams, NoQuery};
    use serde::{Deserialize, Serialize};
    use validator::Validate;

    /// What a probe answers: `{"status": "ok"}` or `{"status": "ready"}`.
    #[derive(Debug, Serialize, Deserialize, Validate)]
    pub struct Status {
        /// `ok` or `ready`.
        pub status: String,
    }

    /// `GET /health`: 200 while the process serves (liveness).
    pub fn health() -> Endpoint<NoParams, NoQuery, NoBody, Status> {
        Endpoint::get(route!("/health"))
            .response::<Status>()
            .summary("The process serves")
            .build()
            .expect("a literal contract")
    }

    /// `GET /ready`: 200 when the database answers, 503 when it does not (readiness).
    pub fn ready() -> Endpoint<NoParams, NoQuery, NoBody, Status> {
        Endpoint::get(route!("/ready"))
            .response::<Status>()
            .summary("The database answers")
            .build()
            .expect("a literal contract")
    }
}

/// Every handler of the todo API over `pool`: each gets the pool as typed state, and the
/// writes the demo's [`auth`] provider (a [`Writer`]; anything but `Bearer demo-token` is a
/// 401 before the body is read). And the [`probes`].
pub fn handlers(pool: SqlitePool) -> Vec<AnyHandler> {
    let health = pactum::handler(probes::health(), |_| async {
        Ok(probes::Status {
            status: "ok".into(),
        })
    });
    let ready =
        bind(probes::ready())
            .state(pool.clone())
            .to(|_: Ctx, (pool,): (SqlitePool,)| async move {
                sqlx::query("SELECT 1").execute(&pool).await.map_err(|e| {
                    pactum::Error::from(
                        HttpError::service_unavailable("Database unavailable").with_source(e),
                    )
                })?;
                Ok(probes::Status {
                    status: "ready".into(),
                })
            });
    let auth = auth();
    let list = bind(contract::list()).state(pool.clone()).to(
        |ctx: Ctx<NoParams, ListQuery>, (pool,): (SqlitePool,)| async move {
            let q = ctx.query;
            // One read transaction: the page and the total see the same todos.
            let mut tx = pool.begin().await.map_err(db_error)?;
            let total: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM todos WHERE ?1 IS NULL OR done = ?1")
                    .bind(q.done)
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(db_error)?;
            let rows: Vec<TodoRow> = sqlx::query_as(
                "SELECT id, title, done FROM todos WHERE ?1 IS NULL OR done = ?1 \
                 ORDER BY id LIMIT ?2 OFFSET ?3",
            )
            .bind(q.done)
            .bind(q.limit)
            .bind(q.offset)
            .fetch_all(&mut *tx)
            .await
            .map_err(db_error)?;
            tx.commit().await.map_err(db_error)?;
            Ok(TodoPage {
                items: rows
                    .into_iter()
                    .map(Todo::try_from)
                    .collect::<Result<_, _>>()?,
                total: usize::try_from(total).map_err(internal)?,
            })
        },
    );
    let create = bind(contract::create())
        .state(pool.clone())
        .provide(auth.clone())
        .to(
            |ctx: Ctx<NoParams, NoQuery, NewTodo>, (pool, _writer): (SqlitePool, Writer)| async move {
                let row: TodoRow = sqlx::query_as(
                    "INSERT INTO todos (title, done) VALUES (?1, ?2) RETURNING id, title, done",
                )
                .bind(&ctx.body.title)
                .bind(ctx.body.done)
                .fetch_one(&pool)
                .await
                .map_err(db_error)?;
                let todo = Todo::try_from(row)?;
                let location = format!("/todos/{}", todo.id);
                ctx.response.insert_header(
                    pactum::http::header::LOCATION,
                    location.parse().map_err(internal)?,
                );
                Ok(todo)
            },
        );
    let get = bind(contract::get()).state(pool.clone()).to(
        |ctx: Ctx<TodoId>, (pool,): (SqlitePool,)| async move {
            let id = row_id(ctx.params.id).ok_or_else(not_found)?;
            let row: Option<TodoRow> =
                sqlx::query_as("SELECT id, title, done FROM todos WHERE id = ?1")
                    .bind(id)
                    .fetch_optional(&pool)
                    .await
                    .map_err(db_error)?;
            row.ok_or_else(not_found).and_then(Todo::try_from)
        },
    );
    let update = bind(contract::update())
        .state(pool.clone())
        .provide(auth.clone())
        .to(
            |ctx: Ctx<TodoId, NoQuery, TodoPatch>, (pool, _writer): (SqlitePool, Writer)| async move {
                let id = row_id(ctx.params.id).ok_or_else(not_found)?;
                // A field the patch leaves out keeps its value.
                let row: Option<TodoRow> = sqlx::query_as(
                    "UPDATE todos SET title = COALESCE(?1, title), done = COALESCE(?2, done) \
                     WHERE id = ?3 RETURNING id, title, done",
                )
                .bind(ctx.body.title)
                .bind(ctx.body.done)
                .bind(id)
                .fetch_optional(&pool)
                .await
                .map_err(db_error)?;
                row.ok_or_else(not_found).and_then(Todo::try_from)
            },
        );
    let delete = bind(contract::delete()).state(pool).provide(auth).to(
        |ctx: Ctx<TodoId>, (pool, _writer): (SqlitePool, Writer)| async move {
            let id = row_id(ctx.params.id).ok_or_else(not_found)?;
            let deleted = sqlx::query("DELETE FROM todos WHERE id = ?1")
                .bind(id)
                .execute(&pool)
                .await
                .map_err(db_error)?;
            if deleted.rows_affected() == 0 {
                return Err(not_found());
            }
            Ok(NoContent)
        },
    );
    vec![
        health.into(),
        ready.into(),
        list.into(),
        create.into(),
        get.into(),
        update.into(),
        delete.into(),
    ]
}
