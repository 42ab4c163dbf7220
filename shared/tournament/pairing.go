package tournament

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/pairing/combined"
	"github.com/xqtour/xqtour/shared/pairing/knockout"
	"github.com/xqtour/xqtour/shared/pairing/roundrobin"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
	"github.com/xqtour/xqtour/shared/standings"
)

// History is what an event has stored beyond its settings: its players, the
// rounds paired so far and the results reported. The pairing of the next
// round and the standings are both computed from it.
type History struct {
	Players []*Player
	// Rounds holds rounds 1…k in order.
	Rounds  []*Round
	results map[[2]int]Result
	byID    map[string]*Player
}

// NewHistory indexes what the store returned. Rounds may come in any order;
// results are keyed by round and table.
func NewHistory(players []*Player, rounds []*Round, results []Result) *History {
	h := &History{Players: slices.Clone(players), Rounds: slices.Clone(rounds), results: map[[2]int]Result{}, byID: map[string]*Player{}}
	sort.Slice(h.Players, func(i, j int) bool { return h.Players[i].Number < h.Players[j].Number })
	sort.Slice(h.Rounds, func(i, j int) bool { return h.Rounds[i].Number < h.Rounds[j].Number })
	for _, p := range h.Players {
		h.byID[p.ID] = p
	}
	for _, r := range results {
		h.results[[2]int{r.Round, r.Table}] = r
	}
	return h
}

// Player returns the player with the id, nil when unknown.
func (h *History) Player(id string) *Player { return h.byID[id] }

// Result returns the result of a pairing's game. A result item written for
// another game on that table (one replaced by an organiser's change before the
// round started) does not count.
func (h *History) Result(round int, p Pairing) (Result, bool) {
	r, ok := h.results[[2]int{round, p.Table}]
	if !ok || (p.GameID != "" && r.GameID != "" && r.GameID != p.GameID) {
		return Result{}, false
	}
	return r, true
}

// Unfinished lists the games of paired rounds that have no result yet, in
// round and table order (P-12).
func (h *History) Unfinished() []string {
	var out []string
	for _, r := range h.Rounds {
		for _, p := range r.Pairings {
			if _, ok := h.Result(r.Number, p); !ok {
				out = append(out, p.GameID)
			}
		}
	}
	return out
}

// PairOptions are the organiser's choices when asking for the next round.
type PairOptions struct {
	// UnfinishedAsDraws confirms that games still being played count as
	// draws for this pairing (P-12); without it such games refuse the pairing.
	UnfinishedAsDraws bool
	// Forbidden pairs of player ids never meet (P-5).
	Forbidden [][2]string
	// Now is the pairing time, Unix ms.
	Now int64
}

// GameIDFunc names the game of one table of a round: game is the game's
// number inside its match (1 for single games). It must be deterministic so
// a retried pairing names the same games.
type GameIDFunc func(round, table, game int) string

// Pairing refusal codes; each comes as a *RuleError naming its rule.
const (
	CodeUnfinishedGames    = "unfinished_games"
	CodeEventComplete      = "event_complete"
	CodeTooFewPlayers      = "too_few_players"
	CodeNoPairing          = "no_pairing"
	CodeMatchUndecided     = "match_undecided"
	CodeRoundUnfinished    = "round_unfinished"
	CodeSystemNotSupported = "system_not_supported"
)

// PairNext pairs round t.Round+1 from the history. It is deterministic: the
// same event and history give the same round, so a retry recreates nothing.
// Refusals are *RuleError values.
func PairNext(t *Tournament, h *History, o PairOptions, gameID GameIDFunc) (*Round, error) {
	n := t.Round + 1
	if len(h.Rounds) != t.Round {
		return nil, fmt.Errorf("pair round %d: history holds %d rounds, the event says %d", n, len(h.Rounds), t.Round)
	}
	var (
		r   *Round
		err error
	)
	switch t.Settings.System {
	case Swiss:
		r, err = pairSwiss(t, h, n, o, gameID)
	case RoundRobin, DoubleRoundRobin:
		r, err = pairRoundRobin(t, h, n, o, gameID)
	case Knockout, DoubleElimination:
		r, err = pairKnockout(t, h, n, gameID)
	case SwissKnockout:
		if n <= t.Settings.Rounds {
			r, err = pairSwiss(t, h, n, o, gameID)
		} else {
			r, err = pairKnockout(t, h, n, gameID)
		}
	case SwissElimination:
		r, err = pairElimination(t, h, n, o, gameID)
	case Groups:
		r, err = pairGroups(t, h, n, o, gameID)
	case ChallengeSystem:
		r, err = pairChallenge(t, h, n, gameID)
	case SwissNPlusOne:
		if n < t.Settings.Rounds {
			r, err = pairSwiss(t, h, n, o, gameID)
		} else {
			r, err = pairNPlusOne(t, h, n, o, gameID)
		}
	default:
		return nil, &RuleError{Code: CodeSystemNotSupported, Message: fmt.Sprintf("rounds of a %s event are not paired by this service yet", t.Settings.System), Rule: "S-4"}
	}
	if err != nil {
		return nil, err
	}
	r.Number, r.PairedAt = n, o.Now
	if t.Settings.StartsAt > o.Now && n == 1 {
		r.StartsAt = t.Settings.StartsAt
	}
	return r, nil
}

