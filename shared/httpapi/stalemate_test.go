package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// G-1 over HTTP: a stalemate (困毙) played on a game created from a FEN ends
// it at once as a loss for the stalemated side, not a draw; the record says
// so, and no move or resignation follows.
func TestGameToStalemate_G1(t *testing.T) {
	s := apitest.New(t)
	tb := &table{t: t, s: s, g: createGame(t, s, `{"fen":"4k4/9/5P3/9/9/9/9/9/9/3K5 w - - 0 1","timeControl":"rapid-5/30"}`)}
	tb.move("red", "f7f8", true)
	st := tb.state()
	wantOver(t, st, "1-0", "stalemate")
	if len(st["legalMoves"].([]any)) != 0 {
		t.Fatalf("legal moves after stalemate: %v", st["legalMoves"])
	}
	if r := tb.post("black", "resign", nil).Want(t, http.StatusUnprocessableEntity); r.ErrorCode() != "game_over" {
		t.Fatalf("resigning after stalemate: %s", r.Body)
	}
	wantRecords(t, s, tb.g.ID, "1-0", map[string]string{"iccs": "f7f8"})
}

// G-1 for an imported record: a game whose last move stalemates is imported
// as won by the side that moved, whatever result tag it lacks; a record that
// calls the stalemate a draw is refused, naming G-1, and creates nothing.
func TestImportGames_StalemateLoses_G1(t *testing.T) {
	s := apitest.New(t)
	const fen = `[FEN "3k5/9/9/9/9/9/9/5p3/9/4K4 b - - 0 1"]` + "\n"
	file := "[Event \"Stalemate, no result\"]\n" + fen + "1... f2f1 *\n\n" +
		"[Event \"Stalemate as a draw\"]\n[Result \"1/2-1/2\"]\n" + fen + "1... f2f1 1/2-1/2\n"
	out := importPGN(t, s, file, "text/plain; charset=utf-8", http.StatusCreated)
	if out.Imported != 1 || out.Failed != 1 || len(out.Games) != 2 {
		t.Fatalf("import: %+v", out)
	}
	good, bad := out.Games[0], out.Games[1]
	if good.Result == nil || *good.Result != "0-1" || good.Reason == nil || *good.Reason != "stalemate" {
		t.Errorf("stalemate imported as %v by %v, want 0-1 by stalemate", good.Result, good.Reason)
	}
	wantOver(t, s.Get("/games/"+good.ID).Want(t, http.StatusOK).JSON(), "0-1", "stalemate")
	if bad.Error == nil || bad.Error.Rule != "G-1" || bad.ID != "" {
		t.Errorf("a stalemate recorded as a draw: %+v (error %+v), want refused under G-1", bad, bad.Error)
	}
}
