//! Execution of compiled programs over batches of lanes (issue 3).
