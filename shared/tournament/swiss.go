package tournament

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"

	"github.com/xqtour/xqtour/shared/pairing/swiss"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/standings"
)

// SwissLot is the seed of an individual Swiss's first-round lot (P-3): the
// first 16 bytes of SHA-256("swiss-numbering/" + tournament id) as the two
// words of a PCG generator (little endian). The generator shuffles the
// upper half, then the lower half, each listed in registration order
// (math/rand/v2's Shuffle); with the draw numbering it shuffles the whole
// field. An arbiter can replay it, and every round reads the same numbers.
func SwissLot(tid string) (uint64, uint64) {
	sum := sha256.Sum256([]byte("swiss-numbering/" + tid))
	return binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16])
}

// swissState is each player's record as the Swiss pairing reads it.
type swissState struct {
	num   map[string]int
	byNum map[int]*Player
	hist  map[string][]swiss.RoundRecord
	score map[string]int
}

// swissHistory rebuilds every player's past rounds for pairing round n:
// sides, opponents, floats (from the scores both had when that round was
// paired, P-6, leaving out the float of a player alone in its score group)
// and the unfinished games (P-12, counted as draws).
func swissHistory(t *Tournament, h *History, n int) *swissState {
	sc := scoring(t)
	st := &swissState{num: PairingNumbers(t, h.Players), byNum: map[int]*Player{}, hist: map[string][]swiss.RoundRecord{}, score: map[string]int{}}
	for _, p := range h.Players {
		st.byNum[st.num[p.ID]] = p
		st.hist[p.ID] = make([]swiss.RoundRecord, n-1)
	}
	// gained[k][id] is what a player scored in round k+1 as it stands now
	// (unfinished games as draws); drawn[k][id] the same with every
	// unfinished-as-draw game that round k+2 listed counted as a draw.
	type game struct {
		round      int
		red, black string
		result     result.Result
	}
	games := map[string]game{}
	gained := make([]map[string]int, n-1)
	for k, r := range h.Rounds[:n-1] {
		gained[k] = map[string]int{}
		for _, p := range r.Pairings {
			res, ok := h.Result(r.Number, p)
			if !ok {
				// S-6 (000 ch.2 §2.2–2.3): a withdrawn player's unfinished
				// game is a forfeit he lost, as the standings score it.
				res.Result, ok = withdrawalForfeit(h, r.Number, p)
			}
			rp, bp := sc.DrawRed, sc.DrawBlack
			if ok {
				rp, bp = points(sc, res.Result)
			}
			gained[k][p.Red] += rp
			gained[k][p.Black] += bp
			games[p.GameID] = game{r.Number, p.Red, p.Black, res.Result}
			red, black := st.num[p.Red], st.num[p.Black]
			st.hist[p.Red][k] = swiss.RoundRecord{Side: swiss.Red, Opponent: black, Pending: !ok}
			st.hist[p.Black][k] = swiss.RoundRecord{Side: swiss.Black, Opponent: red, Pending: !ok}
			if ok && res.Result == result.DoubleForfeit {
				// A double forfeit (C-6 双方弃权) is no game: neither a colour
				// nor a meeting, so the two may still meet (the standings
				// read it the same way); a single forfeit is a game as paired.
				st.hist[p.Red][k], st.hist[p.Black][k] = swiss.RoundRecord{}, swiss.RoundRecord{}
			}
		}
		for _, id := range r.Byes {
			gained[k][id] += sc.Win // S-7: a Swiss bye scores a win
			if _, ok := st.hist[id]; ok {
				st.hist[id][k] = swiss.RoundRecord{Side: swiss.Bye}
			}
		}
		// A late entrant's missed rounds score as the event says, so the
		// entrant joins the score group of that score (S-2).
		if m := t.Settings.missedScore(); m != standings.MissedNone {
			for _, p := range h.Players {
				if p.JoinedRound > r.Number && p.JoinedRound <= n {
					gained[k][p.ID] += missedPoints(sc, m)
				}
			}
		}
	}
	// Floats: compare the scores both players had when round k+1 was paired.
	before := map[string]int{}
	for k, r := range h.Rounds[:n-1] {
		seen := maps.Clone(before)
		for _, gid := range r.UnfinishedAsDraws {
			g, ok := games[gid]
			if !ok || g.result == result.None {
				continue // still unfinished: already counted as a draw
			}
			rp, bp := points(sc, g.result)
			seen[g.red] += sc.DrawRed - rp
			seen[g.black] += sc.DrawBlack - bp
		}
		// A player alone in its score group had to float: appendix 3 §1.9
		// (不含本积分段只有一人必然下调或上调) leaves that float out of the
		// count the P-6 limit and balance read, so it is not recorded.
		group := map[int]int{}
		for _, p := range r.Pairings {
			group[seen[p.Red]]++
			group[seen[p.Black]]++
		}
		counted := func(id string, f swiss.Float) swiss.Float {
			if group[seen[id]] == 1 {
				return swiss.NoFloat
			}
			return f
		}
		for _, p := range r.Pairings {
			if st.hist[p.Red][k].Side == swiss.Absent {
				continue // a double forfeit: no game, so no float
			}
			rs, bs := seen[p.Red], seen[p.Black]
			switch {
			case rs > bs:
				st.hist[p.Red][k].Float, st.hist[p.Black][k].Float = counted(p.Red, swiss.Down), counted(p.Black, swiss.Up)
			case rs < bs:
				st.hist[p.Red][k].Float, st.hist[p.Black][k].Float = counted(p.Red, swiss.Up), counted(p.Black, swiss.Down)
			}
		}
		for id, v := range gained[k] {
			before[id] += v
		}
	}
	st.score = before
	return st
}

