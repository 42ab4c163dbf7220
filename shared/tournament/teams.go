package tournament

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"

	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/team"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// A team event registers every member as a player of the event, so games,
// results, records and the boards table work as for individuals; what the
// team adds is its roster (T-1, T-2), a lineup per match (T-2, T-3), the
// matches of each round with their board games (T-6) and the team table
// (T-7, R-5…R-8). Teams are paired as players by the same engines: a team
// History is built whose "games" are the matches, scored 2/1/0 by match
// points (T-7).

// normalizeTeams fills and checks the team format (T-1…T-4).
func (s *Settings) normalizeTeams() error {
	// The systems that pair teams (PairNextTeams); the others are refused
	// here rather than at round 1.
	switch s.System {
	case Swiss, RoundRobin, DoubleRoundRobin, Knockout, Groups, SwissKnockout:
	case ChallengeSystem:
		return &FieldError{Field: "teams", Message: "a challenge event's challengers are individuals, and the rule book does not say in which order a defending team's members defend", Rule: "S-8"}
	default:
		return &FieldError{Field: "system", Message: fmt.Sprintf("team events are paired as swiss, roundRobin, doubleRoundRobin, knockout, groups or swissKnockout, not %s", s.System), Rule: "S-4"}
	}
	if s.TeamFormat == "" {
		s.TeamFormat = team.FixedBoards.String()
		if s.Substitutes > 0 {
			s.TeamFormat = team.BoardsWithSubstitutes.String()
		}
	}
	f, err := team.ParseFormat(s.TeamFormat)
	if err != nil {
		return &FieldError{Field: "teamFormat", Message: fmt.Sprintf("unknown format %q (want fixedBoards, boardsWithSubstitutes, lineupPerMatch or allPlayAll)", s.TeamFormat), Rule: "T-1"}
	}
	ts := team.Settings{Format: f, Boards: s.Boards, Substitutes: s.Substitutes, KeepEntryOrder: s.KeepEntryOrder}
	if err := ts.Validate(); err != nil {
		re := err.(*team.RuleError)
		return &FieldError{Field: "teamFormat", Message: re.Message, Rule: re.Rule}
	}
	if f == team.AllPlayAll {
		// 002's table is a round robin's (团体循环对抗赛): its rounds are the
		// event's, which a knockout's or a Swiss's own rounds cannot be.
		if s.System != RoundRobin && s.System != DoubleRoundRobin {
			return &FieldError{Field: "teamFormat", Rule: "T-4",
				Message: fmt.Sprintf("allPlayAll plays each round of 002's table (团体循环对抗赛秩序表) as an event round: it goes with roundRobin or doubleRoundRobin, not %s", s.System)}
		}
		s.AllPlayAllSittings = true
	}
	return nil
}

// TeamSettings returns the event's team settings for the team core. The
// settings were validated by Normalize; an unknown format reads as T-1.
func (s Settings) TeamSettings() team.Settings {
	f, _ := team.ParseFormat(s.TeamFormat)
	return team.Settings{Format: f, Boards: s.Boards, Substitutes: s.Substitutes, KeepEntryOrder: s.KeepEntryOrder}
}

// Team refusal codes, besides those of the team core.
const (
	CodeNotTeamEvent = "not_a_team_event"
	CodeNoMatch      = "no_match"
	CodeLineupLocked = "lineup_locked"
	// CodeTeamTablesUnavailable: an individual event has no team or board table.
	CodeTeamTablesUnavailable = "team_standings_unavailable"
)

// CheckTeamEvent refuses, in an individual event, what belongs to team
// events (T-1: teams enter events created for teams); what names it
// ("lineups").
func (t *Tournament) CheckTeamEvent(what string) error {
	if !t.Settings.Teams {
		return &RuleError{Code: CodeNotTeamEvent, Message: what + " belong to team events", Rule: "T-1"}
	}
	return nil
}

// CheckTeamTables refuses the team and board tables of an individual event:
// they rank teams by their matches, which only a team event plays. The
// teams-by-places table ranks an individual event's clubs instead.
func (t *Tournament) CheckTeamTables() error {
	if !t.Settings.Teams {
		return &RuleError{Code: CodeTeamTablesUnavailable, Rule: "R-5",
			Message: "team and board tables belong to team events; view=teamsByPlaces ranks clubs by their players' places (R-9)"}
	}
	return nil
}