// scoring returns the event's K-1 scoring.
func scoring(t *Tournament) standings.Scoring {
	sc, err := standings.ParseScoring(t.Settings.Scoring)
	if err != nil {
		return standings.DefaultScoring
	}
	return sc
}

// points is what red and black score for a result (K-1); forfeits score as
// wins and losses, a double forfeit nothing.
func points(sc standings.Scoring, result string) (red, black int) {
	switch result {
	case "1-0", "+-":
		return sc.Win, sc.Loss
	case "0-1", "-+":
		return sc.Loss, sc.Win
	case "1/2-1/2":
		return sc.DrawRed, sc.DrawBlack
	}
	return sc.Loss, sc.Loss
}

// missedPoints is what one missed round of a late entrant scores, as the
// standings score it (standings.Bye.Missed).
func missedPoints(sc standings.Scoring, m standings.Missed) int {
	switch m {
	case standings.MissedWin:
		return sc.Win
	case standings.MissedDraw:
		return sc.DrawRed
	}
	return 0
}

// PairingNumbers gives every player of an individual Swiss its pairing
// number (P-3, 002 appendix 3 §2.1) as the event's numbering says; late
// entries follow in registration order in every method.
//
//   - NumberingRating (the default): the first round's field is ordered by
//     rating — seeded players first, then the others, each by rating (an
//     unrated player counts as 0), ties in registration order — and split
//     into an upper and a lower half of equal size. Each half draws lots
//     for its numbers (SwissLot): the upper half takes the odd numbers 1,
//     3, 5 …, the lower half the even numbers, so round 1's neighbours (1-2,
//     4-3 …) set the upper half against the lower. In an odd field the
//     lower half is one larger and its last drawn player takes the last
//     number — the one round 1 leaves for the bye (S-7).
//   - NumberingDraw: one lot over the whole field (一般比赛可采用全体运动员一次性
//     抽签确定序号); seeding is not looked at.
//   - NumberingRegistration (on request, and events stored before the
//     option): seeded players take the odd numbers by rating, the others the
//     even numbers in registration order; whoever is left when one list runs
//     out takes the next numbers. Without seeds these are the registration
//     numbers.
func PairingNumbers(t *Tournament, players []*Player) map[string]int {
	var first, late []*Player
	for _, p := range players {
		if p.JoinedRound > 1 {
			late = append(late, p)
		} else {
			first = append(first, p)
		}
	}
	byNumber := func(s []*Player) {
		sort.Slice(s, func(i, j int) bool { return s[i].Number < s[j].Number })
	}
	byNumber(first)
	byNumber(late)
	out := make(map[string]int, len(players))
	switch t.Settings.NumberingInEffect() {
	case NumberingRating:
		ranked := append([]*Player(nil), first...)
		sort.SliceStable(ranked, func(i, j int) bool {
			a, b := ranked[i], ranked[j]
			if a.Seeded != b.Seeded {
				return a.Seeded
			}
			return a.Rating > b.Rating
		})
		upper := append([]*Player(nil), ranked[:len(ranked)/2]...)
		lower := append([]*Player(nil), ranked[len(ranked)/2:]...)
		byNumber(upper)
		byNumber(lower)
		lot := rand.New(rand.NewPCG(SwissLot(t.ID)))
		lot.Shuffle(len(upper), func(i, j int) { upper[i], upper[j] = upper[j], upper[i] })
		lot.Shuffle(len(lower), func(i, j int) { lower[i], lower[j] = lower[j], lower[i] })
		for i, p := range upper {
			out[p.ID] = 2*i + 1
		}
		for i, p := range lower {
			out[p.ID] = min(2*i+2, len(ranked)) // an odd field's extra lower player: the last number
		}
	case NumberingDraw:
		drawn := append([]*Player(nil), first...)
		lot := rand.New(rand.NewPCG(SwissLot(t.ID)))
		lot.Shuffle(len(drawn), func(i, j int) { drawn[i], drawn[j] = drawn[j], drawn[i] })
		for i, p := range drawn {
			out[p.ID] = i + 1
		}
	default:
		registrationNumbers(first, out)
	}
	next := len(first) + 1
	for _, p := range late {
		out[p.ID] = next
		next++
	}
	return out
}

