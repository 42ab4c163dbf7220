package game

import (
	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// View is the game as GET /games/{gid} shows it at one instant.
type View struct {
	FEN        string
	SideToMove xiangqi.Color
	Ply        int
	Moves      []string // ICCS, from the start
	LegalMoves []string // ICCS; empty unless the game is being played (its round started)
	StartFEN   string   // the start position (xiangqi.StartFEN for the standard one)
	InCheck    bool     // the side to move's general is in check

	// StartsAt is when the first clock starts, the round's start (Unix ms);
	// 0 while the round has neither started nor a start time. Started says
	// whether it has passed: before it no clock runs and no player acts (C-1).
	StartsAt int64
	Started  bool

	Control       clock.Control
	Clock         clock.Reading // as of now: remaining, period, moves due, running
	AwaitingPress bool          // the last mover has not pressed (C-1)

	Draw       DrawView
	Repetition RepetitionView
	Fouls      [2]int // by colour (G-2)
	// NoCaptureMoves is the count of rounds without a capture, against
	// NoCaptureLimit (G-3).
	NoCaptureMoves int
	NoCaptureLimit int

	// ArrivedAt is when each side's arrival was recorded (C-6), 0 when not.
	ArrivedAt [2]int64

	// Adjourned says the game is adjourned (C-7) since AdjournedAt, with
	// AdjournedBy's sealed move, which the view never shows.
	Adjourned   bool
	AdjournedAt int64
	AdjournedBy xiangqi.Color

	Status  Status
	Result  result.Result
	Reason  Reason
	EndedAt int64 // Unix ms; 0 while playing
	// Signatures are the scoresheet's lines signed so far (O-3), and Signed
	// says all three are: the game is over for the record.
	Signatures []Signature
	Signed     bool
	Version    uint64
}

// DrawView is the draw-offer state (D-1…D-5).
type DrawView struct {
	Pending bool
	By      xiangqi.Color // the offerer, when Pending
	Ply     int           // moves played when the offer was made
	Made    int           // offers made in the game
	Left    int           // offers left (D-4); -1 when the event sets no limit
}

// RepetitionView is the repetition state (G-6).
type RepetitionView struct {
	Rule        RepetitionRule
	Cycles      int // complete cycles the current position closes; 0 when it is new
	CycleLength int // plies per cycle
	// Warning is set from 5 cycles, when the scribe warns and either player may
	// ask for a ruling (the "ruling" rule set, ArbiterRuling).
	Warning     bool
	Requested   bool
	RequestedBy xiangqi.Color // who asked for the ruling, when Requested
	// PerpetualCheck and PerpetualChase are the engine's facts for the
	// repeated stretch, by colour: what the arbiters weigh. The chase facts
	// are filled from 5 cycles (Warning) on.
	PerpetualCheck [2]bool
	PerpetualChase [2]bool
	// CouldBreak[c] says whether side c could have broken the cycle: at one
	// of its moves in it, another legal move after which it is not mated
	// (nor left without a move) on the opponent's next move — 000 ch.8 新的
	// 规定 (运子后,下一着不致被将死。则应化解循环局面). BreakingMove[c] is the
	// first such move found, in ICCS ("" when none). Filled with the chase
	// facts, from 5 cycles on; every cycle repeats the same positions, so
	// one cycle's answer is every cycle's.
	CouldBreak   [2]bool
	BreakingMove [2]string
}

// View returns the game as of now. A flag that has fallen by now shows as
// the result (C-3) although the game itself is not changed: the caller that
// wants to store it calls Settle.
func (g *Game) View(now int64) View {
	s := g.settled(now)
	v := View{
		FEN:           s.pos.FEN(),
		SideToMove:    s.pos.SideToMove(),
		Ply:           len(s.moves),
		Moves:         make([]string, len(s.moves)),
		StartFEN:      s.startFEN,
		InCheck:       s.pos.InCheck(),
		StartsAt:      s.startMs,
		Started:       s.Started(now),
		Control:       s.clk.Control,
		Clock:         s.clk.Read(now),
		AwaitingPress: s.awaitingPress,
		Fouls:         s.fouls,
		ArrivedAt:     s.arrivedAt,
		Status:        s.status,
		Result:        s.result,
		Reason:        s.reason,
		EndedAt:       s.endedAt,
		Version:       g.version,

		NoCaptureMoves: s.pos.NoCaptureCount() / 2,
		NoCaptureLimit: s.rules.noCapturePlies() / 2,
	}
	for c, ok := range s.arrived {
		if !ok {
			v.ArrivedAt[c] = 0
		}
	}
	if v.StartFEN == "" {
		v.StartFEN = xiangqi.StartFEN
	}
	for i, m := range s.moves {
		v.Moves[i] = m.String()
	}
	v.AdjournedAt, v.AdjournedBy, v.Adjourned = s.Adjourned()
	v.Signatures, v.Signed = g.Signatures(), g.Signed()
	if s.status == Playing && v.Started && !v.Adjourned { // before the round starts no move is legal yet (C-1); none while adjourned (C-7)
		legal := s.pos.LegalMoves()
		v.LegalMoves = make([]string, len(legal))
		for i, m := range legal {
			v.LegalMoves[i] = m.String()
		}
	}
	limit := s.rules.drawOfferLimit()
	v.Draw = DrawView{Pending: s.offer.pending, By: s.offer.by, Ply: s.offer.ply, Made: s.offer.made, Left: -1}
	if limit >= 0 {
		v.Draw.Left = max(0, limit-s.offer.made)
	}
	// The chase facts are dear; the arbiters need them once a ruling is near.
	rep := s.repetition(false)
	var breaks [2]string
	var could [2]bool
	if rep.Cycles >= RulingRequestCycles || s.status == PendingRuling {
		rep = s.repetition(true)
		could, breaks = s.breakingMoves(rep.CycleLength)
	}
	v.Repetition = RepetitionView{
		Rule:           s.rules.Repetition,
		Cycles:         rep.Cycles,
		CycleLength:    rep.CycleLength,
		Warning:        s.rules.Repetition == ArbiterRuling && rep.Cycles >= RulingRequestCycles,
		Requested:      s.rulingAskedBy >= 0,
		PerpetualCheck: rep.PerpetualCheck,
		PerpetualChase: rep.PerpetualChase,
		CouldBreak:     could,
		BreakingMove:   breaks,
	}
	if v.Repetition.Requested {
		v.Repetition.RequestedBy = xiangqi.Color(s.rulingAskedBy)
	}
	return v
}
