package httpapi

import (
	"time"

	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/standings"
	"github.com/xqtour/xqtour/shared/tournament"
)

// timeControlJSON is the time control a request names: the game layer's
// shape (games.TimeControl), a preset name or periods and an increment.
type timeControlJSON = games.TimeControl

// rulesJSON is the OpenAPI document's Rules: tournament.RuleNames with its
// JSON names, field for field.
type rulesJSON struct {
	Repetition        string `json:"repetition,omitempty"`
	IllegalMoves      string `json:"illegalMoves,omitempty"`
	NoCaptureMoves    int    `json:"noCaptureMoves,omitempty"`
	DrawOfferLimit    int    `json:"drawOfferLimit,omitempty"`
	DeadPositionDraw  bool   `json:"deadPositionDraw"`
	LateForfeitMs     int64  `json:"lateForfeitMs,omitempty"`
	RecordArrivals    bool   `json:"recordArrivals"`
	OfferLoses        bool   `json:"offerLoses"`
	DroppedPieceLoses *bool  `json:"droppedPieceLoses"` // absent: the rule book's default, on
}

// rules reads the rule options (tournament.RuleNames.Rules): nil is the
// rule book's defaults.
func (r *rulesJSON) rules() (tournament.Rules, error) { return (*tournament.RuleNames)(r).Rules() }

func rulesOut(r tournament.Rules) rulesJSON { return rulesJSON(r.Names()) }

// tournamentIn is POST /tournaments.
type tournamentIn struct {
	Name          string           `json:"name"`
	System        string           `json:"system"`
	Rounds        int              `json:"rounds"`
	Teams         bool             `json:"teams"`
	Boards        int              `json:"boards"`
	Substitutes   int              `json:"substitutes"`
	TeamFormat    string           `json:"teamFormat"`
	KeepEntry     bool             `json:"keepEntryOrder"`
	Scoring       string           `json:"scoring"`
	Tiebreaks     []string         `json:"tiebreaks"`
	TimeControl   *timeControlJSON `json:"timeControl"`
	Rules         *rulesJSON       `json:"rules"`
	FirstRound    string           `json:"firstRound"`
	AvoidSameClub bool             `json:"avoidSameClub"`
	GamesPerMatch int              `json:"gamesPerMatch"`
	// RankByGamePoints is 000 ch.7 §2 第5条's 局分累计 for a multi-game round robin.
	RankByGamePoints bool             `json:"rankByGamePoints"`
	Playoff          bool             `json:"playoff"`
	ShareTitle       bool             `json:"shareTitle"`
	PlacesCounted    int              `json:"placesCounted"`
	StartsAt         *time.Time       `json:"startsAt"`
	Elimination      *eliminationJSON `json:"elimination"`
	Groups           *groupsJSON      `json:"groups"`
	Numbering        string           `json:"numbering"`
	Knockout         *knockoutJSON    `json:"knockout"`
	LateEntries      *lateEntriesJSON `json:"lateEntries"`
	Rating           *ratingJSON      `json:"rating"`
	ChallengeDraw    string           `json:"challengeDraw"`
	ChallengeTeam    int              `json:"challengeTeam"`
	// BroadcastDelaySeconds delays public reads of the event's games.
	BroadcastDelaySeconds int `json:"broadcastDelaySeconds"`
	// SignedResults counts a game's result only once its scoresheet is signed (O-3).
	SignedResults bool `json:"signedResults"`
	// CheckIn pairs each round only the players checked in for it (E-2).
	CheckIn bool `json:"checkIn"`
	// Festival makes the event a section of that festival (E-3); the
	// request then carries the festival's token.
	Festival string `json:"festival"`
}

// lateEntriesJSON is a Swiss event's late-entry rules (S-2).
type lateEntriesJSON struct {
	UntilRound   int    `json:"untilRound"`
	MissedRounds string `json:"missedRounds"`
}

// eliminationJSON is a swissElimination event's last-place elimination (S-4).
type eliminationJSON struct {
	FromRound int `json:"fromRound"`
	PerRound  int `json:"perRound"`
	Keep      int `json:"keep"`
}

// groupsJSON is a groups event's seeded groups and finals (S-5).
type groupsJSON struct {
	Count      int    `json:"count"`
	Finals     string `json:"finals"`
	Qualifiers int    `json:"qualifiers,omitempty"`
}

// knockoutJSON is the knockout matches' options (S-3, S-4); fields a system
// does not use are left out of the event's view.
type knockoutJSON struct {
	ThirdPlace *bool `json:"thirdPlace,omitempty"`
	// Placings is the lowest place a placing match decides (附加赛, S-3).
	Placings  int    `json:"placings,omitempty"`
	Reset     *bool  `json:"reset,omitempty"`
	Finalists int    `json:"finalists,omitempty"`
	TieBreak  string `json:"tieBreak,omitempty"`
	Colours   string `json:"colours,omitempty"`
	// TeamTieBreak decides a level match of a team knockout (S-3).
	TeamTieBreak string `json:"teamTieBreak,omitempty"`
}