// registrationNumbers numbers the first round's field by registration,
// seeded players taking the odd numbers by rating (NumberingRegistration).
func registrationNumbers(first []*Player, out map[string]int) {
	var seeds, others []*Player
	for _, p := range first {
		if p.Seeded {
			seeds = append(seeds, p)
		} else {
			others = append(others, p)
		}
	}
	sort.SliceStable(seeds, func(i, j int) bool { return seeds[i].Rating > seeds[j].Rating })
	next := 1
	for len(seeds) > 0 || len(others) > 0 {
		list := &others
		if next%2 == 1 && len(seeds) > 0 || len(others) == 0 {
			list = &seeds
		}
		out[(*list)[0].ID] = next
		*list = (*list)[1:]
		next++
	}
}

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
		result     string
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
			if ok && res.Result == "0-0" {
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
			if !ok || g.result == "" {
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
func withdrawalForfeit(h *History, n int, p Pairing) (string, bool) {
	gone := func(id string) bool {
		q := h.Player(id)
		return q != nil && q.Status == Withdrawn && q.WithdrawnAfter >= n
	}
	switch r, b := gone(p.Red), gone(p.Black); {
	case r && b:
		return "0-0", true
	case r:
		return "-+", true
	case b:
		return "+-", true
	}
	return "", false
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
		default:
			active++
		}
		in.Players = append(in.Players, sp)
	}
	if active < 2 {
		return in, nil, &RuleError{Code: CodeTooFewPlayers, Message: fmt.Sprintf("%d active player(s); a round needs at least 2", active), Rule: "S-2"}
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
	r := &Round{UnfinishedAsDraws: unfinished}
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

// checkUnfinished refuses a pairing while earlier games are open unless the
// organiser said they count as draws (P-12); it returns those games.
func checkUnfinished(h *History, o PairOptions) ([]string, error) {
	unfinished := h.Unfinished()
	if len(unfinished) > 0 && !o.UnfinishedAsDraws {
		return nil, &RuleError{Code: CodeUnfinishedGames, Rule: "P-12", Message: fmt.Sprintf(
			"%d game(s) of earlier rounds are unfinished (%s); pair anyway with \"unfinishedAsDraws\": true to count them as draws for this pairing",
			len(unfinished), strings.Join(unfinished[:min(len(unfinished), 5)], ", "))}
	}
	return unfinished, nil
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

// schedule is the round-robin programme of the event; RoundRobinOrder says
// who holds each number (S-1).
func schedule(t *Tournament, players int) (roundrobin.Schedule, error) {
	cycles := 1
	if t.Settings.System == DoubleRoundRobin {
		cycles = 2
	}
	return roundrobin.NewSchedule(players, roundrobin.Options{Cycles: cycles, GamesPerPairing: t.Settings.GamesPerMatch})
}

func pairRoundRobin(t *Tournament, h *History, n int, o PairOptions, gameID GameIDFunc) (*Round, error) {
	field := len(RoundRobinOrder(t, h.Players)) // S-6: without those who left before round 1
	if field < 2 {
		return nil, &RuleError{Code: CodeTooFewPlayers, Message: fmt.Sprintf("%d player(s); a round robin needs at least 2", field), Rule: "S-1"}
	}
	s, err := schedule(t, field)
	if err != nil {
		return nil, fmt.Errorf("pair round %d: %w", n, err)
	}
	if n > len(s.Rounds) {
		return nil, &RuleError{Code: CodeEventComplete, Message: fmt.Sprintf("all %d rounds of the round-robin table are paired", len(s.Rounds)), Rule: "S-1"}
	}
	// A round robin's table is fixed, so an open game changes no pairing; the
	// organiser still confirms it and the round lists it, as P-12 asks of a Swiss.
	unfinished, err := checkUnfinished(h, o)
	if err != nil {
		return nil, err
	}
	r := roundRobinRound(t, h, s, n, gameID)
	r.UnfinishedAsDraws = unfinished
	return r, nil
}

// roundRobinRound lays out round n of the schedule: one pairing per game,
// tables numbered match by match. Pairings with a withdrawn player are not
// played (S-6: the standings annul them or score them as forfeits); the odd
// field's rest is the round's bye (S-7: no score, no game, no colour).
// Numbers are the event's numbering (RoundRobinOrder).
func roundRobinRound(t *Tournament, h *History, s roundrobin.Schedule, n int, gameID GameIDFunc) *Round {
	sr := s.Rounds[n-1]
	order := RoundRobinOrder(t, h.Players)
	numbered := ""
	if nb := t.Settings.Numbering; nb != "" && nb != NumberingRegistration {
		numbered = "; numbers by " + nb
	}
	g := max(s.GamesPerPairing, 1)
	r := &Round{}
	colour := "roundRobinTable"
	if sr.Cycle%2 == 0 {
		colour = "secondCycleSwapped"
	}
	for _, pp := range sr.Pairings {
		red, black := order[pp.Red-1], order[pp.Black-1]
		if red.Status == Withdrawn || black.Status == Withdrawn {
			continue
		}
		for i, game := range pp.Games {
			table := (pp.Table-1)*g + i + 1
			p := Pairing{Table: table, Red: order[game.Red-1].ID, Black: order[game.Black-1].ID, GameID: gameID(n, table, i+1)}
			if g > 1 {
				p.Match, p.Board = fmt.Sprintf("M%d", pp.Table), i+1
			}
			cr := colour
			if i > 0 {
				cr = "alternate"
			}
			r.Pairings = append(r.Pairings, p)
			r.Explanations = append(r.Explanations, Explanation{
				Opponent:       fmt.Sprintf("round-robin table, round %d: no. %d v no. %d (S-1, first listed has red%s)", n, pp.Red, pp.Black, numbered),
				OpponentReason: "roundRobinTable", ColourReason: cr})
		}
	}
	if sr.Rest != 0 && sr.Rest <= len(order) {
		r.Byes = []string{order[sr.Rest-1].ID}
	}
	return r
}

// knockoutEntrants lists the bracket's entrants best seed first: seeded
// players, then by rating, then by number. Only players who withdrew before
// the first round are left out, so the bracket rebuilds the same every time.
func knockoutEntrants(h *History) []string {
	var ps []*Player
	for _, p := range h.Players {
		if p.Status == Withdrawn && p.WithdrawnAfter == 0 {
			continue
		}
		ps = append(ps, p)
	}
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.Seeded != b.Seeded {
			return a.Seeded
		}
		if a.Rating != b.Rating {
			return a.Rating > b.Rating
		}
		return a.Number < b.Number
	})
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	return ids
}

// lot is the seeded generator of one match's colour lot (S-3): the same
// event, round and match always draw the same.
func lot(tid string, round int, match string) *rand.Rand {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s/%d/%s", tid, round, match)))
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16])))
}

