// Package standings ranks the players and teams of a Xiangqi event: it turns
// results into points (K-1, T-7), applies byes (S-7) and round-robin
// withdrawals (S-6), and orders the table with the tie-break chains of the
// rule book (R-1…R-11; seed 001 §13–14, seed 000 ch.7 §2.3). It is pure: it
// knows nothing of storage or HTTP and imports only the standard library,
// the rules engine's colour type and result.Result, the core's one result
// type (shared/result), which every game and board result here is.
//
// Points and tie-break values are integers. Where a rule halves a score
// (小分 counts half of a drawn opponent's score, S-7 may halve a bye's
// 对手分) the value is kept doubled and carried with its denominator, so
// nothing is ever rounded; see Tiebreak.
//
// Where each concept lives: event.go the input (players, games, byes,
// withdrawals); scoring.go points (K-1); criteria.go the tie-break chains
// (R-1…R-11); rank.go tie-break values; table.go the ranked table;
// crosstable.go the crosstable; team.go team tables, boards and
// teams-by-places (T-7, R-5…R-9).
package standings