// withdrawalForfeit is the result of an unfinished game of round n when a
// player of it has withdrawn since it was paired (S-6, 000 ch.2 §2.2–2.3:
// 如他下过的棋有的还未终局…按负局计算): a forfeit lost by whoever withdrew,
// both when both did. It is false when neither has.
func withdrawalForfeit(h *History, n int, p Pairing) (result.Result, bool) {
	gone := func(id string) bool {
		q := h.Player(id)
		return q != nil && q.Status == Withdrawn && q.WithdrawnAfter >= n
	}
	switch r, b := gone(p.Red), gone(p.Black); {
	case r && b:
		return result.DoubleForfeit, true
	case r:
		return result.BlackByForfeit, true
	case b:
		return result.RedByForfeit, true
	}
	return result.None, false
}

// SwissInput is what the Swiss engine is given to pair round t.Round+1 —
// for checkers and for arbiters who replay a pairing by hand. Unfinished
// games count as draws (P-12) whether or not the organiser has said so.
// In a swissElimination event the players out (S-4) are given as paused.
func SwissInput(t *Tournament, h *History, o PairOptions) (swiss.Input, error) {
	if t.Settings.System == SwissElimination {
		out, _, err := eliminationField(t, h, t.Round+1)
		if err != nil {
			return swiss.Input{}, err
		}
		h = withStatus(h, out)
	}
	in, _, err := swissInput(t, h, t.Round+1, o)
	return in, err
}

