package httpapi

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"

	"github.com/xqtour/xqtour/shared/clock"
	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
)

// Limits of POST /games/import: a club's archive file is imported in parts.
const (
	// MaxImportBody is the import route's body limit (other routes keep
	// MaxBody): about 200 annotated games, far inside API Gateway's 10 MB
	// and Lambda's 6 MB payloads.
	MaxImportBody = 1 << 20
	// MaxImportGames is how many games one import may hold; each becomes an
	// item written in the request.
	MaxImportGames = 200
)

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

// pgnText decodes a record file to UTF-8: the charset the Content-Type
// names, else UTF-8 (with or without a byte-order mark) when the bytes are
// valid UTF-8, else GB18030 or Big5, whichever reads more of the characters
// records are written with. Real archives come in all three.
func pgnText(r *http.Request, body []byte) (string, error) {
	_, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var enc encoding.Encoding
	switch cs := strings.ToLower(params["charset"]); cs {
	case "", "utf-8", "utf8":
	case "gb18030", "gbk", "gb2312":
		enc = simplifiedchinese.GB18030
	case "big5", "big-5":
		enc = traditionalchinese.Big5
	default:
		return "", &Error{Status: http.StatusUnsupportedMediaType, Code: "unsupported_charset",
			Message: fmt.Sprintf("charset %q: send UTF-8, GB18030 or Big5", cs)}
	}
	body = bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF"))
	if enc == nil {
		if utf8.Valid(body) {
			return string(body), nil
		}
		enc = guessChineseEncoding(body)
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return "", badRequest("malformed_body", "the record is not valid UTF-8, GB18030 or Big5 text")
	}
	return string(out), nil
}

// recordChars are characters every Chinese record uses, in the two scripts:
// GB18030 read as Big5 (or the reverse) yields other characters.
const (
	simplifiedRecordChars  = "车马炮兵卒进退平将帅士仕相象前后红黑胜负和先"
	traditionalRecordChars = "車馬砲炮兵卒進退平將帥士仕相象前後紅黑勝負和先"
)

