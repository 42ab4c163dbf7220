package httpapi

// T-3 "drawn by the server" with no background job: a round's start is its
// lineup deadline, and once it has passed, the first request that reads the
// round (GET rounds/{n}), submits a lineup for it or asks to pair the next
// round draws every lineup still missing — as flags fall on read for games
// (C-4). The draw is a pure function of event, round, team and roster
// (tournament.LineupSeed), and each write carries the round item's version
// and creates the lineup items only if absent, so of two requests drawing at
// once one writes and the other rereads the event and finds the matches set:
// every match is set exactly once.
