// Package knockout holds the elimination systems of S-3: bracket
// seeding with byes for the top seeds, single elimination (optionally with a
// third-place match), double elimination (winners' and losers' brackets, a
// drop order that keeps rematches late, a grand final with optional reset),
// and the state of one multi-game match with its additional rapid games and
// colours by lot then alternating. It knows players only as string ids and is
// deterministic: every lot is drawn from a generator the caller seeds.
package knockout

import (
	"errors"
	"fmt"
)

// DefaultTieBreakTimeControl is the time-control preset of additional rapid
// games (附加快棋): 000 ch.7 §1 lists under "快棋赛和附加快棋赛" first 40 moves
// in 10 minutes, then 30 moves per 5 minutes (C-2, API preset name).
const DefaultTieBreakTimeControl = "rapid-10/40+5/30"

// ErrMatchOver reports a game result given after the match was decided.
var ErrMatchOver = errors.New("knockout: match already decided")

// ErrOutcome reports a game outcome that is not one of the three kinds.
var ErrOutcome = errors.New("knockout: unknown game outcome")

// Outcome is the result of one game as the match counts it. A forfeit counts
// as a win for the side it is awarded to.
type Outcome int8

// The three outcomes of a game.
const (
	RedWins Outcome = iota + 1
	Draw
	BlackWins
)

// ColourRule says how colours move between the games of a match.
type ColourRule int8

// Colour rules. Alternate is 001 §12.4 ("第一局抽签确定先后手，第二局换先") and
// the S-3 default; LoserTakesRed is the other choice of 000 ch.2 §4.4
// ("二局输棋方执红先行或换棋轮流先走"): the loser of a game has red in the
// next, and after a draw the colours swap.
const (
	Alternate ColourRule = iota
	LoserTakesRed
)

// TieBreakStage is one mini-match of additional games played when the match
// is still level: Games games at TimeControl ("" means the event's own
// control, as in 000 ch.2 §4.1 where a drawn one-game match is replayed with
// colours swapped until there is a winner).
type TieBreakStage struct {
	TimeControl string
	Games       int
}

// Format describes a knockout match (S-3). Games is the number of regular
// games (1 when 0). TieBreak lists the mini-matches played while the score
// is level, each scored on its own; the last one repeats until a winner
// emerges; when empty, one stage of two games at DefaultTieBreakTimeControl
// is used. Colours keep alternating (or follow LoserTakesRed) through the
// additional games.
type Format struct {
	Games    int
	TieBreak []TieBreakStage
	Colours  ColourRule
}

func (f Format) normal() Format {
	if f.Games < 1 {
		f.Games = 1
	}
	if len(f.TieBreak) == 0 {
		f.TieBreak = []TieBreakStage{{TimeControl: DefaultTieBreakTimeControl, Games: 2}}
	}
	out := make([]TieBreakStage, len(f.TieBreak))
	for i, s := range f.TieBreak {
		if s.Games < 1 {
			s.Games = 1
		}
		out[i] = s
	}
	f.TieBreak = out
	return f
}

// Lot is the part of a seeded generator a draw needs; *rand.Rand from
// math/rand/v2 satisfies it.
type Lot interface {
	IntN(n int) int
}

// DrawFirstRed draws by lot whether the first-listed player has red in the
// match's first game (S-3; 001 §10.4.1.3, §12.4).
func DrawFirstRed(lot Lot) bool {
	return lot.IntN(2) == 0
}

// Game is one game a match needs next.
type Game struct {
	Number     int // 1-based within the match
	Red, Black string
	// Stage is 0 for a regular game, s ≥ 1 for the s-th tie-break
	// mini-match; TimeControl is "" for regular games (the event's control).
	Stage       int
	TimeControl string
}

// Decision is the state of a match after the games played so far.
type Decision struct {
	Done          bool
	Winner, Loser string
	// PointsA and PointsB are game points (K-1: 2/1/0) of all games played,
	// regular and tie-break; RegularA and RegularB only the regular games.
	PointsA, PointsB   int
	RegularA, RegularB int
	// Next is the game to create when not Done; NeedsTieBreak is set when it
	// is an additional game beyond the regular ones.
	Next          Game
	NeedsTieBreak bool
}

// Decide plays a match between a and b forward over outcomes, the results
// of its games in order. aRedFirst is the lot of the first game. A phase
// (the regular games, or one tie-break mini-match) ends early once its
// leader can no longer be caught within it (三局两胜, 五局三胜).
func (f Format) Decide(a, b string, aRedFirst bool, outcomes []Outcome) (Decision, error) {
	f = f.normal()
	var d Decision
	aRed := aRedFirst
	stage, stageA, stageB := 0, 0, 0 // stage 0: the regular games
	phaseLeft := f.Games
	for i := 0; ; i++ {
		// Is the current phase decided?
		if stageA-stageB > 2*phaseLeft || stageB-stageA > 2*phaseLeft || (phaseLeft == 0 && stageA != stageB) {
			d.Done = true
			if stageA > stageB {
				d.Winner, d.Loser = a, b
			} else {
				d.Winner, d.Loser = b, a
			}
			if i < len(outcomes) {
				return Decision{}, fmt.Errorf("match %s v %s: game %d after the decision: %w", a, b, i+1, ErrMatchOver)
			}
			return d, nil
		}
		if phaseLeft == 0 { // level: next tie-break mini-match
			stage++
			st := f.TieBreak[min(stage, len(f.TieBreak))-1]
			phaseLeft, stageA, stageB = st.Games, 0, 0
		}
		red, black := a, b
		if !aRed {
			red, black = b, a
		}
		if i == len(outcomes) {
			d.Next = Game{Number: i + 1, Red: red, Black: black, Stage: stage}
			if stage > 0 {
				d.Next.TimeControl = f.TieBreak[min(stage, len(f.TieBreak))-1].TimeControl
				d.NeedsTieBreak = true
			}
			return d, nil
		}
		var pr, pb int
		switch outcomes[i] {
		case RedWins:
			pr = 2
		case Draw:
			pr, pb = 1, 1
		case BlackWins:
			pb = 2
		default:
			return Decision{}, fmt.Errorf("match %s v %s game %d: %d: %w", a, b, i+1, outcomes[i], ErrOutcome)
		}
		ga, gb := pr, pb
		if !aRed {
			ga, gb = pb, pr
		}
		d.PointsA += ga
		d.PointsB += gb
		if stage == 0 {
			d.RegularA += ga
			d.RegularB += gb
		}
		stageA += ga
		stageB += gb
		phaseLeft--
		switch {
		case f.Colours == LoserTakesRed && outcomes[i] == RedWins:
			aRed = red != a // the loser (black) takes red
		case f.Colours == LoserTakesRed && outcomes[i] == BlackWins:
			aRed = red == a // the loser (red) keeps red
		default:
			aRed = !aRed
		}
	}
}
