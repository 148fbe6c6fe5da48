//! The m,n,k-game (tic-tac-toe family). Not written yet.
