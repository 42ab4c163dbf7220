package service

import (
	"cmp"
	"slices"

	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/tournament"
)

// The round view: a round as clients see it, its pairings joined with the
// players' names and shown numbers and the results played, a team round's
// matches with their scores and a knockout's ties decided, the pairing
// explanations in a reader's language; and the event's games in round and
// table order (Event.Games), which the games list and the discipline
// report page over. Its JSON is GET /tournaments/{tid}/rounds/{n}'s, the
// answer of every round command and the head and rows a round's kept view
// (shared/service/viewcache) stores.

// RoundView is round as clients see it.
type RoundView struct {
	Round             int              `json:"round"`
	PairedAt          string           `json:"pairedAt"`
	StartsAt          *string          `json:"startsAt,omitempty"`
	Started           bool             `json:"started"`
	Pairings          []PairingView    `json:"pairings"`
	Bye               *string          `json:"bye"`
	ByeName           *string          `json:"byeName,omitempty"`
	Byes              []string         `json:"byes"`
	ByeExplanation    *ExplanationView `json:"byeExplanation,omitempty"`
	UnfinishedAsDraws []string         `json:"unfinishedAsDraws"`
	Audit             []AuditView      `json:"audit"`
	Matches           []MatchView      `json:"matches,omitempty"`
	Eliminated        []string         `json:"eliminated,omitempty"`
	EliminatedNames   []string         `json:"eliminatedNames,omitempty"`
	Stage             string           `json:"stage,omitempty"`
	// Absent are the players left out for not checking in (E-2).
	Absent []string `json:"absent,omitempty"`
	// Language is the explanations' language (zh, en) when the view has any.
	Language string `json:"language,omitempty"`
}

// PairingView is one table of a round view: its players named and
// numbered, its game and, once played, its result.
type PairingView struct {
	Table       int              `json:"table"`
	Red         string           `json:"red"`
	Black       string           `json:"black"`
	RedName     string           `json:"redName"`
	BlackName   string           `json:"blackName"`
	RedNumber   int              `json:"redNumber,omitempty"`
	BlackNumber int              `json:"blackNumber,omitempty"`
	GameID      string           `json:"gameId"`
	Match       string           `json:"match,omitempty"`
	Board       int              `json:"board,omitempty"`
	Group       string           `json:"group,omitempty"`
	Result      *string          `json:"result"`
	Reason      string           `json:"reason,omitempty"`
	Explanation *ExplanationView `json:"explanation,omitempty"`
}

// ExplanationView is why a pair, a bye or a match was made (the core's
// tournament.Explanation).
type ExplanationView struct {
	ScoreGroup     int    `json:"scoreGroup"`
	Opponent       string `json:"opponent"`
	OpponentReason string `json:"opponentReason"`
	ColourReason   string `json:"colourReason"`
}

// AuditView is one manual change of a round (C-1), as its audit log shows it.
type AuditView struct {
	At     string `json:"at"`
	By     string `json:"by"`
	Action string `json:"action"`
	Detail string `json:"detail"`
}

// MatchView is one match of a team round.
type MatchView struct {
	Match           string           `json:"match"`
	Number          int              `json:"number"`
	Home            string           `json:"home"`
	Away            string           `json:"away"`
	HomeName        string           `json:"homeName"`
	AwayName        string           `json:"awayName"`
	Set             bool             `json:"set"`
	HomeBoardPoints *int             `json:"homeBoardPoints"`
	AwayBoardPoints *int             `json:"awayBoardPoints"`
	HomeMatchPoints *int             `json:"homeMatchPoints"`
	AwayMatchPoints *int             `json:"awayMatchPoints"`
	Explanation     *ExplanationView `json:"explanation,omitempty"`
	// Tie, Rapid, Winner and DecidedBy describe a team knockout's match (S-3).
	Tie        string `json:"tie,omitempty"`
	Rapid      bool   `json:"rapid,omitempty"`
	Winner     string `json:"winner,omitempty"`
	WinnerName string `json:"winnerName,omitempty"`
	DecidedBy  string `json:"decidedBy,omitempty"`
	// Group names a team groups event's group or same-place final (S-5).
	Group string `json:"group,omitempty"`
}

