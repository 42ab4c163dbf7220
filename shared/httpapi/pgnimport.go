package httpapi

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/service/transfer"
)

// MaxImportBody is the body limit of POST /games/import and POST
// /games/{gid}/record (other routes keep MaxBody): about 200 annotated
// games (transfer.MaxGames), far inside API Gateway's 10 MB and Lambda's
// 6 MB payloads; a club's archive file is imported in parts.
const MaxImportBody = 1 << 20

// bodyLimit is the body limit of a route, by its pattern.
func bodyLimit(rt Route) int {
	if rt.Method == http.MethodPost && (rt.Path == "/games/import" || rt.Path == "/games/{gid}/record") {
		return MaxImportBody
	}
	if rt.Method == http.MethodPost && (rt.Path == "/tournaments/import" || rt.Path == "/tournaments/{tid}/mirror/changes") {
		return MaxEventImportBody // an export of a large event
	}
	return MaxBody
}

// recordText decodes a record body to UTF-8 from the charset its
// Content-Type names, or the one its bytes read best in (transfer.RecordText).
func recordText(r *http.Request, body []byte) (string, error) {
	_, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	cs := strings.ToLower(params["charset"])
	text, err := transfer.RecordText(cs, body)
	if errors.Is(err, transfer.ErrCharset) {
		return "", &Error{Status: http.StatusUnsupportedMediaType, Code: "unsupported_charset",
			Message: fmt.Sprintf("charset %q: send UTF-8, GB18030 or Big5", cs)}
	}
	return text, err
}

// checkRecordType refuses a body that is not a record: PGN is sent as
// application/x-chess-pgn, application/vnd.chess-pgn or text/plain (an
// absent Content-Type is read as a record too).
func checkRecordType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && (mt == "application/x-chess-pgn" || mt == "application/vnd.chess-pgn" || mt == "text/plain") {
		return nil
	}
	return &Error{Status: http.StatusUnsupportedMediaType, Code: "unsupported_media_type",
		Message: "send the record as application/x-chess-pgn or text/plain"}
}

// importErrorJSON says where a record stops being a legal game.
type importErrorJSON struct {
	Move       int      `json:"move"`
	Side       string   `json:"side,omitempty"`
	Text       string   `json:"text,omitempty"`
	Line       int      `json:"line,omitempty"`
	FEN        string   `json:"fen,omitempty"`
	Reason     string   `json:"reason"`
	Rule       string   `json:"rule,omitempty"`
	Candidates []string `json:"candidates,omitempty"`
}

// importedGameJSON is one game of an import: its id and seat tokens (shown
// once), or why it could not be read.
type importedGameJSON struct {
	Index      int              `json:"index"`
	Line       int              `json:"line"`
	Event      string           `json:"event,omitempty"`
	Red        string           `json:"red,omitempty"`
	Black      string           `json:"black,omitempty"`
	ID         string           `json:"id,omitempty"`
	RedToken   string           `json:"redToken,omitempty"`
	BlackToken string           `json:"blackToken,omitempty"`
	Notation   string           `json:"notation,omitempty"`
	Ply        int              `json:"ply"`
	Result     *string          `json:"result"`
	Reason     *string          `json:"reason"`
	Error      *importErrorJSON `json:"error,omitempty"`
}

func importedGameOut(g transfer.ImportedGame) importedGameJSON {
	out := importedGameJSON{Index: g.Index, Line: g.Line, Event: g.Event, Red: g.Red, Black: g.Black, ID: g.ID,
		RedToken: g.RedToken, BlackToken: g.BlackToken, Notation: g.Notation, Ply: g.Ply}
	if g.Unsafe { // tags refused for their control characters, shown escaped
		out.Event, out.Red, out.Black = escapeControls(g.Event), escapeControls(g.Red), escapeControls(g.Black)
	}
	if g.Result != "" {
		out.Result, out.Reason = &g.Result, &g.Reason
	}
	if e := g.Error; e != nil {
		out.Error = &importErrorJSON{Move: e.Move, Side: e.Side, Text: e.Text, Line: e.Line, FEN: e.FEN, Reason: e.Reason, Rule: e.Rule, Candidates: e.Candidates}
	}
	return out
}

// POST /games/import — anyone: each game of a PGN file becomes a standalone
// game, finished with the record's result or in progress, with its seat
// tokens returned once. 201 when at least one game was imported, 422 when
// none could be; either way the answer lists every game with its id or the
// first move that failed.
func (a *API) importGames(c *call) (int, any, error) {
	if err := checkRecordType(c.r); err != nil {
		return 0, nil, err
	}
	text, err := recordText(c.r, c.body)
	if err != nil {
		return 0, nil, err
	}
	rules, err := standaloneGameRules(clock.Control{}, nil)
	if err != nil {
		return 0, nil, err
	}
	rows, imported, err := a.transfer.ImportRecords(c.ctx(), text, rules)
	if err != nil {
		return 0, nil, err
	}
	out := make([]importedGameJSON, len(rows))
	for i, g := range rows {
		out[i] = importedGameOut(g)
	}
	body := map[string]any{"imported": imported, "failed": len(rows) - imported, "games": out}
	if imported == 0 {
		body["error"] = map[string]string{"code": "import_failed", "message": "no game of the file could be imported: each game's error says why"}
		return http.StatusUnprocessableEntity, body, nil
	}
	return http.StatusCreated, body, nil
}

// POST /games/{gid}/record — an arbiter or the table's scribe loads a
// scoresheet (one PGN game) into a game, replacing the moves entered there;
// the game's log keeps who did it and what it replaced, and a result the
// record gives reaches the event as any result does.
func (a *API) loadRecord(c *call) (int, any, error) {
	return a.mutateGame(c, func(sg *games.Item, by game.Actor) error {
		if err := game.MayLoadRecord(by); err != nil { // before the record is read
			return err
		}
		if err := checkRecordType(c.r); err != nil {
			return err
		}
		text, err := recordText(c.r, c.body)
		if err != nil {
			return err
		}
		return transfer.LoadRecord(sg, by, c.nowMs(), text)
	})
}
