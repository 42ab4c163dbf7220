package items

// RoundHead is the stored shape of a round's head item (T#<tid>/R#<nnnn>)
// since rounds are staged (shared/store's parts.go): what changes after the
// round is paired without changing its tables — its start, and the mark
// that its games exist — kept in the small head, so that setting either
// writes the head alone and never the round's body again. The body (the
// pairings, byes, explanations, audit) is the staged document beside it,
// the round as it was stored whole before, with these two fields at zero.
// Round items written whole before (no build) have no head shape: their
// document is the round.
type RoundHead struct {
	StartsAt   int64 `json:"s,omitempty"`
	GamesReady bool  `json:"g,omitempty"`
}