// RegisterTeam enters a team: each member and substitute is registered as a
// player (Register numbers them and checks registration is open), then the
// roster is ordered by the team core (T-1: rating order, unrated last, unless
// the event keeps entry order). It returns the team and the players in entry
// order, members first. On an error t may have counted some players: the
// caller discards t.
func (t *Tournament) RegisterTeam(tm Team, members, substitutes []Player, now int64) (Team, []Player, error) {
	if !t.Settings.Teams {
		return Team{}, nil, &RuleError{Code: CodeNotTeamEvent, Message: "teams enter only events created with \"teams\": true", Rule: "T-1"}
	}
	var err error
	if tm.Name, err = cleanName("name", tm.Name, 120); err != nil {
		return Team{}, nil, err
	}
	var players []Player
	var tms, tss []team.Player
	for i, p := range append(slices.Clone(members), substitutes...) {
		q, err := t.Register(p, now)
		if err != nil {
			if fe, ok := err.(*FieldError); ok {
				field := fmt.Sprintf("members[%d].%s", i, fe.Field)
				if i >= len(members) {
					field = fmt.Sprintf("substitutes[%d].%s", i-len(members), fe.Field)
				}
				return Team{}, nil, &FieldError{Field: field, Message: fe.Message, Rule: fe.Rule}
			}
			return Team{}, nil, err
		}
		players = append(players, q)
		tp := team.Player{ID: q.ID, Name: q.Name, Rating: q.Rating}
		if i < len(members) {
			tms = append(tms, tp)
		} else {
			tss = append(tss, tp)
		}
	}
	roster, err := team.NewRoster(tm.ID, t.Settings.TeamSettings(), tms, tss)
	if err != nil {
		return Team{}, nil, err
	}
	tm.Roster, tm.Members, tm.Substitutes = roster.IDs(), nil, nil
	for _, p := range roster.Players {
		if p.Substitute {
			tm.Substitutes = append(tm.Substitutes, p.ID)
		} else {
			tm.Members = append(tm.Members, p.ID)
		}
	}
	t.TeamCount++
	tm.Number = t.TeamCount
	tm.Status = Active
	tm.JoinedRound = t.Round + 1
	tm.RegisteredAt = now
	return tm, players, nil
}

// WithdrawTeam takes a team out of a Swiss (S-6): its results stand and it
// is no longer paired. A team round robin would annul or forfeit the team's
// matches by S-6, which the team table does not do, so it is refused there.
func (t *Tournament) WithdrawTeam(tm *Team) error {
	if tm.Status == Withdrawn {
		return &RuleError{Code: "already_withdrawn", Message: fmt.Sprintf("team %d has already withdrawn", tm.Number), Rule: "S-6"}
	}
	if !isSwiss(t.Settings.System) {
		return &RuleError{Code: "team_withdrawal_unsupported", Message: fmt.Sprintf("a team cannot withdraw from a %s here: S-6 would annul or forfeit its matches; record its remaining boards as forfeits instead", t.Settings.System), Rule: "S-6"}
	}
	tm.Status = Withdrawn
	tm.WithdrawnAfter = t.Round
	return nil
}

// TeamRoster returns the team's roster for the team core.
func (tm *Team) TeamRoster(s team.Settings) team.Roster {
	r := team.Roster{Team: tm.ID, Settings: s}
	for _, id := range tm.Roster {
		r.Players = append(r.Players, team.Player{ID: id, Substitute: slices.Contains(tm.Substitutes, id)})
	}
	return r
}

// Lineup is the players a team fields in one round's match, by board (T-2,
// T-3): set by the captain or the organiser, or drawn by the server from
// Seed (team.Roster.DrawLineup) when the organiser asks for missing lineups.
type Lineup struct {
	Round   int
	Team    string
	Players []string
	Drawn   bool
	Seed    uint64
	By      string
	At      int64
}

