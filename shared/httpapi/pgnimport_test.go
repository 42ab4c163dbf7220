package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

type importJSON struct {
	Imported int `json:"imported"`
	Failed   int `json:"failed"`
	Games    []struct {
		Index      int     `json:"index"`
		ID         string  `json:"id"`
		RedToken   string  `json:"redToken"`
		BlackToken string  `json:"blackToken"`
		Notation   string  `json:"notation"`
		Ply        int     `json:"ply"`
		Result     *string `json:"result"`
		Reason     *string `json:"reason"`
		Error      *struct {
			Move       int      `json:"move"`
			Side       string   `json:"side"`
			Text       string   `json:"text"`
			FEN        string   `json:"fen"`
			Reason     string   `json:"reason"`
			Rule       string   `json:"rule"`
			Candidates []string `json:"candidates"`
		} `json:"error"`
	} `json:"games"`
}

func importPGN(t *testing.T, s *apitest.Server, body any, contentType string, status int) importJSON {
	t.Helper()
	var out importJSON
	s.Do(apitest.Req{Method: "POST", Path: "/games/import", Body: body, Header: map[string]string{"Content-Type": contentType}}).
		Want(t, status).Decode(t, &out)
	return out
}

const fiveGames = `[Event "Good, Chinese, finished"]
[Red "王天一"]
[Black "郑惟桐"]
[Result "1-0"]
1. 炮二平五 马８进７ {a comment} 2. 马二进三 (2. 兵七进一) 车９平８ 1-0

[Event "Broken: black's horse cannot reach its own file"]
1. 炮二平五 马8进7 2. 马二进三 马7进7 1-0

[Event "Good, WXF, in progress"]
1. Ｃ２＝５ H8+7 2. H2+3 *

[Event "Impossible start"]
[FEN "4k4/4K4/9/9/9/9/9/9/9/9 w - - 0 1"]
1. e8e7 *

[Event "Ambiguous soldier"]
[FEN "5k3/9/9/4P1P2/4P1P2/9/P8/9/9/3K5 w - - 0 1"]
1. 前兵平四 *
`

// A multi-game file with broken games among good ones: the good ones become
// games (finished with the record's result, or in progress and playable with
// their seat tokens), each broken one names its first failing move, its
// text, the position and why — the rule, or the candidates of an ambiguous
// move (N-4, B-3).
func TestImportGames_MultiGameFileWithBrokenGames(t *testing.T) {
	s := apitest.New(t)
	out := importPGN(t, s, fiveGames, "application/x-chess-pgn", http.StatusCreated)
	if out.Imported != 2 || out.Failed != 3 || len(out.Games) != 5 {
		t.Fatalf("imported %d, failed %d, %d games; want 2, 3, 5", out.Imported, out.Failed, len(out.Games))
	}
	g1, g2, g3, g4, g5 := out.Games[0], out.Games[1], out.Games[2], out.Games[3], out.Games[4]
	if g1.ID == "" || g1.Notation != "chinese" || g1.Ply != 4 || g1.Result == nil || *g1.Result != "1-0" || *g1.Reason != "record" {
		t.Errorf("game 1 = %+v", g1)
	}
	if e := g2.Error; g2.ID != "" || e == nil || e.Move != 2 || e.Side != "black" || e.Text != "马7进7" ||
		e.FEN != "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2" {
		t.Errorf("game 2 = %+v (error %+v)", g2, g2.Error)
	}
	if g3.ID == "" || g3.Notation != "wxf" || g3.Result != nil || g3.Ply != 3 {
		t.Errorf("game 3 = %+v", g3)
	}
	if e := g4.Error; e == nil || e.Rule != "B-3" || e.Move != 0 {
		t.Errorf("game 4 error = %+v, want the start refused by B-3", e)
	}
	if e := g5.Error; e == nil || strings.Join(e.Candidates, " ") != "e6f6 g6f6" || !strings.Contains(e.Reason, "e6f6 or g6f6") {
		t.Errorf("game 5 error = %+v, want both soldiers named", e)
	}

	// The finished game reads like any other; the one in progress plays on.
	st := s.Get("/games/"+g1.ID).Want(t, http.StatusOK).JSON()
	if st["result"] != "1-0" || st["reason"] != "record" || st["ply"] != float64(4) {
		t.Errorf("game 1 view: result %v reason %v ply %v", st["result"], st["reason"], st["ply"])
	}
	s.Post("/games/"+g3.ID+"/moves", g3.BlackToken, map[string]any{"move": "车9平8", "ply": 3}).Want(t, http.StatusOK)
	// The record keeps the tags it was imported with.
	pgn := string(s.Get("/games/"+g1.ID+"/record?format=pgn").Want(t, http.StatusOK).Body)
	for _, want := range []string{`[Event "Good, Chinese, finished"]`, `[Red "王天一"]`, `[Black "郑惟桐"]`} {
		if !strings.Contains(pgn, want) {
			t.Errorf("record lacks %s:\n%s", want, pgn)
		}
	}
}