func swissInput(t *Tournament, h *History, n int, o PairOptions) (swiss.Input, *swissState, error) {
	st := swissHistory(t, h, n)
	in := swiss.Input{Rounds: t.Settings.Rounds, Round: n, AvoidSameClub: t.Settings.AvoidSameClub}
	switch t.Settings.FirstRound {
	case FirstRoundTopBottom:
		in.First = swiss.TopBottom
	case FirstRoundHalves:
		in.First = swiss.Halves
	}
	active := 0
	for _, p := range h.Players {
		sp := swiss.Player{Number: st.num[p.ID], Rating: p.Rating, Club: p.Club, Score: st.score[p.ID], History: st.hist[p.ID]}
		switch {
		case p.Status == Withdrawn:
			sp.Status = swiss.Withdrawn
		case p.Status == Paused:
			sp.Status = swiss.Paused
		case p.JoinedRound > n:
			sp.Status = swiss.NotJoined
		case t.absent(p, n): // E-2: not checked in, set aside for this round as a paused player is
			sp.Status = swiss.Paused
		default:
			active++
		}
		in.Players = append(in.Players, sp)
	}
	if active < 2 {
		return in, nil, &RuleError{Code: CodeTooFewPlayers, Message: fmt.Sprintf("%d active player(s); a round needs at least 2", active), Rule: "S-2",
			Params: map[string]any{"active": active, "min": 2}}
	}
	for _, f := range o.Forbidden {
		a, b := st.num[f[0]], st.num[f[1]]
		if a == 0 || b == 0 {
			return in, nil, &FieldError{Field: "forbiddenPairs", Message: fmt.Sprintf("unknown player in pair %s-%s", f[0], f[1]), Rule: "P-5"}
		}
		in.Forbidden = append(in.Forbidden, [2]int{a, b})
	}
	return in, st, nil
}

func pairSwiss(t *Tournament, h *History, n int, o PairOptions, gameID GameIDFunc) (*Round, error) {
	if t.Settings.Rounds > 0 && n > t.Settings.Rounds {
		return nil, &RuleError{Code: CodeEventComplete, Message: fmt.Sprintf("all %d rounds are paired", t.Settings.Rounds), Rule: "P-2"}
	}
	unfinished, err := checkUnfinished(h, o)
	if err != nil {
		return nil, err
	}
	in, st, err := swissInput(t, h, n, o)
	if err != nil {
		return nil, err
	}
	sr, err := swiss.Pair(in)
	if errors.Is(err, swiss.ErrNoPairing) {
		return nil, &RuleError{Code: CodeNoPairing, Message: err.Error(), Rule: "P-8"}
	}
	if err != nil {
		return nil, fmt.Errorf("pair round %d: %w", n, err)
	}
	r := &Round{UnfinishedAsDraws: unfinished, Absent: absentees(t, h, n)}
	for _, b := range sr.Boards {
		red, black := st.byNum[b.Red], st.byNum[b.Black]
		r.Pairings = append(r.Pairings, Pairing{Table: b.Table, Red: red.ID, Black: black.ID, GameID: gameID(n, b.Table, 1)})
		r.Explanations = append(r.Explanations, Explanation{
			ScoreGroup:     b.Why.Group,
			OpponentReason: b.Why.Reason.String(),
			ColourReason:   b.Why.Colour.String(),
			Opponent:       explainSwiss(b.Why),
		})
	}
	if sr.Bye != 0 {
		r.Byes = []string{st.byNum[sr.Bye].ID}
		r.Explanations = append(r.Explanations, Explanation{ScoreGroup: st.score[r.Byes[0]], Opponent: sr.ByeWhy, OpponentReason: ReasonBye, ColourReason: ReasonBye})
	}
	return r, nil
}

// ReasonBye marks the explanation of a bye: Explanations then holds one
// entry more than Pairings, the last one for the bye (S-7).
const ReasonBye = "bye"

// explainSwiss writes a Swiss explanation as an arbiter reads it (P-9…P-11).
func explainSwiss(w swiss.Explanation) string {
	s := fmt.Sprintf("no. %d chose first (%s, %s); %s (%s)", w.Picker, w.PickedBy, w.PickedBy.Label(), w.Reason.Label(), w.Reason)
	if w.Rank > 0 || w.Met > 0 || w.Blocked > 0 || w.Avoided > 0 {
		s += fmt.Sprintf(": position %d in the list, %d passed over as already met or forbidden, %d as blocking a complete pairing", w.Rank+1, w.Met, w.Blocked)
		if w.Avoided > 0 {
			s += fmt.Sprintf(", %d as giving swapped colours, +3, three in a row or a third float", w.Avoided)
		}
	}
	s += fmt.Sprintf("; colours: %s (%s", w.Colour.Label(), w.Colour)
	if sec := w.Colour.Section(); sec > 0 {
		s += fmt.Sprintf(", appendix 3 §4(%d)", sec)
	}
	return s + ")"
}
