package httpapi

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service/games"
)

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
	// The fields are checked after the token (inside mutateGame), so a
	// stranger learns nothing of what the body should hold.
	return a.mutateGame(c, func(sg *games.Item, by game.Actor) error {
		line, ok := game.ParseSignatory(in.Line)
		if !ok {
			return signBad(`line: want "red", "black", "scribe" or "closed"`)
		}
		strokes, err := parseStrokes(in.Strokes)
		if err != nil {
			return err
		}
		return sg.Game.Sign(c.nowMs(), by, game.Signature{Line: line, Name: in.Name, Refused: in.Refused, Strokes: strokes})
	})
}

// signBad refuses a signature's malformed field (400 invalid_field, O-3).
func signBad(msg string) *Error {
	e := badRequest("invalid_field", msg)
	e.Rule = "O-3"
	return e
}

// parseStrokes reads the flat coordinate lists of a drawn signature.
func parseStrokes(in [][]int) ([][][2]uint8, error) {
	if len(in) > game.MaxSignatureStroke {
		return nil, signBad(fmt.Sprintf("strokes: at most %d", game.MaxSignatureStroke))
	}
	var out [][][2]uint8
	total := 0
	for i, st := range in {
		if len(st) < 2 || len(st)%2 != 0 {
			return nil, signBad(fmt.Sprintf("strokes[%d]: x,y pairs, at least one point", i))
		}
		total += len(st) / 2
		if total > game.MaxSignaturePoints {
			return nil, signBad(fmt.Sprintf("strokes: at most %d points in all", game.MaxSignaturePoints))
		}
		pts := make([][2]uint8, len(st)/2)
		for j := range pts {
			x, y := st[2*j], st[2*j+1]
			if x < 0 || y < 0 || x > game.SignatureBox || y > game.SignatureBox {
				return nil, signBad(fmt.Sprintf("strokes[%d]: coordinates 0…%d", i, game.SignatureBox))
			}
			pts[j] = [2]uint8{uint8(x), uint8(y)}
		}
		out = append(out, pts)
	}
	return out, nil
}