func knockoutOut(s tournament.Settings) *knockoutJSON {
	k := s.KnockoutInEffect()
	if k == (tournament.KnockoutOptions{}) {
		return nil
	}
	out := &knockoutJSON{Placings: k.Placings, Reset: k.Reset, Finalists: k.Finalists, TieBreak: k.TieBreak, Colours: k.Colours, TeamTieBreak: k.TeamTieBreak}
	if s.System == tournament.Knockout {
		out.ThirdPlace = &k.ThirdPlace
	}
	return out
}

// combinedSettings copies the combined systems' settings, the round-robin
// numbering and the knockout options into s.
func (in *tournamentIn) combinedSettings(s *tournament.Settings) {
	s.Numbering = in.Numbering
	if k := in.Knockout; k != nil {
		s.Knockout = tournament.KnockoutOptions{ThirdPlace: k.ThirdPlace != nil && *k.ThirdPlace, Placings: k.Placings, Reset: k.Reset, Finalists: k.Finalists, TieBreak: k.TieBreak, Colours: k.Colours, TeamTieBreak: k.TeamTieBreak}
	}
	if e := in.Elimination; e != nil {
		s.Elimination = tournament.Elimination{FromRound: e.FromRound, PerRound: e.PerRound, Keep: e.Keep}
	}
	if g := in.Groups; g != nil {
		s.Groups = tournament.GroupStage{Count: g.Count, Finals: g.Finals, Qualifiers: g.Qualifiers}
	}
	if l := in.LateEntries; l != nil {
		s.LateEntries = tournament.LateEntries{UntilRound: l.UntilRound, MissedRounds: standings.Missed(l.MissedRounds)}
	}
	s.Rating = in.Rating.params()
	s.ChallengeDraw = in.ChallengeDraw
	s.BroadcastDelaySeconds = in.BroadcastDelaySeconds
	s.SignedResults = in.SignedResults
	s.ChallengeTeam = in.ChallengeTeam
}

type tournamentOut struct {
	ID               string           `json:"id"`
	Name             string           `json:"name"`
	System           string           `json:"system"`
	Rounds           int              `json:"rounds"`
	Teams            bool             `json:"teams"`
	Boards           int              `json:"boards,omitempty"`
	Substitutes      int              `json:"substitutes,omitempty"`
	TeamFormat       string           `json:"teamFormat,omitempty"`
	KeepEntry        bool             `json:"keepEntryOrder,omitempty"`
	Scoring          string           `json:"scoring"`
	Tiebreaks        []string         `json:"tiebreaks"`
	TimeControl      timeControlJSON  `json:"timeControl"`
	Rules            rulesJSON        `json:"rules"`
	FirstRound       string           `json:"firstRound"`
	AvoidSameClub    bool             `json:"avoidSameClub"`
	GamesPerMatch    int              `json:"gamesPerMatch"`
	RankByGamePoints bool             `json:"rankByGamePoints,omitempty"`
	Playoff          bool             `json:"playoff"`
	ShareTitle       bool             `json:"shareTitle"`
	PlacesCounted    int              `json:"placesCounted,omitempty"`
	StartsAt         *string          `json:"startsAt,omitempty"`
	Status           string           `json:"status"`
	CreatedAt        string           `json:"createdAt"`
	Players          int              `json:"players"`
	Round            int              `json:"round"`
	Elimination      *eliminationJSON `json:"elimination,omitempty"`
	Groups           *groupsJSON      `json:"groups,omitempty"`
	Numbering        string           `json:"numbering,omitempty"`
	Knockout         *knockoutJSON    `json:"knockout,omitempty"`
	LateEntries      *lateEntriesJSON `json:"lateEntries,omitempty"`
	Rating           *ratingJSON      `json:"rating"`
	ChallengeDraw    string           `json:"challengeDraw,omitempty"`
	ChallengeTeam    int              `json:"challengeTeam,omitempty"`
	// BroadcastDelaySeconds is how far behind the play public reads of the
	// event's games are.
	BroadcastDelaySeconds int `json:"broadcastDelaySeconds"`
	// SignedResults says a result counts once the game's scoresheet is signed (O-3).
	SignedResults bool `json:"signedResults"`
	// CheckIn, Festival and Entries: E-2, E-3, E-1.
	CheckIn bool `json:"checkIn,omitempty"`
	// CheckInOpensAt is when the next round's check-in opens, when the
	// organiser set a time (E-2).
	CheckInOpensAt *string     `json:"checkInOpensAt,omitempty"`
	Festival       string      `json:"festival,omitempty"`
	Entries        *entriesOut `json:"entries,omitempty"`
}