// TeamMatch is one match of a team round: Home is listed first and has red
// on odd boards (T-6). Number orders the matches and places their tables.
type TeamMatch struct {
	ID          string
	Number      int
	Home, Away  string
	Explanation Explanation
	// Tie is the bracket match of a team knockout the match belongs to (S-3);
	// "" in other systems.
	Tie string
	// Rapid marks an additional rapid match (附加快棋) of a level tie, its
	// boards at the event's tie-break preset (teamknockout.go).
	Rapid bool
	// Group names the group (A, B, …) or same-place final (F1, …) of a
	// team groups event's match (S-5, teamgroups.go).
	Group string
}

// MatchRef names a match across rounds, as a game id names a game: it is
// what the team pairing history and UnfinishedAsDraws of team rounds hold.
func MatchRef(round int, matchID string) string { return fmt.Sprintf("r%d-%s", round, matchID) }

// LineupSeed is the seed of a team's drawn lineup (T-3: drawn by the
// server): the first 8 bytes of SHA-256("<tid>/<round>/<team>"), so anyone
// can redo the draw.
func LineupSeed(tid string, round int, teamID string) uint64 {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s/%d/%s", tid, round, teamID)))
	return binary.LittleEndian.Uint64(sum[:8])
}

// TeamHistory is a team event's history: the players' History (board games
// and their results), the teams and the lineups.
type TeamHistory struct {
	*History
	// Teams in number order.
	Teams   []*Team
	byID    map[string]*Team
	lineups map[int]map[string]Lineup
}

// NewTeamHistory indexes the teams and lineups the store returned.
func NewTeamHistory(h *History, teams []*Team, lineups []Lineup) *TeamHistory {
	th := &TeamHistory{History: h, Teams: slices.Clone(teams), byID: map[string]*Team{}, lineups: map[int]map[string]Lineup{}}
	sort.Slice(th.Teams, func(i, j int) bool { return th.Teams[i].Number < th.Teams[j].Number })
	for _, tm := range th.Teams {
		th.byID[tm.ID] = tm
	}
	for _, l := range lineups {
		th.AddLineup(l)
	}
	return th
}

// Team returns the team with the id, nil when unknown.
func (th *TeamHistory) Team(id string) *Team { return th.byID[id] }

// AddLineup records a lineup, replacing the team's earlier one for the round.
func (th *TeamHistory) AddLineup(l Lineup) {
	if th.lineups[l.Round] == nil {
		th.lineups[l.Round] = map[string]Lineup{}
	}
	th.lineups[l.Round][l.Team] = l
}

// Lineup returns the team's stored lineup for the round.
func (th *TeamHistory) Lineup(round int, teamID string) (Lineup, bool) {
	l, ok := th.lineups[round][teamID]
	return l, ok
}

// knownLineup is the lineup the team fields in the round's match, if it is
// known: under T-1 the roster (known at pairing), under T-2 with no
// substitutes entered the members (the only legal lineup); otherwise the
// stored lineup.
func (th *TeamHistory) knownLineup(t *Tournament, round int, tm *Team) (team.Lineup, bool) {
	s := t.Settings.TeamSettings()
	if s.Format == team.FixedBoards || s.Format == team.BoardsWithSubstitutes && len(tm.Substitutes) == 0 {
		return tm.TeamRoster(s).Members(), true
	}
	// T-4 sittings: the lineups set for the meeting's first round hold for all of it.
	if l, ok := th.Lineup(t.Settings.firstSitting(round), tm.ID); ok {
		return l.Players, true
	}
	return nil, false
}

// matchPairings returns the round's board pairings of the match, by board.
func matchPairings(r *Round, m TeamMatch) []Pairing {
	var ps []Pairing
	for _, p := range r.Pairings {
		if p.Match == m.ID {
			ps = append(ps, p)
		}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Board < ps[j].Board })
	return ps
}

// MatchSet reports whether the match's board games exist.
func MatchSet(r *Round, m TeamMatch) bool { return len(matchPairings(r, m)) > 0 }

// boardsPerMatch is the number of games in a match: the boards, or under T-4
// every member against every member.
func boardsPerMatch(s Settings) int {
	if s.TeamFormat == team.AllPlayAll.String() {
		return s.Boards * s.Boards
	}
	return s.Boards
}

