package tournament

import (
	"fmt"
	"slices"
	"strings"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/team"
)

// A team knockout (S-3 for teams, 000 ch.2 §4 第6条: 淘汰制比赛,进行"猜先".
// 团体赛的先后走,办法与2,3两款相同) pairs teams through the bracket the
// individual knockout uses: the teams are its entrants, best seed first by
// their members' mean rating, and each bracket match (a tie) is one team
// match. The lot decides which team is listed first; that team has red on
// the odd boards, as in a team round robin (T-6). The match is scored by
// board points into match points (T-7).
//
// A knockout must produce a winner (000 ch.7 §2 第5条: 两运动员必须分出胜负
// … 可增加附加快棋赛胜者出现). The rule books say nothing of a team match
// level on board points, so the event chooses (KnockoutOptions.TeamTieBreak):
//   - TeamTieBreakBoardCount (default): the count-back from the top board —
//     the team that scored more on board 1 wins, else on board 2, and so on;
//     when every board is level (all drawn, say), an additional rapid match
//     (附加快棋) follows;
//   - TeamTieBreakRapidMatch: a level match goes straight to an additional
//     rapid match.
//
// The same matches serve the cross elimination of a team groups event
// (teamgroups.go) and the knockout after a team Swiss (S-4: the top two or
// four of the team table, rankTeamsAfter).
//
// An additional rapid match is a further team match in the same round with
// the same lineups, the colours swapped (the team listed second before is
// listed first), every board at the event's tie-break preset; it is decided
// the same way, and another follows while it is level.

// Team knockout tie-breaks (KnockoutOptions.TeamTieBreak).
const (
	TeamTieBreakBoardCount = "boardCount"
	TeamTieBreakRapidMatch = "rapidMatch"
)

// How a team match of a knockout was decided (TieLeg.DecidedBy).
const (
	DecidedByMatchPoints = "matchPoints"
	DecidedByBoardCount  = "boardCount"
)

// rapidLegMark separates a tie's first match id from the number of an
// additional rapid match: "M3-R1" is the first rapid match of the tie whose
// regular match is M3.
const rapidLegMark = "-R"

// isRapidLeg reports whether a team match id names an additional rapid match.
func isRapidLeg(matchID string) bool { return strings.Contains(matchID, rapidLegMark) }

// teamKnockout reports whether the settings play team knockout matches: a
// team knockout, the cross elimination of a team groups event, or the
// knockout after a team Swiss (S-4).
func teamKnockout(s Settings) bool {
	return s.Teams && (s.System == Knockout || s.System == SwissKnockout || s.System == Groups && s.Groups.Finals == FinalsCross)
}

// rankTeamsAfter ranks a team Swiss-then-knockout's teams by the team table
// after round n (T-7, R-7 or the event's team chain): the finalists of the
// knockout stage (S-4). Withdrawn teams are left out.
func (th *TeamHistory) rankTeamsAfter(t *Tournament, n int) ([]string, error) {
	ev, err := TeamStandingsEvent(t, th)
	if err != nil {
		return nil, err
	}
	table, err := standings.TeamStandings(ev, n)
	if err != nil {
		return nil, fmt.Errorf("team table after round %d: %w", n, err)
	}
	var out []string
	for _, row := range table.Rows {
		if tm := th.Team(row.TeamID); tm != nil && tm.Status != Withdrawn {
			out = append(out, row.TeamID)
		}
	}
	return out, nil
}

// normalizeTeamKnockout checks the options only a team knockout has: the
// tie-break of a level match; a tie is a single team match (gamesPerMatch 1).
func (s *Settings) normalizeTeamKnockout() error {
	k := &s.Knockout
	if !teamKnockout(*s) {
		if k.TeamTieBreak != "" {
			return &FieldError{Field: "knockout.teamTieBreak", Message: "only a team knockout breaks level team matches", Rule: "S-3"}
		}
		return nil
	}
	switch k.TeamTieBreak {
	case "":
		k.TeamTieBreak = TeamTieBreakBoardCount
	case TeamTieBreakBoardCount, TeamTieBreakRapidMatch:
	default:
		return &FieldError{Field: "knockout.teamTieBreak", Message: fmt.Sprintf("unknown tie-break %q (want boardCount or rapidMatch)", k.TeamTieBreak), Rule: "S-3"}
	}
	if s.GamesPerMatch != 1 {
		return &FieldError{Field: "gamesPerMatch", Message: "a team knockout plays one team match per tie (level matches go to the tie-break)", Rule: "S-3"}
	}
	return nil
}