func rfc3339(ms int64) string { return games.RFC3339(ms) }

func tournamentView(t *tournament.Tournament) tournamentOut {
	s := t.Settings
	out := tournamentOut{
		ID: t.ID, Name: s.Name, System: s.System, Rounds: s.Rounds, Teams: s.Teams, Boards: s.Boards,
		Substitutes: s.Substitutes, TeamFormat: s.TeamFormat, KeepEntry: s.KeepEntryOrder, Scoring: s.Scoring.Name, Tiebreaks: s.Tiebreaks, TimeControl: games.TimeControlOf(s.TimeControl),
		Rules: rulesOut(s.Rules), FirstRound: s.FirstRound, AvoidSameClub: s.AvoidSameClub, GamesPerMatch: s.GamesPerMatch, RankByGamePoints: s.RankByGamePoints,
		Playoff: s.PlayoffPlaces() == 0, ShareTitle: s.ShareTitle, PlacesCounted: s.PlacesCounted, Status: string(t.Status), CreatedAt: rfc3339(t.CreatedAt), Players: t.Entrants(), Round: t.Round,
		Numbering: s.NumberingInEffect(), Knockout: knockoutOut(s), Rating: ratingOut(s.Rating), ChallengeDraw: s.ChallengeDraw, ChallengeTeam: s.ChallengeTeam,
		BroadcastDelaySeconds: s.BroadcastDelaySeconds, SignedResults: s.SignedResults, CheckIn: s.CheckIn, Festival: t.Festival,
	}
	if at := t.CheckInOpensAt(t.Round + 1); at != 0 {
		out.CheckInOpensAt = ptr(rfc3339(at))
	}
	if t.Entries != nil {
		ev := entriesView(t, 0) // open as the organiser left it; closesAt says when it closes
		out.Entries = &ev
	}
	if s.StartsAt != 0 {
		v := rfc3339(s.StartsAt)
		out.StartsAt = &v
	}
	if s.System == tournament.SwissElimination {
		out.Elimination = &eliminationJSON{FromRound: s.Elimination.FromRound, PerRound: s.Elimination.PerRound, Keep: s.Elimination.Keep}
	}
	if s.System == tournament.Groups {
		out.Groups = &groupsJSON{Count: s.Groups.Count, Finals: s.Groups.Finals, Qualifiers: s.Groups.Qualifiers}
		if s.Groups.Finals == tournament.FinalsCross {
			out.Groups.Qualifiers = s.Groups.CrossQualifiers()
		}
	}
	if l := s.LateEntries; l.MissedRounds != "" {
		out.LateEntries = &lateEntriesJSON{UntilRound: l.UntilRound, MissedRounds: string(l.MissedRounds)}
	}
	return out
}

type playerIn struct {
	Name   string `json:"name"`
	Rating int    `json:"rating"`
	Club   string `json:"club"`
	Seeded bool   `json:"seeded"`
}

type playerOut struct {
	ID string `json:"id"`
	// Number is the player's number as the event shows it (P-3): the one
	// drawn for round 1 once an individual Swiss has paired it, else the
	// entry number.
	Number int `json:"number"`
	// EntryNumber is the order of registration, kept beside the drawn number.
	EntryNumber    int    `json:"entryNumber"`
	Name           string `json:"name"`
	Rating         int    `json:"rating,omitempty"`
	Club           string `json:"club,omitempty"`
	Seeded         bool   `json:"seeded"`
	Status         string `json:"status"`
	JoinedRound    int    `json:"joinedRound"`
	WithdrawnAfter *int   `json:"withdrawnAfter,omitempty"`
	// CheckedIn is the last round the player checked in for (E-2).
	CheckedIn int `json:"checkedIn,omitempty"`
}

// playerView is a player as clients see it, number being the player's
// number as the event shows it (tournament.ShownNumbers).
func playerView(p *tournament.Player, number int) playerOut {
	out := playerOut{ID: p.ID, Number: number, EntryNumber: p.Number, Name: p.Name, Rating: p.Rating, Club: p.Club, Seeded: p.Seeded,
		Status: string(p.Status), JoinedRound: p.JoinedRound, CheckedIn: p.CheckedIn}
	if p.Status == tournament.Withdrawn {
		out.WithdrawnAfter = &p.WithdrawnAfter
	}
	return out
}

type officialIn struct {
	Role   string `json:"role"`
	Name   string `json:"name"`
	Tables []int  `json:"tables"`
}

type officialOut struct {
	ID     string `json:"id"`
	Role   string `json:"role"`
	Name   string `json:"name"`
	Tables []int  `json:"tables,omitempty"`
}
