//! The other routes: health, routing (pattern and catch-all params), nested validation, timing.

use pactum::schemars::{self, JsonSchema};
use pactum::validator::Validate;
use pactum::{route, Endpoint, NoBody, NoParams, NoQuery, Params};
use serde::{Deserialize, Serialize};

use super::built;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct Health {
    pub status: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema, Params)]
pub struct RepoPath {
    pub org: String,
    pub repo: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema, Params)]
pub struct FilePath {
    pub path: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct EchoItem {
    #[validate(length(min = 1, max = 20))]
    pub sku: String,
    #[validate(range(min = 1, max = 99))]
    pub qty: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct Echo {
    #[validate(length(min = 1), nested)]
    pub items: Vec<EchoItem>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(length(max = 200))]
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct SlowQuery {
    #[validate(range(min = 0, max = 10000))]
    pub ms: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate, JsonSchema)]
pub struct Slept {
    pub slept: u64,
}

pub fn health() -> Endpoint<NoParams, NoQuery, NoBody, Health> {
    built(
        Endpoint::get(route!("/health"))
            .response::<Health>()
            .name("health")
            .summary("Liveness probe")
            .tag("ops")
            .build(),
    )
}

pub fn get_repo() -> Endpoint<RepoPath, NoQuery, NoBody, RepoPath> {
    built(
        Endpoint::get(route!("/orgs/:org/repos/:repo"))
            .params::<RepoPath>()
            .response::<RepoPath>()
            .name("getRepo")
            .summary("Echo two percent-decoded path params")
            .tag("routing")
            .build(),
    )
}

pub fn get_file() -> Endpoint<FilePath, NoQuery, NoBody, FilePath> {
    built(
        Endpoint::get(route!("/files/*path"))
            .params::<FilePath>()
            .response::<FilePath>()
            .name("getFile")
            .summary("Echo a catch-all path param")
            .tag("routing")
            .build(),
    )
}

pub fn echo() -> Endpoint<NoParams, NoQuery, Echo, Echo> {
    built(
        Endpoint::post(route!("/echo"))
            .body::<Echo>()
            .response::<Echo>()
            .name("echo")
            .summary("Echo a validated body")
            .tag("validation")
            .build(),
    )
}

pub fn slow() -> Endpoint<NoParams, SlowQuery, NoBody, Slept> {
    built(
        Endpoint::get(route!("/slow"))
            .query::<SlowQuery>()
            .response::<Slept>()
            .name("slow")
            .summary("Answer after a delay")
            .tag("ops")
            .build(),
    )
}
