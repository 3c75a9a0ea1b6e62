//! The typed pactum client (under construction).