func outcome(result string) knockout.Outcome {
	switch result {
	case "1-0", "+-":
		return knockout.RedWins
	case "0-1", "-+":
		return knockout.BlackWins
	}
	return knockout.Draw
}

// bracket rebuilds the event's bracket and replays rounds 1…upto with their
// results; it returns the matches of round upto+1. A stateless service pairs
// a knockout this way (S-3): the bracket is never stored.
func bracket(t *Tournament, h *History, upto int) (*knockout.Bracket, []knockout.Match, error) {
	var (
		b     *knockout.Bracket
		err   error
		first = knockoutStart(t, h) // the bracket's first round
	)
	switch {
	case t.Settings.System == Groups:
		b, err = crossBracket(t, h)
	case t.Settings.System == SwissKnockout:
		var ranked []string
		if ranked, err = rankAfter(t, h, first-1); err != nil {
			return nil, nil, err
		}
		if b, err = combined.SwissKnockout(ranked, finalsStage(t)); errors.Is(err, combined.ErrField) {
			return nil, nil, &RuleError{Code: CodeTooFewPlayers, Message: err.Error(), Rule: "S-4"}
		}
	case len(knockoutEntrants(h)) < 2:
		return nil, nil, &RuleError{Code: CodeTooFewPlayers, Message: fmt.Sprintf("%d entrant(s); a knockout needs at least 2", len(knockoutEntrants(h))), Rule: "S-3"}
	case t.Settings.System == DoubleElimination:
		b, err = knockout.NewDouble(knockoutEntrants(h), gfReset(t))
	default:
		b, err = knockout.NewSingle(knockoutEntrants(h), t.Settings.Knockout.ThirdPlace)
	}
	if err != nil {
		return nil, nil, err
	}
	matches, err := b.NextRound(nil)
	if err != nil {
		return nil, nil, err
	}
	format := knockoutFormat(t)
	for _, r := range h.Rounds[first-1 : upto] {
		var results []knockout.Result
		for _, m := range matches {
			d, games, err := decideMatch(h, r, m, format)
			if err != nil {
				return nil, nil, err
			}
			if !d.Done {
				return nil, nil, matchPending(r, m, d, len(games))
			}
			results = append(results, knockout.Result{Match: m.ID, Winner: d.Winner})
		}
		if matches, err = b.NextRound(results); err != nil {
			return nil, nil, fmt.Errorf("replay round %d: %w", r.Number, err)
		}
	}
	return b, matches, nil
}

// knockoutStart is the first round of the event's knockout stage: 1 for a
// knockout, the round after the Swiss for a Swiss followed by a knockout
// (S-4), the round after the group stage for cross finals (S-5).
func knockoutStart(t *Tournament, h *History) int {
	switch t.Settings.System {
	case SwissKnockout:
		return t.Settings.Rounds + 1
	case Groups:
		return groupStageRounds(t, h) + 1
	}
	return 1
}

// knockoutRound reports whether round n is played as knockout matches.
func knockoutRound(t *Tournament, h *History, n int) bool {
	switch t.Settings.System {
	case Knockout, DoubleElimination:
		return true
	case SwissKnockout:
		return n > t.Settings.Rounds
	case Groups:
		return t.Settings.Groups.Finals == FinalsCross && n >= knockoutStart(t, h)
	}
	return false
}

