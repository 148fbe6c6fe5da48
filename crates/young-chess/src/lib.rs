//! The Young-diagram game (LOJ 2471). Not written yet.
