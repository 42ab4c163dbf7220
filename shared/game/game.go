// Package game is the xiangqi game state machine: moves in any notation, the
// clock, draw offers, resignation, claims, officials' rulings and records
// (C-*, D-*, G-*, O-*). It is pure: time comes in as "now" (Unix ms), the
// HTTP layer checks tokens and stores the game, which packs into one small
// binary item (MarshalBinary).
//
// Every operation first settles the clock: if the side to move's time ran out
// before now, the game is lost on time (C-3) before anything else happens, so a
// refused operation may still have changed the game. Callers compare Version
// before and after and store the game when it moved.
//
// Refusals are *RuleError, the core's one refusal type rulebook.RuleError,
// with this package's codes (errors.go). A game's result is result.Result,
// the core's one result type (shared/result); this package keeps its Reason.
// Rules (rules.go) is the one rules type: an event's settings embed it
// (tournament.Rules) and hand it to every game as it is.
//
// Where each concept lives: game.go the Game and its moves and clock;
// draw.go draw offers and claims (D-*); rulings.go officials' rulings,
// penalties, recorded results and the log (O-*); result.go results,
// reasons and statuses; rules.go the game's Rules (G-6 repetition, illegal
// moves, draw offers); actor.go who acts (player, scribe, arbiter,
// organiser); view.go the game as shown; encode.go its binary form;
// record.go and load.go game records out and in; errors.go the codes.
package game