// rankAfter is the event's ranking after round n (R-4a by default), best
// first, without players who withdrew. Every game up to round n must be
// finished: a stage built on standings cannot count an open game as a draw.
func rankAfter(t *Tournament, h *History, n int) ([]string, error) {
	for _, r := range h.Rounds[:n] {
		for _, p := range r.Pairings {
			if _, ok := h.Result(r.Number, p); !ok {
				return nil, &RuleError{Code: CodeRoundUnfinished, Message: fmt.Sprintf("table %d of round %d is unfinished; the next stage is drawn from the standings after round %d", p.Table, r.Number, n), Rule: "S-4"}
			}
		}
	}
	ev, err := StandingsEvent(t, h)
	if err != nil {
		return nil, err
	}
	table, err := standings.Standings(ev, n)
	if err != nil {
		return nil, fmt.Errorf("standings after round %d: %w", n, err)
	}
	var ranked []string
	for _, row := range table.Rows {
		if !row.Withdrawn && h.Player(row.PlayerID).Status != Withdrawn {
			ranked = append(ranked, row.PlayerID)
		}
	}
	return ranked, nil
}

// pairNPlusOne pairs round N+1 of the N+1 system (S-4, 001 §10.4.3): the top
// two after N rounds play the final on table 1 whether or not they have met,
// with colours balancing their earlier colours (the higher-ranked gets red
// when they cannot decide; the organiser may swap them before the round
// starts); everyone else is paired by the Swiss for places 3 on. The final
// is one slow game with no additional rapid games, so each finalist's total
// after round N+1 is the N+1-round score that 001 §10.4.3.3 has their
// opponents count (combined.NPlusOneOpponentScores): R-4a's 对手分 over the
// table after round N+1 needs no override.
func pairNPlusOne(t *Tournament, h *History, n int, o PairOptions, gameID GameIDFunc) (*Round, error) {
	if n > t.Settings.Rounds {
		return nil, &RuleError{Code: CodeEventComplete, Message: fmt.Sprintf("all %d rounds are paired", t.Settings.Rounds), Rule: "S-4"}
	}
	ranked, err := rankAfter(t, h, n-1)
	if err != nil {
		return nil, err
	}
	finalists, _, err := combined.NPlusOneSplit(ranked)
	if err != nil {
		return nil, &RuleError{Code: CodeTooFewPlayers, Message: err.Error(), Rule: "S-4"}
	}
	counts := map[string]combined.ColourCount{}
	for _, r := range h.Rounds[:n-1] {
		for _, p := range r.Pairings {
			c := counts[p.Red]
			c.Red++
			counts[p.Red] = c
			c = counts[p.Black]
			c.Black++
			counts[p.Black] = c
		}
	}
	fc := combined.NPlusOneColours(finalists[0], finalists[1], counts[finalists[0]], counts[finalists[1]])
	colour := "balance"
	if fc.Red == "" {
		fc, colour = fc.Choose(finalists[1], true), "higherRankedChooses"
	}
	// The Swiss pairs the rest with the finalists set aside, as if paused.
	rest := *h
	rest.Players = nil
	for _, p := range h.Players {
		q := *p
		if p.ID == finalists[0] || p.ID == finalists[1] {
			q.Status = Paused
		}
		rest.Players = append(rest.Players, &q)
	}
	shifted := func(round, table, game int) string { return gameID(round, table+1, game) }
	r, err := pairSwiss(t, &rest, n, o, shifted)
	if err != nil {
		var re *RuleError
		if !errors.As(err, &re) || re.Code != CodeTooFewPlayers {
			return nil, err
		}
		r = &Round{} // at most one player besides the finalists: the bye (S-7)
		for _, p := range rest.Players {
			if p.Status == Active && p.JoinedRound <= n {
				r.Byes = append(r.Byes, p.ID)
			}
		}
	}
	for i := range r.Pairings {
		r.Pairings[i].Table++
	}
	r.Pairings = append([]Pairing{{Table: 1, Red: fc.Red, Black: fc.Black, GameID: gameID(n, 1, 1)}}, r.Pairings...)
	r.Explanations = append([]Explanation{{Opponent: fmt.Sprintf("N+1 final: first and second after round %d meet whether or not they have met (S-4)", n-1),
		OpponentReason: "nPlusOneFinal", ColourReason: colour}}, r.Explanations...)
	return r, nil
}

// knockoutFormat is the event's match format (S-3): GamesPerMatch regular
// games, then two-game mini-matches of additional rapid games at the
// event's tie-break preset while level.
func knockoutFormat(t *Tournament) knockout.Format {
	f := knockout.Format{Games: max(t.Settings.GamesPerMatch, 1), TieBreak: []knockout.TieBreakStage{{TimeControl: tieBreakControl(t), Games: 2}}}
	if t.Settings.KnockoutInEffect().Colours == ColoursLoserTakesRed {
		f.Colours = knockout.LoserTakesRed
	}
	return f
}

// matchPending says why a match holds up the next round: a game still being
// played, or additional games that do not exist yet.
func matchPending(r *Round, m knockout.Match, d knockout.Decision, games int) error {
	if d.NeedsTieBreak && d.Next.Number > games {
		return &RuleError{Code: CodeMatchUndecided, Rule: "S-3", Message: fmt.Sprintf(
			"match %s of round %d is level after %d game(s) and needs additional rapid games; reading the round creates game %d", m.ID, r.Number, d.Next.Number-1, d.Next.Number)}
	}
	return &RuleError{Code: CodeRoundUnfinished, Message: fmt.Sprintf("match %s of round %d is still being played", m.ID, r.Number), Rule: "S-3"}
}