// matchBoards lays out the match's board games from the two lineups: T-6
// colours (home red on odd boards), or under T-4 the all-play-all table of
// seed 002 (colours alternating by round): with sittings as rounds only the
// table's 轮次 of this event round, its boards numbered as the table's rows.
// Tables run match by match.
func matchBoards(t *Tournament, round int, m TeamMatch, home, away team.Lineup, gameID GameIDFunc) ([]Pairing, error) {
	var games []team.BoardGame
	first := 0 // the board number before the first game laid out
	if t.Settings.TeamFormat == team.AllPlayAll.String() {
		rounds, err := team.AllPlayAllRounds(home, away)
		if err != nil {
			return nil, err
		}
		if t.Settings.sittings() > 1 {
			_, k := t.Settings.meetingOf(round)
			games, first = rounds[k-1], (k-1)*len(home)
		} else {
			for _, r := range rounds {
				games = append(games, r...)
			}
		}
	} else {
		games = team.Boards(home, away)
	}
	per := tablesPerMatch(t.Settings)
	var ps []Pairing
	for i, g := range games {
		table := (m.Number-1)*per + i + 1
		ps = append(ps, Pairing{Table: table, Red: g.Red, Black: g.Black, GameID: gameID(round, table, 1), Match: m.ID, Board: first + i + 1})
	}
	return ps, nil
}

// SetMatches adds the board games of every match of r whose two lineups are
// known and that has none yet; it reports whether r changed.
func (th *TeamHistory) SetMatches(t *Tournament, r *Round, gameID GameIDFunc) (bool, error) {
	changed := false
	for _, m := range r.Matches {
		if MatchSet(r, m) {
			continue
		}
		home, away := th.Team(m.Home), th.Team(m.Away)
		if home == nil || away == nil {
			return false, fmt.Errorf("round %d match %s: unknown team", r.Number, m.ID)
		}
		hl, okh := th.knownLineup(t, r.Number, home)
		al, oka := th.knownLineup(t, r.Number, away)
		if !okh || !oka {
			continue
		}
		ps, err := matchBoards(t, r.Number, m, hl, al, gameID)
		if err != nil {
			return false, err
		}
		r.Pairings = append(r.Pairings, ps...)
		changed = true
	}
	sort.Slice(r.Pairings, func(i, j int) bool { return r.Pairings[i].Table < r.Pairings[j].Table })
	return changed, nil
}

// teamMatch returns the team's match in round r.
func teamMatch(r *Round, teamID string) (TeamMatch, bool) {
	for _, m := range r.Matches {
		if m.Home == teamID || m.Away == teamID {
			return m, true
		}
	}
	return TeamMatch{}, false
}

// SubmitLineup checks a lineup for the team's match in round r (T-1…T-4 by
// the event's format): the team must play a match in r, the match's games
// must not exist yet (once both lineups are in, the match is set), and the
// lineup must arrive before the round's start when it has one (T-3: set
// before the match).
func (th *TeamHistory) SubmitLineup(t *Tournament, r *Round, teamID string, players []string, by string, now int64) (Lineup, error) {
	s := t.Settings.TeamSettings()
	tm := th.Team(teamID)
	if tm == nil {
		return Lineup{}, &RuleError{Code: "unknown_team", Message: fmt.Sprintf("team %s is not entered in this event", teamID), Rule: s.Format.Rule()}
	}
	m, ok := teamMatch(r, teamID)
	if !ok {
		return Lineup{}, &RuleError{Code: CodeNoMatch, Message: fmt.Sprintf("team %d has no match in round %d (a bye or a rest)", tm.Number, r.Number), Rule: "S-7"}
	}
	roster := tm.TeamRoster(s)
	if err := roster.CheckLineup(players); err != nil {
		return Lineup{}, err
	}
	if LineupDeadlinePassed(r, now) {
		if err := roster.SubmitLineup(players, r.StartsAt, now); err != nil {
			return Lineup{}, err
		}
	}
	if MatchSet(r, m) {
		return Lineup{}, &RuleError{Code: CodeLineupLocked, Message: fmt.Sprintf("match %s of round %d is set: its board games exist", m.ID, r.Number), Rule: s.Format.Rule()}
	}
	return Lineup{Round: r.Number, Team: teamID, Players: slices.Clone(players), By: by, At: now}, nil
}