// TieLeg is one team match of a knockout tie as decided so far.
type TieLeg struct {
	Match TeamMatch
	// Scored reports that every board has a result.
	Scored bool
	// Winner is the team that won this match, "" while it is level or open.
	Winner string
	// DecidedBy is DecidedByMatchPoints or DecidedByBoardCount when Winner is set.
	DecidedBy string
}

// tieLegs returns the team matches of the round that belong to the tie, in
// the order they were played.
func tieLegs(r *Round, tie string) []TeamMatch {
	var out []TeamMatch
	for _, m := range r.Matches {
		if m.Tie == tie {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b TeamMatch) int { return a.Number - b.Number })
	return out
}

// DecideLeg scores one team match of a knockout: more match points win
// (T-7); level, the board count-back decides when the event uses it.
func (th *TeamHistory) DecideLeg(t *Tournament, r *Round, m TeamMatch) TieLeg {
	ms, ok := th.MatchScore(t, r, m)
	if !ok {
		return TieLeg{Match: m}
	}
	leg := TieLeg{Match: m, Scored: true}
	switch {
	case ms.Home.MatchPoints > ms.Away.MatchPoints:
		leg.Winner, leg.DecidedBy = m.Home, DecidedByMatchPoints
	case ms.Home.MatchPoints < ms.Away.MatchPoints:
		leg.Winner, leg.DecidedBy = m.Away, DecidedByMatchPoints
	case t.Settings.KnockoutInEffect().TeamTieBreak != TeamTieBreakRapidMatch:
		if w := th.countBack(t, r, m); w != "" {
			leg.Winner, leg.DecidedBy = w, DecidedByBoardCount
		}
	}
	return leg
}

// countBack is the board count-back of a level team match: the team that
// scored more on the top board, else on the next board, and so on; "" when
// every board is level.
func (th *TeamHistory) countBack(t *Tournament, r *Round, m TeamMatch) string {
	home := th.Team(m.Home)
	sc := scoring(t)
	tsc := team.Scoring{Win: sc.Win, Loss: sc.Loss, DrawRed: sc.DrawRed, DrawBlack: sc.DrawBlack}
	for _, p := range matchPairings(r, m) {
		res, ok := th.Result(r.Number, p)
		if !ok || home == nil {
			return ""
		}
		red, black, err := team.BoardPoints(res.Result, tsc)
		if err != nil {
			return ""
		}
		h, a := red, black
		if !slices.Contains(home.Roster, p.Red) {
			h, a = black, red
		}
		switch {
		case h > a:
			return m.Home
		case h < a:
			return m.Away
		}
	}
	return ""
}

// TieWinner decides a tie from its matches in play order: the first match
// with a winner decides it. needsRapid reports that every match so far is
// scored and level, so an additional rapid match is due.
func (th *TeamHistory) TieWinner(t *Tournament, r *Round, tie string) (winner string, needsRapid bool) {
	legs := tieLegs(r, tie)
	for _, m := range legs {
		leg := th.DecideLeg(t, r, m)
		if !leg.Scored {
			return "", false
		}
		if leg.Winner != "" {
			return leg.Winner, false
		}
	}
	return "", len(legs) > 0
}