// decideMatch reads a stored match game by game (S-3) until it is decided or
// a game has no result yet; played says how many games it read.
func decideMatch(h *History, r *Round, m knockout.Match, f knockout.Format) (d knockout.Decision, ps []Pairing, err error) {
	for _, p := range r.Pairings {
		if p.Match == m.ID {
			ps = append(ps, p)
		}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Board < ps[j].Board })
	if len(ps) == 0 {
		return d, nil, fmt.Errorf("round %d has no game of match %s", r.Number, m.ID)
	}
	aRed := ps[0].Red == m.A
	var outs []knockout.Outcome
	if d, err = f.Decide(m.A, m.B, aRed, nil); err != nil {
		return d, ps, err
	}
	for _, p := range ps {
		if d.Done {
			break
		}
		res, ok := h.Result(r.Number, p)
		if !ok {
			break
		}
		outs = append(outs, outcome(res.Result))
		if d, err = f.Decide(m.A, m.B, aRed, outs); err != nil {
			return d, ps, fmt.Errorf("round %d match %s: %w", r.Number, m.ID, err)
		}
	}
	return d, ps, nil
}

// pairKnockout pairs the next round of the bracket: the first game of each
// match, colours by lot (S-3). Further games — the rest of a multi-game match
// and additional rapid games while level — are added one at a time by
// NextGames as results come in, with colours alternating.
func pairKnockout(t *Tournament, h *History, n int, gameID GameIDFunc) (*Round, error) {
	b, matches, err := bracket(t, h, n-1)
	if err != nil {
		var re *RuleError
		if errors.As(err, &re) {
			return nil, err
		}
		return nil, fmt.Errorf("pair round %d: %w", n, err)
	}
	if len(matches) == 0 {
		return nil, &RuleError{Code: CodeEventComplete, Message: "the bracket is finished", Rule: "S-3"}
	}
	f := knockoutFormat(t)
	r := &Round{Byes: b.Byes()}
	for i, m := range matches {
		d, err := f.Decide(m.A, m.B, knockout.DrawFirstRed(lot(t.ID, n, m.ID)), nil)
		if err != nil {
			return nil, fmt.Errorf("pair round %d: %w", n, err)
		}
		table := i + 1
		r.Pairings = append(r.Pairings, Pairing{Table: table, Red: d.Next.Red, Black: d.Next.Black, GameID: gameID(n, table, 1), Match: m.ID, Board: 1})
		r.Explanations = append(r.Explanations, Explanation{
			Opponent:       fmt.Sprintf("bracket match %s: upper slot v lower slot (S-3)", m.ID),
			OpponentReason: "bracket", ColourReason: "lot"})
	}
	return r, nil
}

// NextGames returns the games the latest round of a knockout needs now, with
// their explanations: for every match whose games so far all have results
// but which is not decided, the next game — the next regular game of a
// multi-game match or an additional rapid game (附加快棋) while level (S-3) —
// on a new table. It returns nothing for other systems.
func NextGames(t *Tournament, h *History, gameID GameIDFunc) ([]Pairing, []Explanation, error) {
	n := t.Round
	if n < 1 || len(h.Rounds) != n || !knockoutRound(t, h, n) {
		return nil, nil, nil
	}
	_, matches, err := bracket(t, h, n-1)
	if err != nil {
		return nil, nil, err
	}
	r := h.Rounds[n-1]
	table := 0
	for _, p := range r.Pairings {
		table = max(table, p.Table)
	}
	f := knockoutFormat(t)
	var ps []Pairing
	var ex []Explanation
	for _, m := range matches {
		d, games, err := decideMatch(h, r, m, f)
		if err != nil {
			return nil, nil, err
		}
		if d.Done || d.Next.Number != len(games)+1 {
			continue // decided, or a game is still being played
		}
		table++
		ps = append(ps, Pairing{Table: table, Red: d.Next.Red, Black: d.Next.Black, GameID: gameID(n, table, d.Next.Number), Match: m.ID, Board: d.Next.Number})
		why := fmt.Sprintf("match %s, game %d of the regular %d (S-3)", m.ID, d.Next.Number, f.Games)
		if d.NeedsTieBreak {
			why = fmt.Sprintf("match %s level after %d game(s): additional rapid game %d at %s (附加快棋, S-3)", m.ID, d.Next.Number-1, d.Next.Number, d.Next.TimeControl)
		}
		colour := "alternate"
		if f.Colours == knockout.LoserTakesRed {
			colour = "loserTakesRed"
		}
		ex = append(ex, Explanation{Opponent: why, OpponentReason: "bracket", ColourReason: colour})
	}
	return ps, ex, nil
}

