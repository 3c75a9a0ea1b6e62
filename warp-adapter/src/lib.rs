//! Serve pactum contracts as warp filters (under construction).