// ExplanationOf is explanation e as a view shows it.
func ExplanationOf(e tournament.Explanation) *ExplanationView {
	return &ExplanationView{ScoreGroup: e.ScoreGroup, Opponent: e.Opponent, OpponentReason: e.OpponentReason, ColourReason: e.ColourReason}
}

// playerName is player id's name in h, "" for none (a team's id).
func playerName(h *tournament.History, id string) string {
	if p := h.Player(id); p != nil {
		return p.Name
	}
	return ""
}

// PairingOf is pairing p of round n as a view shows it: its players named
// from h with their numbers (nil for a team round's teams) and its result
// once played (History.Result: the pairing's own game's).
func PairingOf(n int, p tournament.Pairing, h *tournament.History, numbers map[string]int) PairingView {
	po := PairingView{Table: p.Table, Red: p.Red, Black: p.Black, RedName: playerName(h, p.Red), BlackName: playerName(h, p.Black),
		RedNumber: numbers[p.Red], BlackNumber: numbers[p.Black], GameID: p.GameID, Match: p.Match, Board: p.Board, Group: p.Group}
	if res, ok := h.Result(n, p); ok {
		s := res.Result.String()
		po.Result, po.Reason = &s, res.Reason
	}
	return po
}

// RoundViewOf is round r as clients see it without its matches; numbers
// are the players' numbers as the event shows them (Event.Numbers), nil
// for a team round's teams; explain adds why each pair and the bye.
func RoundViewOf(r *tournament.Round, h *tournament.History, numbers map[string]int, explain bool, now int64) RoundView {
	out := RoundView{Round: r.Number, PairedAt: games.RFC3339(r.PairedAt), Started: r.Started(now), Pairings: []PairingView{}, Byes: []string{},
		UnfinishedAsDraws: []string{}, Audit: []AuditView{}}
	if r.StartsAt != 0 {
		s := games.RFC3339(r.StartsAt)
		out.StartsAt = &s
	}
	for i, p := range r.Pairings {
		po := PairingOf(r.Number, p, h, numbers)
		if explain && i < len(r.Explanations) {
			po.Explanation = ExplanationOf(r.Explanations[i])
		}
		out.Pairings = append(out.Pairings, po)
	}
	out.Byes = append(out.Byes, r.Byes...)
	out.Absent = r.Absent
	if len(r.Byes) > 0 {
		out.Bye = &r.Byes[0]
		if n := playerName(h, r.Byes[0]); n != "" {
			out.ByeName = &n
		}
		if explain && len(r.Explanations) == len(r.Pairings)+1 {
			out.ByeExplanation = ExplanationOf(r.Explanations[len(r.Pairings)])
		}
	}
	out.UnfinishedAsDraws = append(out.UnfinishedAsDraws, r.UnfinishedAsDraws...)
	out.Eliminated, out.Stage = r.Eliminated, r.Stage
	for _, id := range r.Eliminated {
		out.EliminatedNames = append(out.EliminatedNames, playerName(h, id))
	}
	for _, e := range r.Audit {
		out.Audit = append(out.Audit, AuditView{At: games.RFC3339(e.At), By: e.By, Action: e.Action, Detail: e.Detail})
	}
	return out
}

// RoundView is round r of the event as clients see it (RoundViewOf); a
// team round adds its matches, with their scores once decided (T-7) and a
// knockout's ties (S-3), and names the team that has the bye. A team
// event whose teams do not decode shows the round without them.
func (ev *Event) RoundView(r *tournament.Round, explain bool, now int64) RoundView {
	out := RoundViewOf(r, ev.H, ev.Numbers(), explain, now)
	if !ev.T.Settings.Teams {
		return out
	}
	te, err := ev.Teams()
	if err != nil {
		return out
	}
	if out.Bye != nil {
		if tm := te.TH.Team(*out.Bye); tm != nil {
			out.ByeName = &tm.Name
		}
	}
	out.Matches = []MatchView{}
	for _, m := range r.Matches {
		mo := MatchView{Match: m.ID, Number: m.Number, Home: m.Home, Away: m.Away, Set: tournament.MatchSet(r, m), Group: m.Group}
		if tm := te.TH.Team(m.Home); tm != nil {
			mo.HomeName = tm.Name
		}
		if tm := te.TH.Team(m.Away); tm != nil {
			mo.AwayName = tm.Name
		}
		if ms, ok := te.TH.MatchScore(ev.T, r, m); ok {
			mo.HomeBoardPoints, mo.AwayBoardPoints = &ms.Home.BoardPoints, &ms.Away.BoardPoints
			mo.HomeMatchPoints, mo.AwayMatchPoints = &ms.Home.MatchPoints, &ms.Away.MatchPoints
		}
		if explain {
			mo.Explanation = ExplanationOf(m.Explanation)
		}
		te.tie(r, m, &mo)
		out.Matches = append(out.Matches, mo)
	}
	return out
}

