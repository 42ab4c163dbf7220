package items

import "github.com/xqtour/xqtour/shared/result"

// Result is the stored shape of a result item (T#<tid>/X#<nnnn>#<tttt>),
// written once when an event game ends (shared/service/games) and rewritten
// only by a correction (O-1). The result is its notation ("1-0", "0-1",
// "1/2-1/2"), read and written by result.Result.
type Result struct {
	Round      int           `json:"Round"`
	Table      int           `json:"Table"`
	GameID     string        `json:"GameID"`
	Red        string        `json:"Red"`
	Black      string        `json:"Black"`
	Result     result.Result `json:"Result"`
	Reason     string        `json:"Reason"`
	RedFouls   int           `json:"RedFouls"`
	BlackFouls int           `json:"BlackFouls"`
	EndedAt    int64         `json:"EndedAt"`
}
