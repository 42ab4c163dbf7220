package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// TestSignatures_O3_ScribeTakesThreeLines over HTTP, 000 ch.7 §2 第6条
// (双方棋手和书记当场签字认可,为对局结束): after black resigns, the scribe's
// device takes red's drawn signature and black's refusal (ch.4 (12)); red's
// own token may not sign black's line; the scribe signs last. The game view
// and the PGN say who signed and when, "awaiting" until all three have.
func TestSignatures_O3_ScribeTakesThreeLines(t *testing.T) {
	s := apitest.New(t)
	pg := pairTwo(t, s, `{"name":"Signed","system":"swiss","rounds":3,"timeControl":"rapid-10/40+5/30"}`)
	scribe := s.Post("/tournaments/"+pg.ev.ID+"/officials", pg.ev.Token, `{"role":"scribe","name":"Li","tables":[1]}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	s.Post("/tournaments/"+pg.ev.ID+"/rounds/1/start", pg.ev.Token, nil).Want(t, http.StatusOK)
	path := "/games/" + pg.gid
	wantError(t, s.Post(path+"/signatures", scribe, map[string]any{"line": "red", "name": "Wang"}), http.StatusUnprocessableEntity, "game_not_over", "O-3")
	s.Clock.Advance(time.Minute)
	s.Post(path+"/resign", pg.black.Token, `{}`).Want(t, http.StatusOK)

	for _, bad := range []map[string]any{
		{"line": "white", "name": "Wang"},
		{"line": "red", "name": "Wang", "strokes": [][]int{{1, 2, 3}}},
		{"line": "red", "name": "Wang", "strokes": [][]int{{1, 256}}},
	} {
		wantError(t, s.Do(apitest.Req{Method: "POST", Path: path + "/signatures", Token: scribe, Body: bad, Invalid: true}), http.StatusBadRequest, "invalid_field", "O-3")
	}
	wantError(t, s.Post(path+"/signatures", pg.red.Token, map[string]any{"line": "black", "name": "Wang"}), http.StatusForbidden, "forbidden", "O-3")
	s.Post(path+"/signatures", scribe, map[string]any{"line": "red", "name": "Wang", "strokes": [][]int{{10, 10, 40, 30, 80, 20}}}).Want(t, http.StatusOK)
	wantError(t, s.Post(path+"/signatures", scribe, map[string]any{"line": "red", "name": "Wang"}), http.StatusUnprocessableEntity, "already_signed", "O-3")
	s.Clock.Advance(time.Minute)
	s.Post(path+"/signatures", scribe, map[string]any{"line": "black", "name": "Zhao", "refused": true}).Want(t, http.StatusOK)
	if pgn := string(s.Get(path+"/record?format=pgn").Want(t, http.StatusOK).Body); !strings.Contains(pgn, `[Signatures "awaiting"]`) {
		t.Errorf("two lines signed, the PGN does not await the third:\n%s", pgn)
	}
	var v struct {
		Signed     bool
		Signatures []struct {
			Line, Name, At, By, SVG string
			Refused                 bool
		}
	}
	s.Post(path+"/signatures", scribe, map[string]any{"line": "scribe", "name": "Li"}).Want(t, http.StatusOK).Decode(t, &v)
	if !v.Signed || len(v.Signatures) != 3 {
		t.Fatalf("after three lines: %+v", v)
	}
	red, black := v.Signatures[0], v.Signatures[1]
	if red.Line != "red" || red.Name != "Wang" || red.By != "scribe" || !strings.Contains(red.SVG, `<polyline points="10,10 40,30 80,20"/>`) {
		t.Errorf("red's line: %+v", red)
	}
	if black.Line != "black" || !black.Refused || black.SVG != "" || black.At == red.At {
		t.Errorf("black's line: %+v", black)
	}
	pgn := string(s.Get(path+"/record?format=pgn").Want(t, http.StatusOK).Body)
	for _, want := range []string{`[RedSignature "Wang `, `[BlackSignature "refused: Zhao `, `[ScribeSignature "Li `} {
		if !strings.Contains(pgn, want) {
			t.Errorf("PGN lacks %s:\n%s", want, pgn)
		}
	}
	if strings.Contains(pgn, "awaiting") {
		t.Errorf("signed, the PGN still awaits:\n%s", pgn)
	}
}

// TestSignatures_O3_SignedResultsOption: with the event's signedResults
// option a result counts for the event (the round's pairing, the round
// complete) only once the scoresheet is signed; an arbiter closes a sheet
// that will not be signed (a scribe may not), and that counts too.
func TestSignatures_O3_SignedResultsOption(t *testing.T) {
	s := apitest.New(t)
	pg := pairTwo(t, s, `{"name":"Signed only","system":"swiss","rounds":3,"timeControl":"rapid-10/40+5/30","signedResults":true}`)
	if !s.Get("/tournaments/"+pg.ev.ID).Want(t, http.StatusOK).JSON()["signedResults"].(bool) {
		t.Fatal("the event does not say signedResults")
	}
	scribe := s.Post("/tournaments/"+pg.ev.ID+"/officials", pg.ev.Token, `{"role":"scribe","name":"Li","tables":[1]}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	s.Post("/tournaments/"+pg.ev.ID+"/rounds/1/start", pg.ev.Token, nil).Want(t, http.StatusOK)
	path := "/games/" + pg.gid
	s.Post(path+"/resign", pg.black.Token, `{}`).Want(t, http.StatusOK)
	result := func() any {
		var r struct{ Pairings []struct{ Result any } }
		s.Get("/tournaments/"+pg.ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &r)
		return r.Pairings[0].Result
	}
	if r := result(); r != nil {
		t.Fatalf("unsigned, the event already has the result %v", r)
	}
	wantError(t, s.Post("/tournaments/"+pg.ev.ID+"/rounds", pg.ev.Token, `{}`), http.StatusUnprocessableEntity, "unfinished_games", "P-12") // the round is not complete
	s.Post(path+"/signatures", scribe, map[string]any{"line": "red", "name": "Lü Qin"}).Want(t, http.StatusOK)
	wantError(t, s.Post(path+"/signatures", scribe, map[string]any{"line": "closed", "name": "Li"}), http.StatusForbidden, "forbidden", "O-3")
	if r := result(); r != nil {
		t.Fatalf("one line signed, the event already has the result %v", r)
	}
	v := s.Post(path+"/signatures", pg.arb, map[string]any{"line": "closed", "name": "Chief"}).Want(t, http.StatusOK).JSON()
	if v["signed"] != true {
		t.Fatalf("closed by the arbiter, the sheet is not done: %v", v["signatures"])
	}
	if r := result(); r != "1-0" {
		t.Fatalf("closed, the event's result is %v, want 1-0", r)
	}
	if pgn := string(s.Get(path+"/record?format=pgn").Want(t, http.StatusOK).Body); !strings.Contains(pgn, `[SheetClosed "Chief `) {
		t.Errorf("the PGN does not say the sheet was closed:\n%s", pgn)
	}
}
