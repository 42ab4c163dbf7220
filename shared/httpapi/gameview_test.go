package httpapi_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// A board's view of an event game: the players' names and numbers, table,
// round and event; the round's start; the moves also in the notation asked
// for, Chinese characters simplified unless traditional is asked for (N-4);
// an unknown notation or script is a 400.
func TestGameView_EventGameCarriesPlayersStartAndNotation(t *testing.T) {
	s := apitest.New(t)
	pg := pairTwo(t, s, `{"name":"Board","rounds":3}`)
	s.Post("/tournaments/"+pg.ev.ID+"/rounds/1/start", pg.ev.Token, nil).Want(t, http.StatusOK)
	game := "/games/" + pg.gid
	s.Post(game+"/moves", pg.red.Token, `{"move":"h2e2","ply":0,"press":true}`).Want(t, http.StatusOK)
	s.Post(game+"/moves", pg.black.Token, `{"move":"h9g7","ply":1,"press":true}`).Want(t, http.StatusOK)

	st := s.Get(game+"?notation=chinese").Want(t, http.StatusOK).JSON()
	link := st["tournament"].(map[string]any)
	if link["id"] != pg.ev.ID || link["round"] != 1.0 || link["table"] != 1.0 || link["red"] != pg.red.ID ||
		link["redName"] != pg.red.P["name"] || link["blackName"] != pg.black.P["name"] ||
		link["redNumber"] != pg.red.P["number"] || link["blackNumber"] != pg.black.P["number"] {
		t.Fatalf("tournament link: %v; players %v %v", link, pg.red.P, pg.black.P)
	}
	if st["started"] != true || st["roundStartsAt"] == nil || st["inCheck"] != false {
		t.Fatalf("started %v roundStartsAt %v inCheck %v", st["started"], st["roundStartsAt"], st["inCheck"])
	}
	wantNotation(t, st, "chinese", "simplified", "炮二平五", "马8进7")
	wantNotation(t, s.Get(game+"?notation=chinese&script=traditional").Want(t, http.StatusOK).JSON(), "chinese", "traditional", "砲二平五", "馬8進7")
	wantNotation(t, s.Get(game+"?notation=wxf&since=1").Want(t, http.StatusOK).JSON(), "wxf", "", "H8+7")
	wantNotation(t, s.Get(game+"?notation=yz4").Want(t, http.StatusOK).JSON(), "yz4", "simplified", "炮23-53", "马81-73")
	if _, ok := s.Get(game).JSON()["notation"]; ok {
		t.Error("a notation without ?notation=")
	}
	for _, q := range []string{"?notation=pgn", "?notation=chinese&script=cursive", "?notation=wxf&script=traditional", "?script=traditional"} {
		if r := s.Do(apitest.Req{Method: http.MethodGet, Path: game + q, Invalid: true}).Want(t, http.StatusBadRequest); r.ErrorCode() != "invalid_query" {
			t.Errorf("%s: %s", q, r.Body)
		}
	}
	// N-4: records write simplified characters unless asked otherwise.
	rec := string(s.Get(game+"/record?format=chinese").Want(t, http.StatusOK).Body)
	trad := string(s.Get(game+"/record?format=yz3&script=traditional").Want(t, http.StatusOK).Body)
	if !strings.Contains(rec, "炮二平五 马8进7") || !strings.Contains(trad, "砲253 馬873") {
		t.Fatalf("records:\n%s\n%s", rec, trad)
	}
	if r := s.Get(game+"/record?format=pgn&script=traditional").Want(t, http.StatusBadRequest); r.ErrorCode() != "invalid_query" {
		t.Fatalf("script with pgn: %s", r.Body)
	}
}

// inCheck says the side to move's general is attacked.
func TestGameView_InCheck(t *testing.T) {
	s := apitest.New(t)
	g := createGame(t, s, `{"fen":"4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1"}`)
	if st := s.Get("/games/"+g.ID).Want(t, http.StatusOK).JSON(); st["inCheck"] != true || st["started"] != true {
		t.Fatalf("black in check from the chariot: inCheck %v started %v", st["inCheck"], st["started"])
	}
}

func wantNotation(t *testing.T, st map[string]any, name, script string, moves ...string) {
	t.Helper()
	n, _ := st["notation"].(map[string]any)
	if n == nil {
		t.Fatalf("no notation in %v", st)
	}
	var got []string
	for _, m := range n["moves"].([]any) {
		got = append(got, m.(string))
	}
	sc, _ := n["script"].(string)
	if n["name"] != name || sc != script || !slices.Equal(got, moves) {
		t.Fatalf("notation %v, want %s %q %v", n, name, script, moves)
	}
}