// DrawMissing draws the lineup of every team of r whose match is not set
// and that has no lineup (T-3: drawn by the server), with LineupSeed.
func (th *TeamHistory) DrawMissing(t *Tournament, r *Round, by string, now int64) []Lineup {
	s := t.Settings.TeamSettings()
	var out []Lineup
	for _, m := range r.Matches {
		if MatchSet(r, m) {
			continue
		}
		for _, id := range []string{m.Home, m.Away} {
			tm := th.Team(id)
			if tm == nil {
				continue
			}
			if _, ok := th.knownLineup(t, r.Number, tm); ok {
				continue
			}
			seed := LineupSeed(t.ID, r.Number, id)
			out = append(out, Lineup{Round: r.Number, Team: id, Players: tm.TeamRoster(s).DrawLineup(seed), Drawn: true, Seed: seed, By: by, At: now})
		}
	}
	return out
}

// DrawnByServer is the By of a lineup the server drew itself at the
// deadline, with nobody asking (T-3).
const DrawnByServer = "server"

// LineupDeadlinePassed reports whether round r has a lineup deadline (its
// start) and now, Unix ms, is at or past it: from then on captains are
// refused (SubmitLineup) and missing lineups are drawn (DueLineups). The
// deadline is the round's start (T-3), so this is Round.Started.
func LineupDeadlinePassed(r *Round, now int64) bool { return r.Started(now) }

// DueLineups is T-3's "drawn by the server" without a background job: once
// the round's start has passed, every lineup still missing from a match not
// yet set is drawn with LineupSeed, as DrawMissing does for the organiser.
// Before the deadline, or when nothing is missing, it returns nothing. The
// draw is a pure function of event, round, team and roster, so two callers
// computing it at once compute the same lineups; the caller writes them
// under the round item's version so that only one of them sets the match.
func (th *TeamHistory) DueLineups(t *Tournament, r *Round, now int64) []Lineup {
	if !LineupDeadlinePassed(r, now) {
		return nil
	}
	return th.DrawMissing(t, r, DrawnByServer, now)
}

// MatchScore scores a set match whose every board has a result (T-7): the
// board points and match points of home and away. ok is false while the
// match is not set or a board is still being played. A T-4 meeting played
// in sittings is one match over all its rounds: ok once every sitting is
// paired and finished.
func (th *TeamHistory) MatchScore(t *Tournament, r *Round, m TeamMatch) (team.MatchScore, bool) {
	var ps []Pairing
	var rounds []int // each pairing's round
	sittings := th.meetingRounds(t, r)
	if len(sittings) != t.Settings.sittings() {
		return team.MatchScore{}, false
	}
	for _, x := range sittings {
		for _, p := range matchPairings(x, m) {
			ps, rounds = append(ps, p), append(rounds, x.Number)
		}
	}
	home := th.Team(m.Home)
	if len(ps) == 0 || home == nil {
		return team.MatchScore{}, false
	}
	sc := scoring(t)
	games := make([]team.BoardGame, len(ps))
	results := make([]result.Result, len(ps))
	for i, p := range ps {
		res, ok := th.Result(rounds[i], p)
		if !ok {
			return team.MatchScore{}, false
		}
		games[i] = team.BoardGame{Board: p.Board, Red: p.Red, Black: p.Black, HomeRed: slices.Contains(home.Roster, p.Red)}
		results[i] = res.Result
	}
	ms, err := team.ScoreMatch(games, results, team.Scoring{Win: sc.Win, Loss: sc.Loss, DrawRed: sc.DrawRed, DrawBlack: sc.DrawBlack})
	if err != nil {
		return team.MatchScore{}, false
	}
	return ms, true
}