// tie fills a team knockout match's tie fields: the bracket match it
// belongs to, whether it is an additional rapid match, and once scored its
// winner and what decided it (S-3).
func (te *TeamEvent) tie(r *tournament.Round, m tournament.TeamMatch, mo *MatchView) {
	if m.Tie == "" {
		return
	}
	mo.Tie, mo.Rapid = m.Tie, m.Rapid
	if leg := te.TH.DecideLeg(te.T, r, m); leg.Winner != "" {
		mo.Winner, mo.DecidedBy = leg.Winner, leg.DecidedBy
		if tm := te.TH.Team(leg.Winner); tm != nil {
			mo.WinnerName = tm.Name
		}
	}
}

// In is the view with every explanation in language lang (the core's
// sentences, tournament.Explanation.In), saying which when it has any.
func (v RoundView) In(lang tournament.Language) RoundView {
	one := func(e *ExplanationView) *ExplanationView {
		if e == nil {
			return nil
		}
		return ExplanationOf(tournament.Explanation{ScoreGroup: e.ScoreGroup, Opponent: e.Opponent, OpponentReason: e.OpponentReason, ColourReason: e.ColourReason}.In(lang))
	}
	found := v.ByeExplanation != nil
	v.Pairings = slices.Clone(v.Pairings)
	for i := range v.Pairings {
		found = found || v.Pairings[i].Explanation != nil
		v.Pairings[i].Explanation = one(v.Pairings[i].Explanation)
	}
	v.ByeExplanation = one(v.ByeExplanation)
	v.Matches = slices.Clone(v.Matches)
	for i := range v.Matches {
		found = found || v.Matches[i].Explanation != nil
		v.Matches[i].Explanation = one(v.Matches[i].Explanation)
	}
	if found {
		v.Language = string(lang)
	}
	return v
}

// RoundPairing is a pairing of the event with its round's number.
type RoundPairing struct {
	Round int
	tournament.Pairing
}

// Games is the pairings of round only (every round paired for 0,
// RoundsOf) in round and table order, a table's in the round's order: the
// games the games list and the discipline report page over. A pairing
// with no game (GameID "") is there too: the report leaves it out.
func (ev *Event) Games(only int) ([]RoundPairing, error) {
	rounds, err := ev.RoundsOf(only)
	if err != nil {
		return nil, err
	}
	var out []RoundPairing
	for _, r := range rounds {
		for _, p := range r.Pairings {
			out = append(out, RoundPairing{r.Number, p})
		}
	}
	slices.SortStableFunc(out, func(x, y RoundPairing) int {
		return cmp.Or(cmp.Compare(x.Round, y.Round), cmp.Compare(x.Table, y.Table))
	})
	return out, nil
}

// EventGame is one game of GET /tournaments/{tid}/games: its round and the
// pairing as the round view shows it.
type EventGame struct {
	Round int `json:"round"`
	PairingView
}

// GameViews is the event's Games of round only as the games list shows
// them, [] for none.
func (ev *Event) GameViews(only int) ([]EventGame, error) {
	games, err := ev.Games(only)
	if err != nil {
		return nil, err
	}
	numbers := ev.Numbers()
	out := make([]EventGame, len(games))
	for i, g := range games {
		out[i] = EventGame{Round: g.Round, PairingView: PairingOf(g.Round, g.Pairing, ev.H, numbers)}
	}
	return out, nil
}
