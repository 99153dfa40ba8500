//! std::io adapters.
