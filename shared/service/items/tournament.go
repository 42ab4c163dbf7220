package items

// Tournament is the stored shape of the event item (T#<tid>/META). Its
// names are the core's field names of the day it was first stored; the
// rule sets, the scoring and the missed-round score are their stable
// names ("perpetualCheckLoses", "3-1/2-0", "draw").
type Tournament struct {
	ID                   string         `json:"ID"`
	Settings             Settings       `json:"Settings"`
	Status               string         `json:"Status"`
	CreatedAt            int64          `json:"CreatedAt"`
	OrganiserTokenHash   string         `json:"OrganiserTokenHash"`
	Key                  string         `json:"Key,omitempty"`
	Players              int            `json:"Players"`
	Removed              int            `json:"Removed"`
	WithdrawnBeforeStart int            `json:"WithdrawnBeforeStart"`
	Round                int            `json:"Round"`
	TeamCount            int            `json:"TeamCount"`
	Officials            int            `json:"Officials"`
	ExpiresAt            int64          `json:"ExpiresAt"`
	Entries              *EntryPolicy   `json:"Entries,omitempty"`
	Festival             string         `json:"Festival,omitempty"`
	CheckInOpens         *CheckInWindow `json:"CheckInOpens,omitempty"`
}

// Settings is the stored shape of an event's settings.
type Settings struct {
	Name                  string          `json:"Name"`
	System                string          `json:"System"`
	Rounds                int             `json:"Rounds"`
	Teams                 bool            `json:"Teams"`
	Boards                int             `json:"Boards"`
	Substitutes           int             `json:"Substitutes"`
	TeamFormat            string          `json:"TeamFormat"`
	AllPlayAllSittings    bool            `json:"AllPlayAllSittings"`
	KeepEntryOrder        bool            `json:"KeepEntryOrder"`
	Scoring               string          `json:"Scoring"`
	Tiebreaks             []string        `json:"Tiebreaks"`
	TimeControl           TimeControl     `json:"TimeControl"`
	Rules                 Rules           `json:"Rules"`
	FirstRound            string          `json:"FirstRound"`
	AvoidSameClub         bool            `json:"AvoidSameClub"`
	GamesPerMatch         int             `json:"GamesPerMatch"`
	RankByGamePoints      bool            `json:"RankByGamePoints"`
	Playoff               bool            `json:"Playoff"`
	ShareTitle            bool            `json:"ShareTitle"`
	PlacesCounted         int             `json:"PlacesCounted"`
	StartsAt              int64           `json:"StartsAt"`
	Elimination           Elimination     `json:"Elimination"`
	Groups                Groups          `json:"Groups"`
	Numbering             string          `json:"Numbering"`
	Knockout              KnockoutOptions `json:"Knockout"`
	LateEntries           LateEntries     `json:"LateEntries"`
	Rating                RatingParams    `json:"Rating"`
	ChallengeDraw         string          `json:"ChallengeDraw"`
	ChallengeTeam         int             `json:"ChallengeTeam"`
	BroadcastDelaySeconds int             `json:"BroadcastDelaySeconds"`
	SignedResults         bool            `json:"SignedResults"`
	CheckIn               bool            `json:"CheckIn,omitempty"`
}

// TimeControl is the stored shape of the event's time control (C-2).
type TimeControl struct {
	Name        string   `json:"Name"`
	Periods     []Period `json:"Periods"`
	IncrementMs int64    `json:"IncrementMs"`
}

// Period is one period of a time control.
type Period struct {
	Moves int   `json:"Moves"`
	Ms    int64 `json:"Ms"`
}

// Rules is the stored shape of the event's game rules and its late
// forfeits: the game's rules sit beside the event's own, as they always
// have (the core embeds them).
type Rules struct {
	Repetition        string `json:"Repetition"`
	IllegalMoves      string `json:"IllegalMoves"`
	DrawOfferLimit    int    `json:"DrawOfferLimit"`
	NoCaptureMoves    int    `json:"NoCaptureMoves"`
	DeadPositionDraw  bool   `json:"DeadPositionDraw"`
	OfferLoses        bool   `json:"OfferLoses"`
	DroppedPieceLoses bool   `json:"DroppedPieceLoses"`
	LateForfeitMs     int64  `json:"LateForfeitMs"`
	RecordArrivals    bool   `json:"RecordArrivals"`
}

// Elimination is the stored shape of a swissElimination's settings (S-4).
type Elimination struct {
	FromRound int `json:"FromRound"`
	PerRound  int `json:"PerRound"`
	Keep      int `json:"Keep"`
}

// Groups is the stored shape of a groups event's settings (S-5).
type Groups struct {
	Count      int    `json:"Count"`
	Finals     string `json:"Finals"`
	Qualifiers int    `json:"Qualifiers"`
}

// KnockoutOptions is the stored shape of the knockout matches' options
// (S-3, S-4); a Reset never set is stored as null.
type KnockoutOptions struct {
	ThirdPlace   bool   `json:"ThirdPlace"`
	Placings     int    `json:"Placings"`
	Reset        *bool  `json:"Reset"`
	Finalists    int    `json:"Finalists"`
	TieBreak     string `json:"TieBreak"`
	Colours      string `json:"Colours"`
	TeamTieBreak string `json:"TeamTieBreak"`
}

// LateEntries is the stored shape of a Swiss's late-entry rules (S-2).
type LateEntries struct {
	UntilRound   int    `json:"UntilRound"`
	MissedRounds string `json:"MissedRounds"`
}

// RatingParams is the stored shape of the rating report's settings (L-1).
type RatingParams struct {
	Bands         []RatingBand `json:"Bands"`
	InitialRating int          `json:"InitialRating"`
	MinGames      int          `json:"MinGames"`
	MaxDiff       int          `json:"MaxDiff"`
}

// RatingBand is one K factor below a rating.
type RatingBand struct {
	Below int `json:"Below"`
	K     int `json:"K"`
}

// EntryPolicy is the stored shape of how an event takes entries (E-1).
type EntryPolicy struct {
	Open     bool     `json:"Open"`
	Capacity int      `json:"Capacity,omitempty"`
	ClosesAt int64    `json:"ClosesAt,omitempty"`
	Approval bool     `json:"Approval,omitempty"`
	Fields   []string `json:"Fields,omitempty"`
	Pending  int      `json:"Pending,omitempty"`
}

// CheckInWindow is the stored shape of when a round's check-in opens (E-2).
type CheckInWindow struct {
	Round   int   `json:"Round"`
	OpensAt int64 `json:"OpensAt"`
}
