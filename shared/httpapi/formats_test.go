package httpapi_test

import (
	"encoding/csv"
	"net/http"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

func readCSV(t *testing.T, r *apitest.Resp) [][]string {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Fatalf("Content-Type %q, want text/csv", ct)
	}
	rows, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	if err != nil {
		t.Fatalf("CSV: %v\n%s", err, r.Body)
	}
	return rows
}

// A round's pairings and the crosstable as CSV; all of an event's games as
// one PGN file, or as a list.
func TestFormats_CSVAndPGN(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Formats Open","system":"swiss","rounds":3,"numbering":"registration"}`, 5) // numbers in registration order, so number 1 meets number 2 on table 1
	tid := f.ev.ID
	r1 := f.pair(t, s, nil, http.StatusCreated)
	f.finishRound(t, s, r1, nil)

	rows := readCSV(t, s.Get("/tournaments/"+tid+"/rounds/1?format=csv").Want(t, http.StatusOK))
	if len(rows) != 1+2+1 || rows[0][1] != "table" || rows[1][1] != "1" || rows[1][2] != r1.Pairings[0].Red || rows[1][6] != r1.Pairings[0].GameID || rows[1][7] == "" {
		t.Fatalf("round CSV: %v", rows)
	}
	if last := rows[3]; last[1] != "bye" || last[2] != *r1.Bye {
		t.Fatalf("bye row: %v", last)
	}

	rows = readCSV(t, s.Get("/tournaments/"+tid+"/crosstable?format=csv").Want(t, http.StatusOK))
	if len(rows) != 6 || strings.Join(rows[0], ",") != "number,playerId,name,points,round.1" {
		t.Fatalf("crosstable CSV: %v", rows)
	}
	p1 := rows[1] // number 1 played red on table 1 against number 2 and won (finishRound)
	if p1[0] != "1" || p1[2] != "Player 1" || p1[4] != "2r 1-0" {
		t.Fatalf("crosstable row of number 1: %v", p1)
	}
	if p5 := rows[5]; p5[4] != "bye" {
		t.Fatalf("crosstable row of the bye: %v", p5)
	}

	r2 := f.pair(t, s, nil, http.StatusCreated)
	var list struct {
		Games []struct {
			Round, Table int
			GameID       string `json:"gameId"`
			RedName      string `json:"redName"`
		}
	}
	s.Get("/tournaments/"+tid+"/games").Want(t, http.StatusOK).Decode(t, &list)
	if len(list.Games) != 4 || list.Games[0].Round != 1 || list.Games[2].Round != 2 || list.Games[3].GameID != r2.Pairings[1].GameID || list.Games[0].RedName == "" {
		t.Fatalf("games list: %+v", list.Games)
	}
	s.Get("/tournaments/"+tid+"/games?round=2").Want(t, http.StatusOK).Decode(t, &list)
	if len(list.Games) != 2 || list.Games[0].Round != 2 {
		t.Fatalf("round 2's games: %+v", list.Games)
	}
	r := s.Get("/tournaments/"+tid+"/games?format=pgn").Want(t, http.StatusOK)
	pgn := string(r.Body)
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-chess-pgn") || strings.Count(pgn, `[Game "Chinese Chess"]`) != 4 ||
		strings.Count(pgn, `[Event "Formats Open"]`) != 4 || !strings.Contains(pgn, `[Round "2"]`) || !strings.Contains(pgn, `[Red "Player 1"]`) {
		t.Fatalf("PGN file:\n%s", pgn)
	}
	if r := s.Get("/tournaments/taaaaaaaaaaaaaaaa/games"); r.Status != http.StatusNotFound {
		t.Fatalf("games of an unknown event: %d", r.Status)
	}
}

// Every route that takes ?format= answers an unknown one with 400 naming
// each format the OpenAPI document lists for it — never a silent JSON.
func TestFormats_UnknownFormatIs400NamingTheFormats(t *testing.T) {
	s := apitest.New(t)
	f := newFixture(t, s)
	doc, err := httpapi.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, rt := range httpapi.Routes {
		op := doc.Paths.Find(rt.Path).GetOperation(rt.Method)
		for _, p := range op.Parameters {
			if p.Value.In != "query" || p.Value.Name != "format" {
				continue
			}
			enum := p.Value.Schema.Value.Enum
			if len(enum) == 0 {
				t.Errorf("%s %s: format lists no values", rt.Method, rt.Path)
			}
			checked++
			r := s.Do(apitest.Req{Method: rt.Method, Path: f.path(rt.Path) + "?format=xml", Token: f.token(rt.Who), Invalid: true})
			if r.Status != http.StatusBadRequest || r.ErrorCode() != "invalid_query" {
				t.Errorf("%s %s?format=xml: %d %s", rt.Method, rt.Path, r.Status, r.Body)
				continue
			}
			msg := r.JSON()["error"].(map[string]any)["message"].(string)
			for _, v := range enum {
				if !strings.Contains(msg, `"`+v.(string)+`"`) {
					t.Errorf("%s %s: the refusal %q does not name %q", rt.Method, rt.Path, msg, v)
				}
			}
		}
	}
	if checked < 5 {
		t.Fatalf("only %d routes take format; want standings, crosstable, round, games, record", checked)
	}
}
