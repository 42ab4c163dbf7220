package items

// Entry is the stored shape of an entry awaiting the organiser's approval
// (E#<tid>/P#<pid>, E-1): the player it becomes, with the hash of the
// token the entrant was given.
type Entry struct {
	ID        string `json:"ID"`
	Name      string `json:"Name"`
	Rating    int    `json:"Rating"`
	Club      string `json:"Club"`
	TokenHash string `json:"TokenHash"`
	EnteredAt int64  `json:"EnteredAt"`
}

// EntryName is the stored shape of an entry's name key (E#<tid>/N#<hash>,
// E-1): the first entry made with a name and club.
type EntryName struct {
	ID string `json:"ID"`
}

// Festival is the stored shape of a festival item (F#<fid>/META, E-3).
// Sections is written as [] when empty, as it always was.
type Festival struct {
	ID        string     `json:"ID"`
	Name      string     `json:"Name"`
	TokenHash string     `json:"TokenHash"`
	CreatedAt int64      `json:"CreatedAt"`
	Sections  []string   `json:"Sections"`
	Officials []Official `json:"Officials,omitempty"`
}