// teamPairingHistory is the history the pairing engines read for a team
// event: each team a player (its number, its members' mean rating), each
// match a game between Home (red) and Away (black), decided by match points
// as a 2-1-0 game (T-7). A match not yet decided has no result, so P-12
// applies to matches as to games.
func teamPairingHistory(t *Tournament, th *TeamHistory) (*Tournament, *History) {
	var players []*Player
	for _, tm := range th.Teams {
		sum, n := 0, 0
		for _, id := range tm.Members {
			if p := th.Player(id); p != nil && p.Rating > 0 {
				sum, n = sum+p.Rating, n+1
			}
		}
		rating := 0
		if n > 0 {
			rating = sum / n
		}
		players = append(players, &Player{ID: tm.ID, Number: tm.Number, Name: tm.Name, Rating: rating, Status: tm.Status, JoinedRound: tm.JoinedRound})
	}
	var rounds []*Round
	var results []Result
	for _, r := range th.Rounds {
		if slices.ContainsFunc(r.Matches, func(m TeamMatch) bool { return m.Tie != "" }) {
			tr, res := th.teamKnockoutRound(t, r)
			rounds, results = append(rounds, tr), append(results, res...)
			continue
		}
		// T-4 sittings: the teams met once per meeting; its first round
		// stands for it, numbered as the meeting.
		meeting, sitting := t.Settings.meetingOf(r.Number)
		if sitting > 1 {
			continue
		}
		tr := &Round{Number: meeting, PairedAt: r.PairedAt, Byes: r.Byes, UnfinishedAsDraws: r.UnfinishedAsDraws, Stage: r.Stage}
		for _, m := range r.Matches {
			ref := MatchRef(meeting, m.ID)
			tr.Pairings = append(tr.Pairings, Pairing{Table: m.Number, Red: m.Home, Black: m.Away, GameID: ref, Group: m.Group})
			ms, ok := th.MatchScore(t, r, m)
			if !ok {
				continue
			}
			res := result.Draw
			switch {
			case ms.Home.MatchPoints > ms.Away.MatchPoints:
				res = result.RedWins
			case ms.Home.MatchPoints < ms.Away.MatchPoints:
				res = result.BlackWins
			}
			results = append(results, Result{Round: meeting, Table: m.Number, GameID: ref, Red: m.Home, Black: m.Away, Result: res})
		}
		rounds = append(rounds, tr)
	}
	tt := *t
	tt.Settings.Scoring = standings.DefaultScoring // T-7: match points 2/1/0
	tt.Settings.GamesPerMatch = 1
	tt.Players = len(players)
	if t.Settings.sittings() > 1 {
		tt.Round = len(rounds) // the meetings, each of several rounds (T-4)
	}
	h := NewHistory(players, rounds, results)
	switch t.Settings.System {
	case Groups:
		h.rankTeams = func(group string, members []string) ([]string, error) { return th.rankTeamGroup(t, group, members) }
	case SwissKnockout:
		h.rankTeamsAfter = func(n int) ([]string, error) { return th.rankTeamsAfter(t, n) }
	}
	return &tt, h
}

// PairNextTeams pairs round t.Round+1 of a team event: teams are paired as
// players by the Swiss (by match points, S-7 bye as a match win), the
// round-robin table (the first-listed team is home, T-6) or the knockout
// bracket (home by lot, 000 ch.2 §4 第6条; teamknockout.go), and each pair
// becomes a match. Matches whose lineups are known at once (T-1) get their
// board games now; the others when both lineups are in (SetMatches). Forbidden
// pairs name team ids.
func PairNextTeams(t *Tournament, th *TeamHistory, o PairOptions, gameID GameIDFunc) (*Round, error) {
	switch t.Settings.System {
	case Swiss, RoundRobin, DoubleRoundRobin, Knockout, Groups, SwissKnockout:
	default:
		return nil, &RuleError{Code: CodeSystemNotSupported, Message: fmt.Sprintf("team rounds of a %s event are not paired by this service; team events are swiss, roundRobin, doubleRoundRobin, knockout, groups or swissKnockout", t.Settings.System), Rule: "S-4"}
	}
	n := t.Round + 1
	if _, sitting := t.Settings.meetingOf(n); sitting > 1 && len(th.Rounds) == t.Round {
		return nextSitting(t, th, n, o, gameID) // T-4: the meeting's next 轮次
	}
	tt, h := teamPairingHistory(t, th)
	tr, err := PairNext(tt, h, o, func(round, table, _ int) string { return MatchRef(round, fmt.Sprintf("M%d", table)) })
	if err != nil {
		return nil, err
	}
	r := &Round{Number: n, PairedAt: tr.PairedAt, StartsAt: tr.StartsAt, Byes: tr.Byes, UnfinishedAsDraws: tr.UnfinishedAsDraws, Stage: tr.Stage}
	for i, p := range tr.Pairings {
		m := TeamMatch{ID: fmt.Sprintf("M%d", p.Table), Number: p.Table, Home: p.Red, Away: p.Black, Tie: p.Match, Group: p.Group}
		if i < len(tr.Explanations) {
			m.Explanation = tr.Explanations[i]
		}
		r.Matches = append(r.Matches, m)
	}
	if _, err := th.SetMatches(t, r, gameID); err != nil {
		return nil, err
	}
	return r, nil
}

