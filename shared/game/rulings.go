package game

import (
	"strings"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// RulingKind names an official's decision, with the API's names.
type RulingKind int8

// The kinds. RulingRecord is a result recorded with RecordResult, RulingLoad
// a record loaded with LoadRecord; neither is a ruling an arbiter posts.
const (
	RulingRepetition     RulingKind = iota // G-6: three arbiters' votes
	RulingFoul                             // G-2: a foul (犯规); the third loses
	RulingPenalty                          // O-2: warning, loss of the game, expulsion
	RulingClock                            // C-5: clock correction with a reason
	RulingResult                           // a result correction
	RulingLateForfeit                      // C-6: late arrival forfeit
	RulingRecord                           // an over-the-board result recorded without moves
	RulingLoad                             // a scoresheet's moves loaded in place of those entered
	RulingDroppedPiece                     // O-2: a piece dropped on the board (000 ch.7 §2 第4条)
	RulingForbiddenOffer                   // O-2: a draw offer 000 ch.4 makes a loss (logged by the game, not posted)
	RulingAdjourn                          // C-7: the game adjourned with a sealed move (logged by Adjourn, not posted)
	RulingResume                           // C-7: the adjourned game resumed (logged by Resume, not posted)
	RulingVote                             // G-6: one arbiter's sealed vote on a pending repetition (logged by Vote, not posted)
)

var rulingNames = [...]string{"repetition", "foul", "penalty", "clock", "result", "lateForfeit", "record", "load", "droppedPiece", "forbiddenOffer", "adjourn", "resume", "vote"}

// String returns the API name, such as "lateForfeit".
func (k RulingKind) String() string {
	if k < 0 || int(k) >= len(rulingNames) {
		return ""
	}
	return rulingNames[k]
}

// ParseRulingKind reads an API ruling kind ("record" is not one: it is
// POST /result).
func ParseRulingKind(s string) (RulingKind, bool) {
	for i, n := range rulingNames {
		if k := RulingKind(i); n == s && k != RulingRecord && k != RulingLoad && k != RulingForbiddenOffer && k != RulingAdjourn && k != RulingResume && k != RulingVote {
			return RulingKind(i), true
		}
	}
	return RulingRepetition, false
}

// PenaltyKind is one of the three disciplinary penalties of O-2, lightest first.
type PenaltyKind int8

// The penalties (000 ch.4: 警告、取消当场比赛资格、除名).
const (
	Warning PenaltyKind = iota
	LossOfGame
	Expulsion
)

var penaltyNames = [...]string{"warning", "loss", "expulsion"}

// String returns "warning", "loss" or "expulsion".
func (p PenaltyKind) String() string {
	if p < 0 || int(p) >= len(penaltyNames) {
		return ""
	}
	return penaltyNames[p]
}

// ParsePenaltyKind reads "warning", "loss" or "expulsion".
func ParsePenaltyKind(s string) (PenaltyKind, bool) {
	for i, n := range penaltyNames {
		if n == s {
			return PenaltyKind(i), true
		}
	}
	return Warning, false
}

// Ruling is an official's decision; which fields count depends on Kind.
type Ruling struct {
	Kind RulingKind
	// Side is who a foul, penalty or clock correction concerns.
	Side xiangqi.Color
	// Votes are the three arbiters' verdicts on a repetition: the side each
	// holds mainly responsible (G-6).
	Votes [3]xiangqi.Color
	// Late marks the sides that forfeit by late arrival (C-6), by colour.
	Late    [2]bool
	Penalty PenaltyKind
	// RemainingMs is a clock correction's new remaining time (C-5).
	RemainingMs int64
	// Result and Reason are a result correction's or a recorded result's.
	Result result.Result
	Reason Reason
	// Note is the official's reason, required for clock and result
	// corrections; illegal-move fouls carry the move and the rule.
	Note string
	// Before and BeforeReason are what a result correction replaced (result.None
	// when the game had none yet), for the audit.
	Before       result.Result
	BeforeReason Reason
}

// LogEntry is one line of the game's log: who decided what and when (O-2).
type LogEntry struct {
	At     int64
	By     Actor
	Ruling Ruling
}

// MaxNoteBytes bounds a ruling's note; a sentence or two is enough.
const MaxNoteBytes = 500

func (g *Game) logRuling(now int64, by Actor, r Ruling) {
	g.log = append(g.log, LogEntry{At: now, By: by, Ruling: r})
	g.version++
}

// foul records a foul against side and ends the game at the third (G-2).
func (g *Game) foul(now int64, by Actor, side xiangqi.Color, note string) {
	g.fouls[side]++
	g.logRuling(now, by, Ruling{Kind: RulingFoul, Side: side, Note: note})
	if g.fouls[side] >= FoulLimit && g.status != Over {
		g.end(now, winFor(side.Opponent()), Fouls)
	}
}

// RecordResult records an over-the-board result for a game played without
// its moves here, by an arbiter, the board's scribe or the organiser (a small
// event has no separate arbiter). reason may be NoReason; it is then
// "arbiter". A game that has a result is refused (game_over): its result is
// changed only by CorrectResult.
func (g *Game) RecordResult(now int64, by Actor, r result.Result, why Reason) error {
	if err := MayRecordResult(by); err != nil {
		return err
	}
	if err := g.checkOpen(now, true); err != nil {
		return err
	}
	if r == result.None || r.String() == "" {
		return refuse(CodeInvalidArgument, "", "a result is needed")
	}
	if why == NoReason {
		why = ArbiterDecision
	}
	g.logRuling(now, by, Ruling{Kind: RulingRecord, Result: r, Reason: why})
	g.end(now, r, why)
	return nil
}

// Rule applies an official's ruling and logs it with who and when (O-2).
// Who may give which (O-1, 000 ch.3): the board's scribe records fouls,
// warnings and dropped pieces; an arbiter those and every other ruling but
// the two heavier penalties; loss of the game (取消当场比赛资格) and expulsion
// (除名) are the chief arbiter's, or the organiser's acting as one.
//   - repetition (G-6): only while the game is pending a ruling; the side two
//     or three arbiters hold mainly responsible loses.
//   - foul (G-2): the third foul of a side loses.
//   - penalty (O-2): a warning is only logged; loss of the game loses it.
//     Expulsion by the chief arbiter is a proposal (裁判长具文报请…获得批准方可
//     执行): logged, nothing executed; by the organiser it is decided at once
//     and loses the game. Leaving the event is the tournament's to apply.
//   - clock (C-5): sets Side's remaining time; Note is required.
//   - result: corrects the result, even of a finished game; Note is required.
//   - lateForfeit (C-6): the late sides forfeit before making a move; both
//     late is a double forfeit 0-0.
//   - droppedPiece (O-2): an arbiter or the board's scribe records that
//     Side dropped a piece (a reminder, not a move); with
//     Rules.DroppedPieceLoses the side's second in the game loses.
func (g *Game) Rule(now int64, by Actor, r Ruling) error {
	if err := mayRule(by.Role, r); err != nil {
		return err
	}
	if len(r.Note) > MaxNoteBytes {
		return refuse(CodeInvalidArgument, "", "the note is longer than %d bytes", MaxNoteBytes)
	}
	if r.Side != xiangqi.Red && r.Side != xiangqi.Black {
		return refuse(CodeInvalidArgument, "", "unknown side %d", r.Side)
	}
	g.Settle(now)
	if r.Kind == RulingResult {
		return g.correctResult(now, by, r)
	}
	if r.Kind == RulingPenalty && g.status == Over && r.Penalty != LossOfGame {
		g.logRuling(now, by, r) // a warning or an expulsion after the game changes no result
		return nil
	}
	if g.status == Over {
		return refuse(CodeGameOver, "", "the game is over: %v by %v", g.result, g.reason)
	}
	switch r.Kind {
	case RulingRepetition:
		return g.ruleRepetition(now, by, r)
	case RulingFoul:
		g.foul(now, by, r.Side, r.Note)
	case RulingPenalty:
		if r.Penalty < Warning || r.Penalty > Expulsion {
			return refuse(CodeInvalidArgument, "O-2", "unknown penalty %d", r.Penalty)
		}
		g.logRuling(now, by, r)
		if r.Penalty == LossOfGame || r.Penalty == Expulsion && by.Role == Organiser {
			g.end(now, winFor(r.Side.Opponent()), Penalty)
		}
	case RulingClock:
		if g.clk.Control.Untimed() {
			return refuse(CodeInvalidRuling, "C-5", "the game is untimed: it has no clock to correct")
		}
		if strings.TrimSpace(r.Note) == "" {
			return refuse(CodeInvalidRuling, "C-5", "a clock correction needs a reason")
		}
		if r.RemainingMs < 0 || r.RemainingMs > clock.MaxPeriodMs {
			return refuse(CodeInvalidArgument, "C-5", "remaining time must be 0…%d ms", int64(clock.MaxPeriodMs))
		}
		g.clk = g.clk.Correct(now, clock.Side(r.Side), r.RemainingMs)
		g.logRuling(now, by, r)
		g.Settle(now) // a correction to zero flags at once
	case RulingLateForfeit:
		return g.ruleLate(now, by, r)
	case RulingDroppedPiece:
		g.logRuling(now, by, r)
		if g.rules.DroppedPieceLoses && g.drops(r.Side) >= 2 {
			g.end(now, winFor(r.Side.Opponent()), DroppedPiece)
		}
	default:
		return refuse(CodeInvalidArgument, "", "unknown ruling kind %d", r.Kind)
	}
	return nil
}

// mayRule refuses a ruling role may not give (O-1).
func mayRule(role Role, r Ruling) *RuleError {
	switch {
	case r.Kind == RulingPenalty && r.Penalty != Warning:
		if !role.chief() {
			return refuse(CodeForbidden, "O-2", "only the chief arbiter (or the organiser acting as one) disqualifies a player from the game or expels one "+
				"(000 ch.3 裁判长 7); %s may give a warning", role.withArticle())
		}
	case r.Kind == RulingFoul || r.Kind == RulingPenalty || r.Kind == RulingDroppedPiece:
		if !role.records() {
			return refuse(CodeForbidden, "O-1", "only an official records a foul, a warning or a dropped piece; %s may not", role.withArticle())
		}
	case !role.rules():
		return refuse(CodeForbidden, "O-1", "only an arbiter rules; %s may record a foul, a warning or a dropped piece", role.withArticle())
	}
	return nil
}

// drops counts the dropped pieces recorded against side in this game.
func (g *Game) drops(side xiangqi.Color) int {
	n := 0
	for _, e := range g.log {
		if e.Ruling.Kind == RulingDroppedPiece && e.Ruling.Side == side {
			n++
		}
	}
	return n
}

func (g *Game) ruleRepetition(now int64, by Actor, r Ruling) error {
	if g.status != PendingRuling {
		return refuse(CodeInvalidRuling, "G-6", "a repetition ruling needs a pending position (6 cycles or a player's request from 5)")
	}
	red := 0
	for _, v := range r.Votes {
		switch v {
		case xiangqi.Red:
			red++
		case xiangqi.Black:
		default:
			return refuse(CodeInvalidArgument, "G-6", "each of the three arbiters names red or black")
		}
	}
	loser := xiangqi.Black
	if red >= 2 { // 3:0 or 2:1
		loser = xiangqi.Red
	}
	g.logRuling(now, by, r)
	g.end(now, winFor(loser.Opponent()), RepetitionRuling)
	return nil
}

// CorrectResult corrects the result of a finished game, by an arbiter or the
// organiser, with note saying why (O-1). The log keeps who, when, the result
// before and after. A game still being played is refused (it has no result
// to correct: record one), as is a correction to the result it already has.
func (g *Game) CorrectResult(now int64, by Actor, r result.Result, why Reason, note string) error {
	if !by.Role.rules() {
		return refuse(CodeForbidden, "O-1", "only an arbiter or the organiser corrects a result; %s may not", by.Role.withArticle())
	}
	if len(note) > MaxNoteBytes {
		return refuse(CodeInvalidArgument, "", "the note is longer than %d bytes", MaxNoteBytes)
	}
	g.Settle(now)
	if g.status != Over {
		return refuse(CodeNotFinished, "O-1", "the game has no result to correct; record its result without correction")
	}
	if why == NoReason {
		why = ArbiterDecision
	}
	if r == g.result && why == g.reason {
		return refuse(CodeInvalidRuling, "O-1", "the result is already %v (%v); nothing to correct", r, why)
	}
	return g.correctResult(now, by, Ruling{Kind: RulingResult, Result: r, Reason: why, Note: note})
}

func (g *Game) correctResult(now int64, by Actor, r Ruling) error {
	if r.Result == result.None || r.Result.String() == "" {
		return refuse(CodeInvalidArgument, "", "a result correction needs a result")
	}
	if strings.TrimSpace(r.Note) == "" {
		return refuse(CodeInvalidRuling, "O-1", "a result correction needs a reason")
	}
	if r.Reason == NoReason {
		r.Reason = ArbiterDecision
	}
	if g.status == Over {
		r.Before, r.BeforeReason = g.result, g.reason
	}
	g.logRuling(now, by, r)
	if g.status == Over {
		g.result, g.reason = r.Result, r.Reason
		g.version++
		return nil
	}
	g.end(now, r.Result, r.Reason)
	return nil
}

func (g *Game) ruleLate(now int64, by Actor, r Ruling) error {
	if !r.Late[0] && !r.Late[1] {
		return refuse(CodeInvalidArgument, "C-6", "name the side or sides that arrived late")
	}
	for c := xiangqi.Red; c <= xiangqi.Black; c++ {
		if r.Late[c] && g.movesBy(c) > 0 {
			return refuse(CodeInvalidRuling, "C-6", "%s has already moved; it was not absent", c)
		}
	}
	res := result.DoubleForfeit // C-6 双方弃权
	switch {
	case !r.Late[xiangqi.Black]:
		res = result.BlackByForfeit
	case !r.Late[xiangqi.Red]:
		res = result.RedByForfeit
	}
	g.logRuling(now, by, r)
	g.end(now, res, Forfeit)
	return nil
}

// movesBy counts the moves c has played in this game.
func (g *Game) movesBy(c xiangqi.Color) int {
	n := len(g.moves)
	if c == g.startSide() {
		return (n + 1) / 2
	}
	return n / 2
}