// GameControl is the time control of a pairing's game: the event's, except
// for a knockout's additional rapid games, which have their own (S-3, C-2).
func GameControl(t *Tournament, p Pairing) clock.Control {
	if p.Match != "" && p.Group == "" && (t.Settings.System == Knockout || t.Settings.System == DoubleElimination || t.Settings.System == SwissKnockout || t.Settings.System == Groups) && p.Board > max(t.Settings.GamesPerMatch, 1) {
		if c, ok := clock.Preset(tieBreakControl(t)); ok {
			return c
		}
	}
	return t.Settings.TimeControl
}

// StandingsEvent turns the history into the standings' input: every paired
// game with its result ("" while playing), the byes, the withdrawals, and for
// a round robin with a withdrawal the rest of the schedule so that S-6 can
// annul or forfeit the games not played.
func StandingsEvent(t *Tournament, h *History) (standings.Event, error) {
	// a tie for the title needs a play-off unless the event shares it.
	ev := standings.Event{System: t.Settings.System, Rounds: t.Settings.Rounds, Scoring: scoring(t), PlayoffPlaces: t.Settings.PlayoffPlaces()}
	chain, err := standings.ParseChain(t.Settings.Tiebreaks)
	if err != nil {
		return ev, fmt.Errorf("standings: %w", err)
	}
	ev.Chain = chain
	for _, p := range h.Players {
		ev.Players = append(ev.Players, standings.Player{ID: p.ID, Name: p.Name, Number: p.Number})
		// S-6 in a groups event counts the opponents due in the player's own
		// group (GroupStandingsEvent); the whole event's table keeps the
		// results as played rather than apply it over the whole field.
		if p.Status == Withdrawn && t.Settings.System != Groups {
			ev.Withdrawals = append(ev.Withdrawals, standings.Withdrawal{Player: p.ID, AfterRound: p.WithdrawnAfter})
		}
	}
	played := map[[3]int]bool{}
	for _, r := range h.Rounds {
		for _, p := range r.Pairings {
			g := standings.Game{Round: r.Number, Red: p.Red, Black: p.Black}
			if res, ok := h.Result(r.Number, p); ok {
				g.Result, g.RedFouls, g.BlackFouls = res.Result, res.RedFouls, res.BlackFouls
			}
			ev.Games = append(ev.Games, g)
			played[[3]int{r.Number, h.byID[p.Red].Number, h.byID[p.Black].Number}] = true
		}
		for _, id := range r.Byes {
			ev.Byes = append(ev.Byes, standings.Bye{Round: r.Number, Player: id})
		}
		if m := t.Settings.missedScore(); m != standings.MissedNone {
			for _, p := range h.Players {
				if p.JoinedRound > r.Number {
					ev.Byes = append(ev.Byes, standings.Bye{Round: r.Number, Player: p.ID, Missed: m})
				}
			}
		}
	}
	// S-4 N+1: once round N+1 is paired its table 1 is the final for 1st
	// and 2nd; everyone else is placed from 3rd down.
	if n := t.Settings.Rounds; t.Settings.System == SwissNPlusOne && len(h.Rounds) >= n && len(h.Rounds[n-1].Pairings) > 0 {
		fp := h.Rounds[n-1].Pairings[0]
		ev.Final = &standings.Final{Round: n, Players: [2]string{fp.Red, fp.Black}}
	}
	if t.Settings.System != RoundRobin && t.Settings.System != DoubleRoundRobin {
		return ev, nil
	}
	order := RoundRobinOrder(t, h.Players)
	s, err := schedule(t, len(order))
	if err != nil {
		return ev, nil // fewer than two players: nothing scheduled
	}
	if ev.Rounds == 0 {
		ev.Rounds = len(s.Rounds)
	}
	if len(ev.Withdrawals) == 0 {
		return ev, nil
	}
	for _, sr := range s.Rounds {
		for _, pp := range sr.Pairings {
			for _, g := range pp.Games {
				red, black := order[g.Red-1], order[g.Black-1]
				if !played[[3]int{sr.Number, red.Number, black.Number}] {
					ev.Games = append(ev.Games, standings.Game{Round: sr.Number, Red: red.ID, Black: black.ID})
				}
			}
		}
	}
	return ev, nil
}

// Manual changes an organiser may make to a round before it starts.
const (
	ChangeSwapColours = "swapColours"
	ChangePair        = "pair"
	ChangeBye         = "bye"
)

// CodeInvalidChange refuses a manual change that does not fit the round.
const CodeInvalidChange = "invalid_change"

// Change is one manual change to a paired round: swap the colours of a
// table, force Red to meet Black (their former opponents meet each other, or
// take the bye), or give the bye to Player (the former bye holder takes
// their place).
type Change struct {
	Action     string
	Table      int
	Red, Black string
	Player     string
	Note       string
}

func changeError(format string, args ...any) error {
	return &RuleError{Code: CodeInvalidChange, Message: fmt.Sprintf(format, args...), Rule: "O-1"}
}

