package httpapi

import "github.com/xqtour/xqtour/shared/service"

// POST /games/{gid}/signatures — one line of the finished game's scoresheet
// (O-3): {line: red|black|scribe, name, refused?, strokes?}. The scribe (or
// an official) takes all three on its device; a player may sign its own
// line with its own token. strokes are the drawn signature, each stroke a
// flat list x0,y0,x1,y1,… of integers 0…255; the game view draws them as SVG.
func (a *API) sign(c *call) (int, any, error) {
	var in struct {
		Line    string  `json:"line"`
		Name    string  `json:"name"`
		Refused bool    `json:"refused"`
		Strokes [][]int `json:"strokes"`
	}
	if err := c.decode(&in); err != nil {
		return 0, nil, err
	}
	return a.playGame(c, service.GameSign(in))
}
