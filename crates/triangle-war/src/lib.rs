//! Triangle War (POJ 1085). Not written yet.
