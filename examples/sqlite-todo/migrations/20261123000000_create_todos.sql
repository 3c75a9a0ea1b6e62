-- The todos. `id` is SQLite's rowid; AUTOINCREMENT never hands out a deleted todo's id again,
-- as the in-memory demo never does. Titles are unique: a second todo with the same title is
-- answered 409 Conflict.
CREATE TABLE todos (
    id    INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT    NOT NULL UNIQUE,
    done  BOOLEAN NOT NULL DEFAULT FALSE CHECK (done IN (0, 1))
);

-- `GET /todos?done=...` filters on it.
CREATE INDEX todos_done ON todos (done, id);