// Import and export agree: a game's exported PGN, imported again, is the
// same moves and result; a file with nothing to import is 422 with each
// game's reason, and the same Idempotency-Key replays the first answer.
func TestImportGames_RoundTripAndRefusals(t *testing.T) {
	s := apitest.New(t)
	g := createGame(t, s, `{}`)
	tb := &table{t: t, s: s, g: g}
	for _, m := range []struct{ side, move string }{{"red", "h2e2"}, {"black", "h9g7"}, {"red", "h0g2"}, {"black", "i9h9"}} {
		tb.move(m.side, m.move, true)
	}
	tb.post("black", "resign", nil).Want(t, http.StatusOK)
	for _, format := range []string{"pgn", "wxf", "chinese", "iccs", "yz4"} {
		rec := s.Get("/games/"+g.ID+"/record?format="+format).Want(t, http.StatusOK).Body
		out := importPGN(t, s, rec, "text/plain; charset=utf-8", http.StatusCreated)
		if out.Imported != 1 {
			t.Fatalf("%s: %+v\n%s", format, out, rec)
		}
		back := s.Get("/games/"+out.Games[0].ID).Want(t, http.StatusOK).JSON()
		if strings.Join(toStrings(back["moves"]), " ") != "h2e2 h9g7 h0g2 i9h9" {
			t.Errorf("%s: moves %v", format, back["moves"])
		}
		if format == "pgn" && back["result"] != "1-0" {
			t.Errorf("pgn: result %v, want 1-0", back["result"])
		}
	}

	bad := "[Event \"x\"]\n1. 炮二平五 马8进8 *\n"
	var failed struct {
		importJSON
		Error struct{ Code string } `json:"error"`
	}
	s.Do(apitest.Req{Method: "POST", Path: "/games/import", Body: bad, Header: map[string]string{"Content-Type": "text/plain"}}).
		Want(t, http.StatusUnprocessableEntity).Decode(t, &failed)
	if failed.Error.Code != "import_failed" || failed.Imported != 0 || failed.Games[0].Error == nil {
		t.Errorf("all broken: %+v", failed)
	}
	s.Do(apitest.Req{Method: "POST", Path: "/games/import", Body: "just words", Header: map[string]string{"Content-Type": "text/plain"}}).
		Want(t, http.StatusUnprocessableEntity)
	s.Do(apitest.Req{Method: "POST", Path: "/games/import", Body: "", Header: map[string]string{"Content-Type": "text/plain"}, Invalid: true}).
		Want(t, http.StatusBadRequest)
	s.Do(apitest.Req{Method: "POST", Path: "/games/import", Body: `{"pgn":"1. h2e2"}`, Invalid: true}).
		Want(t, http.StatusUnsupportedMediaType)
	big := strings.Repeat("1. h2e2 h9g7 *\n\n", 201)
	s.Do(apitest.Req{Method: "POST", Path: "/games/import", Body: big, Header: map[string]string{"Content-Type": "text/plain"}}).
		Want(t, http.StatusRequestEntityTooLarge)

	key := "3f1d3a7e-9a8b-4c2d-8e1f-2a3b4c5d6e7f"
	h := map[string]string{"Content-Type": "text/plain", "Idempotency-Key": key}
	first := s.Do(apitest.Req{Method: "POST", Path: "/games/import", Body: "1. h2e2 *", Header: h}).Want(t, http.StatusCreated)
	again := s.Do(apitest.Req{Method: "POST", Path: "/games/import", Body: "1. h2e2 *", Header: h}).Want(t, http.StatusCreated)
	if string(first.Body) != string(again.Body) {
		t.Errorf("the retry imported again:\n%s\n%s", first.Body, again.Body)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// Real archives are GB18030 or Big5 as often as UTF-8: the server tells
// them apart by the characters they decode to, or reads the charset named.
func TestImportGames_ChineseEncodings(t *testing.T) {
	s := apitest.New(t)
	simplified := "[Event \"简体\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1/2-1/2\n"
	traditional := "[Event \"繁體\"]\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 1/2-1/2\n"
	gb, _ := simplifiedchinese.GB18030.NewEncoder().String(simplified)
	b5, _ := traditionalchinese.Big5.NewEncoder().String(traditional)
	for _, c := range []struct{ name, body, ct string }{
		{"gb18030 detected", gb, "application/x-chess-pgn"},
		{"big5 detected", b5, "application/x-chess-pgn"},
		{"big5 named", b5, "text/plain; charset=big5"},
		{"utf-8 with BOM", "\uFEFF" + traditional, "text/plain"},
	} {
		out := importPGN(t, s, c.body, c.ct, http.StatusCreated)
		if out.Imported != 1 || out.Games[0].Ply != 4 || *out.Games[0].Result != "1/2-1/2" {
			t.Errorf("%s: %+v", c.name, out)
		}
	}
	s.Do(apitest.Req{Method: "POST", Path: "/games/import", Body: gb, Header: map[string]string{"Content-Type": "text/plain; charset=latin9"}}).
		Want(t, http.StatusUnsupportedMediaType)
}

// An arbiter or the table's scribe loads a scoresheet into an event game:
// the moves entered are replaced, the log keeps who did it, and the record's
// result reaches the event as any result does; a player or another table's
// scribe may not (O-1).
func TestLoadRecord_EventGame_O1(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s)
	pgn := map[string]string{"Content-Type": "application/x-chess-pgn"}
	sheet := "[Event \"Matrix Open\"]\n1. 炮二平五 马8进7 2. 马二进三 车9平8 0-1\n"
	s.Do(apitest.Req{Method: "POST", Path: "/games/" + f.gid + "/record", Token: f.ptoken, Body: sheet, Header: pgn}).Want(t, http.StatusForbidden)
	s.Do(apitest.Req{Method: "POST", Path: "/games/" + f.gid + "/record", Token: f.scribe, Body: sheet, Header: pgn}).Want(t, http.StatusForbidden)
	s.Do(apitest.Req{Method: "POST", Path: "/games/" + f.gid + "/record", Token: f.arb, Body: "[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"]\n1. d0d1 *", Header: pgn}).
		Want(t, http.StatusUnprocessableEntity)
	st := s.Do(apitest.Req{Method: "POST", Path: "/games/" + f.gid + "/record", Token: f.arb, Body: sheet, Header: pgn}).Want(t, http.StatusOK).JSON()
	if st["result"] != "0-1" || st["reason"] != "record" || st["ply"] != float64(4) {
		t.Errorf("after loading: result %v reason %v ply %v", st["result"], st["reason"], st["ply"])
	}
	var round struct {
		Pairings []struct {
			Table  int
			Result *string
		}
	}
	s.Get("/tournaments/"+f.tid+"/rounds/1").Want(t, http.StatusOK).Decode(t, &round)
	for _, p := range round.Pairings {
		if p.Table == 1 && (p.Result == nil || *p.Result != "0-1") {
			t.Errorf("table 1's result in the event: %v, want 0-1", p.Result)
		}
	}
}