import (
	"errors"
	"fmt"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// Game is one game. Build it with New or UnmarshalBinary; the zero value is
// not usable. Its methods are not safe for concurrent use: the store
// serialises writes with a conditional put on Version.
type Game struct {
	startFEN string // "" for the standard start
	rules    Rules
	clk      clock.State
	startMs  int64 // when the first clock starts: the round's start (C-6); 0 until the round starts

	lateLimitMs int64    // C-6 迟到判负时限; 0: forfeits only by ruling
	arrived     [2]bool  // arrivals recorded with Arrive, by colour
	arrivedAt   [2]int64 // Unix ms

	moves []xiangqi.Move
	times []int64 // times[i]: Unix ms when moves[i] was played

	awaitingPress bool // the last mover has not pressed yet (C-1)
	status        Status
	result        result.Result
	reason        Reason
	endedAt       int64

	offer         offer
	fouls         [2]int
	rulingAskedBy int8 // G-6 请裁: -1 nobody, else the colour that asked

	log     []LogEntry
	version uint64
	seal    sealed      // an adjourned game's sealed move (C-7)
	signs   []Signature // the scoresheet's lines signed so far (O-3)

	// Derived by replaying the moves; never stored.
	pos    *xiangqi.Position
	hashes []uint64 // hashes[i]: the position after i moves
	base   int      // moves played when the last capture was made (repetition can't reach past it)
}

// offer is the draw-offer state (D-1…D-5).
type offer struct {
	pending bool
	by      xiangqi.Color
	ply     int  // moves played when it was made
	made    int  // offers made in the game (D-4)
	last    int8 // -1 nobody yet, else the colour of the last offer (D-2)
}

// Setup is what a new game needs.
type Setup struct {
	// FEN is the start position; "" means the standard start.
	FEN     string
	Control clock.Control
	Rules   Rules
	// StartMs is when the side to move's clock starts: the round's start for
	// an event game, so a late player's time runs from it (C-6); the creation
	// time for a standalone game. 0 means the round has not started and has
	// no start time yet: the clocks stand still, no player acts, until Start.
	StartMs int64
	// LateLimitMs is the event's late-arrival limit (C-6 迟到判负时限): a side
	// whose arrival has not been recorded (Arrive) by StartMs+LateLimitMs and
	// that has not moved forfeits, both sides a double forfeit. 0 leaves
	// forfeits to the arbiter's lateForfeit ruling; set it only where
	// arrivals are recorded (scribes), or a present player who never called
	// Arrive would forfeit.
	LateLimitMs int64
}

// New starts a game. Errors are *RuleError with code invalid_argument.
func New(s Setup) (*Game, error) {
	if err := s.Control.Validate(); err != nil {
		return nil, &RuleError{Code: CodeInvalidArgument, Rule: "C-2", Message: err.Error(), Err: err}
	}
	if err := s.Rules.Validate(); err != nil {
		return nil, &RuleError{Code: CodeInvalidArgument, Message: err.Error(), Err: err}
	}
	fen := s.FEN
	if fen == xiangqi.StartFEN {
		fen = ""
	}
	if s.LateLimitMs < 0 || s.LateLimitMs > clock.MaxPeriodMs {
		return nil, refuse(CodeInvalidArgument, "C-6", "the late-arrival limit must be 0…%d ms", int64(clock.MaxPeriodMs))
	}
	g := &Game{startFEN: fen, rules: s.Rules, startMs: s.StartMs, lateLimitMs: s.LateLimitMs, rulingAskedBy: -1}
	g.offer.last = -1
	if err := g.replay(); err != nil {
		var fe *xiangqi.FENError
		rule := ""
		if errors.As(err, &fe) {
			rule = fe.Rule
		}
		return nil, &RuleError{Code: CodeInvalidArgument, Rule: rule, Message: err.Error(), Err: err}
	}
	if g.startFEN != "" {
		// Keep the start as the engine writes it, so records are canonical.
		g.startFEN = g.pos.FEN()
	}
	g.clk = clock.New(s.Control)
	if s.StartMs != 0 {
		g.clk = g.clk.Start(clock.Side(g.pos.SideToMove()), s.StartMs)
	}
	if st := g.pos.Status(); st != xiangqi.Ongoing {
		return nil, refuse(CodeInvalidArgument, "G-1", "the start position is already %v", st)
	}
	return g, nil
}

// replay rebuilds the position and the hashes from the start and the moves.
func (g *Game) replay() error {
	var err error
	if g.pos, err = g.positionAt(0); err != nil {
		return err
	}
	g.hashes = make([]uint64, 1, len(g.moves)+16)
	g.hashes[0] = g.pos.Hash()
	g.base = 0
	for i, m := range g.moves {
		// Stored moves were legal when played; Play checks them again so a
		// damaged item is an error, never a corrupt board.
		captures := g.pos.Captured(m) != xiangqi.NoPiece
		if err := g.pos.Play(m); err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
		g.hashes = append(g.hashes, g.pos.Hash())
		if captures {
			g.base = i + 1
		}
	}
	return nil
}

// Version counts the changes to the game; the store uses it for conditional
// writes, and a caller compares it around an operation to know whether to
// store the game even when the operation was refused (a flag fell, a foul was
// recorded).
func (g *Game) Version() uint64 { return g.version }

// Status returns whether the game is being played, pending a ruling or over.
func (g *Game) Status() Status { return g.status }

// Result returns the result and its reason (result.None while playing).
func (g *Game) Result() (result.Result, Reason) { return g.result, g.reason }

// Ply returns the number of moves played in this game.
func (g *Game) Ply() int { return len(g.moves) }

// Position returns a copy of the current position.
func (g *Game) Position() *xiangqi.Position { return g.pos.Clone() }

// Moves returns a copy of the moves played.
func (g *Game) Moves() []xiangqi.Move { return append([]xiangqi.Move(nil), g.moves...) }

// MoveTimes returns when each move was played (Unix ms), for records that
// show the time per move.
func (g *Game) MoveTimes() []int64 { return append([]int64(nil), g.times...) }

// Log returns a copy of the rulings log.
func (g *Game) Log() []LogEntry { return append([]LogEntry(nil), g.log...) }

// AwaitingPress reports whether the last mover has not pressed its clock yet (C-1).
func (g *Game) AwaitingPress() bool { return g.awaitingPress }

// Clock returns the clock state (a value; changing it changes nothing here).
func (g *Game) Clock() clock.State { return g.clk }

// Rules returns the game's event options.
func (g *Game) Rules() Rules { return g.rules }

// StartsAt returns when the game's first clock starts (Unix ms): the round's
// start; 0 while the round has neither started nor a start time.
func (g *Game) StartsAt() int64 { return g.startMs }

// Started reports whether the game's clocks run by now: its round has
// started (C-1, C-6). Before that no player moves, presses, offers, resigns
// or claims; arrivals and officials' rulings are recorded.
func (g *Game) Started(now int64) bool { return g.startMs != 0 && now >= g.startMs }

// Start starts the game's round at now: the side to move's clock runs from
// now, and late arrival counts from now (C-6). A game whose round had a later
// start time starts now instead; a game whose round has already started, or
// that is over, is refused (code round_already_started, game_over).
func (g *Game) Start(now int64) error {
	if g.status == Over {
		return refuse(CodeGameOver, "", "the game is over: %v by %v", g.result, g.reason)
	}
	if g.Started(now) {
		return refuse(CodeRoundAlreadyStarted, "C-6", "the game's clocks have run since %d", g.startMs)
	}
	g.startMs = now
	g.clk = g.clk.Start(clock.Side(g.pos.SideToMove()), now)
	g.version++
	return nil
}

// checkStarted refuses a player's action before the round starts: the first
// clock starts with the round, and a piece moves only once its side's clock
// runs (C-1, 000 ch.7 §1: 计时进入己方计时器后，方可动棋子).
func (g *Game) checkStarted(now int64) *RuleError {
	switch {
	case g.startMs == 0:
		return refuse(CodeRoundNotStarted, "C-1", "the round has not started: the clocks start when the organiser or an arbiter starts it")
	case now < g.startMs:
		return refuse(CodeRoundNotStarted, "C-1", "the round has not started: the clocks start at the round's start, in %d ms", g.startMs-now)
	}
	return nil
}

// checkPlay is checkOpen for a player's action: it also refuses one made
// before the round starts.
func (g *Game) checkPlay(now int64, allowPending bool) *RuleError {
	if err := g.checkOpen(now, allowPending); err != nil {
		return err
	}
	return g.checkStarted(now)
}

// Settle applies what the passing of time has decided by now: a side whose
// time ran out before completing its period's moves loses (C-3), even if it
// has moved and not pressed — unless neither player had arrived by then, when
// the result waits for the opponent's arrival or the late limit (C-6). It
// reports whether the game changed. Every operation calls it first; View
// shows its effect without changing the game.
func (g *Game) Settle(now int64) bool {
	if g.status != Playing {
		return false
	}
	side, at, flagged := g.clk.Flagged(now)
	if flagged && g.bothAbsentAt(at) {
		// C-6 第2条: the first mover's time ran out before either player sat
		// down. It has lost; whether its opponent wins waits for the
		// opponent's arrival — by the limit it wins on time, after it both
		// forfeit (双方弃权), never a win for an absent player.
		opp := xiangqi.Color(side).Opponent()
		lateAt := g.startMs + g.lateLimitMs
		switch {
		case g.arrived[opp] && g.arrivedAt[opp] <= lateAt:
			g.end(at, winFor(opp), Time)
		case now >= lateAt:
			g.end(lateAt, result.DoubleForfeit, Forfeit)
		default:
			return false
		}
		return true
	}
	if r, lateAt, late := g.lateForfeit(now); late && (!flagged || lateAt <= at) {
		g.end(lateAt, r, Forfeit)
		return true
	}
	if !flagged {
		return false
	}
	g.end(at, winFor(xiangqi.Color(side).Opponent()), Time)
	return true
}

// lateForfeit returns the C-6 forfeit that has fallen by now, if any.
func (g *Game) lateForfeit(now int64) (result.Result, int64, bool) {
	at := g.startMs + g.lateLimitMs
	if g.lateLimitMs == 0 || g.startMs == 0 || now < at {
		return result.None, 0, false
	}
	var late [2]bool
	for c := xiangqi.Red; c <= xiangqi.Black; c++ {
		late[c] = !(g.arrived[c] && g.arrivedAt[c] <= at) && g.movesBy(c) == 0
	}
	switch {
	case late[xiangqi.Red] && late[xiangqi.Black]:
		return result.DoubleForfeit, at, true
	case late[xiangqi.Red]:
		return result.BlackByForfeit, at, true
	case late[xiangqi.Black]:
		return result.RedByForfeit, at, true
	}
	return result.None, 0, false
}

// bothAbsentAt reports whether, at a flag at the given time before the
// late-arrival limit, no move had been made and neither player's arrival had
// been recorded (C-6).
func (g *Game) bothAbsentAt(at int64) bool {
	if g.lateLimitMs == 0 || at >= g.startMs+g.lateLimitMs || len(g.moves) > 0 {
		return false
	}
	for c := range g.arrived {
		if g.arrived[c] && g.arrivedAt[c] <= at {
			return false
		}
	}
	return true
}

// Arrive records that by.Side's player has taken its seat (a player for
// itself, a scribe or an arbiter for by.Side). The side to move's clock has
// been running since the round's start; the other side's starts when it is
// its turn (000 ch.2 §3 第1条). When both players arrive late, both late times
// are deducted (第2条): the second side's lateness, less what its clock ran
// before it arrived, comes off its clock when the second arrival is recorded,
// logged as a clock ruling. Recording an arrival twice changes nothing.
func (g *Game) Arrive(now int64, by Actor) error {
	if by.Role == Organiser {
		return refuse(CodeForbidden, "O-1", "an organiser does not record arrivals")
	}
	if err := g.checkOpen(now, true); err != nil {
		return err
	}
	side := by.Side
	if g.arrived[side] {
		return nil
	}
	g.arrived[side], g.arrivedAt[side] = true, now
	g.version++
	g.deductBothLate(now, by)
	g.Settle(now) // a deduction may flag; an arrival may decide a waiting flag
	return nil
}

// deductBothLate takes the second side's lateness off its clock when both
// players arrived late (000 ch.2 §3 第2条), logged as a clock ruling.
func (g *Game) deductBothLate(now int64, by Actor) {
	first := g.startSide()
	second := first.Opponent()
	if !g.Started(now) || !g.arrived[first] || !g.arrived[second] || g.arrivedAt[first] <= g.startMs || g.arrivedAt[second] <= g.startMs {
		return
	}
	f := g.clk.Face(clock.Side(second), now)
	deduct := g.arrivedAt[second] - g.startMs - f.UsedMs
	if deduct <= 0 || g.clk.Control.Untimed() {
		return
	}
	r := Ruling{Kind: RulingClock, Side: second, RemainingMs: f.RemainingMs - deduct,
		Note: fmt.Sprintf("both players late: %d ms of %s's late arrival deducted (C-6)", deduct, second)}
	g.clk = g.clk.Correct(now, clock.Side(second), r.RemainingMs)
	g.logRuling(now, by, r)
}

// startSide returns the side that moved first in this game.
func (g *Game) startSide() xiangqi.Color {
	c := g.pos.SideToMove()
	if len(g.moves)%2 == 1 {
		c = c.Opponent()
	}
	return c
}

// settled returns a copy of g settled at now, for reads that show a fallen
// flag without changing the game. Settle touches only scalar fields and the
// clock value, so the copy may share the slices.
func (g *Game) settled(now int64) *Game {
	s := *g
	s.Settle(now)
	return &s
}

// end records the result at now and stops the clocks.
func (g *Game) end(now int64, r result.Result, why Reason) {
	g.clk = g.clk.Stop(now)
	g.status = Over
	g.result, g.reason, g.endedAt = r, why, now
	g.offer.pending = false
	g.awaitingPress = false
	g.seal = sealed{} // a game decided while adjourned has no move to resume
	g.version++
}

// lastMover returns the side that made the last move of the position.
func (g *Game) lastMover() xiangqi.Color { return g.pos.SideToMove().Opponent() }

// checkOpen settles the clock and refuses finished or stopped games.
func (g *Game) checkOpen(now int64, allowPending bool) *RuleError {
	g.Settle(now)
	switch {
	case g.status == Over:
		return refuse(CodeGameOver, "", "the game is over: %v by %v", g.result, g.reason)
	case g.status == PendingRuling && !allowPending:
		return refuse(CodePendingRuling, "G-6", "the clocks are stopped for a repetition ruling")
	}
	return nil
}

// Move plays text, in any notation the rules engine reads (N-4), for the side
// to move. ply is the number of moves the client has seen; another number is
// stale (code stale_ply). press presses the clock in the same step (online
// clients); otherwise the mover's clock runs until Press (C-1). A move
// declines the opponent's pending draw offer (D-3). Checkmate and stalemate
// end the game at once (G-1), as does a dead position when the event says so
// (G-4); repetition follows the rule set (G-6).
//
// An illegal move is refused with its rule and changes nothing, unless it is
// of B-10's kinds (own capture, own general left in check, facing generals)
// and the event counts those as fouls (code illegal_move_foul: the foul is
// recorded, the third loses) or as losses (code illegal_move_loss) (G-2).
func (g *Game) Move(now int64, by Actor, text string, ply int, press bool) error {
	if err := g.checkPlay(now, false); err != nil {
		return err
	}
	if err := g.checkNotAdjourned(); err != nil {
		return err
	}
	mover := g.pos.SideToMove()
	if _, err := playerSide(by, "move"); err != nil {
		return err
	}
	if side, _, flagged := g.clk.Flagged(now); flagged {
		// Only a flag that waits on the opponent's arrival (C-6) is still open.
		return refuse(CodeNotYourTurn, "C-3", "%s's time ran out before either player arrived; the result waits for %s's arrival or the late limit (C-6)",
			xiangqi.Color(side), xiangqi.Color(side).Opponent())
	}
	if ply != len(g.moves) {
		return refuse(CodeStalePly, "", "the game is at ply %d, not %d", len(g.moves), ply)
	}
	if err := checkActsFor(by, mover, "move"); err != nil {
		return err
	}
	if g.awaitingPress {
		return refuse(CodeNotPressed, "C-1", "%s has moved but not pressed its clock", g.lastMover())
	}
	m, err := notation.ParseAny(g.pos, text)
	if err != nil {
		return g.refuseMove(now, by, mover, text, err)
	}
	g.play(now, m)
	if press && g.status == Playing {
		return g.press(now)
	}
	return nil
}

// refuseMove turns a parse error into the refusal, applying G-2 when the text
// named a move the rules forbid.
func (g *Game) refuseMove(now int64, by Actor, mover xiangqi.Color, text string, err error) error {
	var ime *xiangqi.IllegalMoveError
	if !errors.As(err, &ime) {
		return &RuleError{Code: CodeUnreadableMove, Rule: "N-4", Message: err.Error(), Err: err}
	}
	re := &RuleError{Code: CodeIllegalMove, Rule: ime.Rule, Message: ime.Reason, Err: err}
	if !ime.SelfHarm {
		// G-2 counts only B-10's kinds (000 ch.2 §4: capturing one's own
		// piece, leaving one's general in check, facing generals); a horse
		// over its leg or a typo for an empty point is refused, never a foul.
		return re
	}
	switch g.rules.IllegalMoves {
	case IllegalIsFoul:
		re.Code = CodeIllegalMoveFoul
		g.foul(now, by, mover, fmt.Sprintf("illegal move %s: %s (%s)", text, ime.Reason, ime.Rule))
	case IllegalLoses:
		re.Code = CodeIllegalMoveLoss
		g.logRuling(now, by, Ruling{Kind: RulingFoul, Side: mover,
			Note: fmt.Sprintf("illegal move %s: %s (%s)", text, ime.Reason, ime.Rule)})
		g.end(now, winFor(mover.Opponent()), IllegalMove)
	}
	return re
}

// play applies the legal move m at now and everything that follows from it.
func (g *Game) play(now int64, m xiangqi.Move) {
	mover := g.pos.SideToMove()
	captures := g.pos.Captured(m) != xiangqi.NoPiece
	if err := g.pos.Play(m); err != nil {
		panic("game: notation returned an illegal move: " + err.Error()) // notation guarantees legality
	}
	g.moves = append(g.moves, m)
	g.times = append(g.times, now)
	g.hashes = append(g.hashes, g.pos.Hash())
	if captures {
		g.base = len(g.moves)
	}
	g.awaitingPress = true
	g.version++
	if g.offer.pending && g.offer.by != mover {
		// D-3: the opponent's move declines (000 ch.7 §1 4: 对方…走出轮走的一着棋).
		// The offerer's own move after a G-4 offer made before moving is no
		// answer: the offer stands until the opponent gives one.
		g.offer.pending = false
	}
	switch g.pos.Status() {
	case xiangqi.Checkmate:
		g.end(now, winFor(mover), Checkmate)
		return
	case xiangqi.Stalemate:
		g.end(now, winFor(mover), Stalemate)
		return
	}
	if g.rules.DeadPositionDraw && g.pos.DeadPosition() {
		g.end(now, result.Draw, DeadPosition)
		return
	}
	g.applyRepetition(now)
}

// applyRepetition enforces the rule set after a move (G-6).
func (g *Game) applyRepetition(now int64) {
	switch g.rules.Repetition {
	case ArbiterRuling:
		if rep := g.repetition(false); rep.Cycles >= PendingRulingCycles {
			g.pend(now)
		}
	case ThreefoldDraw, PerpetualCheckLoses:
		if g.occurrences() < 3 {
			return
		}
		rep := g.repetition(false)
		if g.rules.Repetition == PerpetualCheckLoses && rep.PerpetualCheck[0] != rep.PerpetualCheck[1] {
			loser := xiangqi.Red
			if rep.PerpetualCheck[xiangqi.Black] {
				loser = xiangqi.Black
			}
			g.end(now, winFor(loser.Opponent()), PerpetualCheck)
			return
		}
		g.end(now, result.Draw, Threefold)
	}
}

// pend stops the clocks for a repetition ruling (G-6 待判局面).
func (g *Game) pend(now int64) {
	g.clk = g.clk.Stop(now)
	g.status = PendingRuling
	g.version++
}

// occurrences counts how often the current position has stood on the board
// since the last capture, this time included.
func (g *Game) occurrences() int {
	n := len(g.moves)
	cur, c := g.hashes[n], 0
	for i := n; i >= g.base; i-- {
		if g.hashes[i] == cur {
			c++
		}
	}
	return c
}

// repetition returns the repetition facts for the current position (G-6),
// by the definition of xiangqi.Repetition: cycle length, complete cycles, where
// the repeated stretch begins, and who checked with every move of it. Cycles
// and checks come from the stored hashes and a MakeMove replay, so a move
// costs a few microseconds even in a repetition; the chase facts need the
// engine's History (a full legality check per move) and are computed only
// when chase is set — for the arbiters' view.
func (g *Game) repetition(chase bool) xiangqi.Repetition {
	var r xiangqi.Repetition
	n := len(g.moves)
	cur, prev := g.hashes[n], -1
	for i := n - 4; i >= g.base; i-- { // a position cannot recur in fewer than 4 plies
		if g.hashes[i] == cur {
			prev = i
			break
		}
	}
	if prev < 0 {
		return r
	}
	L := n - prev
	start := prev
	for start > g.base && g.hashes[start-1] == g.hashes[start-1+L] {
		start--
	}
	r.CycleLength, r.Cycles, r.Since = L, (n-start)/L, start
	p, err := g.positionAt(start)
	if err != nil {
		return xiangqi.Repetition{}
	}
	moved, checked := [2]bool{}, [2]bool{true, true}
	for _, m := range g.moves[start:] {
		c := p.SideToMove()
		p.MakeMove(m)
		moved[c] = true
		checked[c] = checked[c] && p.InCheck()
	}
	for c := range moved {
		r.PerpetualCheck[c] = moved[c] && checked[c]
	}
	if chase {
		r.PerpetualChase, r.Chased = g.chaseFacts()
	}
	return r
}

// breakingMoves finds, for each side, whether it could have broken the
// cycle of the last L plies (G-6, 000 ch.8 新的规定: 运子后,下一着不致被将死。
// 则应化解循环局面): at one of its moves in the cycle, another legal move
// after which no reply of the opponent leaves it without a legal move (mated
// or 困毙, both lost by G-1). It returns the first such move per side in
// ICCS. A cycle is at most a few dozen plies and the first safe deviation
// usually ends the search, so this costs a few move generations per ply.
func (g *Game) breakingMoves(L int) (could [2]bool, moves [2]string) {
	n := len(g.moves)
	if L <= 0 || L > n-g.base {
		return could, moves
	}
	p, err := g.positionAt(n - L)
	if err != nil {
		return could, moves
	}
	var buf, replies []xiangqi.Move
	for _, played := range g.moves[n-L:] {
		c := p.SideToMove()
		if !could[c] {
			buf = p.AppendLegalMoves(buf[:0])
			for _, alt := range buf {
				if alt == played {
					continue
				}
				u := p.MakeMove(alt)
				safe := true
				replies = p.AppendLegalMoves(replies[:0])
				for _, r := range replies {
					u2 := p.MakeMove(r)
					lost := len(p.LegalMoves()) == 0
					p.UnmakeMove(r, u2)
					if lost {
						safe = false
						break
					}
				}
				p.UnmakeMove(alt, u)
				if safe {
					could[c], moves[c] = true, alt.String()
					break
				}
			}
		}
		p.MakeMove(played)
	}
	return could, moves
}

// chaseFacts replays the moves since the last capture through the engine's
// History for its perpetual-chase facts.
func (g *Game) chaseFacts() (chase [2]bool, chased [2][]xiangqi.Square) {
	start, err := g.positionAt(g.base)
	if err != nil {
		return chase, chased
	}
	h := xiangqi.NewHistory(start)
	for _, m := range g.moves[g.base:] {
		if h.Play(m) != nil {
			return chase, chased
		}
	}
	r := h.Repetition()
	return r.PerpetualChase, r.Chased
}

// positionAt returns the position after k moves.
func (g *Game) positionAt(k int) (*xiangqi.Position, error) {
	p := xiangqi.NewPosition()
	if g.startFEN != "" {
		var err error
		if p, err = xiangqi.ParseFEN(g.startFEN); err != nil {
			return nil, err
		}
	}
	for _, m := range g.moves[:k] {
		p.MakeMove(m)
	}
	return p, nil
}

// Press presses the clock of the side that has just moved (C-1): its move is
// complete and the opponent's clock starts. A press after its time ran out
// loses on time instead (C-3), which Settle has already decided.
func (g *Game) Press(now int64, by Actor) error {
	if err := g.checkPlay(now, false); err != nil {
		return err
	}
	if err := g.checkNotAdjourned(); err != nil {
		return err
	}
	if !g.awaitingPress {
		return refuse(CodeNothingToPress, "C-1", "no move waits for a clock press")
	}
	if err := checkActsFor(by, g.lastMover(), "press the clock"); err != nil {
		return err
	}
	return g.press(now)
}

func (g *Game) press(now int64) error {
	c, err := g.clk.Press(now)
	if err != nil && !errors.Is(err, clock.ErrNotRunning) {
		// Settle ran with the same now, so the flag cannot fall here.
		return &RuleError{Code: CodeGameOver, Rule: "C-3", Message: err.Error(), Err: err}
	}
	if err != nil {
		// A clock stopped by an official (C-5) restarts with the opponent.
		c = g.clk.Start(clock.Side(g.pos.SideToMove()), now)
	}
	g.clk = c
	g.awaitingPress = false
	g.version++
	return nil
}

// Resign ends the game as a loss for the resigning side (G-2). A player
// resigns for itself; a scribe records a resignation for by.Side.
func (g *Game) Resign(now int64, by Actor) error {
	if err := g.checkPlay(now, true); err != nil {
		return err
	}
	side, err := playerSide(by, "resign for a player")
	if err != nil {
		return err
	}
	g.end(now, winFor(side.Opponent()), Resignation)
	return nil
}