// ExtendTeamKnockout adds to the latest round of a team knockout the
// additional rapid matches its level ties need now (see TeamTieBreak), with
// their board games; it reports whether r changed. The matches' ids, numbers
// and tables follow from the round, so two callers add the same ones.
func (th *TeamHistory) ExtendTeamKnockout(t *Tournament, r *Round, gameID GameIDFunc) (bool, error) {
	if !teamKnockout(t.Settings) || r == nil {
		return false, nil
	}
	var ties []string
	number := 0
	for _, m := range r.Matches {
		number = max(number, m.Number)
		if m.Tie != "" && !slices.Contains(ties, m.Tie) {
			ties = append(ties, m.Tie)
		}
	}
	changed := false
	for _, tie := range ties {
		if _, needs := th.TieWinner(t, r, tie); !needs {
			continue
		}
		legs := tieLegs(r, tie)
		last := legs[len(legs)-1]
		number++
		m := TeamMatch{ID: fmt.Sprintf("%s%s%d", legs[0].ID, rapidLegMark, len(legs)), Number: number,
			Home: last.Away, Away: last.Home, Tie: tie, Rapid: true,
			Explanation: Explanation{Opponent: fmt.Sprintf("tie %s level after %d match(es): additional rapid match at %s (附加快棋, S-3)", tie, len(legs), tieBreakControl(t)),
				OpponentReason: "bracket", ColourReason: "swapped"}}
		r.Matches = append(r.Matches, m)
		changed = true
	}
	if !changed {
		return false, nil
	}
	if _, err := th.SetMatches(t, r, gameID); err != nil {
		return false, err
	}
	return true, nil
}

// TeamKnockoutPlaces are a finished team knockout's final places by team
// (S-3): the final, the third-place match when played, then by the round
// each team went out in, teams out in the same round sharing the place.
// Before the bracket is finished the answer is a *RuleError.
func TeamKnockoutPlaces(t *Tournament, th *TeamHistory) ([]OverallPlace, error) {
	if !t.Settings.Teams || t.Settings.System != Knockout {
		return nil, &RuleError{Code: CodeSystemNotSupported, Message: "team places come from a team knockout's bracket or a team groups event", Rule: "S-3"}
	}
	tt, h := teamPairingHistory(t, th)
	return bracketPlaces(tt, h)
}

// KnockoutPlaces are a finished individual knockout's final places (S-3),
// as TeamKnockoutPlaces gives a team knockout's.
func KnockoutPlaces(t *Tournament, h *History) ([]OverallPlace, error) {
	switch t.Settings.System {
	case Knockout, DoubleElimination:
	default:
		return nil, &RuleError{Code: CodeSystemNotSupported, Message: "knockout places come from a knockout's bracket", Rule: "S-3"}
	}
	return bracketPlaces(t, h)
}

// bracketPlaces are the final places of a finished bracket (S-3), for
// individual and team knockouts alike.
func bracketPlaces(t *Tournament, h *History) ([]OverallPlace, error) {
	b, _, err := bracket(t, h, len(h.Rounds))
	if err != nil {
		return nil, err
	}
	places, err := b.Places()
	if err != nil {
		return nil, &RuleError{Code: CodeRoundUnfinished, Message: "the final places are known once the bracket is finished", Rule: "S-3"}
	}
	out := make([]OverallPlace, len(places))
	for i, p := range places {
		out[i] = OverallPlace{Player: p.Player, Place: p.Place, From: "knockout"}
	}
	return out, nil
}

// teamKnockoutRound is the pairing history's view of a team knockout round:
// one game per tie, between the teams of its first match (home red), with
// the tie's winner as the result once it is decided.
func (th *TeamHistory) teamKnockoutRound(t *Tournament, r *Round) (*Round, []Result) {
	tr := &Round{Number: r.Number, PairedAt: r.PairedAt, Byes: r.Byes, UnfinishedAsDraws: r.UnfinishedAsDraws}
	var results []Result
	seen := map[string]bool{}
	for _, m := range r.Matches {
		if m.Tie == "" || seen[m.Tie] {
			continue
		}
		seen[m.Tie] = true
		first := tieLegs(r, m.Tie)[0]
		ref := MatchRef(r.Number, first.ID)
		tr.Pairings = append(tr.Pairings, Pairing{Table: first.Number, Red: first.Home, Black: first.Away, GameID: ref, Match: m.Tie, Board: 1})
		w, _ := th.TieWinner(t, r, m.Tie)
		if w == "" {
			continue
		}
		res := result.RedWins
		if w == first.Away {
			res = result.BlackWins
		}
		results = append(results, Result{Round: r.Number, Table: first.Number, GameID: ref, Red: first.Home, Black: first.Away, Result: res})
	}
	return tr, results
}