// Apply makes the change to the round and records it in the audit log; it
// returns the tables whose players or colours changed. The round is left
// untouched when the change is refused.
func (r *Round) Apply(ch Change, by string, now int64) ([]int, error) {
	find := func(id string) (int, bool) { // index of the player's pairing, or bye
		for i, p := range r.Pairings {
			if p.Red == id || p.Black == id {
				return i, false
			}
		}
		return -1, slices.Contains(r.Byes, id)
	}
	single := func(i int) error {
		if r.Pairings[i].Match != "" {
			return changeError("table %d is part of match %s; the games of a multi-game match change together only by a new pairing", r.Pairings[i].Table, r.Pairings[i].Match)
		}
		return nil
	}
	ps := slices.Clone(r.Pairings)
	byes := slices.Clone(r.Byes)
	var touched []int
	var detail string
	switch ch.Action {
	case ChangeSwapColours:
		i := slices.IndexFunc(ps, func(p Pairing) bool { return p.Table == ch.Table })
		if i < 0 {
			return nil, changeError("round %d has no table %d", r.Number, ch.Table)
		}
		ps[i].Red, ps[i].Black = ps[i].Black, ps[i].Red
		touched = []int{i}
		detail = fmt.Sprintf("table %d: colours swapped, %s now red", ch.Table, ps[i].Red)
	case ChangePair:
		if ch.Red == "" || ch.Black == "" || ch.Red == ch.Black {
			return nil, changeError("a forced pair names two different players, red and black")
		}
		ia, byeA := find(ch.Red)
		ib, byeB := find(ch.Black)
		if ia < 0 && !byeA || ib < 0 && !byeB {
			return nil, changeError("both players must be in round %d (paired or with the bye)", r.Number)
		}
		switch {
		case ia >= 0 && ia == ib:
			ps[ia].Red, ps[ia].Black = ch.Red, ch.Black
			touched = []int{ia}
		case ia >= 0 && ib >= 0:
			if err := errors.Join(single(ia), single(ib)); err != nil {
				return nil, err
			}
			x, y := opponent(ps[ia], ch.Red), opponent(ps[ib], ch.Black)
			xRed := ps[ia].Red == x || ps[ib].Red != y
			ps[ia].Red, ps[ia].Black = ch.Red, ch.Black
			if xRed {
				ps[ib].Red, ps[ib].Black = x, y
			} else {
				ps[ib].Red, ps[ib].Black = y, x
			}
			touched = []int{ia, ib}
		case ia >= 0: // Black had the bye: Red's opponent takes it
			if err := single(ia); err != nil {
				return nil, err
			}
			x := opponent(ps[ia], ch.Red)
			ps[ia].Red, ps[ia].Black = ch.Red, ch.Black
			byes[slices.Index(byes, ch.Black)] = x
			touched = []int{ia}
		case ib >= 0:
			if err := single(ib); err != nil {
				return nil, err
			}
			y := opponent(ps[ib], ch.Black)
			ps[ib].Red, ps[ib].Black = ch.Red, ch.Black
			byes[slices.Index(byes, ch.Red)] = y
			touched = []int{ib}
		default:
			return nil, changeError("both players have a bye; a pair needs a table")
		}
		detail = fmt.Sprintf("forced pair %s (red) v %s (black)", ch.Red, ch.Black)
	case ChangeBye:
		ip, bye := find(ch.Player)
		if bye {
			return nil, changeError("%s already has the bye", ch.Player)
		}
		if ip < 0 {
			return nil, changeError("%s is not paired in round %d", ch.Player, r.Number)
		}
		if len(byes) != 1 {
			return nil, changeError("round %d has %d byes; moving the bye needs exactly one", r.Number, len(byes))
		}
		if err := single(ip); err != nil {
			return nil, err
		}
		z := byes[0]
		if ps[ip].Red == ch.Player {
			ps[ip].Red = z
		} else {
			ps[ip].Black = z
		}
		byes[0] = ch.Player
		touched = []int{ip}
		detail = fmt.Sprintf("bye moved from %s to %s, who takes table %d", z, ch.Player, ps[ip].Table)
	default:
		return nil, &FieldError{Field: "action", Message: fmt.Sprintf("unknown change %q (want swapColours, pair or bye)", ch.Action)}
	}
	if ch.Note != "" {
		detail += "; " + ch.Note
	}
	tables := make([]int, len(touched))
	for k, i := range touched {
		tables[k] = ps[i].Table
		if i < len(r.Explanations) {
			r.Explanations[i] = Explanation{Opponent: "changed by the organiser: " + detail, OpponentReason: "manual", ColourReason: "manual"}
		}
	}
	if len(byes) > 0 && len(r.Explanations) == len(r.Pairings)+1 && !slices.Equal(byes, r.Byes) {
		r.Explanations[len(r.Pairings)] = Explanation{Opponent: "changed by the organiser: " + detail, OpponentReason: ReasonBye, ColourReason: ReasonBye}
	}
	r.Pairings, r.Byes = ps, byes
	r.Audit = append(r.Audit, AuditEntry{At: now, By: by, Action: ch.Action, Detail: detail})
	return tables, nil
}

func opponent(p Pairing, id string) string {
	if p.Red == id {
		return p.Black
	}
	return p.Red
}