func guessChineseEncoding(b []byte) encoding.Encoding {
	score := func(enc encoding.Encoding, chars string) int {
		s, err := enc.NewDecoder().Bytes(b)
		if err != nil {
			return -1
		}
		n := 0
		for _, r := range string(s) {
			switch {
			case r == utf8.RuneError:
				n -= 4
			case strings.ContainsRune(chars, r):
				n++
			}
		}
		return n
	}
	if score(traditionalchinese.Big5, traditionalRecordChars) > score(simplifiedchinese.GB18030, simplifiedRecordChars+traditionalRecordChars) {
		return traditionalchinese.Big5
	}
	return simplifiedchinese.GB18030
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

// recordResult reads a PGN game's result: the termination token, else the
// Result tag; "*" or none leaves the game in progress.
func recordResult(g notation.PGNGame) (result.Result, error) {
	s := g.Result
	if s == "" || s == "*" {
		if tag := strings.TrimSpace(g.Tag("Result")); tag != "" {
			s = tag
		}
	}
	if s == "" || s == "*" {
		return result.None, nil
	}
	r, err := result.Parse(s)
	if err != nil {
		return result.None, fmt.Errorf("result %q: want 1-0, 0-1, 1/2-1/2, 0-0 or *", s)
	}
	return r, nil
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

func replayErrorJSON(e *notation.ReplayError) *importErrorJSON {
	out := &importErrorJSON{Move: e.Number, Text: e.Text, Line: e.Line, FEN: e.FEN, Reason: e.Reason, Rule: e.Rule, Candidates: e.Candidates}
	if e.Text != "" {
		out.Side = e.Side.String()
	}
	return out
}

// recordInfoOf keeps what a record's tags say of the game, so that its
// export carries them again.
func recordInfoOf(g notation.PGNGame) *games.RecordInfo {
	info := &games.RecordInfo{Event: g.Tag("Event"), Site: g.Tag("Site"), Date: g.Tag("Date"), Round: g.Tag("Round"),
		Red: g.Tag("Red"), Black: g.Tag("Black")}
	if *info == (games.RecordInfo{}) {
		return nil
	}
	for _, s := range []*string{&info.Event, &info.Site, &info.Date, &info.Round, &info.Red, &info.Black} {
		*s = clip(*s, maxTagBytes)
	}
	return info
}

// checkTags refuses a record whose tags hold a control or format character
// (C0 such as ESC and CR, DEL, C1 such as U+0085, a bidi override), as
// names are refused them: the tags are kept and written back into PGN
// exports, where a CR starts a line of its own and ESC drives a terminal.
func checkTags(g notation.PGNGame) error {
	for _, t := range g.Tags {
		for _, r := range t.Name + t.Value {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				return fmt.Errorf("tag %s must not contain the control or format character %U", quote(t.Name), r)
			}
		}
	}
	return nil
}

// maxTagBytes bounds each kept tag, so an item stays small whatever a file
// holds.
const maxTagBytes = 200

func clip(s string, n int) string { return service.Clip(s, n) }

// POST /games/import — anyone: each game of a PGN file becomes a standalone
// game, finished with the record's result or in progress, with its seat
// tokens returned once. 201 when at least one game was imported, 422 when
// none could be; either way the answer lists every game with its id or the
// first move that failed.
func (a *API) importGames(c *call) (int, any, error) {
	if err := checkRecordType(c.r); err != nil {
		return 0, nil, err
	}
	text, err := pgnText(c.r, c.body)
	if err != nil {
		return 0, nil, err
	}
	pgns := notation.ReadPGN(text)
	if len(pgns) == 0 {
		return 0, nil, badRequest("no_games", "the body holds no PGN game: want tags such as [Event \"…\"] and moves such as 1. 炮二平五 马8进7")
	}
	if len(pgns) > MaxImportGames {
		return 0, nil, &Error{Status: http.StatusRequestEntityTooLarge, Code: "too_many_games",
			Message: fmt.Sprintf("the file holds %d games; import at most %d at a time", len(pgns), MaxImportGames)}
	}
	rules, err := standaloneGameRules(clock.Control{}, nil)
	if err != nil {
		return 0, nil, err
	}
	now := c.nowMs()
	out := make([]importedGameJSON, len(pgns))
	imported := 0
	for i, pg := range pgns {
		row := &out[i]
		row.Index, row.Line = i+1, pg.Line
		row.Event, row.Red, row.Black = clip(pg.Tag("Event"), maxTagBytes), clip(pg.Tag("Red"), maxTagBytes), clip(pg.Tag("Black"), maxTagBytes)
		if err := checkTags(pg); err != nil {
			row.Event, row.Red, row.Black = escapeControls(row.Event), escapeControls(row.Red), escapeControls(row.Black)
			row.Error = &importErrorJSON{Line: pg.Line, Reason: err.Error()}
			continue
		}
		rep, rerr := pg.Replay()
		if rerr != nil {
			row.Error = replayErrorJSON(rerr)
			continue
		}
		row.Notation = rep.Notation
		res, err := recordResult(pg)
		if err != nil {
			row.Error = &importErrorJSON{Move: len(rep.Moves)/2 + 1, Reason: err.Error()}
			continue
		}
		fen := ""
		if pg.Tag("FEN") != "" {
			fen = rep.Start.FEN()
		}
		g, err := game.FromRecord(game.Setup{FEN: fen, Control: clock.Control{}, Rules: rules, StartMs: now}, rep.Moves, res, game.NoReason, now)
		if err != nil {
			row.Error = &importErrorJSON{Move: len(rep.Moves)/2 + 1, FEN: rep.Start.FEN(), Reason: refusalText(err)}
			if re, ok := err.(*game.RuleError); ok {
				row.Error.Rule = re.Rule
			}
			continue
		}
		gid := service.NewID('g')
		redToken, redHash := service.NewToken(gid, "red")
		blackToken, blackHash := service.NewToken(gid, "black")
		link := games.Link{Red: "red", Black: "black", RedHash: redHash, BlackHash: blackHash, Info: recordInfoOf(pg)}
		rec, err := games.Encode(&store.Record{PK: store.GamePK(gid), SK: store.GameSK, Kind: store.KindGame}, link, g)
		if err != nil {
			return 0, nil, err
		}
		rec.Expires = a.games.TTL(&games.Item{ID: gid, Link: link, Game: g, Rec: rec}, now)      // a finished record expires as a finished game does
		if err := command.Retry(func() error { return a.store.Put(c.ctx(), rec) }); err != nil { // a new id: only DynamoDB's own contention can refuse it (retry.go)
			return 0, nil, err
		}
		imported++
		row.ID, row.RedToken, row.BlackToken, row.Ply = gid, redToken, blackToken, g.Ply()
		if r, why := g.Result(); r != result.None {
			rs, ws := r.String(), why.String()
			row.Result, row.Reason = &rs, &ws
		}
	}
	body := map[string]any{"imported": imported, "failed": len(pgns) - imported, "games": out}
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
		text, err := pgnText(c.r, c.body)
		if err != nil {
			return err
		}
		pgns := notation.ReadPGN(text)
		if len(pgns) != 1 {
			return badRequest("invalid_record", fmt.Sprintf("send exactly one game; the body holds %d", len(pgns)))
		}
		if err := checkTags(pgns[0]); err != nil {
			return badRequest("invalid_record", err.Error())
		}
		rep, rerr := pgns[0].Replay()
		if rerr != nil {
			return &Error{Status: http.StatusUnprocessableEntity, Code: "invalid_record", Rule: rerr.Rule,
				Message: rerr.Error() + " (position " + rerr.FEN + ")"}
		}
		if start := sg.Game.StartFEN(); rep.Start.FEN() != start {
			return &Error{Status: http.StatusUnprocessableEntity, Code: "invalid_record",
				Message: "the record starts from " + rep.Start.FEN() + ", the game from " + start}
		}
		res, err := recordResult(pgns[0])
		if err != nil {
			return badRequest("invalid_record", err.Error())
		}
		return sg.Game.LoadRecord(c.nowMs(), by, rep.Moves, res, game.NoReason)
	})
}

// refusalText is a core refusal's message for a per-game answer.
func refusalText(err error) string {
	if re, ok := err.(*game.RuleError); ok {
		return re.Message
	}
	return err.Error()
}
