package items

// Player is the stored shape of a player item (T#<tid>/P#<pid>).
type Player struct {
	ID             string     `json:"ID"`
	Number         int        `json:"Number"`
	Name           string     `json:"Name"`
	Rating         int        `json:"Rating"`
	Club           string     `json:"Club"`
	Seeded         bool       `json:"Seeded"`
	Status         string     `json:"Status"`
	JoinedRound    int        `json:"JoinedRound"`
	WithdrawnAfter int        `json:"WithdrawnAfter"`
	TokenHash      string     `json:"TokenHash"`
	RegisteredAt   int64      `json:"RegisteredAt"`
	Expulsion      *Expulsion `json:"Expulsion,omitempty"`
	CheckedIn      int        `json:"CheckedIn,omitempty"`
}

// Expulsion is the stored shape of a player's expulsion (O-2).
type Expulsion struct {
	Status       string `json:"Status"`
	ProposedBy   string `json:"ProposedBy"`
	ProposedAt   int64  `json:"ProposedAt"`
	GameID       string `json:"GameID"`
	Note         string `json:"Note"`
	DecidedBy    string `json:"DecidedBy"`
	DecidedAt    int64  `json:"DecidedAt"`
	DecisionNote string `json:"DecisionNote"`
}

// Official is the stored shape of an official item (T#<tid>/O#<oid>).
type Official struct {
	ID        string `json:"ID"`
	Role      string `json:"Role"`
	Name      string `json:"Name"`
	Tables    []int  `json:"Tables"`
	TokenHash string `json:"TokenHash"`
}

// Team is the stored shape of a team item (T#<tid>/M#<mid>).
type Team struct {
	ID               string   `json:"ID"`
	Name             string   `json:"Name"`
	Number           int      `json:"Number"`
	Members          []string `json:"Members"`
	Substitutes      []string `json:"Substitutes"`
	Roster           []string `json:"Roster"`
	Status           string   `json:"Status"`
	JoinedRound      int      `json:"JoinedRound"`
	WithdrawnAfter   int      `json:"WithdrawnAfter"`
	CaptainTokenHash string   `json:"CaptainTokenHash"`
	RegisteredAt     int64    `json:"RegisteredAt"`
}

// Lineup is the stored shape of a lineup item (T#<tid>/L#<nnnn>#<mid>).
type Lineup struct {
	Round   int      `json:"Round"`
	Team    string   `json:"Team"`
	Players []string `json:"Players"`
	Drawn   bool     `json:"Drawn"`
	Seed    uint64   `json:"Seed"`
	By      string   `json:"By"`
	At      int64    `json:"At"`
}