// TeamStandingsEvent turns a team event's history into the team table's
// input (T-7, R-5…R-8): every set match with its board results ("" while
// playing), colours as played, and the Swiss byes.
func TeamStandingsEvent(t *Tournament, th *TeamHistory) (standings.TeamEvent, error) {
	ev := standings.TeamEvent{System: t.Settings.System, Rounds: t.Settings.Rounds, Boards: boardsPerMatch(t.Settings),
		Scoring: scoring(t), PlayoffPlaces: t.Settings.PlayoffPlaces()}
	if t.Settings.System == DoubleRoundRobin {
		ev.PlayoffPlaces = 0 // a team double round robin ends in a play-off
	}
	chain, err := standings.ParseTeamChain(t.Settings.Tiebreaks)
	if err != nil {
		return ev, fmt.Errorf("team standings: %w", err)
	}
	ev.Chain = chain
	for _, tm := range th.Teams {
		ev.Teams = append(ev.Teams, standings.Team{ID: tm.ID, Name: tm.Name, Number: tm.Number})
	}
	for _, r := range th.Rounds {
		if _, sitting := t.Settings.meetingOf(r.Number); sitting > 1 {
			continue // a T-4 meeting's later rounds are counted with its first
		}
		for _, m := range r.Matches {
			var ps []Pairing
			var rounds []int
			for _, x := range th.meetingRounds(t, r) {
				for _, p := range matchPairings(x, m) {
					ps, rounds = append(ps, p), append(rounds, x.Number)
				}
			}
			if len(ps) == 0 || m.Rapid {
				continue // lineups pending: nothing to count yet; a tie-break match is not counted (000 ch.7 §2 第5条)
			}
			home := th.Team(m.Home)
			sm := standings.Match{Round: r.Number, First: m.Home, Second: m.Away, ExplicitColours: true}
			for i, p := range ps {
				b := standings.BoardResult{FirstColor: xiangqi.Red, FirstPlayer: p.Red, SecondPlayer: p.Black, Round: rounds[i]}
				if home == nil || !slices.Contains(home.Roster, p.Red) {
					b.FirstColor, b.FirstPlayer, b.SecondPlayer = xiangqi.Black, p.Black, p.Red
				}
				if res, ok := th.Result(rounds[i], p); ok {
					b.Result = res.Result
					b.FirstFouls, b.SecondFouls = res.RedFouls, res.BlackFouls
					if b.FirstColor == xiangqi.Black {
						b.FirstFouls, b.SecondFouls = res.BlackFouls, res.RedFouls
					}
				}
				sm.Boards = append(sm.Boards, b)
			}
			ev.Matches = append(ev.Matches, sm)
		}
		for _, id := range r.Byes {
			ev.Byes = append(ev.Byes, standings.TeamBye{Round: r.Number, Team: id})
		}
	}
	return ev, nil
}

// BoardsEvent is the individual table over a team event's board games (the
// boards view): every member a player, every board game a game, colours as
// played; team byes give no player a bye. It is ranked by the individual
// chain of the event's system.
func BoardsEvent(t *Tournament, th *TeamHistory) (standings.Event, error) {
	tev, err := TeamStandingsEvent(t, th)
	if err != nil {
		return standings.Event{}, err
	}
	ev := standings.Event{System: t.Settings.System, Rounds: t.Settings.Rounds, Scoring: scoring(t), PlayoffPlaces: standings.NoPlayoff,
		Games: standings.BoardGames(tev)}
	if ev.Chain, err = standings.DefaultChain(t.Settings.System); err != nil {
		return ev, fmt.Errorf("boards table: %w", err)
	}
	for _, p := range th.Players {
		ev.Players = append(ev.Players, standings.Player{ID: p.ID, Name: p.Name, Number: p.Number})
	}
	return ev, nil
}
